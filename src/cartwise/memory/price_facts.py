"""What an offer's price history says: its lows, its usual price, whether now is a deal,
whether a "was" price was ever charged. A pure function of the points (no store).

The history is a step function — a point holds until the next one — so "the usual price" is
the time-weighted median over the window (a one-day flash sale does not move it; a price held
for two months is the usual one), and the lowest price of a window includes the price in force
when the window began. Out-of-stock stretches count for neither: nobody could buy at them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

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


def _date(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def _segments(
    points: Sequence[PricePoint], start: float, now: float
) -> list[tuple[float, float, float]]:
    """(begin, end, price) of each in-stock stretch overlapping [start, now]."""
    segments: list[tuple[float, float, float]] = []
    for i, point in enumerate(points):
        end = points[i + 1].observed_at if i + 1 < len(points) else now
        begin = max(point.observed_at, start)
        if end <= start or not point.in_stock:
            continue
        segments.append((begin, max(end, begin), point.price))
    return segments


def _lowest(segments: Sequence[tuple[float, float, float]]) -> PriceLow | None:
    if not segments:
        return None
    begin, _, price = min(segments, key=lambda s: (round(s[2], 2), s[0]))
    return PriceLow(price=round(price, 2), at=_date(begin))


def _weighted_median(segments: Sequence[tuple[float, float, float]]) -> float | None:
    if not segments:
        return None
    ordered = sorted((price, end - begin) for begin, end, price in segments)
    total = sum(weight for _, weight in ordered)
    if total <= 0:
        return round(ordered[len(ordered) // 2][0], 2)
    running = 0.0
    for price, weight in ordered:
        running += weight
        if running >= total / 2:
            return round(price, 2)
    return round(ordered[-1][0], 2)


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
    if not points:
        return None
    last = points[-1]
    current = last.price if current is None else current
    # One currency per history: a listing that switched currency keeps only its recent run.
    same = [p for p in points if p.currency == (currency or last.currency)]
    start_180 = now - 180 * DAY
    window_180 = [p for p in same if p.observed_at >= start_180]
    in_force = len(window_180) < len(same) and (
        not window_180 or window_180[0].observed_at > start_180
    )
    segments = {days: _segments(same, now - days * DAY, now) for days in (30, 90, 180)}
    low_90 = _lowest(segments[90])
    usual = _weighted_median(segments[90])
    seen: bool | None = None
    if was_price is not None and was_price > 0:
        seen = any(price >= was_price * (1 - WAS_PRICE_TOLERANCE) for _, _, price in segments[180])
    return PriceFacts(
        currency=currency or last.currency,
        current=round(current, 2),
        points=len(window_180) + int(in_force),
        lowest_30d=_lowest(segments[30]),
        lowest_90d=low_90,
        lowest_180d=_lowest(segments[180]),
        median_90d=usual,
        deal=classify(current, low_90.price if low_90 else None, usual),
        was_price=was_price,
        was_price_seen=seen,
        chart=_chart(segments[180]),
    )


def _chart(segments: Sequence[tuple[float, float, float]]) -> list[tuple[str, float]]:
    steps = [(_date(begin), round(price, 2)) for begin, _, price in segments]
    if len(steps) <= CHART_POINTS:
        return steps
    stride = len(steps) / CHART_POINTS
    return [steps[int(i * stride)] for i in range(CHART_POINTS - 1)] + [steps[-1]]


class ModelPriceFacts(BaseModel):
    """The lows of one model across every platform's offer, in the base currency."""

    lowest_90d_base: float
    lowest_90d_at: str
    platform: str
    item_id: str


def model_facts(
    histories: Mapping[str, Sequence[PricePoint]],
    fx_to_base: Mapping[str, float],
    *,
    now: float,
) -> ModelPriceFacts | None:
    """The lowest 90-day price over the offers of one model (`platform:item_id` → points)."""
    best: ModelPriceFacts | None = None
    for points in histories.values():
        for begin, _, price in _segments(points, now - 90 * DAY, now):
            rate = fx_to_base.get(points[0].currency)
            if rate is None:
                continue
            base = round(price * rate, 2)
            if best is None or base < best.lowest_90d_base:
                best = ModelPriceFacts(
                    lowest_90d_base=base,
                    lowest_90d_at=_date(begin),
                    platform=points[0].platform,
                    item_id=points[0].item_id,
                )
    return best
