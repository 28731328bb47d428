"""From ranked survivors to the shortlist: one pick per model, ordered as asked, one page.

One model on several platforms is one pick carrying its offers (cheapest first); the pick
shows its cheapest offer and ranks by the best relevance any of its offers had. Models an
earlier page already showed are skipped ("more" never repeats). The order is relevance
(round-robin across platforms, so one platform cannot fill the list), price either way,
rating, review count, or — for "more like this" — similarity to a shown item's vector.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from cartwise.agent.price_compare import Offer
from cartwise.agent.state import Pick
from cartwise.catalog.model_identity import model_identity
from cartwise.catalog.specs import SpecSort
from cartwise.memory.session_state import SortOrder
from cartwise.recall.spec_search import spec_value


def offer_of(pick: Pick) -> Offer:
    return Offer.of(pick.candidate.product)


def distinct_models(ranked: Sequence[Pick]) -> list[Pick]:
    """One pick per model, in the order of each model's best-ranked offer."""
    groups: dict[str, list[Pick]] = {}
    for pick in ranked:
        groups.setdefault(model_identity(pick.candidate.product), []).append(pick)
    merged: list[Pick] = []
    for picks in groups.values():
        best = max(picks, key=lambda p: p.rank_score)
        cheapest = min(
            picks, key=lambda p: (p.candidate.product.price_base, p.candidate.product.platform)
        )
        offers = sorted((offer_of(p) for p in picks), key=lambda o: (o.price_base, o.platform))
        # The why is the shown (cheapest) offer's own: a rating or size it names is that
        # listing's, the one its card's stars and sizes show.
        merged.append(cheapest.model_copy(update={"rank_score": best.rank_score, "offers": offers}))
    merged.sort(key=lambda p: (-p.rank_score, p.candidate.product.key))
    return merged


def round_robin_by_platform(ranked: Sequence[Pick], limit: int) -> list[Pick]:
    """Take the best of each platform in turn (platforms ordered by their best pick)."""
    queues: dict[str, list[Pick]] = {}
    for pick in ranked:
        queues.setdefault(pick.candidate.product.platform, []).append(pick)
    chosen: list[Pick] = []
    while len(chosen) < limit and any(queues.values()):
        for queue in queues.values():
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    return chosen


def _sorted(picks: list[Pick], sort: SortOrder) -> list[Pick]:
    def product_key(pick: Pick) -> str:
        return pick.candidate.product.key

    if sort == "price_asc":
        return sorted(
            picks, key=lambda p: (p.candidate.product.price_base, -p.rank_score, product_key(p))
        )
    if sort == "price_desc":
        return sorted(
            picks, key=lambda p: (-p.candidate.product.price_base, -p.rank_score, product_key(p))
        )
    if sort == "rating":
        return sorted(
            picks,
            key=lambda p: (-(p.candidate.product.rating or -1.0), -p.rank_score, product_key(p)),
        )
    return sorted(
        picks, key=lambda p: (-(p.candidate.product.reviews or -1), -p.rank_score, product_key(p))
    )


def by_spec(picks: list[Pick], sort: SpecSort) -> list[Pick]:
    """A superlative's order: listings meeting the specs before the unstated top-up; within
    each, the stated values best first, listings that do not state the attribute last."""
    sign = -1.0 if sort.descending else 1.0

    def key(pick: Pick) -> tuple[bool, bool, float, float, str]:
        value = spec_value(pick.candidate.product, sort)
        return (
            pick.candidate.unstated_specs,
            value is None,
            sign * value if value is not None else 0.0,
            -pick.rank_score,
            pick.candidate.product.key,
        )

    return sorted(picks, key=key)


def arrange(
    ranked: Sequence[Pick],
    *,
    limit: int,
    sort: SortOrder = "relevance",
    skip_models: Collection[str] = (),
    similarity: Mapping[str, float] | None = None,
    spec_sort: SpecSort | None = None,
) -> list[Pick]:
    """The shortlist: distinct models not in `skip_models`, ordered, at most `limit`. A
    spec's superlative ("the lightest", "the cheapest … with …") orders unless the shopper
    asked for another order since (a sort follow-up)."""
    models = [
        p for p in distinct_models(ranked) if model_identity(p.candidate.product) not in skip_models
    ]
    if similarity is not None:
        models.sort(
            key=lambda p: (
                -max(similarity.get(o.platform + ":" + o.item_id, -1.0) for o in p.offers),
                p.candidate.product.key,
            )
        )
        return models[:limit]
    if spec_sort is not None and sort == "relevance":
        return by_spec(models, spec_sort)[:limit]
    if sort == "relevance":
        # Relevance already ranks a listing that does not state an asked spec lower.
        return round_robin_by_platform(models, limit)
    # An order ("by price") ranks the listings that meet the specs; those that do not say
    # follow them.
    meeting = [p for p in models if not p.candidate.unstated_specs]
    unstated = [p for p in models if p.candidate.unstated_specs]
    return (_sorted(meeting, sort) + _sorted(unstated, sort))[:limit]
