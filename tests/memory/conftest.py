"""Every memory contract test runs against both backends: SQLite in a temp dir and the
real redis-server `make test` starts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_preference_store, create_session_store
from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.settings import Settings
from tests.memory.workers import StoreSpec

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("redis", id="redis", marks=pytest.mark.redis),
    pytest.param("redis-cluster", id="redis-cluster", marks=[pytest.mark.redis, pytest.mark.slow]),
]


@pytest.fixture(params=BACKENDS)
def backend_settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """Settings pointing at one backend; Redis is flushed before and after the test. The
    contract tests store more than one shopper may keep (a change log's slack is 1,024
    entries), so the per-user cap is lifted here; `test_caps_and_erase` sets its own."""
    settings = settings.model_copy(update={"max_preferences_per_user": 100_000})
    if request.param in ("redis", "redis-cluster"):
        fixture = "clean_redis" if request.param == "redis" else "clean_redis_cluster"
        url = request.getfixturevalue(fixture)
        return settings.model_copy(update={"store_backend": "redis", "redis_url": url})
    return settings


@pytest.fixture
def spec(backend_settings: Settings) -> StoreSpec:
    """How a spawned process opens the same store."""
    return StoreSpec.from_settings(backend_settings)


@pytest.fixture
def store(backend_settings: Settings) -> Iterator[PreferenceStore]:
    opened = create_preference_store(backend_settings, HashingEmbedder())
    yield opened
    opened.close()


@pytest.fixture
def sessions(backend_settings: Settings) -> Iterator[SessionStore]:
    opened = create_session_store(backend_settings)
    yield opened
    opened.close()
