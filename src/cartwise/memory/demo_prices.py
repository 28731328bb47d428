"""The demo catalog's past: about 180 days of plausible prices per offer, synthesized from
the offer itself, so the demo shows price history on its first run without shipping it.

Deterministic: an offer's past depends only on its key, its listed price and stock, its
"was" price and the day the demo was indexed (the past ends at that moment, at the listed
price). The stories, chosen per offer by a seeded generator:
- steady (most offers): the price holds for weeks, moves a few percent now and then;
- drifting: a slow rise or fall into today's price;
- promotions: around 618 (1–18 June) and 双11 (1–11 November) most offers drop 8–25 %;
- a listed "was" price: usually the price charged before today's sale, but for about a
  third of such offers it was never charged at all (an inflated "was" price).
Only changes are written, as ingest would have recorded them (~10 points per offer).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from cartwise.catalog.product import Product
from cartwise.memory.price_facts import was_price
from cartwise.memory.prices import DAY, PricePoint

HISTORY_DAYS = 180
PROMOTIONS = (((6, 1), (6, 18)), ((11, 1), (11, 11)))
"""618 and 双11, as (month, day) of their first and last days."""
INFLATED_SHARE = 0.35


def _rng(product: Product) -> random.Random:
    seed = hashlib.blake2b(product.key.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(seed, "big"))


@lru_cache(maxsize=8)
def _promotion_days(start: date) -> tuple[tuple[int, int], ...]:
    """(first, last+1) day offsets of every promotion inside the window."""
    spans: list[tuple[int, int]] = []
    for year in (start.year, start.year + 1):
        for (m1, d1), (m2, d2) in PROMOTIONS:
            first = (date(year, m1, d1) - start).days
            last = (date(year, m2, d2) - start).days + 1
            if last > 0 and first < HISTORY_DAYS:
                spans.append((max(first, 0), min(last, HISTORY_DAYS)))
    return tuple(spans)


def _story(product: Product, rng: random.Random, start: date) -> list[tuple[int, float, bool]]:
    """(day offset, price, in stock) at each day the offer's state may change, before today.

    Built from change days rather than day by day: the demo's ~18k offers take about a
    second, not a dozen (a daily walk draws millions of random numbers)."""
    current = product.price
    was = was_price(product)
    inflated = was is not None and rng.random() < INFLATED_SHARE
    story = rng.random()
    sale_days = 0
    if was is not None and not inflated:
        usual = was  # the sale began recently; before it the "was" price was charged
        sale_days = rng.randint(2, 12)
    elif was is not None:
        usual = min(current * (1.0 + rng.uniform(0.0, 0.08)), was * 0.9)
    else:
        usual = current
    drift = rng.uniform(-0.18, 0.18) if was is None and story < 0.25 else 0.0
    cut = rng.uniform(0.08, 0.25) if story < 0.85 else 0.0
    moves = {
        day: usual * (1 + rng.uniform(-0.05, 0.05))
        for day in rng.sample(range(1, HISTORY_DAYS), rng.randint(0, 5))
    }
    gap: tuple[int, int] = (0, 0)
    if not product.in_stock:
        gap = (HISTORY_DAYS - rng.randint(3, 20), HISTORY_DAYS)
    elif rng.random() < 0.2:
        begin = rng.randrange(10, HISTORY_DAYS - 10)
        gap = (begin, begin + rng.randint(1, 6))
    promotions = _promotion_days(start) if cut else ()
    days = {0, *moves, *gap, HISTORY_DAYS - sale_days}
    days.update(d for span in promotions for d in span)
    if drift:
        days.update(range(0, HISTORY_DAYS, 15))
    steps: list[tuple[int, float, bool]] = []
    level = usual
    for day in sorted(d for d in days if 0 <= d < HISTORY_DAYS):
        level = moves.get(day, level)
        price = level * (1 - drift * (HISTORY_DAYS - day) / HISTORY_DAYS)
        if any(first <= day < last for first, last in promotions):
            price *= 1 - cut
        if day >= HISTORY_DAYS - sale_days:
            price = current
        if inflated and was is not None:
            price = min(price, was * 0.9)  # never charged: clear of the stated "was" price
        steps.append((day, price, not gap[0] <= day < gap[1]))
    return steps


@lru_cache(maxsize=8)
def _window(now: float) -> tuple[date, float]:
    """The first day of the past ending at `now`, and its midnight (Unix seconds): the
    same for every offer of an ingest."""
    start = datetime.fromtimestamp(now, UTC).date() - timedelta(days=HISTORY_DAYS)
    return start, datetime(start.year, start.month, start.day, tzinfo=UTC).timestamp()


def demo_history(product: Product, *, now: float) -> list[PricePoint]:
    """The offer's synthesized past, ending at `now` with its listed price and stock."""
    rng = _rng(product)
    start, midnight = _window(now)
    platform, item_id, currency = product.platform, product.item_id, product.currency
    # Tuples built directly (no NamedTuple argument parsing) and compared on their own
    # state: a demo ingest builds ~150k of them, and this is most of what its history costs.
    new = tuple.__new__
    points: list[PricePoint] = []
    last_price, last_stock = -1.0, not product.in_stock
    for day, price, stocked in _story(product, rng, start):
        price = _shelf_price(price, currency)
        if points and abs(price - last_price) < 0.005 and stocked == last_stock:
            continue
        points.append(
            new(PricePoint, (platform, item_id, price, currency, stocked, midnight + day * DAY))
        )
        last_price, last_stock = price, stocked
    if not points or abs(product.price - last_price) >= 0.005 or product.in_stock != last_stock:
        points.append(
            new(PricePoint, (platform, item_id, product.price, currency, product.in_stock, now))
        )
    return points


def _shelf_price(price: float, currency: str) -> float:
    """Prices as shops set them: whole yuan/yen/rupees above 100, .99 endings in dollars."""
    if currency in {"CNY", "JPY", "INR", "KRW"} and price >= 100:
        return float(round(price))
    if currency in {"USD", "EUR", "GBP", "CAD", "AUD"} and price >= 5:
        return round(int(price) + 0.99, 2)
    return round(price, 2)


def demo_histories(products: Iterable[Product], *, now: float) -> Iterator[PricePoint]:
    for product in products:
        yield from demo_history(product, now=now)
