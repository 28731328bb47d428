"""STORE_BACKEND=redis with nothing listening at REDIS_URL: the server still starts, and
every store-backed request is a 503 naming the URL — never a 500, nothing written."""

from __future__ import annotations

import socket

from fastapi.testclient import TestClient

from cartwise.api.main import create_app
from cartwise.settings import Settings
from tests.api.conftest import run_input, signup


def unused_port() -> int:
    """A loopback port nothing listens on (bound then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_dead_redis_is_503_with_the_url(api_settings: Settings) -> None:
    url = f"redis://127.0.0.1:{unused_port()}/0"
    settings = api_settings.model_copy(update={"store_backend": "redis", "redis_url": url})
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert url in ready.json()["checks"]["preferences"]
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
            assert url in response.json()["detail"]
    # Nothing fell back to the embedded stores behind the operator's back.
    assert not list(settings.home.glob("preferences*")) and not list(
        settings.home.glob("sessions*")
    )
