"""`cartwise.memory` exports a small, deliberate surface; backends load only when chosen."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cartwise.memory


def test_exported_names_are_exactly_the_intended_ones() -> None:
    assert cartwise.memory.__all__ == [
        "PreferenceEntry",
        "PreferenceStore",
        "PriceHistory",
        "ScoredPreference",
        "SessionPatch",
        "SessionPrefState",
        "SessionStore",
        "WatchStore",
        "create_preference_store",
        "create_price_history",
        "create_price_recorder",
        "create_session_store",
        "create_watch_store",
    ]


@pytest.mark.slow
def test_the_sqlite_default_does_not_import_redis() -> None:
    code = (
        "import sys, tempfile, pathlib\n"
        "from cartwise.memory import create_preference_store, create_session_store\n"
        "from cartwise.embedding.hashing import HashingEmbedder\n"
        "from cartwise.settings import Settings\n"
        "s = Settings(_env_file=None, cartwise_home=pathlib.Path(tempfile.mkdtemp()))\n"
        "create_preference_store(s, HashingEmbedder()).close()\n"
        "create_session_store(s).close()\n"
        "print('cartwise.memory.backends.redis' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
