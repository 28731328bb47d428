"""Request and response models of the HTTP API, one role suffix per use.

`*Create`/`*Update` are what a client sends, `*Public` what it gets back. A preference's
public JSON is exactly `PreferenceEntry.model_dump(mode="json")` (the agent contract), so
`PreferencePublic` is that model itself rather than a copy that could drift.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from cartwise.memory.prices import Alert, Watch
from cartwise.memory.session_state import ChatMessage, SessionPrefState
from cartwise.memory.store import (
    MAX_DOMAIN_CHARS,
    MAX_KEYWORD_CHARS,
    MAX_KEYWORDS,
    MAX_RECIPIENT_CHARS,
    MAX_SLUG_CHARS,
    SELF,
    Category,
    Polarity,
    PreferenceEntry,
    Strength,
)

PreferencePublic = PreferenceEntry
"""A stored preference as the API returns it (with its derived `dedup_key`)."""

USERNAME_PATTERN = r"^[a-z0-9_.-]+$"
USERNAME_MAX_CHARS = 32
PASSWORD_MAX_CHARS = 256
Keyword = Annotated[str, Field(max_length=MAX_KEYWORD_CHARS)]


class UserCreate(BaseModel):
    """A registration request."""

    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=3, max_length=USERNAME_MAX_CHARS, pattern=USERNAME_PATTERN)
    """3-32 characters: lowercase letters, digits, `_`, `.`, `-`."""
    password: str = Field(min_length=8, max_length=PASSWORD_MAX_CHARS)
    """At least 8 characters."""


class UserPublic(BaseModel):
    """An account as others may see it."""

    username: str


class TokenPublic(BaseModel):
    """A bearer token from the OAuth2 password flow."""

    access_token: str
    token_type: Literal["bearer"] = "bearer"
    expires_in: int
    """Seconds until the token expires."""


class PreferenceCreate(BaseModel):
    """A preference written by the shopper (e.g. "undo" restoring a superseded entry)."""

    model_config = ConfigDict(extra="forbid")

    recipient: str = Field(default=SELF, max_length=MAX_RECIPIENT_CHARS)
    """Whose preference: `self` (the shopper) or a recipient slug (mum, husband,
    friend-lily); each recipient is a namespace of its own."""
    polarity: Polarity
    category: Category
    domain: str = Field(default="", max_length=MAX_DOMAIN_CHARS)
    """Product domain (lowercase ASCII) or empty for global."""
    slug: str = Field(max_length=MAX_SLUG_CHARS)
    """Canonical lowercase ASCII identifier (plastic, leather, nike)."""
    strength: Strength = Strength.SOFT
    keywords: list[Keyword] = Field(default_factory=list, max_length=MAX_KEYWORDS)
    """Surface forms used for hard filtering (at most 24, each at most 64 characters)."""


class PreferenceUpdate(BaseModel):
    """A correction of a stored preference; absent fields keep their value."""

    model_config = ConfigDict(extra="forbid")

    recipient: str | None = Field(default=None, max_length=MAX_RECIPIENT_CHARS)
    """Moves the entry to another recipient's namespace (it was about someone else)."""
    polarity: Polarity | None = None
    """Changing it changes the entry's key: the old entry is replaced atomically."""
    strength: Strength | None = None
    domain: str | None = Field(default=None, max_length=MAX_DOMAIN_CHARS)
    """Changing it changes the entry's key: the old entry is replaced atomically."""
    keywords: list[Keyword] | None = Field(default=None, max_length=MAX_KEYWORDS)
    """Replaces the keyword list (not merged)."""


class MemoryExport(BaseModel):
    """Everything Cartwise remembers long-term about one shopper."""

    user: str
    entries: list[PreferencePublic]


class ThreadSummary(BaseModel):
    """One of the shopper's live threads."""

    thread: str
    updated_at: datetime | None
    """When the thread's session state last changed (None when it has none yet)."""


class ThreadPublic(BaseModel):
    """A thread's session state P_t and its recent messages."""

    state: SessionPrefState
    messages: list[ChatMessage]


class HealthPublic(BaseModel):
    """Liveness/readiness answer."""

    status: Literal["ok", "unavailable"]
    checks: dict[str, str] = Field(default_factory=dict)
    """Per dependency: "ok" or why it is not."""


class AccountDelete(BaseModel):
    """Deleting an account needs its password, not only a (possibly stolen) token."""

    model_config = ConfigDict(extra="forbid")

    password: str = Field(min_length=1, max_length=PASSWORD_MAX_CHARS)


class PasswordChange(BaseModel):
    """A new password, with the current one; every token issued before stops working."""

    model_config = ConfigDict(extra="forbid")

    current_password: str = Field(min_length=1, max_length=PASSWORD_MAX_CHARS)
    new_password: str = Field(min_length=8, max_length=PASSWORD_MAX_CHARS)
    """At least PASSWORD_MIN_LENGTH characters, not containing the username, not common."""


class ErrorPublic(BaseModel):
    """Every refusal: a 4xx or 503 with one clear sentence."""

    detail: str


class ValidationIssue(BaseModel):
    """One problem with a request (422)."""

    loc: list[str | int]
    """Where: `body.username`, `query.q`, …"""
    msg: str
    type: str


class ValidationErrorPublic(BaseModel):
    """A request the API cannot accept as sent (422)."""

    detail: str
    """All issues as one readable sentence."""
    errors: list[ValidationIssue] = Field(default_factory=list)


WatchPublic = Watch
"""A price or stock watch as the API returns it."""
AlertPublic = Alert
"""An alert a watch raised."""


class WatchCreate(BaseModel):
    """A new watch on a listed offer's model (any platform's offer of it can fire it)."""

    model_config = ConfigDict(extra="forbid")

    platform: str = Field(min_length=1, max_length=40)
    item_id: str = Field(min_length=1, max_length=128)
    kind: Literal["price", "stock"] = "price"
    target: float | None = Field(default=None, gt=0, lt=1e9)
    """For a price watch: fire at or below this, in `currency`."""
    currency: str = Field(default="CNY", pattern=r"^[A-Za-z]{3}$")
    days: float = Field(default=90, gt=0, le=366)
    recipient: str = Field(default=SELF, max_length=MAX_RECIPIENT_CHARS)


class WatchUpdate(BaseModel):
    """A change to a watch: a new target (re-arms it), a new lifetime from now, or re-arm."""

    model_config = ConfigDict(extra="forbid")

    target: float | None = Field(default=None, gt=0, lt=1e9)
    days: float | None = Field(default=None, gt=0, le=366)
    rearm: bool = False


class AlertsSeen(BaseModel):
    """Alerts the page has shown."""

    model_config = ConfigDict(extra="forbid")

    ids: list[Annotated[str, Field(max_length=32)]] = Field(max_length=200)


class WebhookUpdate(BaseModel):
    """Where the shopper's alerts are also posted ("" to stop)."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(max_length=2000)
