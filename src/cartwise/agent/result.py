"""`TurnResult`: what one turn produced — also the `cartwise ask --json` object and the
AG-UI STATE_SNAPSHOT (minus `reply`). Keep its shape stable: the web page, the API tests
and replay scripts read it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from cartwise.agent.answers import DirectAnswer
from cartwise.agent.followups import Resolution, ResolvedKind
from cartwise.agent.price_answers import PriceAnswer, PriceHistoryOut
from cartwise.agent.price_compare import Offer, PriceComparison
from cartwise.agent.state import DemotedOption, Pick
from cartwise.memory.price_facts import Deal, ModelPriceFacts, PriceFacts
from cartwise.memory.prices import Alert
from cartwise.memory.session_state import (
    ActiveSearch,
    RejectedOption,
    SessionPrefState,
    ShownItem,
    SortOrder,
)
from cartwise.memory.store import PreferenceEntry
from cartwise.understanding.base import CatalogGap
from cartwise.understanding.reading import Language


class ProductOut(BaseModel):
    """One picked product, with its score parts and why it was picked."""

    platform: str
    item_id: str
    title: str
    brand: str
    price: float
    """As listed, in `currency`."""
    currency: str
    price_base: float
    """In the base currency (CNY)."""
    url: str
    image_url: str
    rating: float | None
    score: float
    """Final rank score (relevance scaled to the turn's best hit, plus rating and fit)."""
    score_query: float
    """Cosine similarity to the query (query tower)."""
    score_user: float
    """Cosine similarity to the like-only profile (user tower); 0 when not personalized."""
    why: list[str]
    offers: list[Offer] = Field(default_factory=list)
    """Every offer of this model found this turn (this one included), cheapest first by
    `price_base`: the same model on several platforms is one product with several offers."""
    in_stock: bool = True
    history: PriceHistoryOut | None = None
    """This offer's price history (lows, usual price, changes recorded, chart), in its own
    currency; None when it has none."""
    deal: Deal | None = None
    """Today's price against its history: lowest_90d, below_usual, usual or above_usual."""
    was_price: float | None = None
    """The "was" (crossed-out) price the listing states, when it states one."""
    was_price_seen: bool | None = None
    """Whether `was_price` was actually charged in the last 180 days (None: no was price,
    or no history)."""
    model_lowest_90d: ModelPriceFacts | None = None
    """The lowest 90-day price of this model over every offer of it found this turn, in the
    base currency, with the day and the offer that had it."""

    @classmethod
    def of(
        cls,
        pick: Pick,
        facts: PriceFacts | None = None,
        model_low: ModelPriceFacts | None = None,
    ) -> ProductOut:
        product = pick.candidate.product
        return cls(
            platform=product.platform,
            item_id=product.item_id,
            title=product.title,
            brand=product.brand,
            price=product.price,
            currency=product.currency,
            price_base=product.price_base,
            url=product.url,
            image_url=product.image_url,
            rating=product.rating,
            score=pick.rank_score,
            score_query=round(pick.candidate.score_query, 6),
            score_user=round(pick.candidate.score_user, 6),
            why=pick.why,
            offers=pick.offers,
            in_stock=product.in_stock,
            history=PriceHistoryOut.of(facts) if facts is not None else None,
            deal=facts.deal if facts is not None else None,
            was_price=facts.was_price if facts is not None else None,
            was_price_seen=facts.was_price_seen if facts is not None else None,
            model_lowest_90d=model_low,
        )


class Personalization(BaseModel):
    """Whether the user tower shaped this turn's searches, and with which likes."""

    active: bool = False
    likes: list[str] = Field(default_factory=list)
    """Slugs of the like preferences in the profile."""


class DialogueOut(BaseModel):
    """Where the conversation stands: the search results live in, and what was referred to."""

    followup: ResolvedKind = "none"
    """What this turn did with the conversation: search (a fresh one), refine, more, similar,
    sort, compare, details, cheapest, or none (nothing to search)."""
    active_search: ActiveSearch | None = None
    """The search later refinements build on (product type, phrase, filters, sort, page)."""
    sort: SortOrder = "relevance"
    page: int = 1
    reference: list[ShownItem] = Field(default_factory=list)
    """The shown items this message referred to ("the 2nd", "that one"), resolved."""
    missing_reference: list[int] = Field(default_factory=list)
    """Ordinals that pointed at nothing shown."""
    answer: DirectAnswer | None = None
    """The direct answer the reply led with (cheapest offer, compare, details), as data."""

    @classmethod
    def of(
        cls, resolution: Resolution | None, answer: DirectAnswer | None, session: SessionPrefState
    ) -> DialogueOut:
        if resolution is None:
            return cls(active_search=session.active_search)
        # The turn's own search (a "more" past the last page is not kept, but was asked).
        search = resolution.search if resolution.runs_search else session.active_search
        return cls(
            followup=resolution.kind,
            active_search=search,
            sort=search.sort if search is not None else "relevance",
            page=search.page if search is not None else 1,
            reference=resolution.refs,
            missing_reference=resolution.missing_refs,
            answer=answer,
        )


class ShopperCurrency(BaseModel):
    """The currency the reply quotes prices in, so every surface shows the same one."""

    code: str
    """The budget's currency, else the reply language's (CNY for Chinese, USD for English)."""
    to_base: float
    """What one unit is worth in the base currency (7.12 for USD when the base is CNY):
    a price in it is `price_base / to_base`, rounded to the cent, as the reply rounds."""


class MemoryOut(BaseModel):
    """Memory as it stands after the curator ran."""

    long_term: list[PreferenceEntry] = Field(default_factory=list)
    session: SessionPrefState


class TurnResult(BaseModel):
    """Everything one turn produced."""

    reply: str
    language: Language
    products: list[ProductOut] = Field(default_factory=list)
    price_compare: list[PriceComparison] = Field(default_factory=list)
    personalization: Personalization = Field(default_factory=Personalization)
    shopper_currency: ShopperCurrency | None = None
    """The currency the reply's prices are in (None: the turn quoted no price)."""
    rejected: list[RejectedOption] = Field(default_factory=list)
    """Candidates the hard filters eliminated this turn, with mechanical reasons."""
    demoted: list[DemotedOption] = Field(default_factory=list)
    """Candidates ranked lower (not eliminated) for a soft dislike, with the reason."""
    recipient: str = "self"
    """Whom the turn shopped for: whose long-term preferences applied."""
    questions: list[str] = Field(default_factory=list)
    """Clarifying questions asked this turn (at most one)."""
    catalog_gap: CatalogGap | None = None
    """Set when the catalog carries nothing of the requested product type (no products are
    shown then); None when it does, or when nothing was asked for."""
    dialogue: DialogueOut = Field(default_factory=DialogueOut)
    applied: list[str] = Field(default_factory=list)
    """What shaped the results, as the reply says it: budget, size, brands, likes, and the
    specs ("length > 3 m, cheapest first: 4 offers"). The specs
    themselves, as data, are `dialogue.active_search.specs`."""
    notices: list[str] = Field(default_factory=list)
    """What the shopper should know about how the results were found: an order no listing
    could be ranked by ("none of these states its read speed"), specs nobody could check."""
    unstated: list[str] = Field(default_factory=list)
    """`platform:item_id` of products that do not state an asked spec (shown after every
    product that meets the specs)."""
    price_answer: PriceAnswer | None = None
    """The answer to a price follow-up (is this a good price, its lowest, a watch made)."""
    alerts: list[Alert] = Field(default_factory=list)
    """The shopper's alerts raised since their last turn (also sent as the CUSTOM event
    `price_alerts` at the start of this run); each is delivered once."""
    memory: MemoryOut
    timings: dict[str, float] = Field(default_factory=dict)
    """Milliseconds per stage (understanding, profile, searching, picking, replying,
    remembering) and `total`."""

    def snapshot(self) -> dict[str, Any]:
        """The STATE_SNAPSHOT payload: this object as JSON, minus the reply."""
        return self.model_dump(mode="json", exclude={"reply"})
