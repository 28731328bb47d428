"""The price seams on both backends: points only on change, backfill, watches that fire
once, expired and cancelled ones that never fire, alerts per user."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from cartwise.catalog.model_identity import model_identity
from cartwise.catalog.product import Product
from cartwise.errors import AccountErased, InvalidInput, NotFound, QuotaExceeded
from cartwise.memory import create_price_history, create_watch_store
from cartwise.memory.pinned import PinnedWatches
from cartwise.memory.price_facts import price_facts
from cartwise.memory.price_recorder import PriceRecorder
from cartwise.memory.prices import (
    DAY,
    Alert,
    PriceHistory,
    PricePoint,
    Trigger,
    WatchStore,
    new_watch,
)
from cartwise.settings import Settings
from tests.factories import make_product

NOW = 1_790_000_000.0
FX = {"CNY": 1.0, "USD": 7.12, "GBP": 9.0}


@pytest.fixture
def history(backend_settings: Settings) -> Iterator[PriceHistory]:
    opened = create_price_history(backend_settings)
    yield opened
    opened.close()


@pytest.fixture
def watches(backend_settings: Settings) -> Iterator[WatchStore]:
    opened = create_watch_store(backend_settings.model_copy(update={"max_watches_per_user": 3}))
    yield opened
    opened.close()


def point(price: float, at: float, *, item: str = "1", stock: bool = True) -> PricePoint:
    return PricePoint("jd", item, price, "CNY", stock, at)


def trigger(price: float, *, platform: str = "jd", model: str = "sony|model:wh1000xm5",
            currency: str = "CNY", stock: bool = True, restocked: bool = False) -> Trigger:  # fmt: skip
    return Trigger(model, platform, f"{platform}-1", price, currency, price * FX[currency], stock,
                   restocked)  # fmt: skip


def test_a_point_is_appended_only_when_price_or_stock_changed(history: PriceHistory) -> None:
    assert len(history.append_changed([point(100, NOW), point(50, NOW, item="2")])) == 2
    assert history.append_changed([point(100, NOW + 1), point(50, NOW + 1, item="2")]) == []
    changed = history.append_changed(
        [point(90, NOW + 2), point(50, NOW + 2, item="2", stock=False)]
    )
    assert [(p.item_id, p.price, p.in_stock) for p in changed] == [
        ("1", 90, True),
        ("2", 50, False),
    ]
    assert history.append_changed([point(120, NOW - DAY)]) == []  # older than the last point
    assert [(p.price, p.observed_at) for p in history.points("jd:1")] == [(100, NOW), (90, NOW + 2)]
    assert history.latest(["jd:1", "jd:9"])["jd:1"].price == 90
    assert set(history.points_many(["jd:1", "jd:2", "jd:9"])) == {"jd:1", "jd:2"}
    assert [p.price for p in history.points("jd:1", since=NOW + 1)] == [90]


def test_backfill_writes_only_offers_without_history(history: PriceHistory) -> None:
    history.append_changed([point(100, NOW)])
    past = [point(80, NOW - 3 * DAY), point(100, NOW - DAY), point(70, NOW - DAY, item="2")]
    assert history.backfill(past) == 1
    assert [p.price for p in history.points("jd:1")] == [100]
    assert [p.price for p in history.points("jd:2")] == [70]
    assert history.latest(["jd:2"])["jd:2"].price == 70


def test_a_watch_fires_once_across_two_platforms(watches: WatchStore) -> None:
    watch = watches.add(new_watch("ann", model="sony|model:wh1000xm5", title="WH-1000XM5",
                                  kind="price", target=300, currency="CNY", now=NOW))  # fmt: skip
    assert watches.fire([trigger(320)], FX, now=NOW) == []  # not low enough
    alerts = watches.fire(
        [trigger(299, platform="jd"), trigger(280, platform="taobao")], FX, now=NOW
    )
    assert [(a.platform, a.price, a.watch_id) for a in alerts] == [("jd", 299, watch.id)]
    assert watches.fire([trigger(250, platform="pinduoduo")], FX, now=NOW + 1) == []
    assert watches.get("ann", watch.id).status == "fired"
    assert [a.id for a in watches.alerts("ann")] == [alerts[0].id]
    assert watches.alerts("bob") == []
    # Re-armed, it fires again — once.
    watches.update("ann", watch.id, rearm=True, now=NOW + 2)
    assert len(watches.fire([trigger(250, platform="pinduoduo")], FX, now=NOW + 3)) == 1
    assert len(watches.alerts("ann", unseen_only=True)) == 2
    assert watches.mark_seen("ann", [alerts[0].id]) == 1
    assert len(watches.alerts("ann", unseen_only=True)) == 1


def test_a_target_in_another_currency_is_compared_after_conversion(watches: WatchStore) -> None:
    watches.add(new_watch("ann", model="sony|model:wh1000xm5", title="x", kind="price",
                          target=50, currency="USD", now=NOW))  # fmt: skip
    assert watches.fire([trigger(360)], FX, now=NOW) == []  # 360 CNY = 50.56 USD
    assert len(watches.fire([trigger(355)], FX, now=NOW)) == 1  # 49.86 USD


def test_expired_and_cancelled_watches_never_fire(watches: WatchStore) -> None:
    short = watches.add(new_watch("ann", model="sony|model:wh1000xm5", title="x", kind="price",
                                  target=300, currency="CNY", days=1, now=NOW))  # fmt: skip
    gone = watches.add(new_watch("ann", model="sony|model:wh1000xm5", title="x", kind="price",
                                 target=300, currency="CNY", now=NOW))  # fmt: skip
    watches.cancel("ann", gone.id)
    assert watches.fire([trigger(100)], FX, now=NOW + 2 * DAY) == []
    assert watches.alerts("ann") == []
    assert {w.id for w in watches.list("ann", include_closed=True)} == {short.id, gone.id}
    with pytest.raises(InvalidInput):
        watches.update("ann", gone.id, rearm=True)


def test_a_stock_watch_fires_on_restock_only(watches: WatchStore) -> None:
    watches.add(new_watch("ann", model="sony|model:wh1000xm5", title="x", kind="stock",
                          target=None, currency="CNY", now=NOW))  # fmt: skip
    assert watches.fire([trigger(100)], FX, now=NOW) == []  # a price move, in stock all along
    assert [a.kind for a in watches.fire([trigger(100, restocked=True)], FX, now=NOW)] == ["stock"]


def test_a_price_watch_is_not_met_by_an_offer_out_of_stock(watches: WatchStore) -> None:
    watches.add(new_watch("ann", model="sony|model:wh1000xm5", title="x", kind="price",
                          target=300, currency="CNY", now=NOW))  # fmt: skip
    assert watches.fire([trigger(199, stock=False)], FX, now=NOW) == []  # cannot be bought
    assert [a.price for a in watches.fire([trigger(199, restocked=True)], FX, now=NOW)] == [199]


def headphones(platform: str, price: float, *, stock: bool = True) -> Product:
    return make_product(f"{platform}-1", platform=platform, title="Sony WH-1000XM5 Headphones",
                        brand="Sony", price=price, in_stock=stock)  # fmt: skip


def recorder(history: PriceHistory, watches: WatchStore, **options: Any) -> PriceRecorder:
    return PriceRecorder(history, watches, fx_to_base=FX, clock=lambda: NOW, **options)


def test_a_platform_listing_a_watched_model_for_the_first_time_in_stock_fires_its_watches(
    history: PriceHistory, watches: WatchStore
) -> None:
    ingest = recorder(history, watches)
    ingest.record([headphones("jd", 2499, stock=False)])  # the listing the shopper watched
    model = model_identity(headphones("jd", 2499))
    stock = watches.add(new_watch("ann", model=model, title="x", kind="stock", target=None,
                                  currency="CNY", now=NOW))  # fmt: skip
    price = watches.add(new_watch("bob", model=model, title="x", kind="price", target=2300,
                                  currency="CNY", now=NOW))  # fmt: skip
    # taobao lists the model for the first time, in stock at 2,299: buyable, under bob's target.
    ingest.record([headphones("jd", 2499, stock=False), headphones("taobao", 2299)])
    assert ingest.finish() == (2, 2)
    assert [(a.watch_id, a.kind, a.platform) for a in watches.alerts("ann")] == [
        (stock.id, "stock", "taobao")
    ]
    assert [(a.watch_id, a.price) for a in watches.alerts("bob")] == [(price.id, 2299)]
    # Once per watch: another platform's first listing raises nothing more ...
    ingest.record([headphones("pinduoduo", 2199)])
    assert ingest.finish() == (3, 2)
    # ... and once re-armed, neither a new listing out of stock nor an unchanged one is news.
    watches.update("ann", stock.id, rearm=True, now=NOW)
    ingest.record([headphones("walmart", 2399, stock=False), headphones("taobao", 2299)])
    assert ingest.finish() == (4, 2)
    ingest.record([headphones("amazon", 2350)])
    assert ingest.finish() == (5, 3)
    assert sorted(a.platform for a in watches.alerts("ann")) == ["amazon", "taobao"]


def test_a_new_offer_given_a_synthesized_past_is_still_news_to_its_watches(
    history: PriceHistory, watches: WatchStore
) -> None:
    """The demo's first ingest writes each new offer a past ending in its state now; the
    offer was never seen before, so it meets the watches of its model."""
    from cartwise.memory.demo_prices import demo_history

    model = model_identity(headphones("jd", 2499))
    watches.add(new_watch("ann", model=model, title="x", kind="stock", target=None,
                          currency="CNY", now=NOW))  # fmt: skip
    watches.add(new_watch("bob", model=model, title="x", kind="price", target=2500,
                          currency="CNY", now=NOW))  # fmt: skip
    ingest = recorder(history, watches, backfill=lambda p, now: demo_history(p, now=now))
    ingest.record([headphones("jd", 2499)])
    points, alerts = ingest.finish()
    assert points > 1 and alerts == 2
    assert [a.kind for a in watches.alerts("ann") + watches.alerts("bob")] == ["stock", "price"]
    ingest.record([headphones("jd", 2499)])  # seen now: in stock all along
    assert ingest.finish() == (points, 2)


def test_watches_are_per_user_and_capped(watches: WatchStore) -> None:
    for _ in range(3):
        watches.add(new_watch("ann", model="m", title="x", kind="stock", target=None,
                              currency="CNY"))  # fmt: skip
    with pytest.raises(QuotaExceeded):
        watches.add(new_watch("ann", model="m", title="x", kind="stock", target=None,
                              currency="CNY"))  # fmt: skip
    assert watches.list("bob") == []
    first = watches.list("ann")[0]
    with pytest.raises(NotFound):
        watches.get("bob", first.id)
    with pytest.raises(NotFound):
        watches.cancel("bob", first.id)


def test_concurrent_new_watches_stop_at_the_cap(watches: WatchStore) -> None:
    """Twelve watches added at the same moment: three are kept, nine refused, on every
    backend (the count and the write are one step, not a read before the write)."""
    racers = 12
    start = threading.Barrier(racers)
    outcomes: list[BaseException | None] = [None] * racers

    def add(n: int) -> None:
        start.wait()
        try:
            watches.add(new_watch("cy", model=f"m{n}", title="x", kind="stock", target=None,
                                  currency="CNY"))  # fmt: skip
        except BaseException as exc:  # every outcome is inspected below
            outcomes[n] = exc

    threads = [threading.Thread(target=add, args=(n,)) for n in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(watches.list("cy")) == 3
    refused = [o for o in outcomes if o is not None]
    assert len(refused) == racers - 3 and all(isinstance(o, QuotaExceeded) for o in refused)
    # A closed watch no longer counts: one cancelled makes room for one more.
    watches.cancel("cy", watches.list("cy")[0].id)
    watches.add(new_watch("cy", model="m", title="x", kind="stock", target=None, currency="CNY"))
    with pytest.raises(QuotaExceeded):
        watches.add(new_watch("cy", model="m", title="x", kind="stock", target=None,
                              currency="CNY"))  # fmt: skip


def test_a_shopper_keeps_no_more_closed_watches_than_the_cap(watches: WatchStore) -> None:
    """Made and closed over and over (cancelled, or fired), closed watches do not pile up: a
    new one keeps the newest closed ones up to the cap (3 here) and forgets the rest, with
    their index entries."""
    closed = []
    for n in range(8):
        model = f"sony|model:x{n}"
        made = watches.add(new_watch("dee", model=model, title=f"w{n}", kind="price",
                                     target=300, currency="CNY", now=NOW + n))  # fmt: skip
        if n % 2:
            watches.cancel("dee", made.id)
        else:
            assert len(watches.fire([trigger(100, model=model)], FX, now=NOW + n)) == 1
        closed.append(made.id)
    live = watches.add(new_watch("dee", model="sony|model:x0", title="live", kind="price",
                                 target=300, currency="CNY", now=NOW + 20))  # fmt: skip
    kept = watches.list("dee", include_closed=True)
    assert {w.id for w in kept if w.status != "active"} == set(closed[-3:])
    assert [w.id for w in kept if w.status == "active"] == [live.id]
    redis = getattr(watches, "_redis", None)
    if redis is not None:  # nothing forgotten is left in a model's index
        from cartwise.memory.backends.prices_redis import _index_key

        indexed = [m.decode() for n in range(8)
                   for m in redis.client.smembers(_index_key(f"sony|model:x{n}"))]  # fmt: skip
        assert indexed and {m.rpartition("\x1f")[2] for m in indexed} <= {live.id, *closed[-3:]}
    fired = watches.fire([trigger(100, model="sony|model:x0")], FX, now=NOW + 21)
    assert [a.watch_id for a in fired] == [live.id]


@pytest.mark.parametrize("target", [0, -5, 0.004, None, math.inf, math.nan, 1e9, 3e40])
def test_a_price_watch_needs_a_target_some_price_can_be(target: float | None) -> None:
    with pytest.raises(InvalidInput):
        new_watch("ann", model="m", title="x", kind="price", target=target, currency="CNY")


def test_a_watch_cannot_be_moved_to_a_target_no_price_can_be(watches: WatchStore) -> None:
    made = watches.add(new_watch("ann", model="m", title="x", kind="price", target=99.5,
                                 currency="CNY"))  # fmt: skip
    for target in (1e12, math.inf, -1.0):
        with pytest.raises(InvalidInput):
            watches.update("ann", made.id, target=target)
    assert watches.get("ann", made.id).target == 99.5
    assert watches.update("ann", made.id, target=999_999_999.0).target == 999_999_999.0


def test_erase_leaves_nothing_of_the_user(watches: WatchStore) -> None:
    for user in ("ann", "bob"):
        watches.add(new_watch(user, model="sony|model:wh1000xm5", title="x", kind="price",
                              target=300, currency="CNY", now=NOW))  # fmt: skip
    watches.fire([trigger(100)], FX, now=NOW)
    watches.set_webhook("ann", "https://hooks.example/ann")
    watches.erase("ann")
    assert watches.list("ann", include_closed=True) == watches.alerts("ann") == []
    assert watches.webhook("ann") == ""
    assert len(watches.alerts("bob")) == 1
    watches.update("bob", watches.list("bob", include_closed=True)[0].id, rearm=True)
    assert [a.user for a in watches.fire([trigger(90)], FX, now=NOW + 1)] == ["bob"]


def test_an_erase_outdates_watches_and_webhooks_of_work_begun_before_it(
    watches: WatchStore,
) -> None:
    """A turn still running for a deleted account cannot leave a watch or a webhook behind."""
    model = "sony|model:wh1000xm5"
    watches.add(new_watch("ann", model=model, title="x", kind="price", target=300,
                          currency="CNY", now=NOW))  # fmt: skip
    earlier = PinnedWatches(watches, "ann", watches.generation("ann"))
    other = PinnedWatches(watches, "bob", watches.generation("bob"))
    watches.erase("ann")
    late = new_watch("ann", model=model, title="x", kind="price", target=250, currency="CNY",
                     now=NOW)  # fmt: skip
    with pytest.raises(AccountErased):
        earlier.add(late)
    with pytest.raises(AccountErased):
        earlier.set_webhook("ann", "https://hooks.example/ann")
    assert watches.list("ann", include_closed=True) == [] and watches.webhook("ann") == ""
    # Nothing of the refused watch is left to fire, and other users are untouched.
    assert watches.fire([trigger(100)], FX, now=NOW) == []
    other.add(new_watch("bob", model=model, title="x", kind="price", target=300,
                        currency="CNY", now=NOW))  # fmt: skip
    assert [a.user for a in watches.fire([trigger(100)], FX, now=NOW)] == ["bob"]
    # Work that begins after the erase (a new account of the same name) writes as usual.
    fresh = PinnedWatches(watches, "ann", watches.generation("ann"))
    fresh.add(late)
    assert [w.id for w in watches.list("ann")] == [late.id]


def test_webhook_is_per_user(watches: WatchStore) -> None:
    watches.set_webhook("ann", "https://hooks.example/ann")
    assert (watches.webhook("ann"), watches.webhook("bob")) == ("https://hooks.example/ann", "")
    watches.set_webhook("ann", "")
    assert watches.webhook("ann") == ""


@pytest.mark.redis
def test_redis_keeps_an_offer_as_one_append_only_string_of_20_byte_records(
    clean_redis: str,
) -> None:
    import redis

    from cartwise.memory.backends.prices_redis import RedisPriceHistory

    history = RedisPriceHistory(clean_redis)
    raw = redis.Redis.from_url(clean_redis)
    try:
        history.backfill([point(100, NOW - 2 * DAY), point(80, NOW - DAY)])
        before = raw.get("cw:pricepts:{jd:1}")
        assert before is not None and len(before) == 2 * 20
        usd = PricePoint("jd", "1", 12.5, "USD", False, NOW)
        assert history.append_changed([usd, point(80, NOW + 1, item="2")]) == [
            usd,
            point(80, NOW + 1, item="2"),
        ]
        after = raw.get("cw:pricepts:{jd:1}")
        assert after is not None and after.startswith(before) and len(after) == 3 * 20
        assert history.points("jd:1")[-1] == usd  # currency and stock round-trip
        assert history.latest(["jd:1", "jd:2"]) == {
            "jd:1": usd,
            "jd:2": point(80, NOW + 1, item="2"),
        }
        assert [p.price for p in history.points("jd:1", since=NOW - DAY)] == [80, 12.5]
    finally:
        history.close()
        raw.close()


@pytest.mark.redis
def test_redis_history_in_the_earlier_format_is_converted_at_the_next_ingest(
    clean_redis: str,
) -> None:
    import redis

    from cartwise.memory.backends.prices_redis import RedisPriceHistory

    raw = redis.Redis.from_url(clean_redis)
    # As the sorted-set format kept it: members time|price|currency|stock, scored by time.
    earlier = {
        f"{NOW - 2 * DAY!r}|100.00|CNY|1": NOW - 2 * DAY,
        f"{NOW - DAY!r}|80.00|CNY|0": NOW - DAY,
    }
    raw.zadd("cw:price:{jd:1}", earlier)
    history = RedisPriceHistory(clean_redis)
    try:
        assert history.latest(["jd:1", "jd:2"]) == {"jd:1": point(80, NOW - DAY, stock=False)}
        assert history.points("jd:1") == [
            point(100, NOW - 2 * DAY),
            point(80, NOW - DAY, stock=False),
        ]
        assert raw.exists("cw:price:{jd:1}") == 0
        assert history.append_changed([point(80, NOW)]) == [point(80, NOW)]  # back in stock
        assert len(history.points("jd:1")) == 3
    finally:
        history.close()
        raw.close()


@pytest.fixture
def clocked(backend_settings: Settings) -> Iterator[tuple[PriceHistory, list[float]]]:
    """A history whose ingest-time summaries are dated by a clock the test moves."""
    clock = [NOW]
    opened = create_price_history(backend_settings, clock=lambda: clock[0])
    yield opened, clock
    opened.close()


@pytest.fixture
def no_recompute(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Counts the summaries the backends make on a read or an ingest (each call's `now`)."""
    from cartwise.memory.backends import prices_redis, prices_sqlite
    from cartwise.memory.price_facts import summarize

    made: list[float] = []

    def counted(points: object, *, now: float, currency: str | None = None) -> object:
        made.append(now)
        return summarize(points, now=now, currency=currency)  # type: ignore[arg-type]

    monkeypatch.setattr(prices_sqlite, "summarize", counted)
    monkeypatch.setattr(prices_redis, "summarize", counted)
    return made


def wobble(*, before: float, count: int = 41) -> list[PricePoint]:
    """`count` daily points alternating 100 and 101, the last a day before `before`: a
    history long enough for its summary to be kept (and, odd, not one whose usual price
    is a tie about to tip)."""
    return [point(100 + i % 2, before - (count - i) * DAY) for i in range(count)]


def test_facts_are_read_from_the_summary_an_ingest_kept(
    clocked: tuple[PriceHistory, list[float]], no_recompute: list[float]
) -> None:
    history, _ = clocked
    history.backfill([*wobble(before=NOW - 185 * DAY), point(60, NOW - 95 * DAY),
                      point(100, NOW - 89 * DAY)])  # fmt: skip
    assert no_recompute == [NOW]  # made once, at the ingest
    facts = history.summaries(["jd:1", "jd:9"], now=NOW + 60)["jd:1"].facts(was_price=130)
    expected = price_facts(history.points("jd:1"), now=NOW + 60, was_price=130)
    assert facts == expected and facts.lowest_90d is not None and facts.lowest_90d.price == 60
    assert facts.points == 3 and facts.was_price_seen is False
    assert no_recompute == [NOW]  # read without touching the points


def test_a_new_lower_point_updates_the_summary_at_its_ingest(
    clocked: tuple[PriceHistory, list[float]], no_recompute: list[float]
) -> None:
    history, clock = clocked
    history.append_changed(wobble(before=NOW))
    before = history.summaries(["jd:1"], now=NOW)["jd:1"].facts()
    assert before.lowest_90d is not None and before.lowest_90d.price == 100
    clock[0] = NOW + 60
    history.append_changed([point(79, NOW + 60)])
    made = len(no_recompute)
    after = history.summaries(["jd:1"], now=NOW + 120)["jd:1"].facts()
    assert after == price_facts(history.points("jd:1"), now=NOW + 120)
    assert after.lowest_90d is not None and after.lowest_90d.price == 79
    assert after.deal == "lowest_90d" and after.current == 79
    assert len(no_recompute) == made  # the ingest renewed it; the read only read it


def test_a_summary_the_window_has_moved_past_is_made_anew_and_kept(
    clocked: tuple[PriceHistory, list[float]], no_recompute: list[float]
) -> None:
    history, _ = clocked
    history.backfill([*wobble(before=NOW - 185 * DAY), point(60, NOW - 95 * DAY),
                      point(100, NOW - 89 * DAY)])  # fmt: skip
    kept = history.summaries(["jd:1"], now=NOW)["jd:1"]
    later = NOW + 2 * DAY  # the 60 has left the 90 days
    assert not kept.holds(later)
    moved = history.summaries(["jd:1"], now=later)["jd:1"].facts()
    assert moved == price_facts(history.points("jd:1"), now=later)
    assert moved.lowest_90d is not None and moved.lowest_90d.price == 100
    assert no_recompute[-1] == later
    made = len(no_recompute)
    assert history.summaries(["jd:1"], now=later + 1)["jd:1"].facts().lowest_90d == moved.lowest_90d
    assert len(no_recompute) == made  # the new one was kept


def test_a_short_history_is_summarized_at_each_read_and_never_kept(
    clocked: tuple[PriceHistory, list[float]], no_recompute: list[float]
) -> None:
    history, _ = clocked
    history.append_changed([point(100, NOW - 20 * DAY)])
    history.append_changed([point(80, NOW - DAY)])
    assert no_recompute == []  # nothing kept at the ingests
    for now in (NOW, NOW + 1):
        facts = history.summaries(["jd:1"], now=now)["jd:1"].facts()
        assert facts == price_facts(history.points("jd:1"), now=now)
    assert no_recompute == [NOW, NOW + 1]


@pytest.mark.redis
def test_redis_never_takes_a_summary_of_fewer_points_for_the_current_one(clean_redis: str) -> None:
    import redis

    from cartwise.memory.backends.prices_redis import RedisPriceHistory

    history = RedisPriceHistory(clean_redis, clock=lambda: NOW)
    raw = redis.Redis.from_url(clean_redis)
    try:
        history.append_changed(wobble(before=NOW))
        older = raw.get("cw:pricesum:{jd:1}")
        history.append_changed([point(70, NOW)])
        assert older is not None and older != raw.get("cw:pricesum:{jd:1}")
        raw.set("cw:pricesum:{jd:1}", older)  # a slower ingest's summary, written last
        facts = history.summaries(["jd:1"], now=NOW + 1)["jd:1"].facts()
        assert facts.current == 70 and facts.lowest_30d is not None
        assert facts.lowest_30d.price == 70
    finally:
        history.close()
        raw.close()


@pytest.mark.slow
def test_ingests_of_four_platforms_at_once_fire_each_watch_exactly_once(
    backend_settings: Settings,
) -> None:
    """Four ingests running together (a fleet's workers, one platform each) offer the same
    models under every watch's target: each watch raises one alert, by one of them."""
    import multiprocessing

    from tests.memory.workers import StoreSpec, fire_watches

    spawn = multiprocessing.get_context("spawn")
    store = create_watch_store(backend_settings)
    models = [f"brand|model:m{n}" for n in range(1200)]
    made = []
    for n, model in enumerate(models):
        made.append(store.add(new_watch(f"u{n % 60}", model=model, title="x", kind="price",
                                        target=300, currency="CNY", now=NOW)))  # fmt: skip
    platforms = ("jd", "taobao", "pinduoduo", "amazon")
    start, raised = spawn.Barrier(len(platforms)), spawn.Queue()  # all begin together
    spec = StoreSpec.from_settings(backend_settings)
    workers = [spawn.Process(target=fire_watches, args=(spec, platform, models, start, raised))
               for platform in platforms]  # fmt: skip
    for process in workers:
        process.start()
    fired = [watch_id for _ in workers for watch_id in raised.get(timeout=120)]
    for process in workers:
        process.join(timeout=60)
    assert [p.exitcode for p in workers] == [0] * len(workers)
    assert sorted(fired) == sorted(w.id for w in made)  # each once, none twice
    stored = [a.watch_id for n in range(60) for a in store.alerts(f"u{n}")]
    assert sorted(stored) == sorted(fired)
    store.close()


@pytest.mark.redis
def test_redis_a_watch_another_ingest_fires_between_its_read_and_its_write_fires_once(
    clean_redis: str,
) -> None:
    """jd's ingest reads the watch live; taobao's fires it before jd writes: jd's write
    finds the watch changed, reads it again (fired) and raises nothing."""
    from cartwise.memory.backends.prices_redis import RedisWatchStore

    jd, taobao = RedisWatchStore(clean_redis), RedisWatchStore(clean_redis)
    try:
        watch = jd.add(new_watch("ann", model="sony|model:wh1000xm5", title="x", kind="price",
                                 target=300, currency="CNY", now=NOW))  # fmt: skip
        read = jd._read
        overtaken: list[Alert] = []

        def read_then_overtaken(user: str, watch_id: str) -> str:
            raw = read(user, watch_id)
            if not overtaken:
                overtaken.extend(taobao.fire([trigger(280, platform="taobao")], FX, now=NOW))
            return raw

        jd._read = read_then_overtaken  # type: ignore[method-assign]
        assert jd.fire([trigger(290)], FX, now=NOW) == []
        assert [(a.platform, a.watch_id) for a in overtaken] == [("taobao", watch.id)]
        assert [a.id for a in jd.alerts("ann")] == [overtaken[0].id]
    finally:
        jd.close()
        taobao.close()
