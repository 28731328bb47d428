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


# --- Agent: a scripted Engine (planner / curator / reply writer) ---------------------------


class ScriptedEngine:
    """Implements `cartwise.understanding.base.Engine` from a script: `plans` maps a message
    to its PlannerOutput (default: a search for the message itself). The curator stores the
    planner's long-term `stated` preferences and records asked questions; the reply lists
    the facts verbatim so tests can read them back."""

    def __init__(self, plans: dict[str, Any] | None = None) -> None:
        from cartwise.understanding.base import PlannerOutput

        self.plans: dict[str, PlannerOutput] = {
            message: PlannerOutput.model_validate(plan) for message, plan in (plans or {}).items()
        }
        self.curated: list[Any] = []
        self.replied: list[Any] = []

    @property
    def name(self) -> str:
        return "scripted"

    def plan(self, message: str, session: Any, memory: Any) -> Any:
        from cartwise.understanding.base import PlannerOutput

        return self.plans.get(message) or PlannerOutput(language="en", query=message)

    def curate(self, turn: Any) -> Any:
        from cartwise.understanding.base import CuratorOutput

        self.curated.append(turn)
        entries = [
            PreferenceEntry(
                polarity=s.polarity,
                category=s.category,
                domain=s.domain,
                slug=s.slug,
                strength=s.strength,
                keywords=s.keywords,
            )
            for s in turn.planner.stated
            if s.scope == "long_term"
        ]
        patch = SessionPatch(
            current_intent=turn.planner.current_intent or None,
            slots_patch=turn.planner.slots,
            new_open_questions=turn.asked_questions,
        )
        return CuratorOutput(long_term=entries, session_patch=patch)

    def write_reply(self, facts: Any) -> str:
        self.replied.append(facts)
        lines = [f"{item.platform}: {item.title}" for item in facts.items]
        return "\n".join([f"Results for {facts.query}:", *lines, facts.question]).strip()
