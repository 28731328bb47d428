"""What an ingest writes besides the catalog: a price point for every offer whose price or
stock changed, and the alerts of the watches those changes meet. An offer seen for the first
time is a change: a platform listing a watched model, in stock, meets its stock watches (the
model is now buyable) and, at or below the target, its price watches.

`PriceRecorder` is the ingest pipeline's `PriceSink`: the pipeline hands it each upserted
batch, it appends the points that changed, offers the changed offers to the watches of their
models, and queues webhooks. With `backfill` (the demo catalog) an offer that has no history
yet first gets its synthesized past.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from cartwise.catalog.model_identity import model_identity
from cartwise.catalog.product import Product
from cartwise.memory.alert_webhook import AlertWebhook
from cartwise.memory.prices import PriceHistory, PricePoint, Trigger, WatchStore

Backfill = Callable[[Product, float], list[PricePoint]]


def point_of(product: Product, now: float) -> PricePoint:
    return PricePoint(
        product.platform, product.item_id, product.price, product.currency, product.in_stock, now
    )


class PriceRecorder:
    """Records one ingest's price changes and fires the watches they meet."""

    def __init__(
        self,
        history: PriceHistory,
        watches: WatchStore | None,
        *,
        fx_to_base: Mapping[str, float],
        backfill: Backfill | None = None,
        webhook: AlertWebhook | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.history = history
        self.watches = watches
        self.fx_to_base = fx_to_base
        self.backfill = backfill
        self.webhook = webhook
        self.clock = clock
        self.points = 0
        self.alerts = 0

    def record(self, products: Sequence[Product]) -> None:
        now = self.clock()
        keys = [p.key for p in products]
        before = self.history.latest(keys)
        first_seen = {key for key in keys if key not in before}
        backfilled: set[str] = set()
        if self.backfill is not None:
            fresh = [p for p in products if p.key in first_seen]
            pasts = {p.key: self.backfill(p, now) for p in fresh}
            self.points += self.history.backfill([pt for past in pasts.values() for pt in past])
            # A synthesized past ends in the offer's state now: nothing left to append.
            backfilled = {key for key, past in pasts.items() if past}
            before.update({key: past[-1] for key, past in pasts.items() if past})
        current = [point_of(p, now) for p in products if p.key not in backfilled]
        appended = {p.key for p in self.history.append_changed(current)}
        self.points += len(appended)
        # A backfilled offer is first seen too (no shopper saw its synthesized past).
        changed = appended | backfilled
        if self.watches is None or not changed:
            return
        triggers = []
        for product in products:
            if product.key not in changed:
                continue
            buyable_before = product.key not in first_seen and before[product.key].in_stock
            triggers.append(
                Trigger(
                    model=model_identity(product),
                    platform=product.platform,
                    item_id=product.item_id,
                    price=product.price,
                    currency=product.currency,
                    price_base=product.price_base,
                    in_stock=product.in_stock,
                    restocked=product.in_stock and not buyable_before,
                    url=product.url,
                )
            )
        alerts = self.watches.fire(triggers, self.fx_to_base, now=now)
        self.alerts += len(alerts)
        if self.webhook is not None and alerts:
            self.webhook.notify(alerts)

    def finish(self) -> tuple[int, int]:
        """(points written, alerts raised) since the recorder was made."""
        return self.points, self.alerts

    def close(self) -> None:
        """Close the stores and let queued webhook posts finish (bounded)."""
        if self.webhook is not None:
            self.webhook.close()
        self.history.close()
        if self.watches is not None:
            self.watches.close()
