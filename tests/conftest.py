"""Shared fixtures. Test doubles live in `tests/doubles.py`, factories in `tests/factories.py`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cartwise.settings import Settings

SHARED_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
REDIS_DATABASES = 64
"""`scripts/with-redis.sh` starts the test server with this many databases."""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings isolated in a temporary home, hashing embedder, no `.env`. The catalog
    relevance floors (e5's by default) are off: the hashing embedder's scale is not e5's, and
    tests of other behaviour must not depend on it (tests of the floor set their own)."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=tmp_path / "home",
        embedder="hashing:256",
        catalog_relevance_floor=-1.0,
        catalog_closest_floor=-1.0,
    )


@pytest.fixture(scope="session")
def redis_url(worker_index: int) -> str:
    """The redis-server `make test` started, one database per test worker (tests flush
    theirs). Outside `make test` the Redis tests skip; in CI a missing server is a failure,
    not a skip."""
    url = os.environ.get("CARTWISE_TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CARTWISE_TEST_REDIS_URL is not set: run the tests through `make test`")
        pytest.skip("no test redis-server (run through `make test`)")
    if worker_index >= REDIS_DATABASES:
        pytest.fail(
            f"{worker_index + 1} test workers, but the test Redis has {REDIS_DATABASES} databases"
        )
    return f"{url.rsplit('/', 1)[0]}/{worker_index}"


@pytest.fixture(scope="session")
def worker_index() -> int:
    """This pytest-xdist worker's number (gw3 → 3; 0 without xdist): what each worker keeps
    apart from the others (its Redis database)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker.removeprefix("gw"))


@pytest.fixture
def clean_redis(redis_url: str) -> Iterator[str]:
    """The test Redis, flushed before and after the test."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield redis_url
    client.flushdb()
    client.close()


@pytest.fixture(scope="session")
def redis_cluster_url(redis_url: str) -> Iterator[str]:
    """A 3-node Redis Cluster started for this test session (only where the Redis tests
    run at all: under `make test`), stopped at its end."""
    from tests.redis_cluster import redis_cluster

    with redis_cluster() as url:
        yield url


@pytest.fixture
def clean_redis_cluster(redis_cluster_url: str) -> Iterator[str]:
    """The test cluster, every primary flushed before and after the test."""
    from cartwise.redis_connection import RedisConnection

    connection = RedisConnection(redis_cluster_url)
    connection.client.flushdb(target_nodes="primaries")
    yield redis_cluster_url
    connection.client.flushdb(target_nodes="primaries")
    connection.close()


@pytest.fixture
def slow_llm() -> Iterator[str]:
    """The base URL of a slow, always failing LLM endpoint (ENGINE=llm turns take seconds)."""
    import threading
    from http.server import ThreadingHTTPServer

    from tests.replicas import SlowFailingLLM

    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowFailingLLM)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """`../shared/data`; tests that need it skip cleanly when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent")
    return SHARED_DATA.resolve()
