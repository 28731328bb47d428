"""Price history in conversations, both languages: the reply says when a shown item is at
its 90-day low; "is this a good price / 现在买划算吗" and "what's the lowest it's been /
历史最低多少" are answered from the item's history; "tell me when it drops below … / 降到…提醒我"
and "有货了告诉我 / back in stock" create watches; an ingest that meets one raises an alert the
next turn delivers (a CUSTOM event first)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.price_answers import ModelLow, lows_note
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain, Product
from cartwise.embedding import create_embedder
from cartwise.errors import AccountErased
from cartwise.memory import (
    create_preference_store,
    create_price_history,
    create_session_store,
    create_watch_store,
)
from cartwise.memory.pinned import PinnedPreferences, PinnedSessions, PinnedWatches
from cartwise.memory.price_recorder import PriceRecorder
from cartwise.memory.prices import DAY, PricePoint
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine
from tests.factories import make_product

NOW = time.time()
YESTERDAY = datetime.fromtimestamp(NOW - DAY, UTC).date().isoformat()
"""The day jd's 2,299 began: its lowest in 30, 90 and 180 days."""


def catalog() -> list[Product]:
    def headphones(platform: str, item: str, title: str, price: float, currency: str,
                   **fields: Any) -> Product:  # fmt: skip
        rate = {"CNY": 1.0, "USD": 7.12}[currency]
        return make_product(item, platform=platform, title=title, brand="Sony", price=price,
                            currency=currency, price_base=round(price * rate, 2),
                            domain=Domain.ELECTRONICS, product_type="over_ear_headphones",
                            attributes={"model": ["WH-1000XM5"], **fields.pop("attributes", {})},
                            **fields)  # fmt: skip

    return [
        headphones(
            "jd",
            "J1",
            "索尼 Sony WH-1000XM5 头戴式降噪耳机",
            2299.0,
            "CNY",
            attributes={"list_price": ["2999"]},
        ),
        headphones(
            "amazon", "A1", "Sony WH-1000XM5 over-ear noise cancelling headphones", 329.0, "USD"
        ),
        make_product(
            "T2",
            platform="taobao",
            title="漫步者 Edifier W820NB 头戴式蓝牙耳机",
            brand="Edifier",
            price=299.0,
            domain=Domain.ELECTRONICS,
            product_type="over_ear_headphones",
            in_stock=False,
            attributes={"model": ["W820NB"]},
        ),
    ]


def past(item: str, platform: str, currency: str, *steps: tuple[float, float]) -> list[PricePoint]:
    return [
        PricePoint(platform, item, price, currency, True, NOW - ago * DAY) for ago, price in steps
    ]


@pytest.fixture
def deps(settings: Settings) -> Iterator[AgentDeps]:
    opened = open_deps(settings)
    yield opened
    opened.close()


def open_deps(settings: Settings) -> AgentDeps:
    embedder = create_embedder(settings.embedder)
    recall = RecallService.open(settings, embedder)
    products = catalog()
    recall.upsert(products, embedder.embed_documents([p.embedding_text() for p in products]))
    history = create_price_history(settings)
    # jd: 2599 for months, 2299 since yesterday (its 90-day low); never at its "was" 2999.
    history.backfill(past("J1", "jd", "CNY", (170, 2599.0), (120, 2399.0), (100, 2599.0),
                          (1, 2299.0)))  # fmt: skip
    history.backfill(past("A1", "amazon", "USD", (150, 349.0), (30, 329.0)))
    history.backfill([PricePoint("taobao", "T2", 299.0, "CNY", False, NOW - 5 * DAY)])
    return AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, embedder),
        sessions=create_session_store(settings),
        recall=recall,
        engine=RulesEngine(),
        embedder=embedder,
        prices=history,
        watches=create_watch_store(settings),
    )


async def turn(deps: AgentDeps, thread: str, message: str, events: list[Any] | None = None) -> Any:
    async def emit(event: Any) -> None:
        if events is not None:
            events.append(event)

    return await run_agent(deps, user="ann", thread=thread, message=message, emit=emit)


def reingest(deps: AgentDeps, products: list[Product]) -> tuple[int, int]:
    assert deps.prices is not None
    recorder = PriceRecorder(deps.prices, deps.watches, fx_to_base=deps.settings.fx_to_base)
    deps.recall.upsert(
        products, deps.embedder.embed_documents([p.embedding_text() for p in products])
    )
    recorder.record(products)
    return recorder.finish()


async def test_zh_conversation_answers_from_history_and_watches(deps: AgentDeps) -> None:
    first = await turn(deps, "zh", "推荐一款头戴耳机")
    jd = next(p for p in first.products if p.platform == "jd")
    ordinal = [p.platform for p in first.products].index("jd") + 1
    assert jd.deal == "lowest_90d" and jd.was_price_seen is False
    assert jd.history is not None and (jd.history.lowest_90d, jd.history.median_90d) == (2299, 2599)
    assert jd.history.points == 4 and len(jd.history.chart) == 4
    # The model over both offers found (jd ¥2,299; amazon $329 ≈ ¥2,342): jd's is lowest.
    assert {o.platform for o in jd.offers} == {"jd", "amazon"}
    low = jd.model_lowest_90d
    assert low is not None and (low.platform, low.lowest_90d_base) == ("jd", 2299.0)
    # Nowhere was it cheaper in 90 days (amazon's best was ¥2,342): the model is at its low.
    assert (low.deal, low.current_platform, low.offers) == ("lowest_90d", "jd", 2)
    assert f"第{ordinal}款这个型号现在是各平台近90天的最低价。" in first.reply

    deal = await turn(deps, "zh", f"第{ordinal}个现在买划算吗")
    assert deal.price_answer is not None and deal.price_answer.kind == "deal"
    assert "近90天最低价" in deal.reply and "虚标" in deal.reply and "2,999" in deal.reply
    assert deal.products and deal.products[0].deal == "lowest_90d"

    lowest = await turn(deps, "zh", f"第{ordinal}个历史最低多少")
    assert lowest.price_answer is not None and lowest.price_answer.kind == "lowest"
    low = lowest.price_answer
    assert (low.lowest_180d, low.lowest_90d, low.median_90d) == (2299, 2299, 2599)
    assert low.lowest_180d_at == low.lowest_90d_at == YESTERDAY
    assert f"近180天最低¥2,299（{YESTERDAY}）" in lowest.reply and "¥2,599" in lowest.reply

    watch = await turn(deps, "zh", f"第{ordinal}个降到2000以下提醒我")
    made = watch.price_answer.watch if watch.price_answer else None
    assert made is not None and (made.kind, made.target, made.currency) == ("price", 2000, "CNY")
    assert made.expires_at - made.created_at == 90 * DAY  # the default expiry
    assert "¥2,000" in watch.reply and "提醒你" in watch.reply
    assert watch.memory.session.slots.get("budget_max") is None  # a target, not a budget

    # The same model drops on amazon: $279 is ¥1,986 — one alert, delivered once.
    cheaper = [p.model_copy(update={"price": 279.0, "price_base": 1986.48})
               for p in catalog() if p.platform == "amazon"]  # fmt: skip
    assert reingest(deps, cheaper)[1] == 1
    events: list[Any] = []
    after = await turn(deps, "zh", "谢谢", events)
    assert [(a.platform, a.price) for a in after.alerts] == [("amazon", 279.0)]
    custom = [e for e in events if getattr(e, "name", "") == "price_alerts"]
    assert len(custom) == 1 and events.index(custom[0]) == 0
    assert (await turn(deps, "zh", "谢谢")).alerts == []


async def test_en_conversation_answers_from_history_and_watches(deps: AgentDeps) -> None:
    first = await turn(deps, "en", "over-ear headphones")
    platforms = [p.platform for p in first.products]
    jd = platforms.index("jd") + 1
    nth = {1: "1st", 2: "2nd", 3: "3rd"}
    assert f"The {nth[jd]} one's model is at its 90-day low across platforms." in first.reply

    deal = await turn(deps, "en", f"is the {nth[jd]} one a good price?")
    assert deal.price_answer is not None and deal.price_answer.kind == "deal"
    assert "90-day low" in deal.reply and "inflated" in deal.reply

    lowest = await turn(deps, "en", f"what's the lowest the {nth[jd]} one has been?")
    assert lowest.price_answer is not None and lowest.price_answer.kind == "lowest"
    assert lowest.price_answer.lowest_90d_at == YESTERDAY
    assert f"in 90 days $322.89 ({YESTERDAY})" in lowest.reply

    watch = await turn(deps, "en", f"tell me when the {nth[jd]} one drops below $300")
    made = watch.price_answer.watch if watch.price_answer else None
    assert made is not None and (made.target, made.currency) == (300, "USD")
    assert made.expires_at - made.created_at == 90 * DAY
    assert "$300" in watch.reply

    # The out-of-stock listing was left out ("Skipped: 1 out of stock"): that is the one.
    stock = await turn(deps, "en", "let me know when it's back in stock")
    made = stock.price_answer.watch if stock.price_answer else None
    assert made is not None and (made.kind, made.platform) == ("stock", "taobao")
    assert "back" in stock.reply

    # amazon drops to $279 (under the $300 target) and taobao's listing is back: one alert
    # for each watch, delivered with the next turn only, the CUSTOM event first.
    changed = [p.model_copy(update={"price": 279.0, "price_base": 1986.48})
               if p.platform == "amazon" else p.model_copy(update={"in_stock": True})
               for p in catalog() if p.platform in ("amazon", "taobao")]  # fmt: skip
    assert reingest(deps, changed)[1] == 2
    events: list[Any] = []
    after = await turn(deps, "en", "thanks", events)
    assert sorted((a.kind, a.platform) for a in after.alerts) == [
        ("price", "amazon"), ("stock", "taobao")
    ]  # fmt: skip
    custom = [e for e in events if getattr(e, "name", "") == "price_alerts"]
    assert len(custom) == 1 and events.index(custom[0]) == 0
    assert (await turn(deps, "en", "thanks")).alerts == []


async def test_zh_back_in_stock_watch_fires_on_restock(deps: AgentDeps) -> None:
    first = await turn(deps, "stock", "推荐一款头戴耳机")
    assert [r.code for r in first.rejected] == ["out_of_stock"]
    asked = await turn(deps, "stock", "有货了告诉我")
    made = asked.price_answer.watch if asked.price_answer else None
    assert made is not None and (made.kind, made.item_id) == ("stock", "T2")
    assert "一有货就提醒你" in asked.reply
    price_only = [p.model_copy(update={"price": 289.0, "price_base": 289.0})
                  for p in catalog() if p.platform == "taobao"]  # fmt: skip
    assert reingest(deps, price_only)[1] == 0  # still out of stock
    restocked = [p.model_copy(update={"in_stock": True}) for p in price_only]
    assert reingest(deps, restocked)[1] == 1
    assert reingest(deps, [p.model_copy(update={"price": 279.0}) for p in restocked])[1] == 0


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("推荐一款头戴耳机", "第1款这个型号现在是各平台近90天的最低价。"),
        ("over-ear headphones", "The 1st one's model is at its 90-day low across platforms."),
    ],
)
async def test_the_reply_says_a_model_is_at_its_low_across_platforms(
    deps: AgentDeps, message: str, expected: str
) -> None:
    """amazon's $299 (¥2,129) since yesterday is the lowest any platform has had the model
    for in 90 days (usually ¥2,485: amazon's $349) — the reply says so of the item shown."""
    cut = [p.model_copy(update={"price": 299.0, "price_base": 2128.88})
           for p in catalog() if p.platform == "amazon"]  # fmt: skip
    deps.recall.upsert(cut, deps.embedder.embed_documents([p.embedding_text() for p in cut]))
    assert deps.prices is not None
    deps.prices.append_changed([PricePoint("amazon", "A1", 299.0, "USD", True, NOW - DAY)])
    first = await turn(deps, "m", message)
    shown = first.products[0]
    assert {o.platform for o in shown.offers} == {"jd", "amazon"}
    low = shown.model_lowest_90d
    assert low is not None and (low.deal, low.current_platform) == ("lowest_90d", "amazon")
    assert (low.current_base, low.median_90d_base) == (2128.88, 2484.88)
    assert shown.platform == "amazon" and expected in first.reply


def test_the_model_note_names_the_platform_when_another_listing_is_cheaper() -> None:
    low = ModelLow(ordinal=2, platform="amazon", price=299.0, currency="USD", same_offer=False)
    assert lows_note([1, 2], "zh", models_at_low=[low]) == (
        "第2款这个型号现在是各平台近90天的最低价（亚马逊$299）。第1款现在是近90天最低价。"
    )
    assert lows_note([2], "en", models_at_low=[low]) == (
        "The 2nd one's model is at its 90-day low across platforms (Amazon, $299)."
    )


@pytest.mark.parametrize(
    ("search", "ask", "recipient"),
    [
        ("给我妈推荐一款头戴耳机", "第1个降到2000以下提醒我", "mum"),
        ("over-ear headphones for my dad", "tell me when the 1st one drops below $300", "dad"),
    ],
)
async def test_a_watch_asked_while_shopping_for_someone_is_theirs(
    deps: AgentDeps, search: str, ask: str, recipient: str
) -> None:
    assert (await turn(deps, "gift", search)).recipient == recipient
    asked = await turn(deps, "gift", ask)
    made = asked.price_answer.watch if asked.price_answer else None
    assert made is not None and (made.user, made.recipient) == ("ann", recipient)
    cheaper = [p.model_copy(update={"price": 199.0, "price_base": 1416.88})
               for p in catalog() if p.platform == "amazon"]  # fmt: skip
    assert reingest(deps, cheaper)[1] == 1
    assert deps.watches is not None
    assert [a.recipient for a in deps.watches.alerts("ann")] == [recipient]


@pytest.mark.parametrize(
    ("search", "ask", "currency", "said"),
    [
        ("over-ear headphones under £400", "tell me when the 1st one drops below 240", "GBP",
         "£240"),
        ("头戴耳机 预算400美元以内", "第1个降到300以下提醒我", "USD", "$300"),
    ],
)  # fmt: skip
async def test_a_target_said_without_a_currency_is_in_the_shoppers_currency(
    deps: AgentDeps, search: str, ask: str, currency: str, said: str
) -> None:
    """A budget in pounds (or dollars, in Chinese) makes them the shopper's currency: "below
    240" is £240, not the language's usual $240 or ¥240 — and the watch fires as such."""
    assert (await turn(deps, "fx", search)).shopper_currency.code == currency
    asked = await turn(deps, "fx", ask)
    made = asked.price_answer.watch if asked.price_answer else None
    assert made is not None and (made.target, made.currency) == (float(said[1:]), currency)
    assert said in asked.reply
    # amazon's $279 (¥1,986, £219.50) meets both; the old prices (≥ £254, ≥ $322.89) did not.
    cheaper = [p.model_copy(update={"price": 279.0, "price_base": 1986.48})
               for p in catalog() if p.platform == "amazon"]  # fmt: skip
    assert reingest(deps, cheaper)[1] == 1


class CountingHistory:
    """A history that counts its batched reads of points and of summaries."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.reads: list[str] = []

    def points_many(self, keys: Any, *, since: float = 0.0) -> Any:
        self.reads.append("points")
        return self.inner.points_many(keys, since=since)

    def summaries(self, keys: Any, *, now: float) -> Any:
        self.reads.append("summaries")
        return self.inner.summaries(keys, now=now)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def test_a_search_turn_reads_its_offers_summaries_once_and_its_models_points_once(
    deps: AgentDeps,
) -> None:
    counting = CountingHistory(deps.prices)
    first = await turn(dataclasses.replace(deps, prices=counting), "once", "推荐一款头戴耳机")  # type: ignore[arg-type]
    shown = first.products[0]
    assert shown.history is not None and shown.model_lowest_90d is not None
    assert sorted(counting.reads) == ["points", "summaries"]


class ErasingEngine(RulesEngine):
    """The rules engine, deleting the account while it reads: the turn is past its start
    and before the watch it will make."""

    def __init__(self, deps: AgentDeps) -> None:
        super().__init__()
        self.deps = deps

    def read(self, message: str, conversation: Conversation) -> Reading:
        reading = super().read(message, conversation)
        for store in (self.deps.preferences, self.deps.sessions, self.deps.watches):
            store.erase("ann")  # type: ignore[union-attr]
        return reading


@pytest.mark.parametrize(
    ("search", "ask"),
    [
        ("推荐一款头戴耳机", "第1个降到3e40元以下提醒我"),
        ("推荐一款头戴耳机", "第1个降到10^25以下提醒我"),
        ("推荐一款头戴耳机", "第1个降到8e999以下提醒我"),
        ("over-ear headphones", "tell me when the 1st one drops below $" + "8" * 30),
    ],
)
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_watch_asked_with_a_target_no_price_can_be_is_not_made_and_is_asked_for(
    backend: str, settings: Settings, request: pytest.FixtureRequest, search: str, ask: str
) -> None:
    if backend == "redis":
        url = request.getfixturevalue("clean_redis")
        settings = settings.model_copy(update={"store_backend": "redis", "redis_url": url})
    deps = open_deps(settings)
    try:
        assert (await turn(deps, "t", search)).products
        asked = await turn(deps, "t", ask)
        assert asked.price_answer is not None and asked.price_answer.watch is None
        assert "降到多少提醒你" in asked.reply or "what price" in asked.reply.lower()
        assert deps.watches is not None and deps.watches.list("ann", include_closed=True) == []
    finally:
        deps.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_turn_running_while_the_account_is_deleted_creates_no_watch(
    backend: str, settings: Settings, request: pytest.FixtureRequest
) -> None:
    if backend == "redis":
        url = request.getfixturevalue("clean_redis")
        settings = settings.model_copy(update={"store_backend": "redis", "redis_url": url})
    deps = open_deps(settings)
    try:
        first = await turn(deps, "t", "推荐一款头戴耳机")
        assert first.products
        assert deps.watches is not None
        # As the API runs a turn: every store pinned to the generation the user is at now.
        pinned = dataclasses.replace(
            deps,
            preferences=PinnedPreferences(deps.preferences, "ann", deps.preferences.generation("ann")),
            sessions=PinnedSessions(deps.sessions, "ann", deps.sessions.generation("ann")),
            watches=PinnedWatches(deps.watches, "ann", deps.watches.generation("ann")),
            engine=ErasingEngine(deps),
        )  # fmt: skip
        with pytest.raises(AccountErased):
            await turn(pinned, "t", "第1个降到2000以下提醒我")
        assert deps.watches.list("ann", include_closed=True) == []
    finally:
        deps.close()
