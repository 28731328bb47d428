"""`Reading`: one typed, complete result for one shopper message — its acts, the product
request, how it builds on what was shown, the preferences it states or takes back, whom it is
for — and `Conversation`, what a reader may look at besides the message.

Both engines return a `Reading`; the LLM engine's structured output is its JSON schema, so
field docstrings double as instructions there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cartwise.catalog.specs import RequestSpecs
from cartwise.memory.session_state import (
    ChatMessage,
    SessionConstraint,
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
from cartwise.text import Language as Language
from cartwise.understanding.acts.act import Act

SmallTalk = Literal["", "greeting", "thanks", "done", "bye", "ack", "capabilities"]
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
    """The target's currency code (CNY, USD ...) when the message says one; "" when it says
    none (the shopper's currency is meant)."""


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


class GiftContext(BaseModel):
    """A gift the message talks about."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    recipient: str = SELF
    """Whom it is for, as a recipient slug ("self" when unnamed)."""
    occasion: str = ""
    """birthday, christmas, anniversary, wedding, ... ("" when unsaid)."""
    interests: list[str] = Field(default_factory=list)
    """What they are into, in the shopper's words ("hiking", "喝茶")."""

    _recipient = field_validator("recipient")(check_recipient)


@dataclass(frozen=True)
class Conversation:
    """What a reader may look at besides the message: the session state P_t, the recent
    messages and the shopper's long-term memory."""

    session: SessionPrefState = field(default_factory=lambda: SessionPrefState(thread=""))
    history: Sequence[ChatMessage] = ()
    memory: Sequence[PreferenceEntry] = ()


class Reading(BaseModel):
    """Everything one message says, read once: the rest of the turn consumes this, never the
    message text."""

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
    types: list[str] = Field(default_factory=list)
    """Catalog product-type slugs the request names (`cartwise.catalog.taxonomy`), the
    longest name first ("desk lamp" is a lamp, not a desk); empty when it names none."""
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

    acts: list[Act] = Field(default_factory=list)
    """Every dialogue act the message performs (several at once: a greeting, whom it is for
    and a request)."""
    vague: bool = False
    """The message asks for something but names no kind of product ("help me find
    something", "想买个礼物"): nothing is searched and the assistant asks what kind."""
    gift: GiftContext | None = None
    """Set when the message is about a gift: for whom, the occasion, what they are into."""
    vague_budget: bool = False
    """A wish about price with no number ("别太贵", "not too expensive")."""
    unusable_budget: bool = False
    """The message gave a budget no price can be (negative, zero, 10^32): it is not in
    `slots`, and the assistant asks for a real one."""
    small_talk: SmallTalk = ""
    """The kind of small talk, when the message is only that."""
    urls: list[str] = Field(default_factory=list)
    """Shop product URLs the message contains (the product it refers to)."""
    compatible: bool = False
    """The message asks for something that goes with a referenced item ("fits this",
    "兼容", "same colour")."""
    reference_text: str = ""
    """The words that may name a specific product by model ("the Corsair 5000D"), for
    resolving it against the catalog; empty when the message names none."""

    _recipient = field_validator("recipient")(check_recipient)
