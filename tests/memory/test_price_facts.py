"""Facts read off a history: lows and when, the usual price, the deal class, "was" prices."""

from __future__ import annotations

import time
from pathlib import Path

from cartwise.memory.demo_prices import demo_history
from cartwise.memory.price_facts import classify, model_facts, price_facts, was_price
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
