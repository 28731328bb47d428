"""AG-UI events a turn emits, and the timings of its stages.

`EventSink` wraps the caller's optional `emit` coroutine: stages become STEP_STARTED /
STEP_FINISHED pairs (and their duration lands in the turn's timings), tool calls become
TOOL_CALL_START / ARGS / END / RESULT, the reply streams as TEXT_MESSAGE_* deltas. With no
`emit` (the CLI) the same code runs and only the timings are kept: no event is made, and the
AG-UI models (about 0.1 s to import, a quarter of them pydantic models built at import) are
never imported.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ag_ui.core import BaseEvent

Emit = Callable[["BaseEvent"], Awaitable[None]]

STAGES = ("understanding", "profile", "searching", "picking", "replying", "remembering")
"""Step names, in the order a turn runs them."""

REPLY_CHUNK_CHARS = 24
"""Size of one streamed reply delta: small enough to feel live, large enough to be cheap."""


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 2)


class EventSink:
    """Sends a turn's events to `emit` (when given)."""

    def __init__(self, emit: Emit | None = None) -> None:
        self._emit = emit

    async def send(self, event: BaseEvent) -> None:
        if self._emit is not None:
            await self._emit(event)

    async def step_started(self, name: str) -> None:
        if self._emit is None:
            return
        from ag_ui.core import StepStartedEvent

        await self.send(StepStartedEvent(step_name=name))

    async def step_finished(self, name: str) -> None:
        if self._emit is None:
            return
        from ag_ui.core import StepFinishedEvent

        await self.send(StepFinishedEvent(step_name=name))

    @asynccontextmanager
    async def step(self, name: str, timings: dict[str, float]) -> AsyncIterator[None]:
        """A stage: STEP_STARTED, the body, STEP_FINISHED; its duration goes to `timings`."""
        started = time.perf_counter()
        await self.step_started(name)
        yield
        timings[name] = elapsed_ms(started)
        await self.step_finished(name)

    async def start_tool_call(self, name: str, args: dict[str, Any]) -> str:
        call_id = f"call_{uuid.uuid4().hex[:16]}"
        if self._emit is None:
            return call_id
        from ag_ui.core import ToolCallArgsEvent, ToolCallEndEvent, ToolCallStartEvent

        await self.send(ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name))
        await self.send(
            ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(args, ensure_ascii=False))
        )
        await self.send(ToolCallEndEvent(tool_call_id=call_id))
        return call_id

    async def tool_result(self, call_id: str, result: Any) -> None:
        if self._emit is None:
            return
        from ag_ui.core import ToolCallResultEvent

        await self.send(
            ToolCallResultEvent(
                message_id=f"msg_{uuid.uuid4().hex[:16]}",
                tool_call_id=call_id,
                content=json.dumps(result, ensure_ascii=False, default=str),
                role="tool",
            )
        )

    async def stream_text(self, text: str) -> None:
        """The assistant's reply as TEXT_MESSAGE_START, several CONTENT deltas, END."""
        if self._emit is None:
            return
        from ag_ui.core import TextMessageContentEvent, TextMessageEndEvent, TextMessageStartEvent

        message_id = f"msg_{uuid.uuid4().hex[:16]}"
        await self.send(TextMessageStartEvent(message_id=message_id, role="assistant"))
        for start in range(0, len(text), REPLY_CHUNK_CHARS):
            delta = text[start : start + REPLY_CHUNK_CHARS]
            await self.send(TextMessageContentEvent(message_id=message_id, delta=delta))
        await self.send(TextMessageEndEvent(message_id=message_id))

    async def custom(self, name: str, value: Any) -> None:
        if self._emit is None:
            return
        from ag_ui.core import CustomEvent

        await self.send(CustomEvent(name=name, value=value))

    async def snapshot(self, snapshot: dict[str, Any]) -> None:
        if self._emit is None:
            return
        from ag_ui.core import StateSnapshotEvent

        await self.send(StateSnapshotEvent(snapshot=snapshot))
