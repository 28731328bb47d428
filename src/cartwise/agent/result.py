"""`TurnResult`: what one turn produced — also the `cartwise ask --json` object and the
AG-UI STATE_SNAPSHOT (minus `reply`). Keep its shape stable: the web page, the API tests
and replay scripts read it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from cartwise.agent.price_compare import PriceComparison
from cartwise.agent.state import DemotedOption, Pick
from cartwise.memory.session_state import RejectedOption, SessionPrefState
from cartwise.memory.store import PreferenceEntry
from cartwise.understanding.base import Language


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

    @classmethod
    def of(cls, pick: Pick) -> ProductOut:
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
        )


class Personalization(BaseModel):
    """Whether the user tower shaped this turn's searches, and with which likes."""

    active: bool = False
    likes: list[str] = Field(default_factory=list)
    """Slugs of the like preferences in the profile."""


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
    rejected: list[RejectedOption] = Field(default_factory=list)
    """Candidates the hard filters eliminated this turn, with mechanical reasons."""
    demoted: list[DemotedOption] = Field(default_factory=list)
    """Candidates ranked lower (not eliminated) for a soft dislike, with the reason."""
    recipient: str = "self"
    """Whom the turn shopped for: whose long-term preferences applied."""
    questions: list[str] = Field(default_factory=list)
    """Clarifying questions asked this turn (at most one)."""
    memory: MemoryOut
    timings: dict[str, float] = Field(default_factory=dict)
    """Milliseconds per stage (understanding, profile, searching, picking, replying,
    remembering) and `total`."""

    def snapshot(self) -> dict[str, Any]:
        """The STATE_SNAPSHOT payload: this object as JSON, minus the reply."""
        return self.model_dump(mode="json", exclude={"reply"})
