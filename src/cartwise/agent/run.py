"""`run_agent`: one turn, from a user's message to a `TurnResult` (and AG-UI events).

The caller (the API) emits RUN_STARTED before and RUN_FINISHED / RUN_ERROR after; everything
in between comes from here. Input is validated before anything is read or written.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from cartwise.agent.context import turn_context
from cartwise.agent.deps import AgentDeps
from cartwise.agent.dialogue import shopper_currency
from cartwise.agent.events import Emit, EventSink, elapsed_ms
from cartwise.agent.graph import turn_graph
from cartwise.agent.result import (
    DialogueOut,
    MemoryOut,
    Personalization,
    ProductOut,
    ShopperCurrency,
    TurnResult,
)
from cartwise.agent.state import RunContext, TurnState
from cartwise.errors import CartwiseError, InvalidInput
from cartwise.log import logger
from cartwise.memory.prices import Alert
from cartwise.memory.session_state import check_thread
from cartwise.settings import Settings
from cartwise.understanding.reading import Language

MAX_ID_CHARS = 128


def validate_turn(settings: Settings, *, user: str, thread: str, message: str) -> str:
    """The message, stripped; InvalidInput with a clear reason when it cannot be a turn. The
    thread id is held to the rule every thread route names it by (`check_thread`), so a turn
    never starts a thread that cannot be read or deleted afterwards."""
    if not user.strip():
        raise InvalidInput("user must not be empty")
    if len(user) > MAX_ID_CHARS:
        raise InvalidInput(f"user is longer than {MAX_ID_CHARS} characters")
    check_thread(thread)
    text = message.strip()
    if not text:
        raise InvalidInput("the message is empty: say what you are looking for")
    if len(text) > settings.max_message_chars:
        raise InvalidInput(
            f"the message is {len(text)} characters long; the limit is {settings.max_message_chars}"
        )
    return text


def pending_alerts(deps: AgentDeps, user: str) -> list[Alert]:
    """The user's alerts not yet delivered, now marked delivered (each reaches one turn);
    none when the store cannot be read — a turn never fails for want of an alert."""
    if deps.watches is None:
        return []
    try:
        alerts = deps.watches.alerts(user, unseen_only=True)
        if alerts:
            deps.watches.mark_seen(user, [a.id for a in alerts])
    except CartwiseError as exc:
        logger.warning("alerts unavailable: %s", exc)
        return []
    return alerts


async def run_agent(
    deps: AgentDeps,
    *,
    user: str,
    thread: str,
    message: str,
    emit: Emit | None = None,
    language: Language | None = None,
) -> TurnResult:
    """Run one turn. Raises InvalidInput (bad message),
    StoreUnavailable (a store is down) — in every case before anything is written, except a
    store dying mid-turn, which leaves only whole entries behind. `language` (the page's)
    is the language the turn answers in, whatever the message's own."""
    text = validate_turn(deps.settings, user=user, thread=thread, message=message)
    # Opens the thread under the per-user cap (a no-op for a live one): every surface, not
    # only the API, keeps to MAX_THREADS_PER_USER.
    await asyncio.to_thread(deps.sessions.start, user, thread)

    started = time.perf_counter()
    sink = EventSink(emit)
    initial: TurnState = {
        "user": user,
        "thread": thread,
        "message": text,
        "source_turn": f"{thread}:{uuid.uuid4().hex[:12]}",
        "timings": {},
    }
    if language is not None:
        initial["page_language"] = language
    alerts = await asyncio.to_thread(pending_alerts, deps, user)
    if alerts:
        await sink.custom("price_alerts", [a.model_dump(mode="json") for a in alerts])
    with turn_context(user, thread, None):
        state = await turn_graph().ainvoke(initial, context=RunContext(deps=deps, sink=sink))

    update = state["memory_update"]
    currency = shopper_currency(state.get("slots", {}), state["plan"].language, deps.settings)
    personalized = any(state.get("personalization", []))
    result = TurnResult(
        reply=state["reply"],
        language=state["plan"].language,
        products=[
            ProductOut.of(
                p,
                state.get("price_facts", {}).get(p.candidate.product.key),
                state.get("model_lows", {}).get(p.candidate.product.key),
            )
            for p in state.get("picks", [])
        ],
        price_answer=state.get("price_answer"),
        alerts=alerts,
        price_compare=state.get("price_compare", []),
        personalization=Personalization(
            active=personalized, likes=state.get("likes", []) if personalized else []
        ),
        shopper_currency=ShopperCurrency(code=currency, to_base=deps.settings.fx_to_base[currency]),
        rejected=state.get("rejected", []),
        demoted=state.get("demoted", []),
        recipient=state["plan"].recipient,
        questions=[state["question"]] if state.get("question") else [],
        catalog_gap=state.get("catalog_gap"),
        dialogue=DialogueOut.of(state.get("resolution"), state.get("answer"), update.session),
        applied=state.get("applied", []),
        notices=state.get("notices", []),
        unstated=[
            p.candidate.product.key for p in state.get("picks", []) if p.candidate.unstated_specs
        ],
        memory=MemoryOut(long_term=update.long_term, session=update.session),
        timings={**state.get("timings", {}), "total": elapsed_ms(started)},
    )
    await sink.snapshot(result.snapshot())
    return result
