"""The app under a real uvicorn on loopback: the SSE stream arrives over a real socket."""

from __future__ import annotations

import httpx

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.api.server import serving_in_thread
from cartwise.settings import Settings
from tests.api.conftest import run_input, signup
from tests.api.sse import check_legal_order, parse_sse
from tests.doubles import ScriptedAgent


def test_turn_over_a_real_socket(api_settings: Settings, stores: AgentDeps) -> None:
    app = create_app(api_settings, stores, runner=ScriptedAgent())
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
            content=b"x" * (api_settings.max_request_bytes + 10),
            headers={**headers, "Content-Type": "application/json"},
        )
        assert too_big.status_code == 413
