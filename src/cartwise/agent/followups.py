"""Resolving a message against the conversation: which search this turn runs, with which
changes, and which shown items it refers to (pure: plan + P_t in, a `Resolution` out).

- A new product type starts a new active search; the old one's slots (a shoe size) and its
  request-scoped exclusions end with it.
- A message with no product noun that builds on the results (a refinement, "more", a sort,
  "more like the 2nd", a bare size or budget, an answer) continues the active search.
- "Cheaper" caps the price below the referenced item, or below everything on the shortlist;
  "more" goes to the next page and remembers every model already shown.
- Specs ("> 3 m", "the lightest") belong to the active search: follow-ups keep them, a spec
  said in a follow-up replaces the same attribute's, a new product type starts without them.
- Comparing, details and link questions, "where is it cheapest" and price-history questions
  or watches about a shown item run no search at all: they are answered from the referenced
  listings (and their price history).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from cartwise.catalog.specs import RequestSpecs
from cartwise.catalog.taxonomy import product_type, types_named_in
from cartwise.catalog.terms import slug_terms
from cartwise.memory.session_state import (
    ActiveSearch,
    SessionConstraint,
    SessionPrefState,
    ShownItem,
)
from cartwise.memory.store import Polarity, Strength
from cartwise.recall.spec_request import asked_kind
from cartwise.text import fold
from cartwise.understanding.reading import Followup, FollowupKind, Reading, StatedPreference
from cartwise.vocabulary.nouns import singular

PRICE_STEP = 0.01
""""Cheaper than 199" means at most 198.99 (prices are in cents)."""
LETTER_SIZES = ("xxs", "xs", "s", "m", "l", "xl", "xxl", "xxxl")
COMPARED_BY_DEFAULT = 3
""""Compare them" with no numbers: the first three shown."""
NO_SEARCH_KINDS: frozenset[FollowupKind] = frozenset({"compare", "details", "price"})

ResolvedKind = FollowupKind | Literal["search", "none"]


class Resolution(BaseModel):
    """What this turn does with the conversation so far."""

    kind: ResolvedKind = "none"
    """The follow-up kind acted on; "search" for a fresh search, "none" for nothing to do."""
    search: ActiveSearch | None = None
    """The active search after this turn (None: there is none)."""
    runs_search: bool = False
    """Whether this turn searches (compare/details answer from the listings instead)."""
    new_search: bool = False
    refs: list[ShownItem] = Field(default_factory=list)
    """The shown items referred to, resolved against the shortlist."""
    missing_refs: list[int] = Field(default_factory=list)
    """Ordinals that point at nothing shown ("the 9th" of 8)."""
    slots: dict[str, str] = Field(default_factory=dict)
    """The slots of this turn's search (an old product type's do not carry over)."""
    similar_to: str = ""
    """`platform:item_id` whose neighbours to show (kind "similar")."""
    followup: Followup | None = None


def named_types(text: str) -> list[str]:
    """Catalog product-type slugs named in `text` (synonyms in both languages, the longest
    name first: "desk lamp" is a lamp, not a desk)."""
    return [kind.slug for kind in types_named_in(text)]


def requested_types(plan: Reading) -> list[str]:
    """The catalog types the message asks for, as the reader read them."""
    return plan.types


def type_domain(types: list[str]) -> str:
    """The catalog domain of the first requested type ("" when unknown): the catalog files
    every offer of a type under its domain, so the domain filter follows it."""
    kind = product_type(types[0]) if types else None
    return kind.domain.value if kind is not None else ""


def same_product_type(named: str, active: ActiveSearch) -> bool:
    """Whether a product noun stays on the active search: one of its catalog types
    ("跑步鞋" while on running shoes), else the same noun or a more general one ("鞋" while
    on 跑鞋, "shoes" while on "running shoes")."""
    types = named_types(named)
    if types and active.product_types:
        return any(t in active.product_types for t in types)
    a, b = singular(fold(named)), singular(fold(active.product_type))
    if not a or not b:
        return False
    return a == b or b.endswith(a) or a.endswith(b)


def resolve_refs(
    refs: list[int], session: SessionPrefState, *, default: int | None
) -> tuple[list[ShownItem], list[int]]:
    """Ordinals → shown items. 0 ("that one") is the focus item, else the first; with no
    ordinal at all, `default` (0, or None for "no reference")."""
    shortlist = session.shortlist
    wanted = refs or ([default] if default is not None else [])
    found: list[ShownItem] = []
    missing: list[int] = []
    for ordinal in wanted:
        item: ShownItem | None = None
        if ordinal == 0:
            item = next((s for s in shortlist if s.key == session.focus_item), None)
            item = item or (shortlist[0] if shortlist else None)
        elif ordinal == -1:
            item = shortlist[-1] if shortlist else None
        elif 1 <= ordinal <= len(shortlist):
            item = shortlist[ordinal - 1]
        if item is None:
            missing.append(ordinal)
        elif item not in found:
            found.append(item)
    return found, missing


def step_size(size: str, step: int) -> str:
    """42 → 43 (or 41), m → l (or s), US 9 → US 10; "" when the size cannot step."""
    system, _, value = size.rpartition(" ") if size[:2] in ("US", "UK") else ("", "", size)
    if system:
        stepped_number = step_size(value.removeprefix("W"), step)
        women = "W" if value.startswith("W") else ""
        return f"{system} {women}{stepped_number}" if stepped_number else ""
    value = fold(value)
    try:
        number = float(value)
    except ValueError:
        if value in LETTER_SIZES:
            index = LETTER_SIZES.index(value) + step
            return LETTER_SIZES[index].upper() if 0 <= index < len(LETTER_SIZES) else ""
        return ""
    stepped = number + step
    return f"{stepped:g}" if stepped > 0 else ""


def message_exclusions(plan: Reading) -> dict[str, list[str]]:
    """Hard dislikes said in this message, as request-scoped exclusions of the search. A soft
    one ("not a fan of X") only demotes: the profile stage ranks it lower, never filters."""
    said: list[StatedPreference | SessionConstraint] = [*plan.stated, *plan.constraints]
    return {
        item.slug: slug_terms(item.slug, item.keywords)
        for item in said
        if item.polarity is Polarity.DISLIKE and item.strength is Strength.HARD
    }


def message_wants(plan: Reading) -> dict[str, list[str]]:
    """Attributes this message asks the running search for (likes of this request only)."""
    return {
        item.slug: slug_terms(item.slug, item.keywords)
        for item in plan.stated
        if item.polarity is Polarity.LIKE and item.scope == "request"
    }


def _without_retracted(exclusions: dict[str, list[str]], plan: Reading) -> dict[str, list[str]]:
    """`exclusions` minus what this message takes back: retracted dislikes, and a brand it
    asks for ("算了，还是飞利浦的吧" after "不要飞利浦的" is a change of mind, not a search
    that excludes and requires Philips at once)."""
    taken_back = {key.rsplit(":", 1)[-1] for key in plan.retracted} | set(plan.brands)
    return {slug: terms for slug, terms in exclusions.items() if slug not in taken_back}


def _refine(
    search: ActiveSearch,
    followup: Followup,
    refs: list[ShownItem],
    session: SessionPrefState,
    slots: dict[str, str],
    asked_brands: list[str],
) -> ActiveSearch:
    """The active search with this refinement's constraint added (page 1)."""
    update: dict[str, object] = {"page": 1, "shown_models": []}
    basis = refs or session.shortlist
    prices = [item.price_base for item in basis]
    if followup.price == "lower" and prices:
        update["max_price_base"] = round(min(prices) - PRICE_STEP, 2)
        update["min_price_base"] = None
    elif followup.price == "higher" and prices:
        update["min_price_base"] = round(max(prices) + PRICE_STEP, 2)
        update["max_price_base"] = None
    exclusions = dict(search.exclusions)
    focus = refs or session.shortlist[:1]
    if "brand" in followup.other:
        brands = search.brands or [item.brand for item in focus if item.brand]
        for brand in brands:
            exclusions[fold(brand)] = [brand]
        update["brands"] = []
    if "color" in followup.other:
        for item in focus:
            for color in item.colors:
                exclusions[fold(color)] = [color]
    if "model" in followup.other:
        update["shown_models"] = [item.model for item in focus if item.model]
    update["exclusions"] = exclusions
    if followup.size_step and slots.get("size"):
        stepped = step_size(slots["size"], 1 if followup.size_step == "up" else -1)
        if stepped:
            slots["size"] = stepped
    if followup.sort is not None:
        update["sort"] = followup.sort
    new_words = [w for w in followup.narrow if fold(w) not in fold(search.phrase)]
    if new_words:
        update["phrase"] = " ".join([search.phrase, *new_words])
    if asked_brands:
        update["brands"] = asked_brands
    return search.model_copy(update=update)


def carried_specs(active: RequestSpecs, said: RequestSpecs) -> RequestSpecs:
    """The active search's specs with this message's: a newly said attribute replaces the
    old one's spec ("longer than 5 m" after "longer than 3 m"), a new order replaces the
    old order."""
    numeric_said = {s.attribute for s in said.numeric}
    labels_said = {s.attribute for s in said.labels}
    new_order = said.sort is not None or said.cheapest
    return RequestSpecs(
        numeric=[s for s in active.numeric if s.attribute not in numeric_said] + said.numeric,
        labels=[s for s in active.labels if s.attribute not in labels_said] + said.labels,
        sort=said.sort if new_order else active.sort,
        cheapest=said.cheapest if new_order else active.cheapest,
        unchecked=list(dict.fromkeys([*active.unchecked, *said.unchecked])),
    )


def _continue(
    search: ActiveSearch,
    followup: Followup | None,
    refs: list[ShownItem],
    session: SessionPrefState,
    slots: dict[str, str],
    plan: Reading,
) -> ActiveSearch:
    exclusions = _without_retracted({**search.exclusions, **message_exclusions(plan)}, plan)
    wanted = {**search.wanted, **message_wants(plan)}
    search = search.model_copy(
        update={
            "exclusions": exclusions,
            "wanted": wanted,
            "specs": carried_specs(search.specs, plan.specs),
        }
    )
    if followup is None:
        # A bare size / budget / preference / answer: the same search with the new facts.
        return search.model_copy(update={"page": 1, "shown_models": []})
    if followup.kind == "refine":
        return _refine(search, followup, refs, session, slots, plan.brands)
    if followup.kind == "more":
        return search.model_copy(update={"page": search.page + max(followup.page_delta, 1)})
    if followup.kind == "sort" and followup.sort is not None:
        return search.model_copy(update={"sort": followup.sort, "page": 1, "shown_models": []})
    return search.model_copy(update={"page": 1, "shown_models": []})


def resolve(
    plan: Reading,
    session: SessionPrefState,
    *,
    query: str,
    slots: dict[str, str],
    plan_slots: dict[str, str],
) -> Resolution:
    """This turn's search and references. `query` is what the planner node would search
    without the conversation; `slots` the merged slots, `plan_slots` this message's own."""
    active = session.active_search
    followup = plan.followup
    named = plan.product_type
    asked_types = requested_types(plan)
    if active is not None and asked_types and active.product_types:
        # The catalog knows both: "what about mixed nuts?" leaves running shoes even when
        # the lexicon has no noun for nuts.
        same_type = any(t in active.product_types for t in asked_types)
        named = named or plan.query
    else:
        same_type = active is not None and (not named or same_product_type(named, active))

    answers_from_listings = followup is not None and (
        followup.kind in NO_SEARCH_KINDS
        or (followup.kind == "cheapest" and (not plan.query or bool(followup.refs)))
    )
    # "does the first one contain nuts?" asks about a shown item even though it names a
    # product noun: a reference to shown items outranks the words around it.
    about_shown = followup is not None and bool(followup.refs)
    if (
        followup is not None
        and answers_from_listings
        and session.shortlist
        and (not named or about_shown)
    ):
        refs, missing = resolve_refs(followup.refs, session, default=0)
        if followup.kind == "compare" and not followup.refs:
            refs, missing = session.shortlist[:COMPARED_BY_DEFAULT], []
        return Resolution(
            kind=followup.kind,
            search=active,
            refs=refs,
            missing_refs=missing,
            slots=slots,
            followup=followup,
        )

    # "Where is X cheapest" names what to price: a search for X, even while on X's type.
    asks_cheapest_of = followup is not None and followup.kind == "cheapest" and bool(plan.query)
    if active is not None and same_type and not asks_cheapest_of:
        # A follow-up, a bare size or budget, an answer or a preference, or a message that
        # only re-runs the session's search; never small talk.
        builds_on = (
            followup is not None
            or bool(plan_slots)
            or plan.intent in ("answer", "preference")
            or (not plan.query and bool(query))
        )
        if builds_on and (not named or followup is not None):
            default = 0 if followup is not None and followup.kind == "similar" else None
            refs, missing = resolve_refs(
                followup.refs if followup else [], session, default=default
            )
            search = _continue(active, followup, refs, session, slots, plan)
            return Resolution(
                kind=followup.kind if followup else "refine",
                search=search,
                runs_search=True,
                refs=refs,
                missing_refs=missing,
                slots=slots,
                similar_to=refs[0].key if followup and followup.kind == "similar" and refs else "",
                followup=followup,
            )

    if not query:
        return Resolution(search=active, slots=slots, followup=followup)
    switching = active is not None and not same_type
    carried = (
        _without_retracted(active.exclusions, plan) if active is not None and same_type else {}
    )
    search = ActiveSearch(
        product_type=named,
        phrase=query,
        product_types=asked_types,
        domain=type_domain(asked_types) or plan.domain or session.category,
        brands=plan.brands,
        exclusions={**carried, **message_exclusions(plan)},
        sort=followup.sort if followup is not None and followup.sort is not None else "relevance",
        specs=plan.specs,
        kind=asked_kind(plan.query or named),
    )
    return Resolution(
        kind=followup.kind if followup is not None and followup.kind == "cheapest" else "search",
        search=search,
        runs_search=True,
        new_search=True,
        slots=dict(plan_slots) if switching else slots,
        followup=followup,
    )
