"""Search with a request's specs: never a listing that breaks one, meeting listings ahead
of those that do not say, and the spec's order (a superlative, or "the cheapest X with Y"
with every tie).

Decision on "unknown" (a listing that does not state an asked attribute): a listing that
*violates* a spec (states a value breaking it) is never returned. Listings that *meet* every
spec and listings that leave one unstated are searched together; a meeting listing gets
`MEETS_BONUS` on the relevance scale, so it leads unless an unstated one is far more
relevant, and every unstated result is marked so the reply can say "the listing does not
state it". Strict meets-only with unknowns appended after (the first design) lost the
Chinese queries whose gold titles simply do not state the spec ("双立人锅具三件套": the gold
set's title never says 三件) — zh MRR@10 0.773 → 0.761 on the development split — and
gained nothing on WebMall.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.catalog.specs import RequestSpecs, SpecSort, check
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.modes import SearchMode
from cartwise.recall.service import RecallService, SearchHit

MEETS_BONUS = 0.3
"""Added to a meeting listing's fused relevance (scores in [0, 1], an exact model +10): tuned
on the development splits, where 0.1–0.3 keep zh MRR@10 at hybrid's (0.773; 1.0 drops it to
0.766) and leave WebMall recall unchanged."""
SPEC_DEPTH = 2
"""A named kind of product ranks first among this many times k relevant listings before
k are kept (`SpecRequest.prefer` / the agent's search node): tuned on the development split
(1 / 2 / 3 / 5 → 81.8 / 88.4 / 88.8 / 88.4 % WebMall recall@20 in one run)."""
PRICE_TIE = 0.005
"""Prices within half a cent are the same price (every tie of "the cheapest" is returned)."""


class SpecSearchResponse(BaseModel):
    """Hits in relevance with meeting listings ahead, or in the spec's order (meeting
    listings ordered, unstated ones after them)."""

    personalization: bool
    results: list[SearchHit] = Field(default_factory=list)
    unstated: list[str] = Field(default_factory=list)
    """Keys of results that break no spec but do not state one."""
    winners: list[str] = Field(default_factory=list)
    """For a superlative or "cheapest": the keys sharing the best value, in order."""

    @property
    def meeting(self) -> int:
        return len(self.results) - len(self.unstated)


def with_specs(filters: SearchFilters | None, specs: RequestSpecs) -> SearchFilters:
    """`filters` plus the request's numeric and label specs: listings that meet them or do
    not state them (never one that violates them)."""
    base = filters or SearchFilters()
    return base.model_copy(
        update={
            "numeric_specs": list(specs.numeric),
            "label_specs": list(specs.labels),
            "spec_verdicts": ["meets", "unknown"],
        }
    )


def unstated_keys(hits: list[SearchHit], specs: RequestSpecs) -> set[str]:
    """Hits that break no spec but leave one unstated."""
    return {h.product.key for h in hits if check(h.product.specs, specs) == "unknown"}


def spec_value(product: Product, sort: SpecSort) -> float | None:
    """The value a superlative orders by: price, or the listing's best stated value."""
    if sort.attribute == "price":
        return product.price_base
    values = product.specs.numbers.get(sort.attribute)
    if not values:
        return None
    return max(values) if sort.descending else min(values)


def order_by(hits: list[SearchHit], sort: SpecSort) -> tuple[list[SearchHit], list[str]]:
    """Hits ordered by `sort` (listings that do not state the attribute last, by
    relevance), and the keys tied for first."""
    stated = [(h, v) for h in hits if (v := spec_value(h.product, sort)) is not None]
    silent = [h for h in hits if spec_value(h.product, sort) is None]
    sign = -1.0 if sort.descending else 1.0
    stated.sort(key=lambda pair: sign * pair[1])  # stable: relevance breaks ties
    if not stated:
        return silent, []
    best = stated[0][1]
    tolerance = PRICE_TIE if sort.attribute == "price" else 1e-9
    winners = [h.product.key for h, v in stated if abs(v - best) <= tolerance]
    return [h for h, _ in stated] + silent, winners


def effective_sort(specs: RequestSpecs) -> SpecSort | None:
    """ "the cheapest X with Y" sorts by price ascending; otherwise the superlative. A bare
    "the cheapest X" / "where is X cheapest" without a spec to meet is a price comparison
    of the best match's offers (the dialogue's "cheapest" answer), not an order."""
    if specs.cheapest:
        has_filter = bool(specs.numeric or specs.labels)
        return (
            SpecSort(attribute="price", descending=False, text="cheapest") if has_filter else None
        )
    return specs.sort


def search_with_specs(
    service: RecallService,
    query: str,
    specs: RequestSpecs,
    *,
    k: int = 10,
    filters: SearchFilters | None = None,
    profile: str | None = None,
    mode: SearchMode = "hybrid",
    depth: int | None = None,
    prefer: Callable[[list[SearchHit]], list[SearchHit]] | None = None,
) -> SpecSearchResponse:
    """Top-k for `query` within `specs` (meeting listings ahead, see the module doc), in the
    spec's order. `prefer` may rearrange the `depth` most relevant (≥ k) before the cut to k (the
    asked kind first, never a referenced listing itself). The order applies within the k
    kept: a superlative ranks what the shopper asked for, not the whole catalog's extreme."""
    depth = max(depth or k, k)
    has_filter = bool(specs.numeric or specs.labels)
    searched = with_specs(filters, specs) if has_filter else filters
    response = service.search(query, k=depth, filters=searched, profile=profile, mode=mode)
    unstated = unstated_keys(response.results, specs) if has_filter else set()
    hits = sorted(
        response.results,
        key=lambda h: -(h.score + (0.0 if h.product.key in unstated else MEETS_BONUS)),
    )
    if prefer is not None:
        hits = prefer(hits)
    hits = hits[:k]
    sort = effective_sort(specs)
    winners: list[str] = []
    if sort is not None:
        ordered, winners = order_by([h for h in hits if h.product.key not in unstated], sort)
        hits = ordered + [h for h in hits if h.product.key in unstated]
    return SpecSearchResponse(
        personalization=response.personalization,
        results=hits,
        unstated=[h.product.key for h in hits if h.product.key in unstated],
        winners=winners,
    )
