"""Search with a request's specs: strict filter, top-up with listings that do not say, and
the spec's order (a superlative, or "the cheapest X with Y" with every tie).

Decision on "unknown" (a listing that does not state an asked attribute): the filter is
strict — only listings that *meet* every spec come first. When fewer than k do, the search
tops up with listings that break no spec but leave one unstated, ranked after every meeting
one and marked, so the reply can say "the listing does not state it". A listing that states
a value breaking a spec ("violates") is never returned. Shoppers read a missing cable length
as "maybe"; a wrong one as a mistake.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.catalog.specs import RequestSpecs, SpecSort
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.service import RecallService, SearchHit, SearchMode

PRICE_TIE = 0.005
"""Prices within half a cent are the same price (every tie of "the cheapest" is returned)."""


class SpecSearchResponse(BaseModel):
    """Hits in the spec's order: meeting listings first, then the unstated top-up."""

    personalization: bool
    results: list[SearchHit] = Field(default_factory=list)
    unstated: list[str] = Field(default_factory=list)
    """Keys of results that break no spec but do not state one (the top-up)."""
    winners: list[str] = Field(default_factory=list)
    """For a superlative or "cheapest": the keys sharing the best value, in order."""

    @property
    def meeting(self) -> int:
        return len(self.results) - len(self.unstated)


def with_specs(filters: SearchFilters | None, specs: RequestSpecs) -> SearchFilters:
    """`filters` plus the request's numeric and label specs (strict)."""
    base = filters or SearchFilters()
    return base.model_copy(
        update={
            "numeric_specs": list(specs.numeric),
            "label_specs": list(specs.labels),
            "spec_verdicts": ["meets"],
        }
    )


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
    """Top-k for `query` meeting `specs`, topped up with unstated listings, in the spec's
    order. `prefer` may rearrange the `depth` most relevant (≥ k) before the cut to k (the
    asked kind first, never a referenced listing itself). The order applies within the k
    kept: a superlative ranks what the shopper asked for, not the whole catalog's extreme."""
    depth = max(depth or k, k)
    unstated: set[str] = set()
    if not (specs.numeric or specs.labels):
        response = service.search(query, k=depth, filters=filters, profile=profile, mode=mode)
        hits = list(response.results)
    else:
        strict = with_specs(filters, specs)
        response = service.search(query, k=depth, filters=strict, profile=profile, mode=mode)
        meeting = list(response.results)
        extra: list[SearchHit] = []
        if len(meeting) < depth:
            top_up = strict.model_copy(update={"spec_verdicts": ["unknown"]})
            extra = service.search(
                query, k=depth - len(meeting), filters=top_up, profile=profile, mode=mode
            ).results
        if prefer is not None:
            meeting, extra = prefer(meeting), prefer(extra)
        hits = meeting + extra
        unstated = {h.product.key for h in extra}
    if prefer is not None and not (specs.numeric or specs.labels):
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
