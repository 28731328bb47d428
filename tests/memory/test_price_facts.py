"""Facts read off a history: lows and when, the usual price, the deal class, "was" prices."""

from __future__ import annotations

import random
import time
from pathlib import Path

from cartwise.memory.demo_prices import demo_history
from cartwise.memory.price_facts import (
    PriceSummary,
    classify,
    model_facts,
    price_facts,
    summarize,
    was_price,
)
from cartwise.memory.prices import DAY, PricePoint
from tests.factories import make_product

NOW = 1_790_000_000.0  # 2026-09-21


def steps(*pairs: tuple[float, float], stock: bool = True) -> list[PricePoint]:
    """Points at (days ago, price)."""
    return [PricePoint("jd", "1", price, "CNY", stock, NOW - ago * DAY) for ago, price in pairs]


def test_lows_are_dated_and_the_usual_price_is_time_weighted() -> None:
    # 100 for 150 days, a 2-day flash at 60 (100 days ago), 95 since 20 days ago.
    history = steps((170, 100), (100, 60), (98, 100), (20, 95))
    facts = price_facts(history, now=NOW)
    assert facts is not None
    assert facts.lowest_180d is not None and facts.lowest_180d.price == 60
    assert facts.lowest_180d.at == "2026-06-13"
    assert facts.lowest_90d is not None and facts.lowest_90d.price == 95  # the flash is older
    assert facts.lowest_30d is not None and facts.lowest_30d.at == "2026-09-01"
    assert facts.median_90d == 100  # 70 days at 100 outweigh 20 at 95
    assert facts.deal == "lowest_90d"
    assert facts.points == 4


def test_the_price_in_force_when_a_window_began_counts() -> None:
    facts = price_facts(steps((200, 80), (10, 90)), now=NOW)
    assert facts is not None and facts.lowest_90d is not None
    assert facts.lowest_90d.price == 80  # charged until 10 days ago
    assert facts.deal == "above_usual"


def test_out_of_stock_stretches_are_no_lows() -> None:
    history = [*steps((60, 100)), *steps((40, 10), stock=False), *steps((39, 100))]
    facts = price_facts(history, now=NOW)
    assert facts is not None and facts.lowest_90d is not None and facts.lowest_90d.price == 100


def test_deal_classes() -> None:
    assert classify(80, 80, 100) == "lowest_90d"
    assert classify(90, 80, 100) == "below_usual"
    assert classify(99, 80, 100) == "usual"  # within the 3 % margin
    assert classify(110, 80, 100) == "above_usual"
    assert classify(100, 100, 100) == "usual"  # a price that never moved is no "low"


def test_a_was_price_never_charged_is_flagged() -> None:
    history = steps((170, 100), (5, 89))
    assert price_facts(history, now=NOW, was_price=100).was_price_seen is True  # type: ignore[union-attr]
    assert price_facts(history, now=NOW, was_price=129).was_price_seen is False  # type: ignore[union-attr]
    assert price_facts(history, now=NOW).was_price_seen is None  # type: ignore[union-attr]


def test_model_facts_name_the_cheapest_platform_in_the_base_currency() -> None:
    jd = steps((50, 700))
    amazon = [PricePoint("amazon", "B1", 95.0, "USD", True, NOW - 30 * DAY)]
    best = model_facts({"jd:1": jd, "amazon:B1": amazon}, {"CNY": 1.0, "USD": 7.0}, now=NOW)
    assert best is not None
    assert (best.platform, best.lowest_90d_base) == ("amazon", 665.0)


def test_demo_history_is_deterministic_and_ends_at_the_listed_price() -> None:
    product = make_product("B1", platform="amazon", price=32.99, currency="USD",
                           attributes={"list_price": ["40.99"]})  # fmt: skip
    first, again = demo_history(product, now=NOW), demo_history(product, now=NOW)
    assert first == again and 2 <= len(first) <= 40
    assert first[-1].price == 32.99 and first[-1].observed_at <= NOW  # today: the listed price
    assert first[0].observed_at >= NOW - 181 * DAY
    assert was_price(product) == 40.99
    listed = {"1.299,00": 1299.0, "1,299.00": 1299.0, "20": None, "abc": None}  # 20 < price
    for text, value in listed.items():
        assert was_price(product.model_copy(update={"attributes": {"list_price": [text]}})) == value


def test_the_demo_mix_has_every_deal_and_inflated_was_prices() -> None:
    deals, seen = set(), set()
    for n in range(300):
        product = make_product(
            str(n), price=100.0, attributes={"list_price": ["129"]} if n % 2 else {}
        )
        facts = price_facts(demo_history(product, now=NOW), now=NOW, was_price=was_price(product))
        assert facts is not None
        deals.add(facts.deal)
        seen.add(facts.was_price_seen)
    assert deals == {"lowest_90d", "below_usual", "usual", "above_usual"}
    assert seen == {True, False, None}


def test_facts_of_180_points_take_well_under_a_millisecond() -> None:
    history = [PricePoint("jd", "1", 100 + (i % 7), "CNY", True, NOW - (180 - i) * DAY)
               for i in range(180)]  # fmt: skip
    started = time.perf_counter()
    for _ in range(100):
        price_facts(history, now=NOW)
    assert (time.perf_counter() - started) / 100 < 0.05  # a sanity bound; make bench measures


def test_the_recorder_gives_new_demo_offers_their_past_once(tmp_path: Path) -> None:
    from cartwise.memory.backends.prices_sqlite import SqlitePriceHistory
    from cartwise.memory.price_recorder import PriceRecorder

    history = SqlitePriceHistory(tmp_path / "prices.sqlite3")
    products = [make_product(str(n), price=100.0 + n) for n in range(20)]
    clock = [NOW]
    recorder = PriceRecorder(history, None, fx_to_base={"CNY": 1.0}, clock=lambda: clock[0],
                             backfill=lambda p, now: demo_history(p, now=now))  # fmt: skip
    recorder.record(products)
    written = recorder.finish()[0]
    assert written == sum(len(demo_history(p, now=NOW)) for p in products)
    for product in products:
        assert history.latest([product.key])[product.key].price == product.price
    clock[0] = NOW + DAY
    recorder.record(products)  # nothing changed: nothing written, no second past
    assert recorder.finish()[0] == written
    recorder.record([products[0].model_copy(update={"price": 90.0})])
    assert recorder.finish()[0] == written + 1
    history.close()


def test_a_model_is_at_its_low_only_when_no_platform_was_cheaper_in_90_days() -> None:
    fx = {"CNY": 1.0, "USD": 7.0}
    # jd fell from 2,599 to 2,299 yesterday: its own 90-day low ...
    jd = steps((170, 2599), (1, 2299))
    assert price_facts(jd, now=NOW).deal == "lowest_90d"  # type: ignore[union-attr]
    # ... but amazon sold it for $320 (¥2,240) two months ago: the model is not at its low.
    amazon = [PricePoint("amazon", "B1", p, "USD", True, NOW - ago * DAY)
              for ago, p in ((120, 340.0), (60, 320.0), (50, 340.0))]  # fmt: skip
    both = model_facts({"jd:1": jd, "amazon:B1": amazon}, fx, now=NOW)
    assert both is not None and both.offers == 2
    assert (both.lowest_90d_base, both.platform, both.deal) == (2240.0, "amazon", "below_usual")
    assert (both.current_base, both.current_platform) == (2299.0, "jd")
    # Without that sale the model is at its low across platforms, where jd has it now.
    steady = [PricePoint("amazon", "B1", 340.0, "USD", True, NOW - 120 * DAY)]
    low = model_facts({"jd:1": jd, "amazon:B1": steady}, fx, now=NOW)
    assert low is not None and low.deal == "lowest_90d" and low.current_platform == "jd"
    assert low.median_90d_base == 2380.0  # amazon's ¥2,380 was the cheapest for 89 days
    # The catalog's prices now win over the last points (amazon cut to $300 = ¥2,100).
    now_prices = {"jd:1": 2299.0, "amazon:B1": 2100.0}
    cut = model_facts({"jd:1": jd, "amazon:B1": steady}, fx, now=NOW, current=now_prices)
    assert cut is not None and (cut.current_platform, cut.current_base) == ("amazon", 2100.0)
    assert cut.deal == "lowest_90d"


def test_a_model_that_never_moved_is_not_at_a_low() -> None:
    fx = {"CNY": 1.0}
    flat = model_facts({"jd:1": steps((170, 100)), "taobao:2": [
        PricePoint("taobao", "2", 100.0, "CNY", True, NOW - 100 * DAY)]}, fx, now=NOW)  # fmt: skip
    assert flat is not None and flat.deal == "usual"


def random_history(rng: random.Random, *, at_whole_days: bool) -> list[PricePoint]:
    """10–200 points over about 200 days, some out of stock, a few repeated prices."""
    count = rng.randint(1, 200)
    if at_whole_days:
        times = sorted(rng.sample(range(1, 200), min(count, 199)))
        moments = [NOW - ago * DAY for ago in reversed(times)]
    else:
        moments = sorted(NOW - rng.uniform(0, 200 * DAY) for _ in range(count))
    prices = [rng.choice((99.0, 100.0, 120.0)) if rng.random() < 0.3 else
              round(rng.uniform(50, 150), 2) for _ in moments]  # fmt: skip
    return [PricePoint("jd", "1", price, "CNY", rng.random() > 0.1, at)
            for price, at in zip(prices, moments, strict=True)]  # fmt: skip


def test_a_summary_gives_the_facts_of_its_points_at_every_moment_it_holds_for() -> None:
    rng = random.Random(5)
    lasting = 0
    for n in range(400):
        points = random_history(rng, at_whole_days=n % 2 == 0)
        made_at = points[-1].observed_at + rng.uniform(0, 3 * DAY)
        summary = summarize(points, now=made_at)
        assert summary is not None
        lasting += summary.valid_until - made_at > 3600
        later = [made_at, summary.valid_until - 0.001] + [
            rng.uniform(made_at, summary.valid_until) for _ in range(5)
        ]
        for now in (t for t in later if summary.holds(t)):
            was = rng.choice((None, 100.0, 130.0))
            current = rng.choice((None, 95.0))
            fresh = price_facts(points, now=now, current=current, was_price=was)
            assert fresh is not None
            kept = summary.facts(current=current, was_price=was)
            assert kept.model_dump() == fresh.model_dump(), (n, now - made_at)
        assert PriceSummary.loads(summary.dumps()) == summary
    assert lasting > 200  # most summaries last for hours: the check above is not vacuous


def test_a_summary_expires_when_the_usual_price_would_change() -> None:
    # 100 for the first 45.5 of the 90 days, 200 since 44.5 days ago: the usual price is 100
    # for half a day more, until 200 has held for half the window.
    morning = NOW // DAY * DAY + 60  # just after midnight: the date holds all day
    points = [PricePoint("jd", "1", price, "CNY", True, morning - ago * DAY)
              for ago, price in ((120, 100.0), (44.5, 200.0))]  # fmt: skip
    summary = summarize(points, now=morning)
    assert summary is not None and summary.median_90d == 100
    assert morning + 0.49 * DAY < summary.valid_until <= morning + 0.5 * DAY
    after = price_facts(points, now=morning + 0.5 * DAY + 1)
    assert after is not None and after.median_90d == 200
    # Out of stock when the window began: the in-stock time grows by the day, half of it
    # must stay at or below 100. 40.2 of 80 days at 100 now; in 0.4 days 40.2 of 80.4.
    points = [PricePoint("jd", "1", price, "CNY", stock, morning - ago * DAY)
              for ago, price, stock in ((120, 100.0, False), (80, 100.0, True),
                                        (39.8, 200.0, True))]  # fmt: skip
    summary = summarize(points, now=morning)
    assert summary is not None and summary.median_90d == 100
    assert morning + 0.39 * DAY < summary.valid_until <= morning + 0.4 * DAY
    assert price_facts(points, now=morning + 0.41 * DAY).median_90d == 200  # type: ignore[union-attr]


def test_a_summary_expires_when_its_low_leaves_the_window_or_the_day_turns() -> None:
    # 60 from 95 to 89 days ago: in the 90 days, dated by the window's start, for a day more.
    points = steps((200, 100), (95, 60), (89, 100))
    summary = summarize(points, now=NOW)
    assert summary is not None and summary.lowest_90d == (60.0, "2026-06-23")
    midnight = (NOW // DAY + 1) * DAY
    assert summary.valid_until <= midnight  # the window's start is a day later after it
    assert summarize(points, now=midnight + 1).lowest_90d == (60.0, "2026-06-24")  # type: ignore[union-attr]
    assert summarize(points, now=NOW + DAY + 1).lowest_90d == (100.0, "2026-06-24")  # type: ignore[union-attr]


def test_a_summary_made_before_its_last_point_never_holds() -> None:
    # A point after `now` (a clock behind the ingest's): its stretch has not begun, and the
    # facts change the moment it does.
    summary = summarize(steps((29, 100), (-1, 80)), now=NOW)
    assert summary is not None and not summary.holds(NOW)
    assert summarize(steps((29, 100)), now=NOW).holds(NOW)  # type: ignore[union-attr]


def test_the_demo_past_has_618_and_double_11_sales() -> None:
    """Most demo offers are 8-25 % cheaper during 618 (1-18 June) and 双11 (1-11 November)
    than the week before, and dearer again after."""
    from datetime import UTC, datetime

    def at(month: int, day: int) -> float:
        return datetime(2026, month, day, 12, tzinfo=UTC).timestamp()

    def price_at(points: list[PricePoint], moment: float) -> float:
        return [p.price for p in points if p.observed_at <= moment][-1]

    now = at(11, 20)  # the 180 days reach back to 24 May: both promotions inside
    on_sale = {"618": 0, "双11": 0}
    for n in range(300):
        past = demo_history(make_product(str(n), price=500.0), now=now)
        for name, (before, during, after) in {
            "618": (at(5, 27), at(6, 10), at(6, 25)),
            "双11": (at(10, 25), at(11, 6), at(11, 15)),
        }.items():
            usual, sale = price_at(past, before), price_at(past, during)
            on_sale[name] += 0.75 * usual <= sale <= 0.92 * usual < price_at(past, after)
    assert min(on_sale.values()) > 0.7 * 300, on_sale
