"""reply node: the engine writes the reply from facts only; it streams as text deltas."""

from __future__ import annotations

import asyncio

from langgraph.runtime import Runtime

from cartwise.agent.state import RunContext, TurnState
from cartwise.understanding.base import ReplyFacts, ReplyItem


def reply_facts(state: TurnState) -> ReplyFacts:
    plan = state["plan"]
    return ReplyFacts(
        language=plan.language,
        query=state.get("query", ""),
        items=[
            ReplyItem(
                platform=p.candidate.product.platform,
                title=p.candidate.product.title,
                price=p.candidate.product.price,
                currency=p.candidate.product.currency,
                price_base=p.candidate.product.price_base,
                why=p.why,
            )
            for p in state.get("picks", [])
        ],
        applied=state.get("applied", []),
        filtered_out=state.get("filtered_out", {}),
        question=state.get("question", ""),
        personalization=any(state.get("personalization", [])),
    )


async def reply_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    timings: dict[str, float] = {}
    async with sink.step("replying", timings):
        reply = await asyncio.to_thread(deps.engine.write_reply, reply_facts(state))
        await sink.stream_text(reply)
    return {"reply": reply, "timings": timings}
