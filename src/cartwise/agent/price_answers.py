"""Price history in a turn: the facts of the offers shown, the answer to "is this a good
price / 现在买划算吗" and "what's the lowest it's been / 历史最低多少", and the watch a
"tell me when it drops below $50 / 有货了告诉我" creates — as data and as sentences in both
languages.

Prices are said in the shopper's currency: an offer listed in it keeps its numbers, any other
is converted at the offer's own listed-to-base ratio (the static FX table).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from cartwise.catalog.model_identity import model_identity
from cartwise.catalog.product import Product
from cartwise.errors import CartwiseError
from cartwise.log import logger
from cartwise.memory.price_facts import (
    Deal,
    ModelPriceFacts,
    PriceFacts,
    PriceSummary,
    model_facts,
    summarize,
    was_price,
)
from cartwise.memory.prices import PriceHistory, PricePoint, Watch, WatchStore, new_watch
from cartwise.understanding.reading import Language, PriceAsk
from cartwise.vocabulary import format_money
from cartwise.vocabulary.platforms import platforms

if TYPE_CHECKING:
    from cartwise.agent.deps import AgentDeps
    from cartwise.agent.price_compare import Offer
    from cartwise.agent.state import Pick, TurnState

PriceAnswerKind = Literal["deal", "lowest", "watch_price", "watch_stock"]


class PriceHistoryOut(BaseModel):
    """An offer's history as `ask --json` and the page show it, in the offer's currency."""

    lowest_90d: float | None = None
    lowest_90d_at: str | None = None
    """ISO date the 90-day low began."""
    median_90d: float | None = None
    """The usual price: time-weighted median of the last 90 days."""
    lowest_30d: float | None = None
    lowest_180d: float | None = None
    lowest_180d_at: str | None = None
    points: int = 0
    """Price changes recorded in the last 180 days."""
    chart: list[tuple[str, float]] = []
    """(ISO date, price) steps of the last 180 days, for the card's small chart."""

    @classmethod
    def of(cls, facts: PriceFacts) -> PriceHistoryOut:
        return cls(
            lowest_90d=facts.lowest_90d.price if facts.lowest_90d else None,
            lowest_90d_at=facts.lowest_90d.at if facts.lowest_90d else None,
            median_90d=facts.median_90d,
            lowest_30d=facts.lowest_30d.price if facts.lowest_30d else None,
            lowest_180d=facts.lowest_180d.price if facts.lowest_180d else None,
            lowest_180d_at=facts.lowest_180d.at if facts.lowest_180d else None,
            points=facts.points,
            chart=facts.chart,
        )


def offer_facts(
    history: PriceHistory | None,
    products: Sequence[Product],
    *,
    now: float | None = None,
    points: Mapping[str, Sequence[PricePoint]] | None = None,
) -> dict[str, PriceFacts]:
    """The facts of each product's history (`platform:item_id` → facts); none for an offer
    without points, and none at all when the history is off or cannot be read (a turn never
    fails for want of a chart). Read from the offers' kept summaries (one batched read),
    unless `points` holds the histories already."""
    if history is None or not products:
        return {}
    now = time.time() if now is None else now
    if points is None:
        summaries = _summaries(history, [p.key for p in products], now)
        # A summary is of its history's last currency; a listing now in another is rare
        # (its ingest appends a point in it) and is read off its points.
        other = [
            p.key for p in products if (s := summaries.get(p.key)) and s.currency != p.currency
        ]
        points = _read(history, other) if other else {}
    else:
        summaries = {}
    found: dict[str, PriceFacts] = {}
    for product in products:
        summary = summaries.get(product.key)
        if summary is None or summary.currency != product.currency:
            summary = summarize(points.get(product.key, []), now=now, currency=product.currency)
        if summary is not None:
            found[product.key] = summary.facts(current=product.price, was_price=was_price(product))
    return found


def _summaries(history: PriceHistory, keys: Sequence[str], now: float) -> dict[str, PriceSummary]:
    """The offers' summaries in one batched read; none when it cannot be read."""
    try:
        return history.summaries(keys, now=now)
    except CartwiseError as exc:
        logger.warning("price history unavailable: %s", exc)
        return {}


def _read(history: PriceHistory, keys: Sequence[str]) -> Mapping[str, Sequence[PricePoint]]:
    """The offers' histories in one batched read; none when it cannot be read."""
    try:
        return history.points_many(keys)
    except CartwiseError as exc:
        logger.warning("price history unavailable: %s", exc)
        return {}


def _model_offers(picks: Sequence[Pick]) -> dict[str, dict[str, float | None]]:
    """Per pick, every offer of its model found this turn and its base price now (None for
    a listing out of stock: it has no price to buy at)."""
    offers: dict[str, dict[str, float | None]] = {}
    for pick in picks:
        product = pick.candidate.product
        found: dict[str, float | None] = {_offer_key(o): o.price_base for o in pick.offers}
        offers[product.key] = found or {
            product.key: product.price_base if product.in_stock else None
        }
    return offers


def model_lows(
    history: PriceHistory | None,
    picks: Sequence[Pick],
    fx_to_base: dict[str, float],
    *,
    now: float | None = None,
    points: Mapping[str, Sequence[PricePoint]] | None = None,
) -> dict[str, ModelPriceFacts]:
    """Per pick (`platform:item_id`), the lows of its model over every offer of it found
    this turn, against the offers' prices now (one batched read, unless `points` holds the
    histories already); none when the history is off or unreadable."""
    if history is None or not picks:
        return {}
    now = time.time() if now is None else now
    offers = _model_offers(picks)
    if points is None:
        points = _read(history, sorted({key for keys in offers.values() for key in keys}))
    found: dict[str, ModelPriceFacts] = {}
    for key, prices in offers.items():
        histories = {k: points[k] for k in prices if k in points}
        current = {k: price for k, price in prices.items() if price is not None}
        best = model_facts(histories, fx_to_base, now=now, current=current)
        if best is not None:
            found[key] = best
    return found


def picks_price_facts(
    history: PriceHistory | None,
    picks: Sequence[Pick],
    fx_to_base: dict[str, float],
    *,
    now: float | None = None,
) -> tuple[dict[str, PriceFacts], dict[str, ModelPriceFacts]]:
    """`offer_facts` of the picks (off their kept summaries) and `model_lows` of their
    models (off one read of every offer's points: the lows across platforms need them)."""
    if history is None or not picks:
        return {}, {}
    now = time.time() if now is None else now
    products = [p.candidate.product for p in picks]
    return (
        offer_facts(history, products, now=now),
        model_lows(history, picks, fx_to_base, now=now),
    )


def _offer_key(offer: Offer) -> str:
    return f"{offer.platform}:{offer.item_id}"


class PriceAnswer(BaseModel):
    """What a price follow-up answered, in the shopper's currency."""

    kind: PriceAnswerKind
    currency: str
    ordinal: int | None = None
    title: str
    price: float
    in_stock: bool = True
    deal: Deal | None = None
    lowest_30d: float | None = None
    lowest_90d: float | None = None
    lowest_90d_at: str | None = None
    lowest_180d: float | None = None
    lowest_180d_at: str | None = None
    median_90d: float | None = None
    was_price: float | None = None
    was_price_seen: bool | None = None
    has_history: bool = False
    watch: Watch | None = None
    """The watch this turn created."""
    target: float | None = None
    """The price asked to be told about (None: the message named none)."""


def _in(amount: float | None, ratio: float) -> float | None:
    return None if amount is None else round(amount * ratio, 2)


def price_answer(
    ask: PriceAsk,
    product: Product,
    facts: PriceFacts | None,
    *,
    ordinal: int | None,
    currency: str,
    fx_to_base: dict[str, float],
    watches: WatchStore | None,
    user: str,
    recipient: str,
) -> PriceAnswer:
    """The answer to `ask` about `product`; a watch ask with a target creates the watch."""
    same = product.currency.upper() == currency
    ratio = (
        1.0
        if same or product.price <= 0
        else product.price_base / product.price / fx_to_base[currency]
    )
    answer = PriceAnswer(
        kind=ask.kind,
        currency=currency,
        ordinal=ordinal,
        title=product.title,
        price=round(product.price * ratio, 2),
        in_stock=product.in_stock,
        has_history=facts is not None and facts.points > 1,
    )
    if facts is not None:
        answer = answer.model_copy(
            update={
                "deal": facts.deal,
                "lowest_30d": _in(facts.lowest_30d.price if facts.lowest_30d else None, ratio),
                "lowest_90d": _in(facts.lowest_90d.price if facts.lowest_90d else None, ratio),
                "lowest_90d_at": facts.lowest_90d.at if facts.lowest_90d else None,
                "lowest_180d": _in(facts.lowest_180d.price if facts.lowest_180d else None, ratio),
                "lowest_180d_at": facts.lowest_180d.at if facts.lowest_180d else None,
                "median_90d": _in(facts.median_90d, ratio),
                "was_price": _in(facts.was_price, ratio),
                "was_price_seen": facts.was_price_seen,
            }
        )
    if ask.kind in ("watch_price", "watch_stock") and watches is not None:
        target, target_currency = ask.target, (ask.currency or currency).upper()
        answer.target = target
        # In stock now there is nothing to wait for; a price watch needs its price.
        wanted = not product.in_stock if ask.kind == "watch_stock" else target is not None
        if wanted:
            watch = new_watch(
                user,
                recipient=recipient,
                model=model_identity(product),
                title=product.title,
                platform=product.platform,
                item_id=product.item_id,
                kind="stock" if ask.kind == "watch_stock" else "price",
                target=target,
                currency=target_currency,
            )
            answer.watch = watches.add(watch)
            answer.currency = target_currency if target is not None else answer.currency
            if target is not None and target_currency != currency:
                rate = fx_to_base.get(target_currency, 1.0)
                answer.price = round(product.price_base / rate, 2)
    return answer


def answer_price_followup(
    state: TurnState, picks: Sequence[Pick], facts: dict[str, PriceFacts], deps: AgentDeps
) -> PriceAnswer | None:
    """The answer to this turn's price follow-up about the first referenced item (None when
    the follow-up carries no price ask)."""
    from cartwise.agent.dialogue import shopper_currency

    resolution = state.get("resolution")
    followup = resolution.followup if resolution is not None else None
    ask = followup.price_ask if followup is not None else None
    if ask is None or not picks:
        return None
    product = picks[0].candidate.product
    named = followup is not None and any(r > 0 for r in followup.refs)
    if ask.kind == "watch_stock" and product.in_stock and not named:
        # "有货了告诉我 / tell me when it's back" after "1 more out of stock, skipped": the
        # shown items are in stock, so it is the skipped listing that is meant.
        product = _skipped_out_of_stock(state, deps) or product
    shortlist = state["session"].shortlist
    ordinal = next((i for i, s in enumerate(shortlist, 1) if s.key == product.key), None)
    plan = state["plan"]
    currency = shopper_currency(state.get("slots", {}), plan.language, deps.settings)
    try:
        return price_answer(
            ask, product, facts.get(product.key), ordinal=ordinal, currency=currency,
            fx_to_base=deps.settings.fx_to_base, watches=deps.watches, user=state["user"],
            recipient=plan.recipient,
        )  # fmt: skip
    except CartwiseError as exc:  # a full watch list, a store down: say so, keep the turn
        logger.warning("price watch not created: %s", exc)
        return price_answer(
            ask, product, facts.get(product.key), ordinal=ordinal, currency=currency,
            fx_to_base=deps.settings.fx_to_base, watches=None, user=state["user"],
            recipient=plan.recipient,
        )  # fmt: skip


def _skipped_out_of_stock(state: TurnState, deps: AgentDeps) -> Product | None:
    """The listing most recently left out for being out of stock, if it still is."""
    for option in reversed(state["session"].rejected_options):
        if option.code == "out_of_stock":
            product = deps.recall.get(f"{option.platform}:{option.item_id}")
            if product is not None and not product.in_stock:
                return product
    return None


def _money(amount: float | None, currency: str) -> str:
    return format_money(amount or 0.0, currency)


def _name(answer: PriceAnswer, zh: bool) -> str:
    if answer.ordinal is not None:
        return f"第{answer.ordinal}款" if zh else f"The {_ordinal_en(answer.ordinal)}"
    return f"「{answer.title}」" if zh else f"“{answer.title}”"


def _ordinal_en(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix} one"


def _lower(name: str) -> str:
    """ "The 2nd one" inside a sentence."""
    return "the" + name[3:] if name.startswith("The ") else name


def _was_line(answer: PriceAnswer, zh: bool) -> str:
    if answer.was_price is None or answer.was_price_seen is None:
        return ""
    was = _money(answer.was_price, answer.currency)
    if answer.was_price_seen:
        return (
            f"标的原价{was}近180天确实卖过。"
            if zh
            else f"Its “was” price of {was} was really charged in the last 180 days."
        )
    return (
        f"注意：标的原价{was}近180天从没按这个价卖过，这个折扣是虚标的。"
        if zh
        else f"Careful: the “was” price of {was} was never charged in the last 180 days — the discount is inflated."
    )


def render_price_answer(answer: PriceAnswer, language: Language) -> str:
    """The reply's sentences for a price follow-up."""
    zh = language == "zh"
    name, c = _name(answer, zh), answer.currency
    now = _money(answer.price, c)
    if answer.kind in ("watch_price", "watch_stock"):
        return _render_watch(answer, zh, name, now)
    if not answer.has_history or answer.lowest_90d is None:
        return (
            f"{name}现在{now}，还没有足够的价格记录，暂时判断不了是不是好价。"
            if zh
            else f"{name} is {now} now; there is not enough price history yet to judge it."
        )
    low90 = _money(answer.lowest_90d, c)
    at90 = answer.lowest_90d_at or ""
    usual = _money(answer.median_90d, c)
    if answer.kind == "lowest":
        low180 = _money(answer.lowest_180d, c)
        at180 = answer.lowest_180d_at or ""
        line = (
            f"{name}近180天最低{low180}（{at180}），近90天最低{low90}（{at90}），"
            f"近30天最低{_money(answer.lowest_30d, c)}；现在{now}，平时一般{usual}。"
            if zh
            else f"{name}: lowest in 180 days {low180} ({at180}), in 90 days {low90} ({at90}), "
            f"in 30 days {_money(answer.lowest_30d, c)}; now {now}, usually {usual}."
        )
        return " ".join(p for p in (line, _was_line(answer, zh)) if p)
    verdict = {
        "lowest_90d": (
            f"{name}现在{now}，是近90天最低价（平时一般{usual}），现在买划算。",
            f"{name} is {now} now — its 90-day low (usually {usual}). A good time to buy.",
        ),
        "below_usual": (
            f"{name}现在{now}，比平时的{usual}便宜；不过近90天最低到过{low90}（{at90}）。",
            f"{name} is {now} now, below its usual {usual}; it did reach {low90} in the last 90 days ({at90}).",
        ),
        "usual": (
            f"{name}现在{now}，和平时差不多（一般{usual}）；近90天最低{low90}（{at90}），不急的话可以等促销。",
            f"{name} is {now} now, about its usual price ({usual}); the 90-day low was {low90} ({at90}) — if it can wait, a sale may bring it back.",
        ),
        "above_usual": (
            f"{name}现在{now}，比平时的{usual}贵；近90天最低{low90}（{at90}），建议等等再买。",
            f"{name} is {now} now, above its usual {usual}; the 90-day low was {low90} ({at90}) — I would wait.",
        ),
    }[answer.deal or "usual"]
    return " ".join(p for p in (verdict[0 if zh else 1], _was_line(answer, zh)) if p)


def _render_watch(answer: PriceAnswer, zh: bool, name: str, now: str) -> str:
    c = answer.currency
    if answer.kind == "watch_stock":
        if answer.in_stock and answer.watch is None:
            return f"{name}现在有货（{now}）。" if zh else f"{name} is in stock now ({now})."
        if answer.watch is None:
            return (
                "现在没法记下提醒，请稍后再试。"
                if zh
                else "I cannot keep a reminder right now; please try again later."
            )
        lead = f"{name}现在有货（{now}），" if zh and answer.in_stock else ""
        lead_en = f"{name} is in stock now ({now}), but " if not zh and answer.in_stock else ""
        return (
            f"{lead}好的，{name}一有货就提醒你（任何平台都算），提醒90天内有效。"
            if zh
            else f"{lead_en}I will tell you when {_lower(name)} is back in stock on any platform (for 90 days)."
        )
    if answer.target is None:
        return (
            f"{name}现在{now}。降到多少提醒你？比如“降到{_money(round(answer.price * 0.9), c)}提醒我”。"
            if zh
            else f"{name} is {now} now. Below what price should I tell you? For example “tell me when it drops below {_money(round(answer.price * 0.9), c)}”."
        )
    if answer.watch is None:
        return (
            "现在没法记下提醒，请稍后再试。"
            if zh
            else "I cannot keep a reminder right now; please try again later."
        )
    target = _money(answer.target, c)
    already = answer.price <= answer.target
    if zh:
        head = f"好的，{name}降到{target}或更低时提醒你（任何平台都算），提醒90天内有效。"
        tail = f"它现在已经是{now}，到价了。" if already else f"现在是{now}。"
        return head + tail
    head = f"Done: I will tell you when {_lower(name)} drops to {target} or below on any platform (for 90 days)."
    tail = f" It is already {now}." if already else f" It is {now} now."
    return head + tail


def lows_note(
    ordinals_at_low: Sequence[int],
    language: Language,
    *,
    models_at_low: Sequence[ModelLow] = (),
) -> str:
    """The reply's note on shown items at their 90-day low ("" when none is): a model at
    its low across platforms first (the cheapest offer of it now is the cheapest any
    platform has had in 90 days), then single listings at their own low."""
    zh = language == "zh"
    parts = [_model_low_line(low, zh) for low in models_at_low]
    named = {low.ordinal for low in models_at_low}
    alone = [n for n in ordinals_at_low if n not in named]
    if alone and zh:
        parts.append("、".join(f"第{n}款" for n in alone) + "现在是近90天最低价。")
    elif alone:
        which = ", ".join(_ordinal_en(n).removesuffix(" one") for n in alone)
        parts.append(
            f"At its 90-day low now: the {which}."
            if len(alone) == 1
            else f"At their 90-day lows now: the {which}."
        )
    return ("" if zh else " ").join(parts)


class ModelLow(BaseModel):
    """A shown item whose model is at its 90-day low across platforms, and where."""

    ordinal: int
    platform: str
    price: float
    """The cheapest offer's price now, as listed, in `currency`."""
    currency: str
    same_offer: bool
    """The cheapest offer is the listing shown."""


def models_at_low(picks: Sequence[Pick], lows: dict[str, ModelPriceFacts]) -> list[ModelLow]:
    """The listed picks (1-based) whose model is at its 90-day low over 2+ platforms' offers
    with history; a model on one platform is the listing's own low (`lows_note`)."""
    found: list[ModelLow] = []
    for n, pick in enumerate(picks, start=1):
        product = pick.candidate.product
        low = lows.get(product.key)
        if low is None or low.deal != "lowest_90d" or low.offers < 2:
            continue
        key = f"{low.current_platform}:{low.current_item_id}"
        offer = next((o for o in pick.offers if _offer_key(o) == key), None)
        price, currency = (
            (offer.price, offer.currency) if offer else (product.price, product.currency)
        )
        found.append(
            ModelLow(ordinal=n, platform=low.current_platform, price=price, currency=currency,
                     same_offer=key == product.key)
        )  # fmt: skip
    return found


def _model_low_line(low: ModelLow, zh: bool) -> str:
    shop = platforms().get(low.platform)
    name = shop.name("zh" if zh else "en") if shop else low.platform
    price = _money(low.price, low.currency)
    if zh:
        where = "" if low.same_offer else f"（{name}{price}）"
        return f"第{low.ordinal}款这个型号现在是各平台近90天的最低价{where}。"
    where = f" ({name}, {price})" if not low.same_offer else ""
    return f"The {_ordinal_en(low.ordinal)}'s model is at its 90-day low across platforms{where}."
