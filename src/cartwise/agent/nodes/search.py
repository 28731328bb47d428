"""Fan-out: one item_search per platform, in parallel (one `Send` each).

The like-only profile was computed once by the profile node. A ContextVar set inside one
node does not reach the next (the workflow runs each node in its own copy of the context), so
the profile travels in the `Send` payload and each search node sets `user_profile` for its
own call; `search_platforms` (item_search's engine) reads it from the ContextVar in its
worker thread, exactly as it does inside the item_search tool.
"""

from __future__ import annotations

import asyncio
from collections.abc import Set
from dataclasses import dataclass, replace

from cartwise.agent.budget_search import BUDGET_PROBE_K, outside_budget
from cartwise.agent.dialogue import MAX_PAGE_DEPTH, active_search, search_depth, search_page
from cartwise.agent.state import Candidate, RunContext, SearchTask, TurnState
from cartwise.agent.workflow import Runtime, Send
from cartwise.recall.item_search import search_platforms, user_profile, user_vector
from cartwise.recall.service import SearchResponse
from cartwise.recall.spec_request import prefer_kind
from cartwise.recall.spec_search import SPEC_DEPTH as KIND_DEPTH
from cartwise.recall.spec_search import unstated_keys

SEARCH_NODE = "search"
PICKER_NODE = "picker"


@dataclass(frozen=True)
class TypedSearch:
    """What `search_within_types` found: the candidates of the named types (and the
    searches' personalization flags), and whether the catalog has listings of them at all."""

    candidates: list[Candidate]
    personalization: list[bool]
    type_listed: bool


async def search_within_types(
    state: TurnState, runtime: Runtime[RunContext], types: frozenset[str]
) -> TypedSearch:
    """The turn's searches once more, each filtered to `types` at recall, at the same depth
    and with the same specs and budget probe, in any domain (`dialogue.unfound_types` says
    when): listings of the type that do not state an asked spec come back marked as such.
    When none comes back, one more look without the specs tells whether the type is listed
    at all (each of its listings then states a value breaking a spec). Types the catalog
    does not list are not searched: what the search found speaks for itself (the scope
    node says when nothing of the kind is carried)."""
    types = types & runtime.context.deps.recall.catalog_kinds().types
    if not types:
        return TypedSearch([], [], type_listed=False)
    # The type says what was asked more precisely than the planner's domain, which may
    # have been what emptied the search (`picker.search_without_domain`).
    within = {"product_types": types, "domains": []}
    filters = state["filters"].model_copy(update=within)
    scoped: TurnState = {**state, "filters": filters}
    if (probe := state.get("budget_probe")) is not None:
        scoped["budget_probe"] = probe.model_copy(update=within)
    sends = fan_out(scoped)
    if isinstance(sends, str):
        return TypedSearch([], [], type_listed=False)
    updates = await asyncio.gather(*(search_node(send.arg, runtime) for send in sends))
    found = TypedSearch(
        [c for update in updates for c in update.get("candidates", [])],
        [p for update in updates for p in update.get("personalization", [])],
        type_listed=False,
    )
    if found.candidates or not filters.has_specs:
        # Nothing without specs: a budget or brand left the type out, not a spec.
        return replace(found, type_listed=bool(found.candidates))
    anywhere = filters.without_specs().model_copy(update={"platforms": state["platforms"]})
    listed = await asyncio.to_thread(
        runtime.context.deps.recall.search, state["query"], k=1, filters=anywhere
    )
    return replace(found, type_listed=bool(listed.results))


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
                profile_vector=state.get("profile_vector"),
                filters=state["filters"].model_copy(update={"platforms": [platform]}),
                budget_probe=probe.model_copy(update={"platforms": [platform]}) if probe else None,
                page=page,
                kind=search.kind if (search := active_search(state)) is not None else "",
            ),
        )
        for platform in state["platforms"]
    ]


def to_candidates(response: SearchResponse, unstated: Set[str] = frozenset()) -> list[Candidate]:
    return [
        Candidate(
            product=hit.product,
            score=hit.score,
            score_query=hit.score_query,
            score_user=hit.score_user,
            score_lexical=hit.score_lexical,
            unstated_specs=hit.product.key in unstated,
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
    vector_token = user_vector.set(task.get("profile_vector") if task["profile"] else None)
    filters = task["filters"]
    depth = search_depth(task["page"], deps.settings.agent_search_k)
    kind = task.get("kind", "")
    # A named kind ("a cable for this GPU") ranks first among twice as many.
    k = min(KIND_DEPTH * depth, MAX_PAGE_DEPTH) if kind else depth
    searches = [search_platforms(deps.recall, task["query"], [platform], k=k, filters=filters)]
    probe = task["budget_probe"]
    if probe is not None:
        # The same query text: the query memo serves its vector to both searches.
        searches.append(
            search_platforms(
                deps.recall, task["query"], [platform], k=min(BUDGET_PROBE_K, depth), filters=probe
            )
        )
    try:
        responses = await asyncio.gather(*searches)
    finally:
        user_profile.reset(token)
        user_vector.reset(vector_token)
    response = responses[0][platform]
    if kind:
        kept = prefer_kind(response.results, kind)[:depth]
        response = response.model_copy(update={"results": kept})
    # Listings that do not state an asked spec are marked: they rank after the meeting ones
    # and the reply says so (recall/spec_search.py explains the choice).
    specs = filters.request_specs()
    personalized = response.personalization
    candidates = to_candidates(response, unstated_keys(response.results, specs))
    over_budget = []
    if probe is not None:
        probed = responses[1][platform]
        over_budget = outside_budget(
            to_candidates(probed, unstated_keys(probed.results, specs)), filters
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
