"""SIGTERM drains: a turn running when `cartwise serve` is told to stop completes (its
stream ends with RUN_FINISHED, its memory write is stored), and the process exits 0."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_preference_store
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, run_input
from tests.replicas import LLM_DELAY_SECONDS, SECRET, replica

pytestmark = pytest.mark.slow


def _stores(backend: str, request: pytest.FixtureRequest) -> dict[str, str]:
    """The server's store settings: SQLite under its home, or the test Redis."""
    if backend != "redis":
        return {}
    url = request.getfixturevalue("clean_redis")
    return {"STORE_BACKEND": "redis", "REDIS_URL": url, "AUTH_SECRET": SECRET}


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def test_sigterm_during_a_turn_lets_it_finish_then_exits_0(
    tmp_path: Path, slow_llm: str, backend: str, request: pytest.FixtureRequest
) -> None:
    import os

    env = {
        **os.environ,
        **_stores(backend, request),
        "CARTWISE_HOME": str(tmp_path / "home"),
        "EMBEDDER": "hashing:256",
        "ENGINE": "llm",
        "LLM_BASE_URL": slow_llm,
        "LLM_TIMEOUT_SECONDS": "10",
        "PASSWORD_HASH_MEMORY_KIB": "1024",
        "PASSWORD_HASH_TIME_COST": "1",
        "SHUTDOWN_GRACE_SECONDS": "60",
    }
    with replica(env) as server, httpx.Client(base_url=server.url, timeout=120) as client:
        client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        token = client.post("/api/auth/token", data={"username": "alice", "password": PASSWORD})
        headers = {"Authorization": f"Bearer {token.json()['access_token']}"}
        events: list[str] = []
        with client.stream(
            "POST",
            "/api/agent",
            json=run_input("t1", "I like wool, show me jackets"),
            headers=headers,
        ) as response:
            assert response.status_code == 200
            signalled_at = None
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                events.append(json.loads(line[5:])["type"])
                if signalled_at is None:
                    server.process.send_signal(signal.SIGTERM)  # mid-turn: RUN_STARTED only
                    signalled_at = time.monotonic()
        assert signalled_at is not None
        # The turn went on for at least one more (slow) engine call after the signal.
        assert time.monotonic() - signalled_at >= LLM_DELAY_SECONDS * 0.9
        assert events[0] == "RUN_STARTED" and events[-1] == "RUN_FINISHED"
        assert server.process.wait(timeout=60) == 0
        # New connections are refused once it has stopped.
        with pytest.raises(httpx.TransportError):
            client.get("/healthz")

    if backend == "redis":
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            cartwise_home=tmp_path / "home",
            store_backend="redis",
            redis_url=env["REDIS_URL"],
            embedder="hashing:256",
        )
        preferences = create_preference_store(settings, HashingEmbedder())
        stored = [entry.dedup_key for entry in preferences.list("alice")]
        preferences.close()
    else:
        with sqlite3.connect(tmp_path / "home" / "preferences.sqlite3") as db:
            query = "SELECT key FROM preferences WHERE user = 'alice'"
            stored = [row[0] for row in db.execute(query)]
    assert any(key.startswith("like:material:") and key.endswith(":wool") for key in stored), stored


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def test_a_stream_cut_by_a_short_grace_still_ends_with_run_error(
    tmp_path: Path, slow_llm: str, backend: str, request: pytest.FixtureRequest
) -> None:
    import os

    env = {
        **os.environ,
        **_stores(backend, request),
        "CARTWISE_HOME": str(tmp_path / "home"),
        "EMBEDDER": "hashing:256",
        "ENGINE": "llm",
        "LLM_BASE_URL": slow_llm,
        "LLM_TIMEOUT_SECONDS": "10",
        "PASSWORD_HASH_MEMORY_KIB": "1024",
        "PASSWORD_HASH_TIME_COST": "1",
        "SHUTDOWN_GRACE_SECONDS": "2",  # shorter than the turn (two slow engine calls)
    }
    with replica(env) as server, httpx.Client(base_url=server.url, timeout=120) as client:
        client.post("/api/auth/register", json={"username": "bea", "password": PASSWORD})
        token = client.post("/api/auth/token", data={"username": "bea", "password": PASSWORD})
        headers = {"Authorization": f"Bearer {token.json()['access_token']}"}
        events: list[dict[str, str]] = []
        with client.stream(
            "POST", "/api/agent", json=run_input("b1", "a linen shirt please"), headers=headers
        ) as response:
            for line in response.iter_lines():
                if line.startswith("data:"):
                    events.append(json.loads(line[5:]))
                    if len(events) == 1:
                        server.process.send_signal(signal.SIGTERM)
        assert events[0]["type"] == "RUN_STARTED"
        assert events[-1]["type"] == "RUN_ERROR" and events[-1]["code"] == "shutting_down"
        assert server.process.wait(timeout=60) == 0
