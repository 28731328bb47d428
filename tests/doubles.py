"""Sanctioned test doubles (shared: append, do not rewrite). Each implements the real
interface it stands in for."""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from ag_ui import core as agui
from pydantic import BaseModel

from cartwise.errors import CartwiseError
from cartwise.memory.session_state import ChatMessage, SessionPatch
from cartwise.memory.store import PreferenceEntry

# --- API: a scripted stand-in for `cartwise.agent.run.run_agent` ---------------------------


class ScriptedTurnResult(BaseModel):
    """The part of `TurnResult` the API reads."""

    reply: str
    timings: dict[str, float]


class ScriptedAgent:
    """Speaks the `run_agent` contract without understanding anything.

    "like <slug>" / "dislike <slug>" in a message writes that long-term preference (through
    the real store); every turn patches P_t and appends both messages. The events are the
    ones the real agent emits, in a legal order. `fail_with` raises that error after the
    reply has started streaming (a mid-run failure)."""

    PREFERENCE = re.compile(r"\b(like|dislike) ([a-z0-9-]+)")

    def __init__(self, *, fail_with: Exception | None = None) -> None:
        self.fail_with = fail_with
        self.calls: list[tuple[str, str, str]] = []

    async def __call__(
        self,
        deps: Any,
        *,
        user: str,
        thread: str,
        message: str,
        emit: Callable[[agui.BaseEvent], Awaitable[None]] | None = None,
    ) -> ScriptedTurnResult:
        async def send(event: agui.BaseEvent) -> None:
            if emit is not None:
                await emit(event)

        self.calls.append((user, thread, message))
        await send(agui.StepStartedEvent(step_name="understanding"))
        call_id = f"call_{uuid.uuid4().hex[:8]}"
        await send(agui.ToolCallStartEvent(tool_call_id=call_id, tool_call_name="planner"))
        await send(agui.ToolCallArgsEvent(tool_call_id=call_id, delta='{"message": "..."}'))
        await send(agui.ToolCallEndEvent(tool_call_id=call_id))
        await send(agui.StepFinishedEvent(step_name="understanding"))

        reply = f"scripted answer to {len(message)} characters"
        message_id = f"msg_{uuid.uuid4().hex[:8]}"
        await send(agui.TextMessageStartEvent(message_id=message_id, role="assistant"))
        await send(agui.TextMessageContentEvent(message_id=message_id, delta=reply[:10]))
        if self.fail_with is not None:
            raise self.fail_with
        await send(agui.TextMessageContentEvent(message_id=message_id, delta=reply[10:]))
        await send(agui.TextMessageEndEvent(message_id=message_id))

        await send(agui.StepStartedEvent(step_name="remembering"))
        added = []
        for polarity, slug in self.PREFERENCE.findall(message):
            entry = PreferenceEntry(polarity=polarity, category="other", slug=slug)
            added.append(deps.preferences.upsert(user, entry).model_dump(mode="json"))
        session = deps.sessions.patch(user, thread, SessionPatch(current_intent=message))
        deps.sessions.append_messages(
            user,
            thread,
            [
                ChatMessage(role="user", content=message),
                ChatMessage(role="assistant", content=reply),
            ],
        )
        await send(
            agui.CustomEvent(
                name="memory_updated",
                value={
                    "added": added,
                    "superseded": [],
                    "session": session.model_dump(mode="json"),
                },
            )
        )
        await send(agui.StepFinishedEvent(step_name="remembering"))
        return ScriptedTurnResult(reply=reply, timings={"understanding": 1.0, "remembering": 2.0})


def failing(error: CartwiseError) -> ScriptedAgent:
    """A scripted agent that fails mid-reply with `error`."""
    return ScriptedAgent(fail_with=error)
