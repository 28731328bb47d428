"""What a turn with specs says: how the specs were applied and how many offers met them,
the specs nobody could check, and — for a superlative or "the cheapest" — the winner first
with every tie."""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.agent.answers import DirectAnswer
from cartwise.agent.dialogue import item_facts, shopper_currency
from cartwise.agent.spec_facts import (
    applied_line,
    quantity,
    sort_fact,
    unchecked_line,
    unordered_line,
)
from cartwise.agent.state import Candidate, Pick, TurnState
from cartwise.catalog.specs import ATTRIBUTES, RequestSpecs, SpecSort
from cartwise.recall.spec_search import PRICE_TIE, effective_sort, spec_value
from cartwise.settings import Settings
from cartwise.understanding.reading import Language


def spec_attributes(specs: RequestSpecs) -> list[str]:
    """The attributes the specs filter on, each once."""
    names = [s.attribute for s in specs.numeric] + [s.attribute for s in specs.labels]
    return list(dict.fromkeys(names))


def unstated_everywhere(specs: RequestSpecs, candidates: Sequence[Candidate]) -> list[str]:
    """Attributes of the specs that no candidate states: the catalog cannot check them."""
    return [
        a
        for a in spec_attributes(specs)
        if candidates
        and not any(
            c.product.specs.numbers.get(a) or c.product.specs.labels.get(a) for c in candidates
        )
    ]


def unordered_sort(specs: RequestSpecs, survivors: Sequence[Candidate]) -> SpecSort | None:
    """The superlative's order when none of the survivors states its attribute (so nothing
    was ordered by it); None when it applied or there is none."""
    sort = effective_sort(specs)
    if sort is None or not survivors:
        return None
    if any(spec_value(c.product, sort) is not None for c in survivors):
        return None
    return sort


def spec_applied(
    specs: RequestSpecs, survivors: Sequence[Candidate], language: Language
) -> list[str]:
    """The applied-specs line ("length > 3 m: 4 offers"), without an order that could not
    apply."""
    meeting = sum(1 for c in survivors if not c.unstated_specs)
    ordered = unordered_sort(specs, survivors) is None
    line = applied_line(specs, meeting, language, ordered=ordered)
    return [line] if line else []


def spec_notices(
    specs: RequestSpecs, survivors: Sequence[Candidate], language: Language
) -> list[str]:
    """What the shopper should know about the specs: an order no listing could be ranked by,
    and the specs nobody could check."""
    lines: list[str] = []
    unordered = unordered_sort(specs, survivors)
    if unordered is not None:
        lines.append(unordered_line(unordered, language))
    unchecked = list(specs.unchecked)
    for attribute in unstated_everywhere(specs, survivors):
        info = ATTRIBUTES.get(attribute)
        name = attribute if info is None else (info.label_zh if language == "zh" else info.label_en)
        unchecked.append(name)
    lines.append(unchecked_line(unchecked, language))
    return [line for line in lines if line]


def with_ties(picks: Sequence[Pick]) -> list[Pick]:
    """The first pick and every pick at its price (picks ordered cheapest first)."""
    if not picks:
        return []
    lowest = picks[0].candidate.product.price_base
    return [
        p
        for p in picks
        if not p.candidate.unstated_specs
        and abs(p.candidate.product.price_base - lowest) <= PRICE_TIE
    ] or list(picks[:1])


def spec_winner(
    state: TurnState, picks: Sequence[Pick], sort: SpecSort, settings: Settings
) -> DirectAnswer | None:
    """The winner of the order (and its ties), named before the list; None when the first
    pick does not state the ordered value (nothing won)."""
    first = picks[0]
    value = spec_value(first.candidate.product, sort)
    if value is None or first.candidate.unstated_specs:
        return None
    tolerance = PRICE_TIE if sort.attribute == "price" else 1e-9
    tied = [
        p
        for p in picks
        if not p.candidate.unstated_specs
        and (v := spec_value(p.candidate.product, sort)) is not None
        and abs(v - value) <= tolerance
    ]
    language = state["plan"].language
    currency = shopper_currency(state.get("slots", {}), language, settings)
    return DirectAnswer(
        kind="spec_winner",
        currency=currency,
        items=[item_facts(p, ordinal=None, currency=currency, settings=settings) for p in tied],
        order=sort_fact(sort, language),
        winner_value="" if sort.attribute == "price" else quantity(sort.attribute, value),
    )
