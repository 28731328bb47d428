"""scope node: after the search, decide whether the catalog carries what was asked for, and
the turn's one question (agent.catalog_scope, agent.asking)."""

from __future__ import annotations

import threading

from cartwise.agent.asking import answered_type_questions, choose_question
from cartwise.agent.clarification import sold_in_sizes
from cartwise.agent.dialogue import in_scope
from cartwise.agent.state import RunContext, TurnState
from cartwise.agent.workflow import Runtime
from cartwise.recall.service import RecallService
from cartwise.understanding.base import CatalogGap
from cartwise.understanding.catalog_scope import (
    CatalogTypes,
    closest_type,
    judge_request,
    requested_phrase,
)
from cartwise.understanding.questions import unsure_scope_question

_types_lock = threading.Lock()
_types_cache: dict[int, tuple[int, CatalogTypes]] = {}


def catalog_types(recall: RecallService) -> CatalogTypes:
    """The catalog's product-type names, rebuilt only when the catalog's size changes."""
    count = recall.count()
    with _types_lock:
        cached = _types_cache.get(id(recall))
        if cached is not None and cached[0] == count:
            return cached[1]
    types = CatalogTypes.of_kinds(recall.catalog_kinds())
    with _types_lock:
        _types_cache[id(recall)] = (count, types)
    return types


async def scope_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps = runtime.context.deps
    settings = deps.settings
    plan, session = state["plan"], state["session"]
    query = state.get("query", "")
    vague = state.get("vague_request", False)
    gap: CatalogGap | None = None
    unsure = False
    resolution = state.get("resolution")
    # A refinement, "more" or a sort builds on a search already judged when it began.
    fresh = resolution is None or resolution.new_search
    if query and not vague and fresh:
        ranked = sorted(
            ((c.product, c.score_query) for c in state.get("candidates", [])),
            key=lambda pair: pair[1],
            reverse=True,
        )
        types = catalog_types(deps.recall)
        verdict = judge_request(
            query,
            types=types,
            best_similarity=ranked[0][1] if ranked else None,
            floor=settings.catalog_relevance_floor,
            recipient=plan.recipient,
        )
        # An interest ("he likes hiking") is no product type: its nearest matches that hold
        # its words (hiking boots) answer the gift question, and it is never "not carried".
        for_interests = plan.gift is not None and bool(plan.gift.interests)
        if not verdict.carried and verdict.rule == "relevance":
            # Only far matches and no word saying what the request is: neither "not carried"
            # nor the far matches (for "he loves dinosaurs", jeans and a vacuum), but one
            # question.
            worded = any(c.score_lexical > 0 for c in state.get("candidates", []))
            unsure = not (for_interests and worded)
        elif not verdict.carried:
            closest = closest_type(
                verdict, ranked, types, plan.language, floor=settings.catalog_closest_floor
            )
            if not for_interests:
                gap = CatalogGap(
                    requested=requested_phrase(query), kind=verdict.kind, closest=closest
                )
    question = unsure_scope_question(plan.language) if unsure else ""
    if gap is None and not unsure:
        question = choose_question(
            reading=plan,
            searched=bool(query),
            domain=state.get("domain", ""),
            slots=state.get("slots", {}),
            open_questions=session.open_questions,
            sized=sold_in_sizes(c.product for c in in_scope(state, state.get("candidates", []))),
        )
    update: TurnState = {
        "question": question,
        "catalog_gap": gap,
        "answered_questions": answered_type_questions(
            session.open_questions, named_product=bool(plan.query) and not vague
        ),
    }
    if unsure:
        update["query"] = ""
    if gap is not None or unsure:
        # Nothing of the kind, or nothing known to be: showing the nearest unrelated items
        # would be the dishonest answer this node exists to prevent.
        update.update(
            {"picks": [], "price_compare": [], "filtered_out": {}, "applied": [], "notices": []}
        )
    return update
