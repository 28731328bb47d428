"""Session state P_t: what this shopping session is about, per thread, with a TTL.

P_t has its own shape — "what am I buying, which hard facts apply, what was already
rejected, what do I still owe the shopper" — which is not the shape of long-term likes and
dislikes. `rejected_options` is written only by item_picker (mechanically, zero LLM tokens).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator

from cartwise.catalog.specs import RequestSpecs
from cartwise.errors import InvalidInput, InvalidPreference
from cartwise.memory.store import (
    SELF,
    SLUG_PATTERN,
    Category,
    Polarity,
    Strength,
    check_recipient,
    normalize_keywords,
    utcnow,
)

THREAD_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$"
"""A thread id, wherever one is created or named: 1-128 letters, digits and `_ . : -`,
starting with a letter or digit, so every thread a turn can start is one a URL path can
name again (no `/`, no `..`)."""
_THREAD_ID = re.compile(THREAD_ID_PATTERN)


def check_thread(thread: str) -> str:
    """`thread` when it is a valid thread id (see `THREAD_ID_PATTERN`); InvalidInput else."""
    if not _THREAD_ID.fullmatch(thread):
        raise InvalidInput(
            f"invalid thread id {thread[:40]!r}: 1-128 letters, digits, '_', '.', ':' or '-', "
            "starting with a letter or digit"
        )
    return thread


class SessionConstraint(BaseModel):
    """A this-session-only like/dislike (e.g. "这次不要黑色的")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    polarity: Polarity
    category: Category
    slug: str
    """Canonical identifier, same format as a long-term slug."""
    strength: Strength = Strength.HARD
    keywords: list[str] = Field(default_factory=list)
    """Surface forms for filtering, every language seen."""

    @field_validator("slug")
    @classmethod
    def _check_slug(cls, value: str) -> str:
        if not SLUG_PATTERN.fullmatch(value):
            raise InvalidPreference(
                "slug", value, "must be lowercase ASCII words joined by hyphens"
            )
        return value

    @field_validator("keywords")
    @classmethod
    def _check_keywords(cls, value: list[str]) -> list[str]:
        return normalize_keywords(value)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def key(self) -> str:
        """`category:slug`, derived. No domain: one session rarely spans domains."""
        return f"{self.category.value}:{self.slug}"


RejectionCode = Literal[
    "out_of_stock", "excluded_term", "over_budget", "under_budget_minimum", "size_unavailable"
]
"""Which hard filter eliminated a candidate; with `params`, every surface words it in its own
language (`cartwise.agent.rejections`)."""


class RejectedOption(BaseModel):
    """A candidate item_picker eliminated, and why. Never turned into a dislike."""

    model_config = ConfigDict(frozen=True)

    platform: str
    item_id: str
    title: str
    reason: str
    """The mechanical reason in English, e.g. "over budget (629 > 300 CNY)", "contains
    excluded term plastic" (kept for readers of older output; surfaces word `code`)."""
    code: RejectionCode | None = None
    """The filter that failed; None in state written before codes existed (then `reason`
    is all there is)."""
    params: dict[str, str] = Field(default_factory=dict)
    """What the reason quotes: `term` (excluded_term), `price`, `limit` and `currency` (the
    budget ones, in the base currency), `size` (size_unavailable)."""


class DecisionRecord(BaseModel):
    """An operational fact that fits nowhere else ("use the default shipping address")."""

    model_config = ConfigDict(frozen=True)

    text: str
    made_at: datetime = Field(default_factory=utcnow)


SortOrder = Literal["relevance", "price_asc", "price_desc", "rating", "reviews"]
"""How a result list is ordered: by relevance (the default), price either way, rating or
review count (both highest first)."""

MAX_SHORTLIST = 20
"""Shown items kept for references ("the 2nd", "compare 1 and 3")."""
MAX_SHOWN_MODELS = 200
"""Distinct models one active search remembers having shown ("more" never repeats them)."""


class ShownItem(BaseModel):
    """One pick of the last shortlist, as a later message may refer to it ("the 2nd")."""

    model_config = ConfigDict(frozen=True)

    platform: str
    item_id: str
    title: str
    price_base: float
    product_type: str = ""
    """Its catalog product-type slug (running_shoes), "" when the catalog has none."""
    brand: str = ""
    model: str = ""
    """Model identity (brand + model number or title), shared by its offers on every platform."""
    colors: list[str] = Field(default_factory=list)
    offers: list[str] = Field(default_factory=list)
    """`platform:item_id` of every offer of the same model shown with it (itself first)."""

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.item_id}"


class ActiveSearch(BaseModel):
    """The search the conversation is on: what refinements, "more" and sorting build on."""

    product_type: str = ""
    """The product noun it is about (跑鞋, running shoes); empty when none was named."""
    phrase: str
    """The search text."""
    product_types: list[str] = Field(default_factory=list)
    """Catalog product-type slugs the search is about: the ones the shopper named, else the
    ones its first results were. Refinements stay within them."""
    domain: str = ""
    brands: list[str] = Field(default_factory=list)
    """Brands asked for (exact filter)."""
    exclusions: dict[str, list[str]] = Field(default_factory=dict)
    """Request-scoped exclusions, slug → terms ("another brand", a dislike said while on this
    search): they hold for every refinement of this search and end with it."""
    wanted: dict[str, list[str]] = Field(default_factory=dict)
    """Attributes asked for by a refinement with no product noun ("要羊毛的", "any in red?"),
    slug → terms: listings that mention them rank first for every refinement of this search."""
    min_price_base: float | None = None
    max_price_base: float | None = None
    """Price bounds in the base currency from "cheaper" / "pricier" refinements."""
    sort: SortOrder = "relevance"
    specs: RequestSpecs = Field(default_factory=RequestSpecs)
    """The search's specs (filters, a superlative, "cheapest"): follow-ups keep them, a new
    product type starts without them."""
    kind: str = ""
    """The kind of product asked for (`catalog/data/compatibility.yml` kinds: cpu, cable,
    keyboard…), "" when none is named: listings of that kind rank first."""
    page: int = Field(default=1, ge=1)
    shown_models: list[str] = Field(default_factory=list)
    """Model identities shown on any page of this search (bounded)."""


class SessionPrefState(BaseModel):
    """P_t for one thread."""

    thread: str
    category: str = ""
    """Coarse product domain of this session (electronics, shoes, ...)."""
    current_intent: str = ""
    """A full sentence: "买一双跑步鞋 / buy running shoes"."""
    constraints: list[SessionConstraint] = Field(default_factory=list)
    slots: dict[str, str] = Field(default_factory=dict)
    """Single-valued objective facts (size=42, budget_max=500): overwrite semantics."""
    rejected_options: list[RejectedOption] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    resolved_questions: list[str] = Field(default_factory=list)
    decisions_made: list[DecisionRecord] = Field(default_factory=list)
    active_search: ActiveSearch | None = None
    shortlist: list[ShownItem] = Field(default_factory=list)
    """The last shortlist, in the order it was shown."""
    focus_item: str = ""
    """`platform:item_id` of the shown item last referred to ("that one" / 它 means it)."""
    recipient: str = SELF
    """Whom the conversation is buying for: set by the turn that named them ("给我妈买条
    围巾"), carried by later turns that name nobody ("要羊毛的" / "she hates purple" are still
    for mum), reset by "for me" / another recipient; a new thread starts with `self`."""
    updated_at: datetime = Field(default_factory=utcnow)

    _recipient = field_validator("recipient")(check_recipient)

    @property
    def is_empty(self) -> bool:
        return not (
            self.category
            or self.current_intent
            or self.constraints
            or self.slots
            or self.rejected_options
            or self.open_questions
            or self.decisions_made
            or self.active_search
            or self.shortlist
            or self.recipient != SELF
        )


class SessionPatch(BaseModel):
    """A change to P_t. Applied atomically by `SessionStore.patch` with these semantics:
    intent replaced when given; slots overwritten key by key (an empty value deletes the
    slot); constraints upserted by key; open questions added; resolved questions removed by
    exact match; decisions appended without duplicates; rejected options appended without
    duplicates by (platform, item_id) and capped; the active search, the shortlist and the
    focus item replaced when given (shortlist and shown models capped)."""

    model_config = ConfigDict(extra="forbid")

    category: str | None = None
    current_intent: str | None = None
    slots_patch: dict[str, str] = Field(default_factory=dict)
    constraints: list[SessionConstraint] = Field(default_factory=list)
    remove_constraints: list[str] = Field(default_factory=list)
    """Constraint keys (category:slug) to drop, e.g. after a retraction."""
    new_open_questions: list[str] = Field(default_factory=list)
    resolved_questions: list[str] = Field(default_factory=list)
    decisions_made: list[str] = Field(default_factory=list)
    rejected_options: list[RejectedOption] = Field(default_factory=list)
    active_search: ActiveSearch | None = None
    """Replaces the active search when given."""
    shortlist: list[ShownItem] | None = None
    """Replaces the shortlist when given (capped at MAX_SHORTLIST)."""
    focus_item: str | None = None
    recipient: str | None = None
    """Replaces the active recipient when given."""

    @field_validator("recipient")
    @classmethod
    def _check_recipient(cls, value: str | None) -> str | None:
        return None if value is None else check_recipient(value)

    @property
    def is_empty(self) -> bool:
        return self == SessionPatch()


def apply_patch(
    state: SessionPrefState, patch: SessionPatch, *, max_rejected: int
) -> SessionPrefState:
    """The pure patch semantics every backend shares (backends add atomicity around it)."""
    slots = dict(state.slots)
    for name, value in patch.slots_patch.items():
        if value == "":
            slots.pop(name, None)
        else:
            slots[name] = value

    constraints = {
        c.key: c for c in state.constraints if c.key not in set(patch.remove_constraints)
    }
    for constraint in patch.constraints:
        constraints[constraint.key] = constraint

    resolved = set(patch.resolved_questions)
    open_questions = [q for q in state.open_questions if q not in resolved]
    for question in patch.new_open_questions:
        if question not in open_questions and question not in resolved:
            open_questions.append(question)
    resolved_history = [*state.resolved_questions]
    for question in patch.resolved_questions:
        if question in state.open_questions and question not in resolved_history:
            resolved_history.append(question)

    decisions = list(state.decisions_made)
    known = {d.text for d in decisions}
    for text in patch.decisions_made:
        if text not in known:
            decisions.append(DecisionRecord(text=text))
            known.add(text)

    rejected = list(state.rejected_options)
    seen = {(r.platform, r.item_id) for r in rejected}
    for option in patch.rejected_options:
        if (option.platform, option.item_id) not in seen:
            rejected.append(option)
            seen.add((option.platform, option.item_id))
    rejected = rejected[-max_rejected:]

    active = patch.active_search if patch.active_search is not None else state.active_search
    if active is not None and len(active.shown_models) > MAX_SHOWN_MODELS:
        active = active.model_copy(update={"shown_models": active.shown_models[-MAX_SHOWN_MODELS:]})
    shortlist = patch.shortlist if patch.shortlist is not None else state.shortlist

    return state.model_copy(
        update={
            "category": patch.category if patch.category is not None else state.category,
            "current_intent": (
                patch.current_intent if patch.current_intent is not None else state.current_intent
            ),
            "slots": slots,
            "constraints": list(constraints.values()),
            "open_questions": open_questions,
            "resolved_questions": resolved_history,
            "decisions_made": decisions,
            "rejected_options": rejected,
            "active_search": active,
            "shortlist": shortlist[:MAX_SHORTLIST],
            "focus_item": patch.focus_item if patch.focus_item is not None else state.focus_item,
            "recipient": patch.recipient if patch.recipient is not None else state.recipient,
            "updated_at": utcnow(),
        }
    )


class ChatMessage(BaseModel):
    """One message of a thread's recent history."""

    role: Literal["user", "assistant"]
    content: str
    at: datetime = Field(default_factory=utcnow)


@runtime_checkable
class SessionStore(Protocol):
    """P_t and recent messages per thread, both expiring after the session TTL.

    Thread ids are namespaced by user: every call names the user, and another user's "t1"
    is a different thread, so nobody can tell which ids others use. `start` opens a thread
    under the store's per-user cap in one atomic step (concurrent first turns cannot
    overshoot it). Generations work as for `PreferenceStore`: `erase` removes every thread
    of a user and moves the user to a new generation; a write given `generation` happens only
    while the user is still at it (`AccountErased` otherwise)."""

    def get(self, user: str, thread: str) -> SessionPrefState:
        """The thread's state; a fresh empty state when absent or expired."""
        ...

    def start(self, user: str, thread: str, *, generation: str | None = None) -> None:
        """Make `thread` one of the user's live threads (a no-op when it is one);
        `QuotaExceeded` when that would pass the cap on live threads."""
        ...

    def patch(
        self, user: str, thread: str, patch: SessionPatch, *, generation: str | None = None
    ) -> SessionPrefState:
        """Apply `patch` atomically (see `SessionPatch`) and refresh the TTL."""
        ...

    def clear(self, user: str, thread: str) -> bool: ...

    def append_messages(
        self,
        user: str,
        thread: str,
        messages: Sequence[ChatMessage],
        *,
        generation: str | None = None,
    ) -> None:
        """Append to the thread's history, keeping only the most recent ones."""
        ...

    def messages(self, user: str, thread: str) -> list[ChatMessage]: ...

    def threads(self, user: str) -> list[str]:
        """The user's live (unexpired) threads."""
        ...

    def exists(self, user: str, thread: str) -> bool:
        """Whether the user has a live (unexpired) thread with this id."""
        ...

    def generation(self, user: str) -> str:
        """The user's current generation ("" until the user is first erased)."""
        ...

    def erase(self, user: str) -> None:
        """Atomically remove every thread of the user and move the user to a new generation."""
        ...

    def close(self) -> None: ...
