"""Direct answers a reply leads with, as data (`DirectAnswer`) and as sentences
(`render_answer`): where a product is cheapest and by how much, shown items side by side,
a shown item's links and listing facts (or that the listing does not state something), and
a reference to an item that was never shown.

Prices are in the shopper's currency (the budget's currency, else the language's: CNY for
Chinese, USD for English); an offer listed in that currency keeps its listed price.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from cartwise.understanding.reading import Language
from cartwise.vocabulary import format_money
from cartwise.vocabulary.platforms import platforms

AnswerKind = Literal[
    "cheapest",
    "compare",
    "details",
    "missing_reference",
    "nothing_cheaper",
    "nothing_more",
    "spec_winner",
]
COMPARED_ATTRIBUTES = ("material", "color", "sizes", "style")
ATTRIBUTE_LABELS: dict[Language, dict[str, str]] = {
    "zh": {"material": "材质", "color": "颜色", "sizes": "尺码", "style": "款式"},
    "en": {"material": "material", "color": "colour", "sizes": "sizes", "style": "style"},
}


class OfferFact(BaseModel):
    """One platform's offer, priced for the shopper."""

    platform: str
    item_id: str
    price: float
    """In the answer's currency."""
    listed_price: float
    listed_currency: str
    url: str = ""
    in_stock: bool = True


class ItemFacts(BaseModel):
    """What a listing states about one shown item."""

    ordinal: int | None = None
    """Its place on the shortlist (1-based), when it was shown."""
    platform: str
    item_id: str
    title: str
    brand: str = ""
    price: float
    """In the answer's currency."""
    rating: float | None = None
    reviews: int | None = None
    in_stock: bool = True
    attributes: dict[str, list[str]] = Field(default_factory=dict)
    offers: list[OfferFact] = Field(default_factory=list)
    """Every offer of the same model, cheapest first (links are their `url`s)."""


class DirectAnswer(BaseModel):
    """The structured answer; `render_answer` turns it into the reply's first sentences."""

    kind: AnswerKind
    currency: str
    """The shopper's currency every `price` here is in."""
    items: list[ItemFacts] = Field(default_factory=list)
    cheapest: OfferFact | None = None
    runner_up: OfferFact | None = None
    """The next cheapest in-stock offer (None when only one platform has it in stock)."""
    saving: float | None = None
    """cheapest vs runner_up, in `currency`."""
    asked: str = ""
    """For details: the fact asked about ("waterproof"); empty for a link/details request."""
    listing_says: str = ""
    """The listing's own words about `asked`; empty when the listing does not state it."""
    missing: list[int] = Field(default_factory=list)
    """Ordinals that point at nothing shown."""
    shown: int = 0
    """How many items the shortlist had (for missing_reference)."""
    limit: float | None = None
    order: str = ""
    """For spec_winner: the order that picked it ("highest read speed first")."""
    winner_value: str = ""
    """For spec_winner: the winning value ("7400 MB/s"); empty for a price order."""
    """For nothing_cheaper: the price everything had to be under, in `currency`."""


def _money(value: float, currency: str) -> str:
    return format_money(value, currency)


def _shop(platform: str, zh: bool) -> str:
    known = platforms().get(platform)
    return known.name("zh" if zh else "en") if known else platform


def _offers_line(answer: DirectAnswer, offers: list[OfferFact], zh: bool) -> str:
    parts = [
        f"{_shop(o.platform, zh)} {_money(o.price, answer.currency)}"
        + ("" if o.in_stock else ("（缺货）" if zh else " (out of stock)"))
        for o in offers
    ]
    return ("各平台报价：" if zh else "Offers: ") + ("；" if zh else "; ").join(parts)


def _cheapest(answer: DirectAnswer, zh: bool) -> list[str]:
    item, best, nxt = answer.items[0], answer.cheapest, answer.runner_up
    if best is None:
        return [
            f"「{item.title}」目前没有平台有货。"
            if zh
            else f"{item.title} is out of stock on every platform."
        ]
    price = _money(best.price, answer.currency)
    if nxt is None or answer.saving is None:
        first = (
            f"「{item.title}」只有{_shop(best.platform, zh)}有货：{price}。"
            if zh
            else f"{item.title} is in stock only on {_shop(best.platform, zh)}: {price}."
        )
    else:
        saving = _money(answer.saving, answer.currency)
        other = f"{_shop(nxt.platform, zh)}（{_money(nxt.price, answer.currency)}）"
        first = (
            f"「{item.title}」在{_shop(best.platform, zh)}最便宜：{price}，比次便宜的{other}省 {saving}。"
            if zh
            else (
                f"{item.title} is cheapest on {_shop(best.platform, zh)}: {price}, {saving} less than "
                f"the next cheapest, {_shop(nxt.platform, zh)} ({_money(nxt.price, answer.currency)})."
            )
        )
    return [first, _offers_line(answer, item.offers, zh)]


def _facts(item: ItemFacts, answer: DirectAnswer, language: Language) -> list[str]:
    zh = language == "zh"
    labels = ATTRIBUTE_LABELS[language]
    facts = [_money(item.price, answer.currency)]
    if item.brand:
        facts.append(f"品牌 {item.brand}" if zh else f"brand {item.brand}")
    if item.rating is not None:
        count = f"（{item.reviews} 条评价）" if zh else f" ({item.reviews} reviews)"
        rated = f"评分 {item.rating:.1f}" if zh else f"rated {item.rating:.1f}"
        facts.append(rated + (count if item.reviews is not None else ""))
    for name in COMPARED_ATTRIBUTES:
        values = item.attributes.get(name)
        if values:
            facts.append(f"{labels[name]} {', '.join(values)}")
    if not item.in_stock:
        facts.append("缺货" if zh else "out of stock")
    return facts


def _compare(answer: DirectAnswer, language: Language) -> list[str]:
    zh = language == "zh"
    labels = ATTRIBUTE_LABELS[language]
    head = "对比如下：" if zh else "Side by side:"
    names = [f"{item.ordinal or '?'}. {item.title}" for item in answer.items]
    rows: list[tuple[str, list[str]]] = [
        ("价格" if zh else "price", [_money(i.price, answer.currency) for i in answer.items]),
        ("品牌" if zh else "brand", [i.brand or "—" for i in answer.items]),
        (
            "评分" if zh else "rating",
            [
                "—" if i.rating is None else f"{i.rating:.1f} ({i.reviews or 0})"
                for i in answer.items
            ],
        ),
    ]
    for name in COMPARED_ATTRIBUTES:
        values = [", ".join(i.attributes.get(name, [])) or "—" for i in answer.items]
        if any(v != "—" for v in values):
            rows.append((labels[name], values))
    rows.append(
        (
            "报价" if zh else "offers",
            [
                ", ".join(
                    f"{_shop(o.platform, zh)} {_money(o.price, answer.currency)}" for o in i.offers
                )
                or "—"
                for i in answer.items
            ],
        )
    )
    lines = [head, "| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    lines += [f"| {label} | " + " | ".join(values) + " |" for label, values in rows]
    lines.append("")  # a Markdown table ends at a blank line, not at the next sentence
    if answer.missing:
        lines.append(_missing(answer, zh))
    return lines


def _spec_winner(answer: DirectAnswer, zh: bool) -> str:
    """The winner of a superlative first, then every item tied with it."""
    first, *tied = answer.items
    price = _money(first.price, answer.currency)
    value = f"（{answer.winner_value}）" if zh and answer.winner_value else ""
    if not zh and answer.winner_value:
        value = f" ({answer.winner_value})"
    line = (
        f"{answer.order}，第一是 [{_shop(first.platform, zh)}] {first.title}{value}，{price}。"
        if zh
        else f"{answer.order[:1].upper()}{answer.order[1:]}: the winner is "
        f"[{_shop(first.platform, zh)}] {first.title}{value}, {price}."
    )
    if tied:
        names = ("；" if zh else "; ").join(f"[{_shop(t.platform, zh)}] {t.title}" for t in tied)
        line += f" 并列：{names}。" if zh else f" Tied with it: {names}."
    return line


def _missing(answer: DirectAnswer, zh: bool) -> str:
    asked = "、".join(str(n) for n in answer.missing)
    if answer.shown == 0:
        return "我还没有给你看过商品。" if zh else "I have not shown you any items yet."
    return (
        f"我只列出了 {answer.shown} 件商品，没有第 {asked} 个。"
        if zh
        else f"I only showed {answer.shown} items, so there is no #{asked}."
    )


def _details(answer: DirectAnswer, language: Language) -> list[str]:
    zh = language == "zh"
    item = answer.items[0]
    name = f"第 {item.ordinal} 个" if zh and item.ordinal else ("这个" if zh else "")
    if not zh:
        name = f"#{item.ordinal}" if item.ordinal else "That item"
    lines: list[str] = []
    if answer.asked:
        if answer.listing_says:
            lines.append(
                f"{name}的商品信息提到「{answer.asked}」：{answer.listing_says}"
                if zh
                else f'{name}\'s listing mentions "{answer.asked}": {answer.listing_says}'
            )
        else:
            lines.append(
                f"{name}的商品信息没有说明「{answer.asked}」。"
                if zh
                else f'{name}\'s listing does not state "{answer.asked}".'
            )
    lines.append(
        f"{name}：[{_shop(item.platform, zh)}] {item.title} — "
        + "；".join(_facts(item, answer, language))
        if zh
        else f"{name}: [{_shop(item.platform, zh)}] {item.title} — "
        + "; ".join(_facts(item, answer, language))
    )
    links = [f"{_shop(o.platform, zh)}: {o.url}" for o in item.offers if o.url]
    if links:
        lines.append(("链接：" if zh else "Links: ") + ("；" if zh else "; ").join(links))
    else:
        lines.append("商品信息没有提供链接。" if zh else "The listing gives no link.")
    if len(item.offers) > 1:
        lines.append(_offers_line(answer, item.offers, zh))
    return lines


def answer_is_whole(answer: DirectAnswer | None) -> bool:
    """An answer that says everything the turn has to say (no result list follows)."""
    return answer is not None and answer.kind == "nothing_more"


def render_answer(answer: DirectAnswer, language: Language) -> str:
    """The reply's opening sentences for `answer`, in the shopper's language."""
    zh = language == "zh"
    if answer.kind == "missing_reference":
        return _missing(answer, zh)
    if answer.kind == "nothing_cheaper":
        limit = _money(answer.limit, answer.currency) if answer.limit is not None else ""
        return (
            f"没有找到低于 {limit} 的同类商品。"
            if zh
            else f"I found nothing of this kind under {limit}."
        )
    if answer.kind == "nothing_more":
        return (
            "符合条件的商品都已经给你看过了，没有更多了。"
            if zh
            else "That was everything that matches: there is nothing more to show."
        )
    if not answer.items:
        return ""
    if answer.kind == "cheapest":
        return "\n".join(_cheapest(answer, zh))
    if answer.kind == "spec_winner":
        return _spec_winner(answer, zh)
    if answer.kind == "compare":
        return "\n".join(_compare(answer, language))
    return "\n".join(_details(answer, language))
