"""Fan-out: one item_search per platform, in parallel (LangGraph `Send`).

The like-only profile was computed once by the profile node. A ContextVar set inside one
node does not reach the next (LangGraph runs each node in its own copy of the context), so
the profile travels in the `Send` payload and each search node sets `user_profile` for its
own call; `search_platforms` (item_search's engine) reads it from the ContextVar in its
worker thread, exactly as it does inside the item_search tool.
"""

from __future__ import annotations

from langgraph.runtime import Runtime
from langgraph.types import Send

from cartwise.agent.dialogue import search_depth, search_page
from cartwise.agent.state import Candidate, RunContext, SearchTask, TurnState
from cartwise.recall.item_search import search_platforms, user_profile
from cartwise.recall.service import SearchResponse

SEARCH_NODE = "search"
PICKER_NODE = "picker"


def fan_out(state: TurnState) -> list[Send] | str:
    """One Send per platform; straight to the picker when there is nothing to search."""
    if not state.get("query") or not state.get("platforms"):
        return PICKER_NODE
    page = search_page(state)
    return [
        Send(
            SEARCH_NODE,
            SearchTask(
                platform=platform,
                query=state["query"],
                profile=state.get("profile", ""),
                filters=state["filters"].model_copy(update={"platforms": [platform]}),
                page=page,
            ),
        )
        for platform in state["platforms"]
    ]


def to_candidates(response: SearchResponse, *, unstated: bool = False) -> list[Candidate]:
    return [
        Candidate(
            product=hit.product,
            score=hit.score,
            score_query=hit.score_query,
            score_user=hit.score_user,
            score_lexical=hit.score_lexical,
            unstated_specs=unstated,
        )
        for hit in response.results
    ]


async def search_node(task: SearchTask, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    platform = task["platform"]
    call_id = await sink.start_tool_call(
        f"item_search:{platform}", {"query": task["query"], "platform": platform}
    )
    # This node runs in its own copy of the context: the var is scoped to this search, and
    # search_platforms' worker thread inherits it.
    token = user_profile.set(task["profile"] or None)
    depth = search_depth(task["page"], deps.settings.agent_search_k)
    filters = task["filters"]
    try:
        responses = await search_platforms(
            deps.recall, task["query"], [platform], k=depth, filters=filters
        )
        response = responses[platform]
        personalized, candidates = response.personalization, to_candidates(response)
        if filters.has_specs and len(candidates) < depth:
            # Too few listings state what was asked: the ones that do not say come after
            # them, marked (recall/spec_search.py explains the choice).
            unknown = filters.model_copy(update={"spec_verdicts": ["unknown"]})
            extra = await search_platforms(
                deps.recall,
                task["query"],
                [platform],
                k=depth - len(candidates),
                filters=unknown,
            )
            candidates += to_candidates(extra[platform], unstated=True)
    finally:
        user_profile.reset(token)
    await sink.tool_result(
        call_id,
        {
            "platform": platform,
            "personalization": personalized,
            # Ids and scores only: AG-UI clients resend every tool result with each later
            # run, and the products themselves reach the page in the STATE_SNAPSHOT.
            "results": [
                {"item_id": c.product.item_id, "score": round(c.score, 6)} for c in candidates
            ],
        },
    )
    return {"candidates": candidates, "personalization": [personalized]}
