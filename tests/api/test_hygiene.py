"""Input and output hygiene: invalid text, streams that always end, security headers, logs
that carry tracebacks, and client bodies that never name a backend."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from ag_ui import core as agui
from ag_ui.core import EventType
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.log import configure_logging, logger
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, run_input, signup
from tests.api.sse import check_legal_order, parse_sse
from tests.doubles import ScriptedAgent

LONE = "\ud800"
WOOD = {"polarity": "like", "category": "material", "slug": "wood", "keywords": ["wood"]}


def _raw_json(payload: dict[str, Any]) -> bytes:
    """JSON with a lone surrogate escaped, as a hostile client sends it."""
    return json.dumps(payload).encode()


@pytest.mark.parametrize(
    ("method", "path", "payload"),
    [
        ("POST", "/api/memory", {**WOOD, "keywords": [f"wo{LONE}od"]}),
        ("POST", "/api/memory", {**WOOD, "domain": LONE}),
        ("POST", "/api/agent", run_input(f"t{LONE}1", "hello")),
        ("POST", "/api/agent", run_input("t1", f"find {LONE} shoes")),
        ("POST", "/api/auth/register", {"username": "bob", "password": f"pass{LONE}word-x"}),
        ("DELETE", "/api/auth/account", {"password": LONE}),
    ],
)
def test_lone_surrogates_are_422_everywhere(
    client: TestClient, agent: ScriptedAgent, method: str, path: str, payload: dict[str, Any]
) -> None:
    headers = {**signup(client, "alice"), "Content-Type": "application/json"}
    response = client.request(method, path, content=_raw_json(payload), headers=headers)
    assert response.status_code == 422, response.text
    body = response.json()
    assert "invalid text" in body["detail"]
    assert body["errors"][0]["type"] == "invalid_text"
    assert agent.calls == []


def test_utf8_encoded_surrogates_and_nul_are_refused_too(client: TestClient) -> None:
    headers = {**signup(client, "alice"), "Content-Type": "application/json"}
    encoded = b'{"polarity":"like","category":"material","slug":"wood","keywords":["\xed\xa0\x80"]}'
    assert client.post("/api/memory", content=encoded, headers=headers).status_code == 422
    nul = _raw_json({**WOOD, "keywords": ["wo\x00od"]})
    assert client.post("/api/memory", content=nul, headers=headers).status_code == 422


def test_invalid_text_in_forms_paths_and_queries_is_never_a_500(client: TestClient) -> None:
    headers = signup(client, "alice")
    form = f"username=alice&password={PASSWORD}%ED%A0%80".encode()
    signed = client.post(
        "/api/auth/token",
        content=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert signed.status_code in (401, 422)
    # Not a thread id at all (the one rule every thread route and turn uses): 422.
    assert client.get("/api/threads/t%ED%A0%80", headers=headers).status_code == 422
    assert client.delete("/api/memory/like%ED%A0%80", headers=headers).status_code == 404
    searched = client.get("/api/search?q=%ED%A0%80%00", headers=headers)
    assert searched.status_code < 500


def test_valid_astral_text_written_as_a_surrogate_pair_is_fine(client: TestClient) -> None:
    headers = {**signup(client, "alice"), "Content-Type": "application/json"}
    pair = b'{"polarity":"like","category":"material","slug":"wood","keywords":["\\ud83d\\udc5f"]}'
    assert client.post("/api/memory", content=pair, headers=headers).status_code == 201


class _Unencodable:
    """A runner whose reply holds text that cannot be encoded (a bug that slipped past the
    input checks): the stream must still end with RUN_ERROR."""

    async def __call__(
        self,
        deps: Any,
        *,
        user: str,
        thread: str,
        message: str,
        emit: Callable[[agui.BaseEvent], Awaitable[None]] | None = None,
        language: str | None = None,
    ) -> Any:
        assert emit is not None
        await emit(agui.StepStartedEvent(step_name="understanding"))
        await emit(agui.StepFinishedEvent(step_name="understanding"))
        await emit(agui.TextMessageStartEvent(message_id="m1", role="assistant"))
        await emit(agui.TextMessageContentEvent(message_id="m1", delta=f"broken {LONE}"))
        await emit(agui.TextMessageEndEvent(message_id="m1"))
        raise AssertionError("unreachable: the stream stops at the bad event")


def test_a_stream_that_breaks_mid_run_still_ends_with_run_error(
    api_settings: Settings, stores: AgentDeps
) -> None:
    with TestClient(create_app(api_settings, stores, runner=_Unencodable())) as client:
        headers = signup(client, "alice")
        response = client.post("/api/agent", json=run_input("t1", "hello"), headers=headers)
    assert response.status_code == 200
    events = parse_sse(response.text)
    check_legal_order(events)
    assert events[-1].type == EventType.RUN_ERROR
    assert [e.type for e in events].count(EventType.STEP_FINISHED) == 1


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/me", "/static/app.js", "/openapi.json"])
def test_security_headers_on_every_response(client: TestClient, path: str) -> None:
    response = client.get(path)
    headers = response.headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    assert (
        "script-src 'self'" in policy
        and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    )


def test_a_413_carries_the_security_headers_too(client: TestClient, api_settings: Settings) -> None:
    big = b"x" * (api_settings.max_request_bytes + 1)
    response = client.post("/api/memory", content=big, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    saved = [(name, logging.getLogger(name)) for name in ("cartwise", "uvicorn")]
    state = [(lg.handlers[:], lg.level, lg.propagate) for _, lg in saved]
    configure_logging(stream=stream)
    yield stream
    for (_, lg), (handlers, level, propagate) in zip(saved, state, strict=True):
        lg.handlers[:] = handlers
        lg.setLevel(level)
        lg.propagate = propagate


def test_a_crashed_turn_is_logged_as_one_json_line_with_its_traceback(
    api_settings: Settings, stores: AgentDeps, log_lines: io.StringIO
) -> None:
    agent = ScriptedAgent(fail_with=ZeroDivisionError("a bug"))  # type: ignore[arg-type]
    with TestClient(create_app(api_settings, stores, runner=agent)) as client:
        headers = signup(client, "alice")
        client.post("/api/agent", json=run_input("t1", "hello"), headers=headers)
    records = [json.loads(line) for line in log_lines.getvalue().splitlines()]
    crashes = [r for r in records if r["level"] == "ERROR"]
    assert crashes, records
    assert crashes[0]["logger"] == "cartwise"
    assert "Traceback" in crashes[0]["exception"] and "ZeroDivisionError" in crashes[0]["exception"]


def test_a_503_is_logged_with_the_address_the_client_never_sees(
    api_settings: Settings, log_lines: io.StringIO
) -> None:
    url = "redis://10.9.8.7:6390/0"
    from cartwise.errors import StoreUnavailable

    def down(settings: Settings) -> AgentDeps:
        raise StoreUnavailable(url, "connection refused")

    app = create_app(api_settings, runner=ScriptedAgent(), deps_factory=down)
    with TestClient(app) as client:
        headers = signup(client, "alice")
        response = client.get("/api/memory", headers=headers)
        ready = client.get("/readyz")
    assert response.status_code == 503 and ready.status_code == 503
    assert "10.9.8.7" not in response.text and "10.9.8.7" not in ready.text
    assert "10.9.8.7" in log_lines.getvalue()
    assert logger.handlers  # the metrics counter and the JSON handler together
