"""Fan-out: one item_search per platform, in parallel (LangGraph `Send`).

The like-only profile was computed once by the profile node. A ContextVar set inside one
node does not reach the next (LangGraph runs each node in its own copy of the context), so
the profile travels in the `Send` payload and each search node sets `user_profile` for its
own call; `search_platforms` (item_search's engine) reads it from the ContextVar in its
worker thread, exactly as it does inside the item_search tool.
"""

from __future__ import annotations

import asyncio

from langgraph.runtime import Runtime
from langgraph.types import Send

from cartwise.agent.budget_search import BUDGET_PROBE_K, outside_budget
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
    probe = state.get("budget_probe")
    return [
        Send(
            SEARCH_NODE,
            SearchTask(
                platform=platform,
                query=state["query"],
                profile=state.get("profile", ""),
                filters=state["filters"].model_copy(update={"platforms": [platform]}),
                budget_probe=probe.model_copy(update={"platforms": [platform]}) if probe else None,
                page=page,
            ),
        )
        for platform in state["platforms"]
    ]


def to_candidates(response: SearchResponse) -> list[Candidate]:
    return [
        Candidate(
            product=hit.product,
            score=hit.score,
            score_query=hit.score_query,
            score_user=hit.score_user,
            score_lexical=hit.score_lexical,
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
    k = search_depth(task["page"], deps.settings.agent_search_k)
    searches = [
        search_platforms(deps.recall, task["query"], [platform], k=k, filters=task["filters"])
    ]
    probe = task["budget_probe"]
    if probe is not None:
        # The same query text: the query memo serves its vector to both searches.
        searches.append(
            search_platforms(
                deps.recall, task["query"], [platform], k=min(BUDGET_PROBE_K, k), filters=probe
            )
        )
    try:
        responses = await asyncio.gather(*searches)
    finally:
        user_profile.reset(token)
    response = responses[0][platform]
    personalized, candidates = response.personalization, to_candidates(response)
    over_budget = (
        outside_budget(to_candidates(responses[1][platform]), task["filters"])
        if probe is not None
        else []
    )
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
            "outside_budget": [c.product.item_id for c in over_budget],
        },
    )
    return {"candidates": [*candidates, *over_budget], "personalization": [personalized]}
