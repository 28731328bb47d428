"""What the Makefile's targets run under."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_targets_may_write_bytecode_caches_whatever_the_shell_says() -> None:
    """Without the caches every test worker and every `cartwise` a test starts compiles
    each module it imports from source again."""
    probe = subprocess.run(
        [
            "make", "--no-print-directory", "-s", "-C", str(ROOT),
            "--eval", 'probe-bytecode: ; @echo "[$$PYTHONDONTWRITEBYTECODE]"', "probe-bytecode",
        ],
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert probe.stdout.strip() == "[]"
