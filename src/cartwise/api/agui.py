"""AG-UI over Server-Sent Events: one `RunAgentInput` in, one run's events out.

Everything that can fail *before* the run — an empty or oversized message, someone else's
thread, a dead store — is checked before the first byte is streamed, so those failures are
ordinary 4xx/503 JSON responses. Once the stream has started, a failure becomes a
RUN_ERROR event that closes the run; the stream is always a legal sequence:
RUN_STARTED, the agent's events, then exactly one of RUN_FINISHED or RUN_ERROR.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedEvent,
    RunStartedEvent,
    TextPart,
    UserMessage,
)
from ag_ui.encoder import EventEncoder
from pydantic import BaseModel

from cartwise.agent.deps import AgentDeps
from cartwise.agent.run import validate_turn
from cartwise.api.deps import ApiState
from cartwise.api.errors import public_message
from cartwise.api.fair import current_shopper
from cartwise.errors import CartwiseError, InvalidInput
from cartwise.log import logger
from cartwise.settings import Settings
from cartwise.understanding.reading import Language

# Agent tasks outlive a client that disconnects mid-turn: the curator's memory writes must
# finish whole rather than be cancelled halfway. References are held here until done.
_running_turns: set[asyncio.Task[Any]] = set()


@dataclass(frozen=True)
class TurnRequest:
    """A validated turn: who, where, and what they said."""

    user: str
    thread: str
    run_id: str
    message: str
    language: Language | None = None
    """The page's language (`forwardedProps.language`): the turn answers in it."""


def parse_turn(run_input: RunAgentInput, *, user: str, settings: Settings) -> TurnRequest:
    """The turn a RunAgentInput asks for: its last user message, checked by the agent's own
    `validate_turn` (so the API and `cartwise ask` refuse exactly the same input)."""
    user_messages = [m for m in run_input.messages if isinstance(m, UserMessage)]
    if not user_messages:
        raise InvalidInput("messages contains no user message")
    content = user_messages[-1].content
    if isinstance(content, str):
        text = content
    else:
        text = "\n".join(part.text for part in content if isinstance(part, TextPart))
    message = validate_turn(settings, user=user, thread=run_input.thread_id, message=text)
    return TurnRequest(
        user=user,
        thread=run_input.thread_id,
        run_id=run_input.run_id,
        message=message,
        language=_page_language(run_input.forwarded_props),
    )


def _page_language(props: Any) -> Language | None:
    language = props.get("language") if isinstance(props, dict) else None
    if language is None:
        return None
    if language not in ("zh", "en"):
        raise InvalidInput("forwardedProps.language must be zh or en")
    return cast(Language, language)


async def stream_turn(state: ApiState, deps: AgentDeps, turn: TurnRequest) -> AsyncIterator[str]:
    """Run one agent turn and yield its events as SSE frames."""
    encoder = EventEncoder()
    queue: asyncio.Queue[BaseEvent | None] = asyncio.Queue()

    async def emit(event: BaseEvent) -> None:
        _count_memory_writes(state, event)
        queue.put_nowait(event)

    yield encoder.encode(RunStartedEvent(thread_id=turn.thread, run_id=turn.run_id))
    started = time.perf_counter()
    # The turn's blocking work is queued as this shopper's (api/fair.py).
    context = contextvars.copy_context()
    context.run(current_shopper.set, turn.user)
    task: asyncio.Task[BaseModel] = asyncio.create_task(
        state.runner(
            deps,
            user=turn.user,
            thread=turn.thread,
            message=turn.message,
            emit=emit,
            language=turn.language,
        ),
        context=context,
    )
    _running_turns.add(task)
    task.add_done_callback(_running_turns.discard)
    task.add_done_callback(lambda done: _record_outcome(state, turn, done, started))
    # Runs after the task's last emit, so the sentinel is always the last item queued.
    task.add_done_callback(lambda _: queue.put_nowait(None))

    try:
        while (event := await _next_event(queue, state)) is not None:
            if event is SHUTTING_DOWN:
                # The server stops before the turn ends: the stream still gets its ending
                # (the turn itself goes on writing its memory until the process exits).
                yield encoder.encode(
                    RunErrorEvent(
                        message="the server is restarting; send your message again",
                        code="shutting_down",
                    )
                )
                return
            try:
                frame = encoder.encode(event)
            except ValueError as exc:
                # An event that cannot be serialized (e.g. text with a lone surrogate that
                # slipped past input checks) must not cut the stream without an ending.
                logger.error("cannot encode %s on thread %s", event.type, turn.thread, exc_info=exc)
                yield encoder.encode(
                    RunErrorEvent(
                        message="internal error while answering; the turn was not completed",
                        code="internal_error",
                    )
                )
                return
            yield frame
    except (asyncio.CancelledError, GeneratorExit):
        # The client went away. The turn is not cancelled (see _running_turns).
        state.metrics.disconnects.inc()
        raise

    error = asyncio.CancelledError() if task.cancelled() else task.exception()
    if error is None:
        yield encoder.encode(RunFinishedEvent(thread_id=turn.thread, run_id=turn.run_id))
    elif isinstance(error, CartwiseError):
        yield encoder.encode(
            RunErrorEvent(message=public_message(error), code=type(error).__name__)
        )
    else:
        yield encoder.encode(
            RunErrorEvent(
                message="internal error while answering; the turn was not completed",
                code="internal_error",
            )
        )


SHUTTING_DOWN = CustomEvent(name="shutting_down", value=None)
"""Stands in for the next event once the server's stop is due."""
POLL_SECONDS = 1.0
"""How often a waiting stream looks whether a stop was asked for."""


async def _next_event(queue: asyncio.Queue[BaseEvent | None], state: ApiState) -> BaseEvent | None:
    """The turn's next event, or SHUTTING_DOWN once the server's stop is due."""
    while True:
        remaining = state.shutdown.remaining()
        if remaining == 0.0:
            return SHUTTING_DOWN
        wait = POLL_SECONDS if remaining is None else min(POLL_SECONDS, remaining)
        try:
            return await asyncio.wait_for(queue.get(), timeout=wait)
        except TimeoutError:
            continue


def _record_outcome(
    state: ApiState, turn: TurnRequest, task: asyncio.Task[BaseModel], started: float
) -> None:
    """Metrics and logs of a finished turn, whether or not anyone is still listening."""
    state.metrics.turn_seconds.observe(time.perf_counter() - started)
    if task.cancelled():
        state.metrics.turns.labels(outcome="error").inc()
        return
    error = task.exception()
    if error is None:
        state.metrics.turns.labels(outcome="finished").inc()
        timings = getattr(task.result(), "timings", None)
        if isinstance(timings, dict):
            state.metrics.observe_timings(timings)
        return
    state.metrics.turns.labels(outcome="error").inc()
    if isinstance(error, CartwiseError):
        logger.warning("turn failed on thread %s: %s", turn.thread, error)
    else:
        logger.error("turn crashed on thread %s", turn.thread, exc_info=error)


def _count_memory_writes(state: ApiState, event: BaseEvent) -> None:
    if not isinstance(event, CustomEvent) or event.name != "memory_updated":
        return
    value = event.value if isinstance(event.value, dict) else {}
    for kind in ("added", "superseded"):
        written = value.get(kind) or []
        if written:
            state.metrics.memory_writes.labels(kind=kind).inc(len(written))
