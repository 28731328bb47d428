"""POST /api/agent: the SSE stream is valid AG-UI in a legal order; everything that can be
refused is refused before streaming, with nothing written."""

from __future__ import annotations

from ag_ui.core import EventType
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.errors import StoreUnavailable
from cartwise.settings import Settings
from tests.api.conftest import run_input, signup
from tests.api.sse import check_legal_order, of_type, parse_sse
from tests.doubles import ScriptedAgent, failing


def test_stream_is_valid_agui_in_a_legal_order(client: TestClient) -> None:
    headers = signup(client, "alice")
    response = client.post("/api/agent", json=run_input("t1", "hello"), headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(response.text)
    check_legal_order(events)
    assert events[-1].type == EventType.RUN_FINISHED
    started = events[0]
    assert started.thread_id == "t1"  # type: ignore[attr-defined]
    assert started.run_id == events[-1].run_id  # type: ignore[attr-defined]
    text = "".join(e.delta for e in of_type(events, EventType.TEXT_MESSAGE_CONTENT))  # type: ignore[attr-defined]
    assert text == "scripted answer to 5 characters"


def test_legal_order_checker_rejects_broken_streams() -> None:
    import pytest
    from ag_ui.core import RunFinishedEvent, RunStartedEvent, TextMessageStartEvent

    start = RunStartedEvent(thread_id="t", run_id="r")
    finish = RunFinishedEvent(thread_id="t", run_id="r")
    with pytest.raises(AssertionError):
        check_legal_order([start, TextMessageStartEvent(message_id="m", role="assistant"), finish])
    with pytest.raises(AssertionError):
        check_legal_order([finish, start])


def test_the_last_user_message_is_the_turn(client: TestClient, agent: ScriptedAgent) -> None:
    headers = signup(client, "alice")
    body = run_input("t1", "ignored")
    body["messages"] = [
        {"id": "1", "role": "user", "content": "first question"},
        {"id": "2", "role": "assistant", "content": "an answer"},
        {"id": "3", "role": "user", "content": [{"type": "text", "text": "second question"}]},
    ]
    assert client.post("/api/agent", json=body, headers=headers).status_code == 200
    assert agent.calls == [("alice", "t1", "second question")]


def test_turn_writes_memory_and_thread(client: TestClient, stores: AgentDeps) -> None:
    headers = signup(client, "alice")
    client.post("/api/agent", json=run_input("t1", "I like wood"), headers=headers)
    assert [e.slug for e in stores.preferences.list("alice")] == ["wood"]
    thread = client.get("/api/threads/t1", headers=headers).json()
    assert thread["state"]["current_intent"] == "I like wood"
    assert [m["role"] for m in thread["messages"]] == ["user", "assistant"]


def test_failure_mid_run_ends_with_run_error(api_settings: Settings, stores: AgentDeps) -> None:
    agent = failing(StoreUnavailable("redis://127.0.0.1:1/0", "connection refused"))
    with TestClient(create_app(api_settings, stores, runner=agent)) as client:
        headers = signup(client, "alice")
        response = client.post("/api/agent", json=run_input("t1", "hi"), headers=headers)
    events = parse_sse(response.text)
    check_legal_order(events)
    assert events[-1].type == EventType.RUN_ERROR
    message = events[-1].message  # type: ignore[attr-defined]
    assert "unavailable" in message
    assert "redis://" not in message  # no backend address in a client-facing body
    assert stores.preferences.list("alice") == []


def test_a_bug_in_the_agent_is_a_run_error_not_a_broken_stream(
    api_settings: Settings, stores: AgentDeps
) -> None:
    with TestClient(create_app(api_settings, stores, runner=failing(RuntimeError("boom")))) as c:
        headers = signup(c, "alice")
        events = parse_sse(c.post("/api/agent", json=run_input("t1", "hi"), headers=headers).text)
    check_legal_order(events)
    assert events[-1].code == "internal_error"  # type: ignore[attr-defined]
    assert "boom" not in events[-1].message  # type: ignore[attr-defined]


def test_malformed_json_is_422(client: TestClient) -> None:
    headers = {**signup(client, "alice"), "Content-Type": "application/json"}
    response = client.post("/api/agent", content=b'{"threadId": "t1", "messa', headers=headers)
    assert response.status_code == 422
    assert "not valid JSON" in response.json()["detail"]


def test_body_that_is_not_a_run_input_is_422(client: TestClient) -> None:
    headers = signup(client, "alice")
    response = client.post("/api/agent", json={"thread": "t1", "text": "hi"}, headers=headers)
    assert response.status_code == 422
    assert "threadId" in response.json()["detail"] or "thread_id" in response.json()["detail"]
    bad_role = run_input("t1", "hi")
    bad_role["messages"][0]["role"] = "wizard"
    assert client.post("/api/agent", json=bad_role, headers=headers).status_code == 422


def test_empty_or_missing_message_is_422(client: TestClient, agent: ScriptedAgent) -> None:
    headers = signup(client, "alice")
    empty = client.post("/api/agent", json=run_input("t1", "   "), headers=headers)
    assert empty.status_code == 422
    assert "empty" in empty.json()["detail"]
    body = run_input("t1", "x")
    body["messages"] = [{"id": "1", "role": "assistant", "content": "hello"}]
    none = client.post("/api/agent", json=body, headers=headers)
    assert none.status_code == 422
    assert "no user message" in none.json()["detail"]
    assert agent.calls == []


def test_oversized_message_is_422_and_huge_body_is_413(
    client: TestClient, api_settings: Settings, agent: ScriptedAgent
) -> None:
    headers = signup(client, "alice")
    long = "耳机" * api_settings.max_message_chars
    too_long = client.post("/api/agent", json=run_input("t1", long), headers=headers)
    assert too_long.status_code == 422
    assert f"the limit is {api_settings.max_message_chars}" in too_long.json()["detail"]
    huge = "x" * (api_settings.max_agent_request_bytes + 1)
    too_big = client.post("/api/agent", json=run_input("t1", huge), headers=headers)
    assert too_big.status_code == 413
    assert str(api_settings.max_agent_request_bytes) in too_big.json()["detail"]
    assert agent.calls == []


def test_chunked_body_over_the_limit_is_413(client: TestClient, api_settings: Settings) -> None:
    headers = signup(client, "alice")

    def chunks() -> object:
        for _ in range(api_settings.max_agent_request_bytes // 1024 + 2):
            yield b"x" * 1024

    response = client.post(
        "/api/agent",
        content=chunks(),  # type: ignore[arg-type]
        headers={**headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 413


def test_the_same_thread_id_is_a_different_thread_per_user(
    client: TestClient, stores: AgentDeps, agent: ScriptedAgent
) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    client.post("/api/agent", json=run_input("t1", "I like wood"), headers=alice)
    before = stores.sessions.messages("alice", "t1")
    # Bob's "t1" is his own: no 404 that would tell him Alice uses the id.
    response = client.post("/api/agent", json=run_input("t1", "dislike wood"), headers=bob)
    assert response.status_code == 200
    assert stores.sessions.messages("alice", "t1") == before
    assert [call[0] for call in agent.calls] == ["alice", "bob"]
    assert client.get("/api/threads/t1", headers=bob).status_code == 200
    assert client.get("/api/threads/never-used", headers=bob).status_code == 404


def test_rate_limit_is_429_with_retry_after(api_settings: Settings, stores: AgentDeps) -> None:
    limited = api_settings.model_copy(update={"rate_limit_per_minute": 2})
    app = create_app(limited, stores, runner=ScriptedAgent())
    with TestClient(app, client=("127.0.0.1", 1)) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        for _ in range(2):
            assert (
                client.post("/api/agent", json=run_input("t", "hi"), headers=alice).status_code
                == 200
            )
        refused = client.post("/api/agent", json=run_input("t", "hi"), headers=alice)
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) >= 1
        assert "too many requests" in refused.json()["detail"]
        # The limit is per user.
        assert client.post("/api/agent", json=run_input("u", "hi"), headers=bob).status_code == 200
        assert "cartwise_rejected_requests_total" in client.get("/metrics").text


def test_turn_metrics_are_recorded(client: TestClient) -> None:
    headers = signup(client, "alice")
    client.post("/api/agent", json=run_input("t1", "like wood"), headers=headers)
    text = client.get("/metrics").text
    assert 'cartwise_turn_stage_seconds_count{stage="remembering"} 1.0' in text
    assert 'cartwise_memory_writes_total{kind="added"} 1.0' in text
    assert 'cartwise_turns_total{outcome="finished"} 1.0' in text


def test_blank_or_overlong_thread_id_is_422(client: TestClient, agent: ScriptedAgent) -> None:
    headers = signup(client, "alice")
    for thread in ("   ", "t" * 500):
        response = client.post("/api/agent", json=run_input(thread, "hi"), headers=headers)
        assert response.status_code == 422, thread
        assert "thread" in response.json()["detail"]
    assert agent.calls == []
