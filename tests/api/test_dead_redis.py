"""STORE_BACKEND=redis with nothing listening at REDIS_URL: the server still starts, and
every store-backed request is a 503 naming the URL — never a 500, nothing written."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis
from fastapi.testclient import TestClient

from cartwise.api.main import create_app
from cartwise.settings import Settings
from tests.api.conftest import TEST_SECRET, run_input, signup
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
        headers = signup(client, "alice")
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
        # The same server reconnects by itself; this Redis keeps no data across restarts.
        assert client.get("/readyz").status_code == 200
        assert client.get("/api/memory", headers=headers).json() == []
