"""reply node: the engine writes the reply from facts only; it streams as text deltas."""

from __future__ import annotations

import asyncio

from langgraph.runtime import Runtime

from cartwise.agent.answers import answer_is_whole, render_answer
from cartwise.agent.state import RunContext, TurnState
from cartwise.understanding.base import Language, ReplyFacts, ReplyItem

FILTER_LABELS: dict[Language, dict[str, str]] = {
    "zh": {
        "excluded term": "含你排除的材质/元素",
        "over budget": "超出预算",
        "under budget minimum": "低于预算下限",
        "size not available": "没有你的尺码",
        "out of stock": "缺货",
    },
    "en": {
        "excluded term": "contain something you excluded",
        "over budget": "over budget",
        "under budget minimum": "below your minimum price",
        "size not available": "not in your size",
        "out of stock": "out of stock",
    },
}
"""Rejection kinds as the reply says them (the exact per-item reasons stay in `rejected`)."""


WHAT_TO_FIND: dict[Language, str] = {
    "zh": "记住了。你想找什么商品？我会按你的偏好来挑。",
    "en": "Noted. What are you looking for? I will pick with your preferences in mind.",
}
"""Said when the message gave nothing to search (a bare preference in a new thread). Not an
open question: any next message answers it."""


def reply_facts(state: TurnState) -> ReplyFacts:
    plan = state["plan"]
    labels = FILTER_LABELS[plan.language]
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
        filtered_out={
            labels.get(kind, kind): count for kind, count in state.get("filtered_out", {}).items()
        },
        question=state.get("question", "")
        or ("" if state.get("query") else WHAT_TO_FIND[plan.language]),
        personalization=any(state.get("personalization", [])),
    )


async def reply_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    timings: dict[str, float] = {}
    answer = state.get("answer")
    lead = render_answer(answer, state["plan"].language) if answer is not None else ""
    async with sink.step("replying", timings):
        if lead and (not state.get("query") or answer_is_whole(answer)):
            # Answered from listings already shown (nothing searched), or nothing more to show.
            reply = lead
        else:
            written = await asyncio.to_thread(deps.engine.write_reply, reply_facts(state))
            reply = "\n".join(part for part in (lead, written) if part)
        await sink.stream_text(reply)
    return {"reply": reply, "timings": timings}
