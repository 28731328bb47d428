"""The `Engine` seam: the reader, the curator and the reply writer behind the protocol both
engines (rules, llm) implement; what the reader returns is in `reading.py`.

Every field is validated by code (closed enums, slug format) and every key is derived by
code; an engine's output that does not validate is rejected whole, never half-applied.
Field docstrings double as instructions in the LLM engine's schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cartwise.errors import CartwiseError
from cartwise.memory.session_state import SessionPatch, SessionPrefState
from cartwise.memory.store import PreferenceEntry, check_recipient
from cartwise.understanding.counters import FallbackReason
from cartwise.understanding.reading import Conversation, Language, Reading, SmallTalk


class EngineFailure(CartwiseError):
    """One call an engine could not answer, classified; a `FallbackEngine` answers it with
    its fallback instead. `detail` names exception types and field locations only, never
    user text (it is logged)."""

    def __init__(self, reason: FallbackReason, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}")


class CuratorTurn(BaseModel):
    """Everything the curator may look at: the user's words and current memory — never
    product descriptions or tool output."""

    user_message: str
    reading: Reading
    """The reader's result for this same turn (reused, never re-read)."""
    session: SessionPrefState
    memory: list[PreferenceEntry] = Field(default_factory=list)
    asked_questions: list[str] = Field(default_factory=list)
    """Questions the assistant asked in this turn's reply (become open questions)."""
    source_turn: str = ""
    recipient_memory: dict[str, list[PreferenceEntry]] = Field(default_factory=dict)
    """Current long-term memory of the recipients this turn talks about (recipient slug →
    entries of that namespace), so a recipient's change of mind supersedes in place."""


def flipped_keys(
    upserts: Sequence[PreferenceEntry], memory: Sequence[PreferenceEntry]
) -> list[str]:
    """Stored keys an upsert flips: the opposite polarity of the same category and slug, in
    the same domain or where either side is global (one namespace at a time)."""
    keys = [
        old.dedup_key
        for entry in upserts
        for old in memory
        if old.polarity is entry.polarity.opposite
        and old.category is entry.category
        and old.slug == entry.slug
        and (old.domain == entry.domain or not old.domain or not entry.domain)
    ]
    written = {entry.dedup_key for entry in upserts}
    return [key for key in dict.fromkeys(keys) if key not in written]


class RecipientMemory(BaseModel):
    """Long-term upserts and supersedes inside one recipient's namespace (keys keep the
    seed format; the namespace is the recipient)."""

    model_config = ConfigDict(extra="forbid")

    recipient: str
    long_term: list[PreferenceEntry] = Field(default_factory=list)
    supersede: list[str] = Field(default_factory=list)

    _recipient = field_validator("recipient")(check_recipient)


class CuratorOutput(BaseModel):
    """The curator's decision: long-term upserts with the keys they supersede, and a
    session patch."""

    model_config = ConfigDict(extra="forbid")

    long_term: list[PreferenceEntry] = Field(default_factory=list)
    supersede: list[str] = Field(default_factory=list)
    """Existing dedup_keys to retire (a flipped polarity, a retraction)."""
    recipients: list[RecipientMemory] = Field(default_factory=list)
    """What to write in recipients' namespaces (never in the shopper's own `long_term`)."""
    session_patch: SessionPatch = Field(default_factory=SessionPatch)


MAX_REPLY_ITEMS = 5
"""Items a reply names: the best pick and up to four alternatives."""


class ReplyItem(BaseModel):
    platform: str
    title: str
    price: float
    currency: str
    price_base: float
    why: list[str] = Field(default_factory=list)
    shown_price: float = 0.0
    """The price in the shopper's currency (`ReplyFacts.currency`): the listed price when the
    listing is in that currency, else converted with the FX table."""
    caveats: list[str] = Field(default_factory=list)
    """What the listing cannot confirm ("does not list ingredients"), in the shopper's language."""


GapKind = Literal[
    "", "service", "ticket", "finance", "vehicle", "property", "medicine", "animal", "weapon"
]


class CatalogGap(BaseModel):
    """The catalog carries nothing of the requested kind (then no products are shown)."""

    requested: str
    """What the shopper asked for, as understood (the search phrase)."""
    kind: GapKind = ""
    """Which kind of thing no shop here sells, when it is one ("" for a product type the
    catalog lacks)."""
    closest: str = ""
    """The closest product type that is carried, in the shopper's language; "" when nothing
    carried is close (the reply asks what else would do)."""


class ReplyFacts(BaseModel):
    """The facts a reply is written from; both engines get exactly these."""

    language: Language
    query: str
    items: list[ReplyItem] = Field(default_factory=list)
    applied: list[str] = Field(default_factory=list)
    """Preferences, slots and constraints that shaped the results, human-readable."""
    notices: list[str] = Field(default_factory=list)
    """What the shopper should know about how the results were found (an order no listing
    could be ranked by, specs nobody could check), in their language: say each as is."""
    filtered_out: dict[str, int] = Field(default_factory=dict)
    """Rejection reason → how many candidates it removed."""
    question: str = ""
    """A clarifying question to ask, if any."""
    personalization: bool = False
    currency: str = "CNY"
    """The shopper's currency: the one their budget was given in, else their language's."""
    excluded_brands: list[str] = Field(default_factory=list)
    """Brands the shopper refused that applied to this search, as brand names."""
    excluded_terms: list[str] = Field(default_factory=list)
    """Other refused things (materials, ingredients...) that applied, as the shopper says them."""
    catalog_gap: CatalogGap | None = None
    small_talk: SmallTalk = ""
    """Set on a turn that is only small talk: the reply is short and nothing else is said."""


@runtime_checkable
class Engine(Protocol):
    """Reader, curator and reply writer behind one interface."""

    @property
    def name(self) -> str: ...

    def read(self, message: str, conversation: Conversation) -> Reading:
        """Everything `message` says, read in the light of the conversation."""
        ...

    def curate(self, turn: CuratorTurn) -> CuratorOutput: ...

    def write_reply(self, facts: ReplyFacts) -> str: ...
