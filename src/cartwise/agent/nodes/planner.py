"""planner node: load the thread (P_t, recent messages) and long-term memory, read the
message once, and decide what this turn searches."""

from __future__ import annotations

import asyncio

from cartwise.agent.deps import AgentDeps
from cartwise.agent.followups import Resolution, resolve
from cartwise.agent.spec_refs import reference_specs
from cartwise.agent.state import RunContext, TurnState
from cartwise.agent.turn_memory import turn_memory
from cartwise.agent.workflow import Runtime
from cartwise.memory.session_state import ChatMessage, SessionPrefState
from cartwise.recall.spec_request import merge_specs
from cartwise.understanding.reading import Conversation, Reading


def fallback_query(session: SessionPrefState, history: list[ChatMessage]) -> str:
    """What to search when the message names no product (an answer such as "42", a bare
    preference): the session's intent, else the last thing the shopper said before."""
    if session.current_intent:
        return session.current_intent
    return next((m.content for m in reversed(history) if m.role == "user"), "")


async def planner_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    user, thread, message = state["user"], state["thread"], state["message"]
    timings: dict[str, float] = {}
    async with sink.step("understanding", timings):
        session, history, memory = await asyncio.to_thread(
            lambda: (
                deps.sessions.get(user, thread),
                deps.sessions.messages(user, thread),
                # A bounded slice the message names, not every entry (agent/turn_memory.py).
                turn_memory(deps.preferences, user, message),
            )
        )
        call_id = await sink.start_tool_call("reader", {"message": message})
        conversation = Conversation(session=session, history=history, memory=memory)
        plan: Reading = await asyncio.to_thread(deps.engine.read, message, conversation)
        await sink.tool_result(call_id, plan.model_dump(mode="json"))

    said = dict(plan.slots)
    slots = {**session.slots, **said}
    # An answer ("42") or a bare preference is not something to search for by itself.
    query = "" if plan.intent in ("answer", "preference", "chitchat") else plan.query.strip()
    # "help me find something" names no kind of product: searching its words finds noise,
    # so nothing is searched and the reply asks what kind of thing it is.
    vague = plan.vague
    if vague:
        query = ""
    elif not query and plan.intent != "chitchat":
        # A bare preference ("我喜欢木质的") or answer ("42") re-runs the session's search
        # with the new facts applied; with no session yet there is nothing to search.
        query = fallback_query(session, history)
    # The conversation decides what this turn searches: a refinement keeps the active
    # search's product type, a new product type starts afresh (its old slots dropped).
    resolution = resolve(plan, session, query=query, slots=slots, plan_slots=said)
    if resolution.runs_search and resolution.search is not None:
        resolution = await with_reference(deps, message, session, plan, resolution)
    search = resolution.search if resolution.runs_search else None
    if state.get("page_language"):
        # Read and searched in the message's own language; answered in the page's.
        plan = plan.model_copy(update={"language": state["page_language"]})
    return {
        "session": session,
        "history": history,
        "memory": memory,
        "plan": plan,
        # A request that names no kind of product searches nothing, whatever was active.
        "query": ""
        if vague
        else (search.phrase if search is not None else ("" if resolution.refs else query)),
        "domain": (search.domain if search is not None else "") or plan.domain or session.category,
        "slots": resolution.slots,
        "resolution": resolution,
        "vague_request": vague,
        "timings": timings,
    }


async def with_reference(
    deps: AgentDeps,
    message: str,
    session: SessionPrefState,
    plan: Reading,
    resolution: Resolution,
) -> Resolution:
    """The search with what a referenced product (a shop URL, a shown item with
    "compatible / 兼容") adds: compatibility specs, or the product's own title."""
    reference = await asyncio.to_thread(reference_specs, deps.recall, message, session, plan)
    search = resolution.search
    if reference is None or search is None:
        return resolution
    phrase = search.phrase
    if reference.specs.is_empty() and not reference.missing:
        phrase = f"{phrase} {reference.source.title}".strip()
    missing = [f"{name} ({reference.source.title})" for name in reference.missing]
    # Both hold: "an HDMI cable for this GPU" is HDMI *and* one of the GPU's ports.
    specs = merge_specs(search.specs, reference.specs.model_copy(update={"unchecked": missing}))
    kind = reference.kind or search.kind
    return resolution.model_copy(
        update={
            "search": search.model_copy(update={"phrase": phrase, "specs": specs, "kind": kind})
        }
    )
