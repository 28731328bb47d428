"""The `Engine` seam: what the planner and the curator produce, and the protocol both
engines (rules, llm) implement.

Every field is validated by code (closed enums, slug format) and every key is derived by
code; an engine's output that does not validate is rejected whole, never half-applied.
Field docstrings double as instructions in the LLM engine's schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cartwise.catalog.specs import RequestSpecs
from cartwise.memory.session_state import (
    SessionConstraint,
    SessionPatch,
    SessionPrefState,
    SortOrder,
)
from cartwise.memory.store import (
    SELF,
    Category,
    Polarity,
    PreferenceEntry,
    Strength,
    check_recipient,
)

Language = Literal["zh", "en"]
Intent = Literal["search", "compare", "preference", "answer", "chitchat"]
Scope = Literal["long_term", "session", "request"]


class StatedPreference(BaseModel):
    """A like or dislike the user stated in this message."""

    model_config = ConfigDict(extra="forbid")

    polarity: Polarity
    """like or dislike; anything inside a negation (不要/别/no/without/avoid) is a dislike."""
    category: Category
    slug: str
    """Canonical lowercase ASCII identifier (plastic, leather, nike, purple)."""
    domain: str = ""
    """Product domain it was said about; empty when unsure or when it is a safety matter."""
    strength: Strength = Strength.SOFT
    keywords: list[str] = Field(default_factory=list)
    """Surface forms in every language seen, for hard filtering."""
    scope: Scope = "long_term"
    """long_term (a standing preference: always/never/allergic, or a plain statement);
    session (这次/这回/先/this time/today/for now: only this shopping session); request
    (除了X都行/anything but X: excluded from this request's search only, never stored)."""
    recipient: str = SELF
    """Whose preference it is: "self" (the shopper) or a canonical recipient slug (mum, dad,
    wife, husband, girlfriend, son, friend-<name> ...)."""

    _recipient = field_validator("recipient")(check_recipient)


FollowupKind = Literal[
    "refine", "more", "similar", "sort", "compare", "details", "cheapest", "price"
]
"""refine: a new constraint on the same product type (cheaper, another colour or brand, a
size or budget alone); more: the next page; similar: neighbours of a shown item; sort: the
same results reordered; compare: shown items side by side; details: a shown item's link and
listing facts, or a question about it; cheapest: where the product is cheapest; price: a
question about a shown item's price history, or a request to be told when it changes
(`Followup.price_ask`)."""


class PriceAsk(BaseModel):
    """What a `price` follow-up asks about a shown item's price over time."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    kind: Literal["deal", "lowest", "watch_price", "watch_stock"]
    """deal: is now a good price (现在买划算吗); lowest: its lowest price and when (历史最低多少);
    watch_price: tell me when it drops to `target` (降到300以下提醒我); watch_stock: tell me
    when it is back in stock (有货了告诉我)."""
    target: float | None = None
    """For watch_price: the price to be told about, in `currency` (None: not said)."""
    currency: str = ""
    """The target's currency code (CNY, USD ...)."""


SizeStep = Literal["", "up", "down"]


class Followup(BaseModel):
    """How a message builds on the results already shown or the search already running."""

    # Field docstrings are the LLM engine's schema descriptions too.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    kind: FollowupKind
    refs: list[int] = Field(default_factory=list)
    """Shown items referred to, 1-based in the order shown; -1 is the last one, 0 is "that
    one / it" (the item last talked about, else the first)."""
    sort: SortOrder | None = None
    """A sort the message asks for (price_asc also for "the cheapest X"); None = unchanged."""
    page_delta: int = 0
    """1 for "more / next page / 换一批"."""
    price: Literal["", "lower", "higher"] = ""
    """"lower" for cheaper / 更实惠, "higher" for a pricier one."""
    other: list[Literal["brand", "color", "model"]] = Field(default_factory=list)
    """What to change away from the referenced item(s): another brand / colour / model."""
    size_step: SizeStep = ""
    """大一码 / a size up → "up", 小一码 / a size down → "down"."""
    asked: str = ""
    """For details: the listing fact asked about ("waterproof", "防水"); empty for a plain
    link / details request."""
    narrow: list[str] = Field(default_factory=list)
    """For refine: attribute words said with no product noun ("wool", "红色", "防水") that
    narrow the running search."""
    price_ask: PriceAsk | None = None
    """For price: what is asked about the item's price history, or the watch asked for."""


class PlannerOutput(BaseModel):
    """What the planner makes of one user message."""

    model_config = ConfigDict(extra="forbid")

    language: Language = "zh"
    intent: Intent = "search"
    """search for products, compare prices, state a preference only, answer a question the
    assistant asked, or chit-chat."""
    domain: str = ""
    """Product domain of the request (electronics, clothing, shoes, home, beauty, food,
    sports, baby, tools) or empty."""
    query: str = ""
    """Text to search with: the product and its positive qualities, negated terms removed."""
    product_type: str = ""
    """The product noun the message names (耳机, running shoes, 跑鞋); empty when it names
    none (a refinement such as "cheaper" or "the 2nd")."""
    followup: Followup | None = None
    """Set when the message builds on what was shown or searched before."""
    current_intent: str = ""
    """A full sentence describing what the shopper is trying to do in this session."""
    slots: dict[str, str] = Field(default_factory=dict)
    """Single-valued facts, snake_case English names: size, budget_max, budget_min,
    budget_currency, color, quantity ... values as strings."""
    constraints: list[SessionConstraint] = Field(default_factory=list)
    """This-session-only likes/dislikes."""
    stated: list[StatedPreference] = Field(default_factory=list)
    """Likes and dislikes stated in this message (long-term and session)."""
    retracted: list[str] = Field(default_factory=list)
    """dedup_keys or category:slug keys the user took back ("其实塑料也可以")."""
    brands: list[str] = Field(default_factory=list)
    """Brands the user explicitly asked for (exact filter)."""
    platforms: list[str] = Field(default_factory=list)
    """Platforms the user explicitly named."""
    answered_questions: list[str] = Field(default_factory=list)
    """Open questions (verbatim) this message answers."""
    recipient: str = SELF
    """Whom this turn's purchase is for: "self" or a canonical recipient slug
    ("再给我妈买条围巾" → mum, "a gift for my husband" → husband)."""
    specs: RequestSpecs = Field(default_factory=RequestSpecs)
    """Specs of the request ("> 3 m", "17寸以上", "最大容量", "the cheapest … with …"), parsed
    by `cartwise.catalog.specs.parse_request_specs`: filters and sorts of the search, never
    budgets (only money is a budget)."""

    _recipient = field_validator("recipient")(check_recipient)


class CuratorTurn(BaseModel):
    """Everything the curator may look at: the user's words and current memory — never
    product descriptions or tool output."""

    user_message: str
    planner: PlannerOutput
    """The planner's output for this same turn (reused, not re-parsed)."""
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


SmallTalk = Literal["", "greeting", "thanks", "done", "bye", "ack"]
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
    """Planner, curator and reply writer behind one interface."""

    @property
    def name(self) -> str: ...

    def plan(
        self, message: str, session: SessionPrefState, memory: Sequence[PreferenceEntry]
    ) -> PlannerOutput: ...

    def curate(self, turn: CuratorTurn) -> CuratorOutput: ...

    def write_reply(self, facts: ReplyFacts) -> str: ...
