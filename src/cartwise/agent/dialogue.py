"""The results-in-conversation glue the nodes call: the active search's filters and
exclusions, picks for referenced items, "more like this" similarities from stored vectors,
the direct answer a reply leads with, and what the curator writes back to P_t.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cartwise.agent.answers import DirectAnswer, ItemFacts, OfferFact
from cartwise.agent.followups import Resolution
from cartwise.agent.price_compare import Offer
from cartwise.agent.state import Candidate, Pick, TurnState
from cartwise.catalog.listing_text import listing_statement
from cartwise.catalog.model_identity import model_identity
from cartwise.memory.session_state import ActiveSearch, ShownItem
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.reading import Language

DEFAULT_CURRENCY: dict[Language, str] = {"zh": "CNY", "en": "USD"}
MAX_PAGE_DEPTH = 100
"""Results per platform never exceed the index's candidate depth, however far "more" goes."""


def active_search(state: TurnState) -> ActiveSearch | None:
    resolution = state.get("resolution")
    return resolution.search if resolution is not None and resolution.runs_search else None


def request_filters(filters: SearchFilters, state: TurnState) -> SearchFilters:
    """The exact filters of the active search: its product types when it is refined (a
    refinement of running shoes searches running shoes; untyped listings pass), brands, price bounds and specs
    (never a listing that violates one; those that do not state one are marked and rank
    after, `recall/spec_search.py`)."""
    search = active_search(state)
    if search is None:
        return filters
    return filters.model_copy(
        update={
            "product_types": frozenset(refined_types(state, search)),
            "brands": search.brands,
            "min_price_base": search.min_price_base,
            "max_price_base": search.max_price_base,
            "numeric_specs": list(search.specs.numeric),
            "label_specs": list(search.specs.labels),
            "spec_verdicts": ["meets", "unknown"],
        }
    )


def search_page(state: TurnState) -> int:
    search = active_search(state)
    return search.page if search is not None else 1


def search_depth(page: int, per_page: int) -> int:
    """Results per platform: one page's worth per page, so "more" has unseen models left."""
    return min(per_page * page, MAX_PAGE_DEPTH)


def similarity_to(
    recall: RecallService, key: str, candidates: Sequence[Candidate]
) -> dict[str, float]:
    """Cosine of each candidate's stored vector with the shown item's: no embedding at all."""
    keys = [c.product.key for c in candidates]
    if not keys:
        return {}
    vectors = recall.index.vectors([key, *keys])
    scores = vectors[1:] @ vectors[0]
    return {k: float(s) for k, s in zip(keys, np.asarray(scores), strict=True)}


def referenced_picks(recall: RecallService, refs: Sequence[ShownItem]) -> list[Pick]:
    """The referenced items as picks, each carrying its in-stock offers (cheapest first)."""
    picks: list[Pick] = []
    for item in refs:
        product = recall.get(item.key)
        if product is None:
            continue
        offers = [p for key in (item.offers or [item.key]) if (p := recall.get(key)) is not None]
        in_stock = sorted(
            (p for p in offers if p.in_stock), key=lambda p: (p.price_base, p.platform)
        )
        picks.append(
            Pick(
                candidate=Candidate(product=product, score=0.0),
                rank_score=0.0,
                offers=[Offer.of(p) for p in in_stock],
            )
        )
    return picks


def shopper_currency(slots: dict[str, str], language: Language, settings: Settings) -> str:
    """The budget's currency when one was given, else the language's usual one."""
    currency = (slots.get("budget_currency") or DEFAULT_CURRENCY[language]).upper()
    return currency if currency in settings.fx_to_base else settings.base_currency


def _price_in(price: float, currency: str, price_base: float, to: str, settings: Settings) -> float:
    if currency.upper() == to:
        return round(price, 2)
    rate = settings.fx_to_base.get(to, 1.0)
    return round(price_base / rate, 2)


def _offer_fact(offer: Offer, to: str, settings: Settings, *, in_stock: bool = True) -> OfferFact:
    return OfferFact(
        platform=offer.platform,
        item_id=offer.item_id,
        price=_price_in(offer.price, offer.currency, offer.price_base, to, settings),
        listed_price=offer.price,
        listed_currency=offer.currency,
        url=offer.url,
        in_stock=in_stock,
    )


def item_facts(pick: Pick, *, ordinal: int | None, currency: str, settings: Settings) -> ItemFacts:
    product = pick.candidate.product
    offers = pick.offers or [Offer.of(product)]
    return ItemFacts(
        ordinal=ordinal,
        platform=product.platform,
        item_id=product.item_id,
        title=product.title,
        brand=product.brand,
        price=_price_in(product.price, product.currency, product.price_base, currency, settings),
        rating=product.rating,
        reviews=product.reviews,
        in_stock=product.in_stock,
        attributes={k: v for k, v in product.attributes.items() if k != "model"},
        offers=[_offer_fact(o, currency, settings) for o in offers],
    )


def _ordinal(item_key: str, state: TurnState) -> int | None:
    shortlist = state["session"].shortlist
    return next((i for i, s in enumerate(shortlist, start=1) if s.key == item_key), None)


def build_answer(
    state: TurnState, picks: Sequence[Pick], settings: Settings
) -> DirectAnswer | None:
    """The direct answer this turn leads with, or None."""
    resolution: Resolution | None = state.get("resolution")
    if resolution is None:
        return None
    language = state["plan"].language
    currency = shopper_currency(state.get("slots", {}), language, settings)
    if resolution.missing_refs and not resolution.refs:
        return DirectAnswer(
            kind="missing_reference",
            currency=currency,
            missing=resolution.missing_refs,
            shown=len(state["session"].shortlist),
        )
    search = resolution.search
    followup = resolution.followup
    if resolution.kind == "more" and not picks:
        return DirectAnswer(kind="nothing_more", currency=currency)
    if resolution.kind == "refine" and not picks and followup is not None:
        if followup.price == "lower" and search is not None and search.max_price_base is not None:
            rate = settings.fx_to_base.get(currency, 1.0)
            return DirectAnswer(
                kind="nothing_cheaper",
                currency=currency,
                limit=round((search.max_price_base + 0.01) / rate, 2),
            )
        return None
    if not picks or resolution.kind not in ("cheapest", "compare", "details"):
        return None
    facts = [
        item_facts(
            p,
            ordinal=_ordinal(p.candidate.product.key, state),
            currency=currency,
            settings=settings,
        )
        for p in picks
    ]
    if resolution.kind == "compare":
        return DirectAnswer(
            kind="compare",
            currency=currency,
            items=facts,
            missing=resolution.missing_refs,
            shown=len(state["session"].shortlist),
        )
    first = facts[0]
    if resolution.kind == "details":
        asked = followup.asked if followup is not None else ""
        return DirectAnswer(
            kind="details",
            currency=currency,
            items=[first],
            asked=asked,
            listing_says=listing_statement(picks[0].candidate.product, asked) if asked else "",
        )
    offers = first.offers
    cheapest = offers[0] if offers else None
    runner_up = offers[1] if len(offers) > 1 else None
    return DirectAnswer(
        kind="cheapest",
        currency=currency,
        items=[first],
        cheapest=cheapest,
        runner_up=runner_up,
        saving=round(runner_up.price - cheapest.price, 2) if cheapest and runner_up else None,
    )


def scoped_types(state: TurnState, search: ActiveSearch) -> set[str]:
    """The product types this turn keeps to: the active search's, or for "more like this"
    the shown item's own."""
    types = set(search.product_types)
    resolution = state.get("resolution")
    if resolution is not None and resolution.similar_to:
        types = {item.product_type for item in resolution.refs if item.product_type} or types
    return types


def refined_types(state: TurnState, search: ActiveSearch) -> set[str]:
    """The types a follow-up searches within ("要20寸能登机的" after suitcases searches
    suitcases): a new search is not filtered by type at recall — its candidates are kept to
    the named types afterwards (`in_scope`), so a type named loosely cannot empty it."""
    resolution = state.get("resolution")
    if resolution is None or resolution.new_search:
        return set()
    return scoped_types(state, search)


def unfound_types(state: TurnState, candidates: Sequence[Candidate]) -> frozenset[str]:
    """The types a new search named when its candidates hold none of them (empty otherwise,
    and when it found nothing at all): "金色的狗粮" ranks gold things above every dog food,
    whose listings do not say gold, so the turn searches again within the named types
    (`nodes/search.py::search_within_types`) before the search speaks for itself. A search
    with one candidate of a named type is kept to it by `in_scope` and is not searched again:
    a type named loosely never replaces good matches found under another."""
    resolution = state.get("resolution")
    search = active_search(state)
    if resolution is None or search is None or not resolution.new_search or not candidates:
        return frozenset()
    types = scoped_types(state, search)
    if any(c.product.product_type in types for c in candidates):
        return frozenset()
    return frozenset(types)


def in_scope(state: TurnState, candidates: Sequence[Candidate]) -> list[Candidate]:
    """Candidates of the active search's product types: a refinement, "more" or a sort
    stays on them ("cheaper" running shoes are running shoes, never cheap boots); "more like
    this" keeps to the shown item's own type. A new search keeps to the types the shopper
    named, unless none of them was found, even within them (`unfound_types`): then the search
    speaks for itself. Products the catalog gives no type pass."""
    resolution = state.get("resolution")
    search = active_search(state)
    if resolution is None or search is None:
        return list(candidates)
    types = scoped_types(state, search)
    if not types:
        return list(candidates)
    kept = [c for c in candidates if not c.product.product_type or c.product.product_type in types]
    return kept if kept or not resolution.new_search else list(candidates)


def result_types(picks: Sequence[Pick]) -> list[str]:
    """The product types a search's first results were: those of two picks or more, else the
    top pick's (one stray item does not widen the search)."""
    counts: dict[str, int] = {}
    for pick in picks:
        kind = pick.candidate.product.product_type
        if kind:
            counts[kind] = counts.get(kind, 0) + 1
    common = [kind for kind, count in counts.items() if count >= 2]
    top = next(
        (p.candidate.product.product_type for p in picks if p.candidate.product.product_type), ""
    )
    return common or ([top] if top else [])


def shown_items(picks: Sequence[Pick]) -> list[ShownItem]:
    return [
        ShownItem(
            platform=p.candidate.product.platform,
            item_id=p.candidate.product.item_id,
            title=p.candidate.product.title,
            price_base=p.candidate.product.price_base,
            product_type=p.candidate.product.product_type,
            brand=p.candidate.product.brand,
            model=model_identity(p.candidate.product),
            colors=p.candidate.product.attributes.get("color", []),
            offers=[f"{o.platform}:{o.item_id}" for o in p.offers],
        )
        for p in picks
    ]


def dialogue_patch(state: TurnState) -> dict[str, object]:
    """What the turn changes in P_t's conversation fields (SessionPatch keys)."""
    resolution = state.get("resolution")
    if resolution is None:
        return {}
    fields: dict[str, object] = {}
    if resolution.refs:
        fields["focus_item"] = resolution.refs[0].key
    search = resolution.search
    if not resolution.runs_search or search is None:
        return fields
    picks = state.get("picks", [])
    if resolution.new_search:
        fields["focus_item"] = ""
    if not picks and not resolution.new_search:
        # A refinement that found nothing leaves the last results to refer to.
        return fields
    shown = [*search.shown_models, *(model_identity(p.candidate.product) for p in picks)]
    update: dict[str, object] = {"shown_models": list(dict.fromkeys(shown))}
    if not search.product_types:
        update["product_types"] = result_types(picks)
    fields["active_search"] = search.model_copy(update=update)
    fields["shortlist"] = shown_items(picks)
    return fields
