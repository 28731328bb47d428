"""Parse an AG-UI SSE body with the protocol's own event models and check its order."""

from __future__ import annotations

import json

from ag_ui.core import BaseEvent, Event, EventType
from pydantic import TypeAdapter

EVENT_ADAPTER: TypeAdapter[BaseEvent] = TypeAdapter(Event)


def parse_sse(body: str) -> list[BaseEvent]:
    """Every `data:` line validated as an AG-UI event (fails on any unknown shape)."""
    events: list[BaseEvent] = []
    for line in body.splitlines():
        if line.startswith("data:"):
            events.append(EVENT_ADAPTER.validate_python(json.loads(line[len("data:") :])))
        else:
            assert line == "" or line.startswith(":"), f"unexpected SSE line {line!r}"
    return events


def check_legal_order(events: list[BaseEvent]) -> None:
    """RUN_STARTED first, exactly one terminal event last; text messages and tool calls
    open, stream and close with matching ids; steps balanced. A run that ends in RUN_ERROR
    may leave things open (the run stopped there)."""
    assert events, "empty stream"
    assert events[0].type == EventType.RUN_STARTED, events[0].type
    terminal = events[-1].type
    assert terminal in (EventType.RUN_FINISHED, EventType.RUN_ERROR), terminal
    open_messages: set[str] = set()
    open_tools: set[str] = set()
    open_steps: list[str] = []
    for event in events[1:-1]:
        kind = event.type
        assert kind not in (EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR)
        message_id = getattr(event, "message_id", None)
        tool_id = getattr(event, "tool_call_id", None)
        if kind == EventType.TEXT_MESSAGE_START:
            assert message_id not in open_messages
            open_messages.add(message_id)
        elif kind == EventType.TEXT_MESSAGE_CONTENT:
            assert message_id in open_messages, f"content for unopened message {message_id}"
        elif kind == EventType.TEXT_MESSAGE_END:
            assert message_id in open_messages, f"end of unopened message {message_id}"
            open_messages.remove(message_id)
        elif kind == EventType.TOOL_CALL_START:
            assert tool_id not in open_tools
            open_tools.add(tool_id)
        elif kind == EventType.TOOL_CALL_ARGS:
            assert tool_id in open_tools, f"args for unopened tool call {tool_id}"
        elif kind == EventType.TOOL_CALL_END:
            assert tool_id in open_tools, f"end of unopened tool call {tool_id}"
            open_tools.remove(tool_id)
        elif kind == EventType.STEP_STARTED:
            open_steps.append(event.step_name)  # type: ignore[attr-defined]
        elif kind == EventType.STEP_FINISHED:
            name = event.step_name  # type: ignore[attr-defined]
            assert name in open_steps, f"step {name} finished but never started"
            open_steps.remove(name)
    if terminal == EventType.RUN_FINISHED:
        assert not open_messages, f"text messages never ended: {open_messages}"
        assert not open_tools, f"tool calls never ended: {open_tools}"
        assert not open_steps, f"steps never finished: {open_steps}"


def of_type(events: list[BaseEvent], kind: EventType) -> list[BaseEvent]:
    return [e for e in events if e.type == kind]
