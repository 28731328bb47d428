"""Per-run mutable state of one turn (`TurnState`) vs the read-only run context (`RunContext`).

The graph's nodes read `TurnState` and return partial updates; the stores, the index, the
engine and the event sink never change during a run and reach the nodes through the workflow's
runtime context, not through the state (PAI's GraphAgentState vs GraphAgentDeps).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, TypedDict

from pydantic import BaseModel, Field

from cartwise.agent.answers import DirectAnswer
from cartwise.agent.followups import Resolution
from cartwise.agent.price_answers import PriceAnswer
from cartwise.agent.price_compare import Offer, PriceComparison
from cartwise.catalog.product import Product
from cartwise.embedding.base import Vector
from cartwise.memory.price_facts import ModelPriceFacts, PriceFacts
from cartwise.memory.session_state import (
    ChatMessage,
    RejectedOption,
    RejectionCode,
    SessionPrefState,
)
from cartwise.memory.store import PreferenceEntry
from cartwise.recall.indexes.base import SearchFilters
from cartwise.understanding.base import CatalogGap
from cartwise.understanding.reading import Language, Reading

if TYPE_CHECKING:
    from cartwise.agent.deps import AgentDeps
    from cartwise.agent.events import EventSink


class Candidate(BaseModel):
    """One search hit as item_picker sees it."""

    product: Product
    score: float
    """Fused relevance the index returned for this turn's request."""
    score_query: float = 0.0
    """Similarity to the query alone (query tower)."""
    score_user: float = 0.0
    """Similarity to the like-only profile (user tower); 0 when personalization is off."""
    score_lexical: float = 0.0
    unstated_specs: bool = False
    """The listing breaks none of the search's specs but does not state one of them (a
    top-up after every listing that meets them)."""


class Pick(BaseModel):
    """A candidate that survived the hard filters and made the shortlist."""

    candidate: Candidate
    rank_score: float
    """Relevance (scaled to the turn's best hit) adjusted by rating and fit (likes matched)."""
    why: list[str] = Field(default_factory=list)
    """Human-readable reasons, in the user's language."""
    offers: list[Offer] = Field(default_factory=list)
    """Every surviving offer of the same model (this one included), cheapest first."""
    demoted_for: list[str] = Field(default_factory=list)
    """Soft-dislike terms the listing mentions (each lowered its rank)."""


class DemotedOption(BaseModel):
    """A candidate ranked lower for a soft dislike: still offered, never eliminated."""

    platform: str
    item_id: str
    title: str
    reason: str
    """Why, in the user's language ("ranked lower: you're not keen on purple")."""


class MemoryUpdate(BaseModel):
    """What the curator changed this turn."""

    added: list[PreferenceEntry] = Field(default_factory=list)
    superseded: list[PreferenceEntry] = Field(default_factory=list)
    long_term: list[PreferenceEntry] = Field(default_factory=list)
    """All of the user's entries after the turn."""
    session: SessionPrefState
    """P_t after the turn."""


def merge_timings(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    return {**left, **right}


class SearchTask(TypedDict):
    """The payload one per-platform search node gets through `Send`."""

    platform: str
    query: str
    profile: str
    """Like-only profile text computed once by the profile node ("" = no personalization)."""
    profile_vector: Vector | None
    """`profile`'s user-tower vector, made from the stored likes' vectors (None: embed it)."""
    filters: SearchFilters
    budget_probe: SearchFilters | None
    """`filters` without the budget's price bounds, for the probe of what the budget leaves
    out (None: no budget)."""
    page: int
    """The active search's page ("more" searches deeper)."""
    kind: str
    """The kind of product asked for ("" for none): its listings rank first."""


class TurnState(TypedDict, total=False):
    """Everything one turn accumulates; nodes return partial updates of it."""

    user: str
    thread: str
    message: str
    source_turn: str
    page_language: Language
    """The language of the page the shopper types in, when it says: the turn answers in it."""
    session: SessionPrefState
    memory: list[PreferenceEntry]
    history: list[ChatMessage]
    plan: Reading
    query: str
    domain: str
    slots: dict[str, str]
    profile: str
    profile_vector: Vector | None
    """`profile`'s user-tower vector when it is made of stored likes alone (None: embed it)."""
    likes: list[str]
    like_terms: list[str]
    exclude_terms: list[str]
    excluded: dict[str, list[str]]
    demote_terms: list[str]
    demoted_prefs: dict[str, list[str]]
    """Slug → keywords of the soft dislikes behind `demote_terms` the turn names."""
    excluded_more: int
    """Stored hard dislikes behind `exclude_terms` that `excluded` does not name."""
    demoted_more: int
    """Stored soft dislikes behind `demote_terms` that `demoted_prefs` does not name."""
    preference_block: str
    platforms: list[str]
    filters: SearchFilters
    """The index filters, the budget's price bounds included."""
    budget_probe: SearchFilters | None
    """`filters` without the budget's price bounds (None: no budget)."""
    search_started_at: float
    """perf_counter() when the searching stage began (it spans the parallel searches)."""
    candidates: Annotated[list[Candidate], operator.add]
    personalization: Annotated[list[bool], operator.add]
    picks: list[Pick]
    rejected: list[RejectedOption]
    demoted: list[DemotedOption]
    filtered_out: dict[RejectionCode, int]
    applied: list[str]
    notices: list[str]
    """What the shopper should know about how the results were found (an order no listing
    could be ranked by, specs nobody could check), said as is."""
    price_compare: list[PriceComparison]
    question: str
    vague_request: bool
    """The message asks for something without naming any kind of product."""
    catalog_gap: CatalogGap | None
    answered_questions: list[str]
    """Open questions (verbatim) this turn answers beyond slot questions ("what kind?")."""
    resolution: Resolution
    """What this turn does with the conversation (active search, references)."""
    answer: DirectAnswer
    """A direct answer the reply leads with (cheapest offer, compare, details), if any."""
    price_facts: dict[str, PriceFacts]
    model_lows: dict[str, ModelPriceFacts]
    """`platform:item_id` → the 90-day low of the pick's model over its offers found."""
    """`platform:item_id` → price-history facts of the picks that have a history."""
    price_answer: PriceAnswer
    """The answer to a price follow-up ("is this a good price", a watch), if any."""
    reply: str
    memory_update: MemoryUpdate
    timings: Annotated[dict[str, float], merge_timings]


@dataclass(frozen=True)
class RunContext:
    """Read-only for the whole run: the dependencies and where events go."""

    deps: AgentDeps
    sink: EventSink
