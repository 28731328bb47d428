"""The price seams: `PriceHistory` (append-only points per offer) and `WatchStore` (a
shopper's watches and the alerts they raise), with the records both exchange.

A point is written only when an offer's price or stock differs from its last point, so a
daily re-ingest of an unchanged catalog writes nothing and 180 days of a stable price are
one row. Each backend implements both seams with the same rules
(`memory/backends/prices_{sqlite,redis}.py`).
"""

from __future__ import annotations

import builtins
import math
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

from pydantic import BaseModel, Field

from cartwise.errors import InvalidInput

if TYPE_CHECKING:
    from cartwise.memory.price_facts import PriceSummary

DAY = 86_400.0


class PricePoint(NamedTuple):
    """One observation of an offer that differed from the one before it. A tuple: a history
    read builds 180 of them per offer, and a tuple is built several times faster than a
    frozen dataclass."""

    platform: str
    item_id: str
    price: float
    """As listed, in `currency`."""
    currency: str
    in_stock: bool
    observed_at: float
    """Unix seconds."""

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.item_id}"

    def same_offer_state(self, other: PricePoint) -> bool:
        """Whether `other` would add nothing after this point (same price, currency, stock)."""
        return (
            abs(self.price - other.price) < 0.005
            and self.currency == other.currency
            and self.in_stock == other.in_stock
        )


class PriceHistory(Protocol):
    """Append-only price points per offer (`platform:item_id`)."""

    def append_changed(self, points: Sequence[PricePoint]) -> list[PricePoint]:
        """Append each point whose offer's last point differs from it (or that has none);
        returns the points appended. Points older than an offer's last point are ignored."""
        ...

    def backfill(self, points: Sequence[PricePoint]) -> int:
        """Write a whole history for offers that have none yet (the demo's synthesized
        past); offers already holding points are left alone. Returns the points written."""
        ...

    def points(self, key: str, *, since: float = 0.0) -> list[PricePoint]:
        """The offer's points observed at or after `since`, oldest first."""
        ...

    def points_many(
        self, keys: Iterable[str], *, since: float = 0.0
    ) -> dict[str, list[PricePoint]]:
        """`points` for several offers in one call; offers without points are absent."""
        ...

    def latest(self, keys: Iterable[str]) -> dict[str, PricePoint]:
        """The last point of each offer that has one."""
        ...

    def summaries(self, keys: Iterable[str], *, now: float) -> dict[str, PriceSummary]:
        """Each offer's summary at `now` (`price_facts.summarize`): the one kept with its
        points while it holds, else one made from the points (and kept, for a history of
        KEPT_FROM_POINTS points or more); offers without points are absent. Appending or
        backfilling an offer's points renews its kept summary."""
        ...

    def close(self) -> None: ...


WatchKind = Literal["price", "stock"]
WatchStatus = Literal["active", "fired", "cancelled"]
DEFAULT_WATCH_DAYS = 90


class Watch(BaseModel):
    """A shopper's request to hear when a model drops to a price or comes back in stock.

    The model is identified across platforms (`model`): any platform's offer of it counts."""

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    user: str
    recipient: str = "self"
    """Whom the watch is for (the recipient the turn shopped for), "self" for the shopper."""
    model: str
    """The cross-platform model identity (`catalog.model_identity`)."""
    title: str
    """The watched item's title when the watch was made, to show it."""
    platform: str = ""
    item_id: str = ""
    """The offer the shopper pointed at (any offer of `model` can fire the watch)."""
    kind: WatchKind = "price"
    target: float | None = None
    """Fire when a price is at or below this, in `currency`; None for a stock watch."""
    currency: str = "CNY"
    created_at: float = Field(default_factory=time.time)
    expires_at: float = 0.0
    status: WatchStatus = "active"
    fired_at: float | None = None

    def is_live(self, now: float) -> bool:
        return self.status == "active" and self.expires_at > now


MAX_TARGET = 1e9
"""A target price must be below this (the API's own bound): past it no price can be, and a
watch would fire at once on a misread or probing figure (10^25, 1e999)."""


def _check_target(target: float) -> float:
    """The target rounded to cents; `InvalidInput` unless it is a price some offer can be."""
    if not math.isfinite(target) or not 0 < round(target, 2) < MAX_TARGET:
        raise InvalidInput("a target price must be above 0 and below 1,000,000,000")
    return round(target, 2)


def new_watch(
    user: str,
    *,
    model: str,
    title: str,
    kind: WatchKind,
    target: float | None,
    currency: str,
    platform: str = "",
    item_id: str = "",
    recipient: str = "self",
    days: float = DEFAULT_WATCH_DAYS,
    now: float | None = None,
) -> Watch:
    """A checked new watch; `InvalidInput` for a price watch without a positive target."""
    if kind == "price" and target is None:
        raise InvalidInput("a price watch needs a target price above 0")
    if days <= 0:
        raise InvalidInput("a watch must last at least a moment: days must be above 0")
    now = time.time() if now is None else now
    return Watch(
        user=user,
        recipient=recipient,
        model=model,
        title=title,
        platform=platform,
        item_id=item_id,
        kind=kind,
        target=_check_target(target) if target is not None else None,
        currency=currency.upper(),
        created_at=now,
        expires_at=now + days * DAY,
    )


class Alert(BaseModel):
    """One watch firing: which offer met it, at what price, when."""

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    user: str
    watch_id: str
    recipient: str = "self"
    title: str
    kind: WatchKind
    platform: str
    item_id: str
    price: float
    """The offer's price as listed, in `currency`."""
    currency: str
    target: float | None = None
    target_currency: str = "CNY"
    url: str = ""
    created_at: float = Field(default_factory=time.time)
    seen: bool = False
    """Shown to the shopper (the page's event or list, `cartwise alerts`)."""


@dataclass(frozen=True)
class Trigger:
    """An offer's new state, offered to the watches of its model."""

    model: str
    platform: str
    item_id: str
    price: float
    currency: str
    price_base: float
    in_stock: bool
    restocked: bool = False
    """The offer is in stock now and was not before: out of stock at its previous point, or
    seen for the first time (a platform listing the model anew)."""
    url: str = ""


class WatchStore(Protocol):
    """Watches and alerts, per user. `fire` is the one call that looks across users: an
    ingest offers an offer's new state to every live watch of its model.

    Like the memory stores, it keeps a generation per user that `erase` moves on: a write
    given `generation` (the one the user was at when its work began) is refused with
    `AccountErased` once the user has been erased since (`memory.pinned.PinnedWatches`)."""

    def add(self, watch: Watch, *, generation: str | None = None) -> Watch:
        """Store a watch (`QuotaExceeded` past the per-user cap)."""
        ...

    def list(self, user: str, *, include_closed: bool = False) -> list[Watch]:
        """The user's watches, newest first; live ones only unless `include_closed`."""
        ...

    def get(self, user: str, watch_id: str) -> Watch:
        """`NotFound` when the user has no such watch."""
        ...

    def update(
        self,
        user: str,
        watch_id: str,
        *,
        target: float | None = None,
        days: float | None = None,
        rearm: bool = False,
        now: float | None = None,
    ) -> Watch:
        """Change a watch's target or lifetime (from now), or re-arm a fired one."""
        ...

    def cancel(self, user: str, watch_id: str) -> Watch:
        """Close a watch for good; it never fires again."""
        ...

    def fire(
        self, triggers: Sequence[Trigger], fx_to_base: Mapping[str, float], *, now: float
    ) -> builtins.list[Alert]:
        """For each live watch of a trigger's model that the trigger meets, raise one alert
        and mark the watch fired — atomically, so two offers (or two ingests) meeting the
        same watch raise one alert."""
        ...

    def alerts(self, user: str, *, unseen_only: bool = False) -> builtins.list[Alert]:
        """The user's alerts, newest first."""
        ...

    def mark_seen(self, user: str, alert_ids: Sequence[str]) -> int: ...

    def set_webhook(self, user: str, url: str, *, generation: str | None = None) -> None:
        """Where the user's alerts are also posted ("" to stop)."""
        ...

    def webhook(self, user: str) -> str: ...

    def generation(self, user: str) -> str:
        """The user's current generation ("" until the user is first erased)."""
        ...

    def erase(self, user: str) -> None:
        """Delete every watch, alert and the webhook of the user (account deletion), and
        move the user to a new generation, in one step."""
        ...

    def close(self) -> None: ...


def changed_watch(
    watch: Watch,
    *,
    target: float | None = None,
    days: float | None = None,
    rearm: bool = False,
    now: float | None = None,
) -> Watch:
    """`watch` with a new target and/or lifetime, or re-armed (one rule for every backend).

    A new target re-arms a fired watch too: the shopper asked to hear about the new price.
    A cancelled watch stays cancelled (`InvalidInput`); re-arming an expired one gives it
    DEFAULT_WATCH_DAYS from now unless `days` says otherwise."""
    if watch.status == "cancelled":
        raise InvalidInput("a cancelled watch cannot be changed; make a new one")
    now = time.time() if now is None else now
    update: dict[str, object] = {}
    if target is not None:
        if watch.kind != "price":
            raise InvalidInput("a back-in-stock watch has no target price")
        update["target"] = _check_target(target)
        rearm = True
    if days is not None:
        if days <= 0:
            raise InvalidInput("days must be above 0")
        update["expires_at"] = now + days * DAY
    if rearm:
        update.update(status="active", fired_at=None)
        if days is None and watch.expires_at <= now:
            update["expires_at"] = now + DEFAULT_WATCH_DAYS * DAY
    return watch.model_copy(update=update)


def watch_met(watch: Watch, trigger: Trigger, fx_to_base: Mapping[str, float]) -> bool:
    """Whether the offer state meets the watch (one rule for every backend)."""
    if watch.kind == "stock":
        return trigger.restocked
    if not trigger.in_stock or watch.target is None:
        return False
    rate = fx_to_base.get(watch.currency)
    if trigger.currency == watch.currency:
        price = trigger.price
    elif rate:
        price = trigger.price_base / rate
    else:
        return False
    return round(price, 2) <= watch.target + 1e-9


def alert_for(watch: Watch, trigger: Trigger, *, now: float) -> Alert:
    return Alert(
        user=watch.user,
        watch_id=watch.id,
        recipient=watch.recipient,
        title=watch.title,
        kind=watch.kind,
        platform=trigger.platform,
        item_id=trigger.item_id,
        price=trigger.price,
        currency=trigger.currency,
        target=watch.target,
        target_currency=watch.currency,
        url=trigger.url,
        created_at=now,
    )
