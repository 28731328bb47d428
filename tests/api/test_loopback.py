"""The app under a real uvicorn on loopback: the SSE stream arrives over a real socket."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.api.server import serving_in_thread
from cartwise.settings import Settings
from tests.api.conftest import run_input, signup
from tests.api.sse import check_legal_order, parse_sse
from tests.doubles import ScriptedAgent


@pytest.mark.slow
def test_turn_over_a_real_socket(api_settings: Settings, stores: AgentDeps) -> None:
    # A small body limit: the server answers 413 before reading the body and closes, so an
    # oversized body of megabytes can be cut off mid-send (connection reset) under load.
    settings = api_settings.model_copy(update={"max_agent_request_bytes": 4096})
    app = create_app(settings, stores, runner=ScriptedAgent())
    with serving_in_thread(app) as base_url, httpx.Client(base_url=base_url, timeout=30) as client:
        assert base_url.startswith("http://127.0.0.1:")
        assert client.get("/readyz").status_code == 200
        headers = signup(client, "alice")
        with client.stream(
            "POST", "/api/agent", json=run_input("t1", "like wood"), headers=headers
        ) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            body = "".join(response.iter_text())
        check_legal_order(parse_sse(body))
        memory = client.get("/api/memory", headers=headers).json()
        assert [e["slug"] for e in memory] == ["wood"]
        too_big = client.post(
            "/api/agent",
            content=b"x" * (settings.max_agent_request_bytes + 10),
            headers={**headers, "Content-Type": "application/json"},
        )
        assert too_big.status_code == 413


@pytest.mark.slow
def test_a_client_that_disconnects_mid_turn_still_gets_its_memory_written(
    api_settings: Settings, stores: AgentDeps
) -> None:
    gate = threading.Event()
    agent = ScriptedAgent(gate=gate)
    app = create_app(stores.settings, stores, runner=agent)
    with serving_in_thread(app) as base_url, httpx.Client(base_url=base_url, timeout=30) as client:
        headers = signup(client, "alice")
        with client.stream(
            "POST", "/api/agent", json=run_input("t1", "like wood"), headers=headers
        ) as response:
            first = next(response.iter_lines())
            assert '"RUN_STARTED"' in first
        # The turn is parked before its memory writes until the server has seen the client go.
        deadline = time.monotonic() + 30
        while "cartwise_stream_disconnects_total 1.0" not in client.get("/metrics").text:
            assert time.monotonic() < deadline, "the server never noticed the disconnect"
            time.sleep(0.05)
        assert not agent.finished.is_set()
        gate.set()
        assert agent.finished.wait(30), "the turn was abandoned with the connection"
        assert [e.slug for e in stores.preferences.list("alice")] == ["wood"]
        assert len(stores.sessions.messages("alice", "t1")) == 2


def _register_from(client: httpx.Client, count: int, spoofed: bool) -> list[int]:
    statuses = []
    for n in range(count):
        forwarded = {"X-Forwarded-For": f"198.51.100.{n + 1}"} if spoofed else {}
        body = {"username": f"spoof{n}", "password": "orchid-ladder-copper"}
        statuses.append(client.post("/api/auth/register", json=body, headers=forwarded).status_code)
    return statuses


def test_a_spoofed_forwarded_for_from_a_client_is_ignored(stores: AgentDeps) -> None:
    strict = stores.settings.model_copy(update={"register_per_hour": 2})
    # The server trusts only a proxy at another address: this client is no proxy.
    app = create_app(strict, stores, runner=ScriptedAgent())
    with (
        serving_in_thread(app, forwarded_allow_ips="192.0.2.80") as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        assert _register_from(client, 4, spoofed=True) == [201, 201, 429, 429]


def test_the_trusted_proxy_names_the_client(stores: AgentDeps) -> None:
    strict = stores.settings.model_copy(update={"register_per_hour": 2})
    app = create_app(strict, stores, runner=ScriptedAgent())
    with (
        serving_in_thread(app, forwarded_allow_ips="127.0.0.1") as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        # Each request comes through the proxy (this loopback peer) for another client.
        assert _register_from(client, 4, spoofed=True) == [201, 201, 201, 201]


def test_behind_the_proxy_a_client_naming_itself_is_still_seen_as_itself(
    stores: AgentDeps,
) -> None:
    """nginx appends the client's address to whatever X-Forwarded-For the client sent
    (`$proxy_add_x_forwarded_for`): the address the proxy saw counts, not the ones before it —
    for the per-address limits and for /metrics' loopback rule alike."""
    strict = stores.settings.model_copy(update={"register_per_hour": 2})
    app = create_app(strict, stores, runner=ScriptedAgent())
    with (
        serving_in_thread(app, forwarded_allow_ips="127.0.0.1") as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        statuses = []
        for n in range(4):
            body = {"username": f"chain{n}", "password": "orchid-ladder-copper"}
            # The client wrote the first address; the proxy (this loopback peer) added its own.
            forwarded = {"X-Forwarded-For": f"198.51.100.{n + 1}, 203.0.113.7"}
            response = client.post("/api/auth/register", json=body, headers=forwarded)
            statuses.append(response.status_code)
        assert statuses == [201, 201, 429, 429]
        named_loopback = {"X-Forwarded-For": "127.0.0.1, 203.0.113.7"}
        assert client.get("/metrics", headers=named_loopback).status_code == 404
        assert client.get("/metrics").status_code == 200  # the loopback peer itself
