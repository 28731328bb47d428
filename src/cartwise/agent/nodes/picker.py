"""picker node: close the searching stage, apply item_picker, compare prices, decide
whether to ask for a missing slot."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cartwise.agent.clarification import missing_slot, sold_in_sizes
from cartwise.agent.dialogue import (
    active_search,
    build_answer,
    in_scope,
    referenced_picks,
    similarity_to,
    unfound_types,
)
from cartwise.agent.events import elapsed_ms
from cartwise.agent.nodes.search import search_within_types, to_candidates
from cartwise.agent.picker import PickCriteria, budget_from_slots, item_picker
from cartwise.agent.price_answers import answer_price_followup, offer_facts, picks_price_facts
from cartwise.agent.price_compare import compare_prices
from cartwise.agent.spec_answers import (
    spec_applied,
    spec_attributes,
    spec_notices,
    spec_winner,
    with_ties,
)
from cartwise.agent.spec_facts import spec_facts
from cartwise.agent.state import Candidate, Pick, RunContext, TurnState
from cartwise.agent.workflow import Runtime
from cartwise.catalog.terms import TermMatcher
from cartwise.recall.item_search import search_platforms, user_profile, user_vector
from cartwise.recall.spec_search import effective_sort, unstated_keys
from cartwise.settings import Settings
from cartwise.text import fold, has_han
from cartwise.understanding.questions import question_for
from cartwise.understanding.reading import Language, Reading
from cartwise.vocabulary import format_money
from cartwise.vocabulary.slugs import slugify


def label(slug: str, keywords: list[str], language: Language) -> str:
    """How to name a preference to the shopper: a Chinese keyword in a Chinese reply,
    the slug's words otherwise."""
    if language == "zh":
        chinese = next((k for k in keywords if has_han(k)), "")
        if chinese:
            return chinese
    return slug.replace("-", " ")


NAMED_IN_REPLY = 5
"""Preferences one list of the reply names at most; the others are counted ("and 37
more"). A shopper with 10,000 stored entries had 1,515 dislikes apply to a headphones search,
and naming each made the reply 67 KB."""


def named_few(names: Sequence[str], more: int, language: Language) -> list[str]:
    """The first `NAMED_IN_REPLY` distinct `names`, then how many others there are: those
    left out here plus `more` not named at all. Empty when there is nothing to name."""
    distinct = list(dict.fromkeys(names))
    shown = distinct[:NAMED_IN_REPLY]
    others = len(distinct) - len(shown) + max(more, 0)
    if not others:
        return shown
    if language == "zh":
        return [*shown, f"还有{others}项" if shown else f"你拒绝的{others}项"]
    return [*shown, f"and {others} more" if shown else f"{others} things you refused"]


def applied_facts(
    state: TurnState, criteria: PickCriteria, language: Language, picks: Sequence[Pick] = ()
) -> list[str]:
    """Human-readable list of what shaped the results (for the reply and the page)."""
    zh = language == "zh"
    facts: list[str] = []
    search = active_search(state)
    if search is not None and search.wanted:
        said = [fold(p.candidate.product.searchable_text()) for p in picks]
        found: list[str] = []
        missing: list[str] = []
        for (slug, words), matcher in zip(search.wanted.items(), criteria.want, strict=True):
            shown = any(matcher.first_match(text) for text in said)
            (found if shown else missing).append(label(slug, words, language))
        if found:
            facts.append(f"{'、'.join(found)}优先" if zh else f"{', '.join(found)} first")
        if missing:
            # Shown anyway (a listing may not mention it), but never passed off as matching.
            unsaid = "、".join(missing) if zh else " or ".join(missing)
            facts.append(f"没有商品写明{unsaid}" if zh else f"no listing here mentions {unsaid}")
    # Exclusions are named by the reply itself (brands as brands); budgets in the currency
    # the shopper gave them in.
    if state.get("demoted_prefs"):
        names = [label(slug, words, language) for slug, words in state["demoted_prefs"].items()]
        few = named_few(names, state.get("demoted_more", 0), language)
        joined = ("、" if zh else ", ").join(few)
        facts.append(f"靠后：{joined}" if zh else f"ranking lower: {joined}")
    # An attribute the search was narrowed to is named above, not again as a like.
    standing = [s for s in state.get("likes", []) if search is None or s not in search.wanted]
    if standing:
        likes = "、".join(standing)
        facts.append(f"偏好：{likes}" if zh else f"your likes: {likes}")
    slots = state.get("slots", {})
    currency = slots.get("budget_currency") or criteria.budget.base_currency
    if criteria.budget.max_base is not None and slots.get("budget_max"):
        amount = format_money(float(slots["budget_max"]), currency)
        facts.append(f"预算 ≤ {amount}" if zh else f"budget ≤ {amount}")
    if criteria.budget.min_base is not None and slots.get("budget_min"):
        amount = format_money(float(slots["budget_min"]), currency)
        facts.append(f"预算 ≥ {amount}" if zh else f"budget ≥ {amount}")
    if criteria.size:
        facts.append(f"尺码 {criteria.size}" if zh else f"size {criteria.size}")
    if state["plan"].brands:
        brands = "、".join(asked_brand_names(state["plan"], picks, language))
        facts.append(f"品牌：{brands}" if zh else f"brands: {brands}")
    return facts


def asked_brand_names(plan: Reading, picks: Sequence[Pick], language: Language) -> list[str]:
    """The brands asked for, named as the shopper would: the word they said in a Chinese
    reply ("索尼"), else as the listings spell it ("Sony"), never as a slug ("sony")."""
    said = plan.followup.narrow if plan.followup is not None else []
    names: list[str] = []
    for slug in plan.brands:
        listed = next(
            (
                p.candidate.product.brand
                for p in picks
                if slugify(p.candidate.product.brand) == slug
            ),
            "",
        )
        one_said = language == "zh" and len(plan.brands) == 1
        chinese = next((w for w in said if has_han(w)), "") if one_said else ""
        names.append(chinese or listed or " ".join(w.capitalize() for w in slug.split("-")))
    return list(dict.fromkeys(names))


def criteria_for(
    state: TurnState, settings: Settings, similarity: dict[str, float] | None = None
) -> PickCriteria:
    slots = state.get("slots", {})
    search = active_search(state)
    skip = set(search.shown_models if search is not None else [])
    resolution = state.get("resolution")
    if resolution is not None and resolution.similar_to:
        skip |= {item.model for item in resolution.refs}
    specs = search.specs if search is not None else None
    return PickCriteria(
        exclude=TermMatcher.of(state.get("exclude_terms", [])),
        like=TermMatcher.of(state.get("like_terms", [])),
        demote=TermMatcher.of(state.get("demote_terms", [])),
        want=tuple(
            TermMatcher.of(t) for t in (search.wanted if search is not None else {}).values()
        ),
        budget=budget_from_slots(slots, settings),
        size=slots.get("size", ""),
        max_picks=settings.agent_max_picks,
        sort=search.sort if search is not None else "relevance",
        skip_models=frozenset(skip),
        similarity=similarity,
        spec_sort=effective_sort(specs) if specs is not None else None,
        spec_attributes=tuple(spec_attributes(specs)) if specs is not None else (),
    )


def unfit_type_notice(state: TurnState) -> str:
    """Said when the catalog lists the asked type but none of its listings meets the specs."""
    search = active_search(state)
    if search is None:
        return ""
    language = state["plan"].language
    asked = (
        "，".join(spec_facts(search.specs, language))
        if language == "zh"
        else ", ".join(spec_facts(search.specs, language))
    )
    kind = search.product_type or search.phrase
    if language == "zh":
        return f"目录里的{kind}都标明了别的规格，没有符合{asked}的；其他种类的商品没有列出。"
    return (
        f"None of the catalog's {kind} listings meets {asked}; other kinds of goods are not shown."
    )


async def search_without_domain(context: RunContext, state: TurnState) -> list[Candidate]:
    """Nothing in the planner's domain anywhere: the domain was probably wrong, so search
    once more without it (the profile still comes from the ContextVar)."""
    filters = state["filters"].model_copy(update={"domains": []})
    token = user_profile.set(state.get("profile") or None)
    vector_token = user_vector.set(state.get("profile_vector") if state.get("profile") else None)
    try:
        responses = await search_platforms(
            context.deps.recall,
            state["query"],
            state["platforms"],
            k=context.deps.settings.agent_search_k,
            filters=filters,
        )
    finally:
        user_profile.reset(token)
        user_vector.reset(vector_token)
    specs = filters.request_specs()
    return [
        c
        for response in responses.values()
        for c in to_candidates(
            response, unstated_keys(response.results, specs) if filters.has_specs else set()
        )
    ]


async def picker_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    candidates = state.get("candidates", [])
    retried: list[Candidate] = []
    unfit = ""
    personalized = state.get("personalization", [])
    if not candidates and state.get("query") and state["filters"].domains:
        candidates = await search_without_domain(runtime.context, state)
    if types := unfound_types(state, candidates):
        within = await search_within_types(state, runtime, types)
        personalized = [*personalized, *within.personalization]
        if within.candidates:
            seen = {c.product.key for c in candidates}
            retried = [c for c in within.candidates if c.product.key not in seen]
            candidates = [*candidates, *retried]
        elif within.type_listed:
            # Every listing of the type breaks a spec ("金色的狗粮" where each dog food states
            # another colour): what matched the spec under other types is not what was asked.
            unfit = unfit_type_notice(state)
            candidates = []
    candidates = in_scope(state, candidates)
    timings = {"searching": elapsed_ms(state["search_started_at"])}
    await sink.step_finished("searching")
    personalization = any(personalized)
    await sink.custom(
        "personalization",
        {"active": personalization, "likes": state.get("likes", []) if personalization else []},
    )

    language = state["plan"].language
    resolution = state.get("resolution")
    if resolution is not None and resolution.refs and not resolution.runs_search:
        # Compare / details / "where is it cheapest" about shown items: their listings.
        async with sink.step("picking", timings):
            picks = referenced_picks(deps.recall, resolution.refs)
            facts = await asyncio.to_thread(
                offer_facts, deps.prices, [p.candidate.product for p in picks]
            )
        if resolution.kind == "price" and picks:
            priced = await asyncio.to_thread(answer_price_followup, state, picks, facts, deps)
            if priced is not None:
                return {"picks": picks, "timings": timings, "price_facts": facts,
                        "price_answer": priced}  # fmt: skip
        answer = build_answer(state, picks, deps.settings)
        return {
            "picks": picks,
            "timings": timings,
            "price_facts": facts,
            **({"answer": answer} if answer else {}),
        }

    async with sink.step("picking", timings):
        similar = resolution.similar_to if resolution is not None else ""
        similarity = similarity_to(deps.recall, similar, candidates) if similar else None
        criteria = criteria_for(state, deps.settings, similarity)
        call_id = await sink.start_tool_call(
            "item_picker",
            {
                "candidates": len(candidates),
                "exclude_terms": list(criteria.exclude.terms),
                "demote_terms": list(criteria.demote.terms),
                "slots": state.get("slots", {}),
            },
        )
        outcome = item_picker(candidates, criteria, language=language)
        await sink.tool_result(
            call_id,
            {
                "kept": [p.candidate.product.key for p in outcome.picks],
                "rejected": [r.model_dump() for r in outcome.rejected],
                "demoted": [d.model_dump() for d in outcome.demoted],
            },
        )
        comparisons = compare_prices(
            [c.product for c in outcome.survivors],
            focus=[p.candidate.product for p in outcome.picks],
        )

    slot = (
        missing_slot(
            state.get("domain", ""),
            state.get("slots", {}),
            sized=sold_in_sizes(c.product for c in outcome.survivors),
        )
        if state.get("query")
        else ""
    )
    picks = outcome.picks
    search = active_search(state)
    if resolution is not None and resolution.kind == "cheapest":
        # "Where is X cheapest" is about X: its offers, not X's neighbours; "the cheapest X
        # with Y" is every model tied at the lowest price.
        ordered_by_price = (
            criteria.spec_sort is not None and criteria.spec_sort.attribute == "price"
        )
        picks = with_ties(picks) if ordered_by_price else picks[:1]
    answer = build_answer(state, picks, deps.settings)
    if search is not None and criteria.spec_sort is not None and picks:
        answer = spec_winner(state, picks, criteria.spec_sort, deps.settings) or answer
    facts, lows = await asyncio.to_thread(
        picks_price_facts, deps.prices, picks, deps.settings.fx_to_base
    )
    applied = applied_facts(state, criteria, language, picks)
    notices: list[str] = []
    if search is not None:
        applied += spec_applied(search.specs, outcome.survivors, language)
        notices = [
            *([unfit] if unfit else []),
            *spec_notices(search.specs, outcome.survivors, language),
        ]
    return {
        **({"answer": answer} if answer else {}),
        "picks": picks,
        "rejected": outcome.rejected,
        "demoted": outcome.demoted,
        "filtered_out": outcome.filtered_out,
        "price_compare": comparisons,
        "applied": applied,
        "notices": notices,
        "question": question_for(slot, language) if slot else "",
        "price_facts": facts,
        "model_lows": lows,
        "timings": timings,
        # The scope node reads the candidates of the named types from the state.
        **({"candidates": retried} if retried else {}),
    }
