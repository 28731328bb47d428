"""STORE_BACKEND=redis with nothing listening at REDIS_URL: the server still starts, and
every store-backed request is a 503 naming the URL — never a 500, nothing written."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import redis
from fastapi.testclient import TestClient

from cartwise.api.auth import issue_token
from cartwise.api.main import create_app
from cartwise.api.server import serving_in_thread
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, TEST_SECRET, run_input, signup
from tests.doubles import ScriptedAgent


def unused_port() -> int:
    """A loopback port nothing listens on (bound then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_dead_redis_is_503_without_its_address(api_settings: Settings) -> None:
    url = f"redis://127.0.0.1:{unused_port()}/0"
    settings = api_settings.model_copy(
        update={"store_backend": "redis", "redis_url": url, "auth_secret": TEST_SECRET}
    )
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["preferences"] == "unavailable"
        assert url not in ready.text
        # Accounts live in Redis too: neither signing up nor signing in can work...
        account = {"username": "alice", "password": PASSWORD}
        assert client.post("/api/auth/register", json=account).status_code == 503
        assert client.post("/api/auth/token", data=account).status_code == 503
        # ...and a token (signed with the right secret) cannot be checked either.
        token = issue_token("alice", "someid", secret=TEST_SECRET, minutes=5)
        headers = {"Authorization": f"Bearer {token}"}
        memory_entry = {"polarity": "dislike", "category": "material", "slug": "plastic"}
        for response in (
            client.post("/api/agent", json=run_input("t1", "不要塑料的耳机"), headers=headers),
            client.get("/api/memory", headers=headers),
            client.post("/api/memory", json=memory_entry, headers=headers),
            client.get("/api/threads", headers=headers),
            client.get("/api/threads/t1", headers=headers),
            client.get("/api/search?q=耳机", headers=headers),
        ):
            assert response.status_code == 503, response.request.url
            assert response.headers["content-type"] == "application/json"
            assert url not in response.text
    # Nothing fell back to the embedded stores behind the operator's back.
    assert not list(settings.home.glob("preferences*")) and not list(
        settings.home.glob("sessions*")
    )


class PrivateRedis:
    """A redis-server this test may kill and restart (the shared one must stay up)."""

    def __init__(self, port: int) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 30
        try:
            while True:
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    assert time.monotonic() < deadline, "redis-server did not start"
                    time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis(unused_port())
    yield server
    server.stop()


@pytest.mark.redis
def test_redis_dying_under_a_running_server_is_503_then_recovers(
    api_settings: Settings, private_redis: PrivateRedis
) -> None:
    url = private_redis.url
    settings = api_settings.model_copy(
        update={"store_backend": "redis", "redis_url": url, "auth_secret": TEST_SECRET}
    )
    private_redis.start()
    with TestClient(create_app(settings, runner=ScriptedAgent())) as client:
        headers = signup(client, "alice")
        turn = client.post("/api/agent", json=run_input("t1", "like wood"), headers=headers)
        assert turn.status_code == 200
        assert [e["slug"] for e in client.get("/api/memory", headers=headers).json()] == ["wood"]

        private_redis.stop()
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["preferences"] == "unavailable"
        assert url not in ready.text
        for response in (
            client.get("/api/memory", headers=headers),
            client.get("/api/threads/t1", headers=headers),
            client.post("/api/agent", json=run_input("t1", "like metal"), headers=headers),
        ):
            assert response.status_code == 503
            assert url not in response.text

        private_redis.start()
        # The same server reconnects by itself; this Redis keeps no data across restarts
        # (accounts included: the old token's account is gone, a new one starts empty).
        assert client.get("/readyz").status_code == 200
        assert client.get("/api/memory", headers=headers).status_code == 401
        headers = signup(client, "alice")
        assert client.get("/api/memory", headers=headers).json() == []


# A frozen Redis (SIGSTOP: connections accepted, nothing answered) must not tie up the
# server: store calls give up after REDIS_TIMEOUT_SECONDS with a 503, `/healthz` answers at
# once because it never touches Redis, `/readyz` reports it, and SIGCONT brings it back.
FROZEN_TIMEOUT = 2.0
FROZEN_WOOD = {"polarity": "like", "category": "material", "slug": "wood", "keywords": ["wood"]}


@pytest.mark.redis
def test_a_frozen_redis_costs_a_bounded_wait_and_never_blocks_liveness(
    api_settings: Settings, private_redis: PrivateRedis
) -> None:
    private_redis.start()
    settings = api_settings.model_copy(
        update={
            "store_backend": "redis",
            "redis_url": private_redis.url,
            "auth_secret": TEST_SECRET,
            "redis_timeout_seconds": FROZEN_TIMEOUT,
            "redis_max_connections": 4,
        }
    )
    app = create_app(settings, runner=ScriptedAgent())
    with serving_in_thread(app) as url, httpx.Client(base_url=url, timeout=30) as client:
        headers = signup(client, "alice")
        assert client.post("/api/memory", json=FROZEN_WOOD, headers=headers).status_code == 201
        assert private_redis.process is not None
        private_redis.process.send_signal(signal.SIGSTOP)
        try:

            def read_memory(_: int) -> tuple[int, float]:
                started = time.monotonic()
                with httpx.Client(base_url=url, timeout=30) as own:
                    status = own.get("/api/memory", headers=headers).status_code
                return status, time.monotonic() - started

            # More readers than pool connections: the extra ones wait for a connection
            # at most FROZEN_TIMEOUT, then fail the same way.
            with ThreadPoolExecutor(8) as pool:
                pending = [pool.submit(read_memory, i) for i in range(8)]
                started = time.monotonic()
                liveness = client.get("/healthz")
                liveness_seconds = time.monotonic() - started
                reads = [future.result() for future in pending]
            assert liveness.status_code == 200
            assert liveness_seconds < FROZEN_TIMEOUT / 2, liveness_seconds
            assert {status for status, _ in reads} == {503}
            # Old behaviour: up to 9 s (three retries with backoff on a 5 s socket timeout).
            assert max(seconds for _, seconds in reads) < 6 * FROZEN_TIMEOUT + 2, reads
            ready = client.get("/readyz")
            assert ready.status_code == 503
            assert private_redis.url not in ready.text
        finally:
            private_redis.process.send_signal(signal.SIGCONT)
        back = client.get("/api/memory", headers=headers)
        assert back.status_code == 200
        assert [e["slug"] for e in back.json()] == ["wood"]
