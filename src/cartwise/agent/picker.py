"""item_picker: hard filters, then ranking with diversity across platforms.

Hard filters run in a fixed order and the first one that fails names the reason:
out of stock, an excluded term (long-term and session dislikes), the budget slot (on
`price_base`), the size slot (only for products that list sizes). Every eliminated candidate
becomes a `RejectedOption` with a mechanical reason, recorded in the turn's accumulator —
zero model tokens, exact, and never a dislike (a phone rejected for its price says nothing
about its brand).

Survivors are ranked by the fused retrieval score, nudged by rating and by fit (how many of
the shopper's likes the listing mentions), then shortlisted as distinct models (one pick per model
carrying its offers), round-robin across platforms so one platform cannot fill the whole
reply, or in the order the shopper asked for (`cartwise.agent.shortlist`).

Soft dislikes ("我不太喜欢紫色", "not a fan of purple") are not filters: a listing that
mentions one is ranked lower by `DEMOTE_WEIGHT` per disliked term, says so in its why
("ranked lower: you're not keen on purple"), and is reported as a `DemotedOption` — never a
`RejectedOption`, which records hard eliminations only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from cartwise.agent.context import record_rejection
from cartwise.agent.rejections import reason_text, rejection_params
from cartwise.agent.shortlist import arrange
from cartwise.agent.state import Candidate, DemotedOption, Pick
from cartwise.catalog.product import Domain
from cartwise.catalog.sizes import canonical_size, offers_size, shoe_size_eu
from cartwise.catalog.specs import ATTRIBUTES, SpecSort
from cartwise.catalog.terms import TermMatcher
from cartwise.log import logger
from cartwise.memory.session_state import RejectedOption, RejectionCode, SortOrder
from cartwise.recall.spec_search import MEETS_BONUS
from cartwise.settings import Settings
from cartwise.text import fold
from cartwise.understanding.budgets import BUDGET_SLOTS, budget_amount
from cartwise.understanding.reading import Language

RATING_WEIGHT = 0.02
"""Per rating point away from NEUTRAL_RATING, on relevance scaled so the best hit is 1.0: a
5.0 vs a 3.5 item moves by 0.03, a few ranks at most, so rating breaks ties, never relevance."""
NEUTRAL_RATING = 3.5
LIKE_WEIGHT = 0.04
"""Per like the listing mentions (counted up to MAX_LIKES_COUNTED)."""
MAX_LIKES_COUNTED = 3
DEMOTE_WEIGHT = 0.15
"""Per soft-disliked term the listing mentions (counted up to MAX_DEMOTIONS_COUNTED), on
the same scaled relevance: worth several likes, so a disliked item drops below comparable
ones, yet a clearly better match still shows."""
MAX_DEMOTIONS_COUNTED = 2
WANT_WEIGHT = 0.3
"""For a listing that mentions every attribute the running search was narrowed to ("要羊毛的"),
in proportion for some of them:
more than the relevance spread within one product type, so those listings lead; one that
does not say it still shows after them (its listing may simply not mention it)."""


@dataclass(frozen=True)
class Budget:
    """Budget bounds, converted to the base currency that `price_base` is in."""

    max_base: float | None = None
    min_base: float | None = None
    base_currency: str = "CNY"

    @property
    def is_set(self) -> bool:
        return self.max_base is not None or self.min_base is not None


@dataclass(frozen=True)
class PickCriteria:
    """Everything item_picker filters and ranks by, resolved for this turn."""

    exclude: TermMatcher = field(default_factory=lambda: TermMatcher(()))
    """Dislike terms (long-term, session and this message): any match eliminates."""
    like: TermMatcher = field(default_factory=lambda: TermMatcher(()))
    """Like terms (long-term, session and this message): each match raises the rank."""
    demote: TermMatcher = field(default_factory=lambda: TermMatcher(()))
    """Soft-dislike terms: each match lowers the rank; nothing is eliminated by them."""
    want: tuple[TermMatcher, ...] = ()
    """One matcher per attribute the running search was narrowed to: a listing matching more
    of them ranks higher."""
    budget: Budget = field(default_factory=Budget)
    size: str = ""
    max_picks: int = 8
    sort: SortOrder = "relevance"
    skip_models: frozenset[str] = frozenset()
    """Model identities already shown by this search ("more" skips them)."""
    similarity: Mapping[str, float] | None = None
    """For "more like this": product key → similarity to the shown item's vector."""
    spec_sort: SpecSort | None = None
    """A superlative or "cheapest" of the search's specs: the shortlist's order."""
    spec_attributes: tuple[str, ...] = ()
    """Attributes the search's specs filter on (named when a listing does not state one)."""


@dataclass
class PickOutcome:
    picks: list[Pick]
    rejected: list[RejectedOption]
    filtered_out: dict[RejectionCode, int]
    """Rejection code (over_budget, excluded_term, ...) → how many candidates it removed."""
    survivors: list[Candidate]
    """Every candidate that passed the hard filters (ranked), for price comparison."""
    demoted: list[DemotedOption] = field(default_factory=list)
    """Survivors ranked lower for mentioning a soft dislike (in rank order)."""


def budget_from_slots(slots: dict[str, str], settings: Settings) -> Budget:
    """budget_max / budget_min in budget_currency (default: base), converted to base."""
    currency = (slots.get("budget_currency") or settings.base_currency).upper()
    rate = settings.fx_to_base.get(currency)
    if rate is None:
        logger.warning("budget currency %s has no FX rate; treating it as base", currency)
        rate = 1.0
    bounds: dict[str, float | None] = {}
    for name in BUDGET_SLOTS:
        amount = budget_amount(slots.get(name, ""))
        bounds[name] = round(amount * rate, 2) if amount is not None else None
    return Budget(
        max_base=bounds["budget_max"],
        min_base=bounds["budget_min"],
        base_currency=settings.base_currency,
    )


def rejection_reason(
    candidate: Candidate, criteria: PickCriteria
) -> tuple[RejectionCode, dict[str, str]] | None:
    """(code, params) of the first hard filter the candidate fails, or None."""
    product = candidate.product
    if not product.in_stock:
        return "out_of_stock", {}
    if criteria.exclude:
        term = criteria.exclude.first_match(fold(product.searchable_text()))
        if term is not None:
            return "excluded_term", rejection_params("excluded_term", term=term)
    budget = criteria.budget
    if budget.max_base is not None and product.price_base > budget.max_base:
        return "over_budget", rejection_params(
            "over_budget",
            price=product.price_base,
            limit=budget.max_base,
            currency=budget.base_currency,
        )
    if budget.min_base is not None and product.price_base < budget.min_base:
        return "under_budget_minimum", rejection_params(
            "under_budget_minimum",
            price=product.price_base,
            limit=budget.min_base,
            currency=budget.base_currency,
        )
    shoes = product.domain is Domain.SHOES
    if (
        criteria.size
        and product.sizes
        and not offers_size(criteria.size, product.sizes, shoes=shoes)
    ):
        return "size_unavailable", rejection_params("size_unavailable", size=criteria.size)
    return None


def demotion_reason(disliked: Sequence[str], language: Language) -> str:
    names = "、".join(disliked) if language == "zh" else ", ".join(disliked)
    return (
        f"排序靠后：你不太喜欢{names}"
        if language == "zh"
        else f"ranked lower: you're not keen on {names}"
    )


EXCLUSION_WHY: dict[Language, str] = {
    "zh": "不含你排除的材质/元素",
    "en": "none of your excluded terms",
}
"""Said of an item the exclusion filter passed. The reply drops it where the listing cannot
support it (no ingredients listed for an allergen)."""


def _why(
    candidate: Candidate,
    criteria: PickCriteria,
    liked: list[str],
    disliked: list[str],
    language: Language,
) -> list[str]:
    product = candidate.product
    zh = language == "zh"
    why: list[str] = []
    if disliked:
        why.append(demotion_reason(disliked, language))
    if liked:
        why.append(("符合你的偏好：" if zh else "matches what you like: ") + "、".join(liked))
    if criteria.budget.max_base is not None:
        # The amount is said once, in the shopper's currency, by the reply (not per item in
        # the base currency).
        why.append("在预算内" if zh else "within budget")
    if criteria.size and product.sizes:
        size = criteria.size
        eu = shoe_size_eu(size) if product.domain is Domain.SHOES else canonical_size(size)
        if eu != canonical_size(size):
            size = f"{size} (EU {eu})"  # an English shoe size, converted: say to what
        why.append(f"有 {size} 码" if zh else f"size {size} available")
    if criteria.exclude:
        why.append(EXCLUSION_WHY[language])
    if product.rating is not None and product.rating >= 4.5:
        why.append(f"评分 {product.rating:.1f}" if zh else f"rated {product.rating:.1f}")
    if candidate.score_user > 0 and not liked:
        why.append("按你的喜好加权" if zh else "personalized to your likes")
    if candidate.unstated_specs and criteria.spec_attributes:
        names = [
            ATTRIBUTES[a].label_zh if zh else ATTRIBUTES[a].label_en
            for a in criteria.spec_attributes
            if a in ATTRIBUTES
            and not product.specs.numbers.get(a)
            and not product.specs.labels.get(a)
        ]
        if names:
            joined = ("、" if zh else ", ").join(dict.fromkeys(names))
            why.append(f"商品未标明{joined}" if zh else f"the listing does not state its {joined}")
    if not why:
        why.append("与需求最相关" if zh else "closest match to your request")
    return why


def _wanted_share(want: Sequence[TermMatcher], text: str) -> float:
    """How much of what the search was narrowed to a listing mentions, the latest ask
    weighing most ("any in red?" after "wool": red scarves before wool ones)."""
    weights = [2.0**i for i in range(len(want))]
    said = sum(w for w, matcher in zip(weights, want, strict=True) if matcher.first_match(text))
    return said / sum(weights) if weights else 0.0


def _rank(candidate: Candidate, liked: int, disliked: int, top_score: float) -> float:
    # Scores differ in scale by search mode (cosine, BM25, reciprocal-rank fusion), so the
    # bonuses apply to relevance relative to the best candidate of the turn.
    relevance = candidate.score / top_score if top_score > 0 else candidate.score
    rating = candidate.product.rating if candidate.product.rating is not None else NEUTRAL_RATING
    return (
        relevance
        - (MEETS_BONUS if candidate.unstated_specs else 0.0)
        + RATING_WEIGHT * (rating - NEUTRAL_RATING)
        + LIKE_WEIGHT * min(liked, MAX_LIKES_COUNTED)
        - DEMOTE_WEIGHT * min(disliked, MAX_DEMOTIONS_COUNTED)
    )


def item_picker(
    candidates: Sequence[Candidate], criteria: PickCriteria, *, language: Language = "en"
) -> PickOutcome:
    """Filter, rank and shortlist; every eliminated candidate is recorded via
    `record_rejection` (the turn's accumulator) and returned in `rejected`."""
    seen: set[str] = set()
    rejected: list[RejectedOption] = []
    filtered_out: dict[RejectionCode, int] = {}
    scored: list[Pick] = []
    top_score = max((c.score for c in candidates), default=0.0)
    for candidate in candidates:
        product = candidate.product
        if product.key in seen:
            continue
        seen.add(product.key)
        failure = rejection_reason(candidate, criteria)
        if failure is not None:
            code, params = failure
            option = RejectedOption(
                platform=product.platform,
                item_id=product.item_id,
                title=product.title,
                reason=reason_text(code, params, "en"),
                code=code,
                params=params,
            )
            record_rejection(option)
            rejected.append(option)
            filtered_out[code] = filtered_out.get(code, 0) + 1
            continue
        text = fold(product.searchable_text())
        liked = criteria.like.all_matches(text) if criteria.like else []
        disliked = criteria.demote.all_matches(text) if criteria.demote else []
        rank = _rank(candidate, len(liked), len(disliked), top_score)
        rank += WANT_WEIGHT * _wanted_share(criteria.want, text)
        scored.append(
            Pick(
                candidate=candidate,
                rank_score=round(rank, 6),
                why=_why(candidate, criteria, liked, disliked, language),
                demoted_for=disliked,
            )
        )
    scored.sort(key=lambda p: (-p.rank_score, p.candidate.product.key))
    return PickOutcome(
        picks=arrange(
            scored,
            limit=criteria.max_picks,
            sort=criteria.sort,
            skip_models=criteria.skip_models,
            similarity=criteria.similarity,
            spec_sort=criteria.spec_sort,
        ),
        rejected=rejected,
        filtered_out=filtered_out,
        survivors=[p.candidate for p in scored],
        demoted=[
            DemotedOption(
                platform=p.candidate.product.platform,
                item_id=p.candidate.product.item_id,
                title=p.candidate.product.title,
                reason=demotion_reason(p.demoted_for, language),
            )
            for p in scored
            if p.demoted_for
        ],
    )
