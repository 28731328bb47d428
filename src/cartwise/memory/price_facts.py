"""What an offer's price history says: its lows, its usual price, whether now is a deal,
whether a "was" price was ever charged. A pure function of the points (no store).

The history is a step function — a point holds until the next one — so "the usual price" is
the time-weighted median over the window (a one-day flash sale does not move it; a price held
for two months is the usual one), and the lowest price of a window includes the price in force
when the window began. Out-of-stock stretches count for neither: nobody could buy at them.

`summarize` computes what the facts need from the points once, with the moment until which
that holds (`PriceSummary.valid_until`); `PriceSummary.facts` then adds what the catalog
says now (its price, its "was" price). The backends keep one summary per offer of at least
KEPT_FROM_POINTS points, written with its points, so reading the facts of a long history is
one lookup, not 180 points and their arithmetic.
"""

from __future__ import annotations

import json
import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from itertools import pairwise
from operator import attrgetter, itemgetter
from typing import Literal, NamedTuple

from pydantic import BaseModel, Field

from cartwise.catalog.normalize import RowProblem, parse_price
from cartwise.catalog.product import Product
from cartwise.memory.prices import DAY, PricePoint

Deal = Literal["lowest_90d", "below_usual", "usual", "above_usual"]
DEAL_MARGIN = 0.03
"""How far from the usual price a price must be to be below or above it (3 %): everyday
jitter of a cent or a coupon is "usual"."""
WAS_PRICE_TOLERANCE = 0.01
"""A "was" price counts as charged when a price within 1 % of it held in the window."""
CHART_POINTS = 60


class PriceLow(BaseModel):
    """The lowest in-stock price of a window and when it was first charged."""

    price: float
    at: str
    """ISO date (UTC) the lowest price began."""


class PriceFacts(BaseModel):
    """The facts of one offer's history, in its own currency."""

    currency: str
    current: float
    points: int
    """Points of the last 180 days: the changes recorded in it, plus the point in force when
    it began (a price that never moved is one point)."""
    lowest_30d: PriceLow | None = None
    lowest_90d: PriceLow | None = None
    lowest_180d: PriceLow | None = None
    median_90d: float | None = None
    """The usual price: time-weighted median of the last 90 days."""
    deal: Deal = "usual"
    was_price: float | None = None
    """The "was" (crossed-out) price the listing states, when it states one."""
    was_price_seen: bool | None = None
    """Whether `was_price` was actually charged in the last 180 days (None: no was price)."""
    chart: list[tuple[str, float]] = Field(default_factory=list)
    """(ISO date, price) steps for a small chart, oldest first, at most CHART_POINTS."""


def was_price(product: Product) -> float | None:
    """The listing's stated "was" (crossed-out) price, when it states one above its price."""
    listed = product.attributes.get("list_price", [])
    if not listed:
        return None
    try:
        value, _ = parse_price(listed[0])  # the reader's own rule: "1.234,56", "1,299.00" ...
    except RowProblem:
        return None
    return value if value > product.price else None


@lru_cache(maxsize=4096)
def _day(day: int) -> str:
    return datetime.fromtimestamp(day * DAY, UTC).date().isoformat()


def _date(seconds: float) -> str:
    """ISO date (UTC); one conversion per calendar day, however many offers ask."""
    return _day(int(seconds // DAY))


def _clip(
    segments: Sequence[tuple[float, float, float]], start: float
) -> list[tuple[float, float, float]]:
    """The part of `segments` (oldest first, one after another) at or after `start`: the
    ones that end after it, the first cut to begin at it."""
    i, n = 0, len(segments)
    while i < n and segments[i][1] <= start:
        i += 1
    clipped = list(segments[i:])
    if clipped and clipped[0][0] < start:
        clipped[0] = (start, clipped[0][1], clipped[0][2])
    return clipped


def _segments(
    points: Sequence[PricePoint], start: float, now: float
) -> list[tuple[float, float, float]]:
    """(begin, end, price) of each in-stock stretch overlapping [start, now]."""
    segments: list[tuple[float, float, float]] = []
    ends = [p.observed_at for p in points[1:]]
    ends.append(now)
    for point, end in zip(points, ends, strict=True):
        if end <= start or not point.in_stock:
            continue
        begin = point.observed_at if point.observed_at > start else start
        segments.append((begin, end if end > begin else begin, point.price))
    return segments


_price_then_begin = itemgetter(2, 0)
_observed_at = attrgetter("observed_at")


def _weighted_median(segments: Sequence[tuple[float, float, float]]) -> float | None:
    """The time-weighted median price of `segments`, unrounded."""
    if not segments:
        return None
    ordered = sorted((price, end - begin) for begin, end, price in segments)
    total = sum(weight for _, weight in ordered)
    if total <= 0:
        return ordered[len(ordered) // 2][0]
    running = 0.0
    for price, weight in ordered:
        running += weight
        if running >= total / 2:
            return price
    return ordered[-1][0]


def _median_holds(
    segments: Sequence[tuple[float, float, float]],
    median: float,
    *,
    front: PricePoint | None,
    last: PricePoint,
) -> float:
    """Seconds for which `median` stays the median of the 90-day window as it moves on, while
    no point crosses the window's start: the stretch in force at the start (`front`, None when
    the history began inside the window) loses a second of weight per second and the last
    stretch gains one, so the in-stock weight at or below each price moves linearly.

    The median is the lowest price whose weight at or below it reaches half the total; it
    holds while that stays so for `median` and stays not so below it. Unix times of this
    century are multiples of 2**-22 s below 2**31, so every weight and sum here is exact
    and a tie (weight exactly half) is as stable as the arithmetic that found it."""
    total = at_or_below = below = 0.0
    for begin, end, price in segments:
        weight = end - begin
        total += weight
        if price <= median:
            at_or_below += weight
            if price < median:
                below += weight
    if total <= 0:
        return 0.0
    gains = last.price if last.in_stock else None
    loses = front.price if front is not None and front.in_stock else None
    grows = (gains is not None) - (loses is not None)  # d(total)/dt
    rate_at = (gains is not None and gains <= median) - (loses is not None and loses <= median)
    rate_below = (gains is not None and gains < median) - (loses is not None and loses < median)
    slack_at = at_or_below - total / 2  # >= 0: the median reaches half
    slack_below = below - total / 2  # < 0: nothing cheaper does
    holds = math.inf
    if (rate := rate_at - grows / 2) < 0:
        holds = slack_at / -rate
    if (rate := rate_below - grows / 2) > 0:
        holds = min(holds, -slack_below / rate)
    return holds


def classify(current: float, low_90d: float | None, usual: float | None) -> Deal:
    """The deal class of `current` against the 90-day low and the usual price."""
    if usual is None or usual <= 0:
        return "usual"
    if current < usual * (1 - DEAL_MARGIN):
        if low_90d is not None and current <= low_90d + 0.005:
            return "lowest_90d"
        return "below_usual"
    if current > usual * (1 + DEAL_MARGIN):
        return "above_usual"
    return "usual"


KEPT_FROM_POINTS = 32
"""The shortest history whose summary a backend keeps. A shorter one is summarized from its
points at each read, which costs about what reading a kept summary does; so the demo
catalog's ~18k offers (about 8 points each) cost their first ingest no summaries."""

_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""One encoder for every summary: `json.dumps` with options builds one per call (a third of
the time an ingest spends keeping a demo offer's summary)."""

VALIDITY_MARGIN = 1.0
"""Seconds a summary gives up before the first moment its facts could change."""

Low = tuple[float, str]
"""A window's lowest price (rounded) and the ISO date it began."""


class PriceSummary(NamedTuple):
    """What an offer's facts need from its points, as of `computed_at` and until
    `valid_until`: until then no point leaves a window, no window start passes a midnight
    (a low or the chart dated by it) and the usual price keeps its value, so every fact is
    what the points would give (`price_facts`). A new point makes a new summary."""

    computed_at: float
    valid_until: float
    currency: str
    last_price: float
    """The price of the offer's last point (the current price when the catalog gives none)."""
    points: int
    lowest_30d: Low | None
    lowest_90d: Low | None
    lowest_180d: Low | None
    median_90d: float | None
    highest_180d: float | None
    """The highest in-stock price of the last 180 days (whether a "was" price was charged)."""
    chart: list[tuple[str, float]]

    def holds(self, now: float) -> bool:
        """Whether the facts at `now` are the ones summarized (a later moment only: the
        horizon is worked out forward)."""
        return self.computed_at <= now < self.valid_until

    def facts(self, *, current: float | None = None, was_price: float | None = None) -> PriceFacts:
        """The offer's facts with the catalog's price now (default: the last point's) and
        its stated "was" price."""
        current = self.last_price if current is None else current
        low_90 = _low(self.lowest_90d)
        seen: bool | None = None
        if was_price is not None and was_price > 0:
            floor = was_price * (1 - WAS_PRICE_TOLERANCE)
            seen = self.highest_180d is not None and self.highest_180d >= floor
        median = None if self.median_90d is None else round(self.median_90d, 2)
        # Every value is computed here from typed points: nothing for pydantic to check.
        return PriceFacts.model_construct(
            currency=self.currency,
            current=round(current, 2),
            points=self.points,
            lowest_30d=_low(self.lowest_30d),
            lowest_90d=low_90,
            lowest_180d=_low(self.lowest_180d),
            median_90d=median,
            deal=classify(current, low_90.price if low_90 else None, median),
            was_price=was_price,
            was_price_seen=seen,
            chart=list(self.chart),
        )

    def dumps(self) -> str:
        return _ENCODER.encode(self)

    @classmethod
    def loads(cls, text: str | bytes) -> PriceSummary:
        (computed, until, currency, last, points, low_30, low_90, low_180, median, high,
         chart) = json.loads(text)  # fmt: skip
        return cls(
            computed, until, currency, last, points,
            None if low_30 is None else (low_30[0], low_30[1]),
            None if low_90 is None else (low_90[0], low_90[1]),
            None if low_180 is None else (low_180[0], low_180[1]),
            median, high, [(day, price) for day, price in chart],
        )  # fmt: skip


def _low(low: Low | None) -> PriceLow | None:
    return None if low is None else PriceLow.model_construct(price=low[0], at=low[1])


def _lowest_of(segments: Sequence[tuple[float, float, float]]) -> Low | None:
    if not segments:
        return None
    # Oldest first, so the first of equal lows is the earliest (when it began).
    begin, _, price = min(segments, key=_price_then_begin)  # prices are stored in cents
    return round(price, 2), _date(begin)


def summarize(
    points: Sequence[PricePoint], *, now: float, currency: str | None = None
) -> PriceSummary | None:
    """The summary of one offer's points (oldest first) at `now`, over the points in
    `currency` (default: the last point's); None without points."""
    if not points:
        return None
    last = points[-1]
    currency = currency or last.currency
    # One currency per history: a listing that switched currency keeps only that run.
    same = (
        points
        if all(p.currency == currency for p in points)
        else [p for p in points if p.currency == currency]
    )
    times = [p.observed_at for p in same]
    start_180, start_90, start_30 = now - 180 * DAY, now - 90 * DAY, now - 30 * DAY
    # One pass: the in-stock stretches of 180 days; the shorter windows are clips of it.
    window = _segments(same, start_180, now)
    in_window = len(same) - bisect_left(times, start_180)
    in_force = in_window < len(same) and (in_window == 0 or times[-in_window] > start_180)
    last_90 = _clip(window, start_90)
    usual = _weighted_median(last_90)
    # Built as a plain tuple: an ingest of the demo catalog makes ~18k of them.
    return tuple.__new__(
        PriceSummary,
        (
            now,
            _valid_until(same, times, last_90, usual, now=now),
            currency,
            last.price,
            in_window + int(in_force),
            _lowest_of(_clip(last_90, start_30)),
            _lowest_of(last_90),
            _lowest_of(window),
            usual,
            max([price for _, _, price in window]) if window else None,
            _chart(window),
        ),
    )


def _valid_until(
    same: Sequence[PricePoint],
    times: Sequence[float],
    last_90: Sequence[tuple[float, float, float]],
    usual: float | None,
    *,
    now: float,
) -> float:
    """The first moment after `now` at which a fact of `same` (observed at `times`) could
    differ from its value at `now`, less VALIDITY_MARGIN."""
    if not times or times[-1] > now:
        return now  # a point after `now`: its stretch has not begun; nothing to keep
    # A low or the chart's first step that begins at a window's start is dated by it.
    until = (now // DAY + 1) * DAY
    for days in (30.0, 90.0, 180.0):
        # The first point at or after the window's start: when the start passes it, a
        # stretch leaves the window (and the 180-day count of points moves).
        first = bisect_left(times, now - days * DAY)
        if first < len(times) and times[first] + days * DAY < until:
            until = times[first] + days * DAY
    if usual is not None:
        in_force = bisect_right(times, now - 90 * DAY) - 1
        front = same[in_force] if in_force >= 0 else None
        until = min(until, now + _median_holds(last_90, usual, front=front, last=same[-1]))
    return until - VALIDITY_MARGIN


def price_facts(
    points: Sequence[PricePoint],
    *,
    now: float,
    current: float | None = None,
    currency: str | None = None,
    was_price: float | None = None,
) -> PriceFacts | None:
    """The facts of one offer's points (oldest first); None without points. `current`
    defaults to the last point's price (the catalog's price, when given, wins)."""
    summary = summarize(points, now=now, currency=currency)
    return None if summary is None else summary.facts(current=current, was_price=was_price)


def _chart(segments: Sequence[tuple[float, float, float]]) -> list[tuple[str, float]]:
    chosen = segments
    if len(chosen) > CHART_POINTS:
        stride = len(chosen) / CHART_POINTS
        chosen = [chosen[int(i * stride)] for i in range(CHART_POINTS - 1)] + [chosen[-1]]
    day = _day
    return [(day(int(begin // DAY)), round(price, 2)) for begin, _, price in chosen]


class ModelPriceFacts(BaseModel):
    """The lows of one model across every platform's offer, in the base currency."""

    lowest_90d_base: float
    lowest_90d_at: str
    platform: str
    item_id: str
    """The offer that had `lowest_90d_base`."""
    current_base: float | None = None
    """The cheapest in-stock price of the model now, over its offers."""
    current_platform: str = ""
    current_item_id: str = ""
    """The offer that has `current_base`."""
    median_90d_base: float | None = None
    """The model's usual price across platforms: the time-weighted median, over 90 days, of
    the lowest in-stock price any of its offers had at each moment."""
    deal: Deal = "usual"
    """`current_base` against the model's 90-day low and usual price (`classify`):
    `lowest_90d` when nowhere has it been cheaper in 90 days and it is clearly below usual."""
    offers: int = 0
    """Offers with history that the facts are over."""


def _envelope(
    runs: Sequence[Sequence[tuple[float, float, float]]],
) -> list[tuple[float, float, float]]:
    """The lower envelope of several offers' (begin, end, price) stretches: at each moment
    the lowest price any offer had in stock, as stretches of its own."""
    cuts = sorted({t for run in runs for begin, end, _ in run for t in (begin, end)})
    at = [0] * len(runs)
    lows: list[tuple[float, float, float]] = []
    for begin, end in pairwise(cuts):
        low: float | None = None
        for k, run in enumerate(runs):
            i = at[k]
            while i < len(run) and run[i][1] <= begin:
                i += 1
            at[k] = i
            if i < len(run) and run[i][0] <= begin and (low is None or run[i][2] < low):
                low = run[i][2]
        if low is not None:
            lows.append((begin, end, low))
    return lows


def model_facts(
    histories: Mapping[str, Sequence[PricePoint]],
    fx_to_base: Mapping[str, float],
    *,
    now: float,
    current: Mapping[str, float] | None = None,
) -> ModelPriceFacts | None:
    """The lows of one model over its offers (`platform:item_id` → points). `current` is
    each in-stock offer's price now in the base currency (the catalog's; by default each
    history's last in-stock point)."""
    best: ModelPriceFacts | None = None
    runs: list[list[tuple[float, float, float]]] = []
    for points in histories.values():
        rate = fx_to_base.get(points[0].currency) if points else None
        if rate is None:
            continue
        run = [(b, e, round(p * rate, 2)) for b, e, p in _segments(points, now - 90 * DAY, now)]
        runs.append(run)
        for begin, _, base in run:
            if best is None or base < best.lowest_90d_base:
                best = ModelPriceFacts(
                    lowest_90d_base=base,
                    lowest_90d_at=_date(begin),
                    platform=points[0].platform,
                    item_id=points[0].item_id,
                )
    if best is None:
        return None
    if current is None:
        current = {
            f"{points[-1].platform}:{points[-1].item_id}": points[-1].price * rate
            for points in histories.values()
            if points and points[-1].in_stock and (rate := fx_to_base.get(points[-1].currency))
        }
    median = _weighted_median(_envelope(runs))
    usual = None if median is None else round(median, 2)
    update: dict[str, object] = {"median_90d_base": usual, "offers": len(runs)}
    if current:
        key, now_base = min(current.items(), key=lambda kv: (kv[1], kv[0]))
        platform, _, item_id = key.partition(":")
        update |= {
            "current_base": round(now_base, 2),
            "current_platform": platform,
            "current_item_id": item_id,
            "deal": classify(now_base, best.lowest_90d_base, usual),
        }
    return best.model_copy(update=update)
