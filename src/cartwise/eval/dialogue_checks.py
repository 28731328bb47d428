"""Per-turn checks of the dialogue evaluation: one `Check` per capability an expectation
names, judged on the turn's result as `cartwise ask --json` prints it (docs/ask.md), and the
turns before it — never on how it was made.

A product's type is judged by the harness's own words for each type, matched against the
listing's title and the platform's category text, so the check does not trust the system's
own classification of what it showed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cartwise.catalog.product import Domain, Product
from cartwise.catalog.sizes import offers_size
from cartwise.eval.dialogue_set import Expectation, QuestionKind
from cartwise.understanding.questions import asks_for_budget, asks_for_size
from cartwise.vocabulary.platforms import platforms

# fmt: off
PRODUCT_TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "running-shoes": ("running", "跑步鞋", "跑鞋"),
    "boots": ("boot", "靴"),
    "earbuds": ("earbud", "真无线", "true wireless"),
    "headphones": ("over-ear", "头戴"),
    "speaker": ("speaker", "音箱", "音响"),
    "smartphone": ("smartphone", "手机"),
    "keyboard": ("keyboard", "键盘"),
    "jeans": ("jeans", "牛仔裤"),
    "sweater": ("sweater", "毛衣", "针织"),
    "diapers": ("diaper", "纸尿裤", "尿不湿", "尿裤"),
    "baby-bottle": ("baby bottle", "奶瓶"),
    "stroller": ("stroller", "推车"),
    "shampoo": ("shampoo", "洗发"),
    "lipstick": ("lipstick", "口红", "唇膏"),
    "face-cream": ("face cream", "moisturiz", "面霜"),
    "coffee": ("coffee", "咖啡"),
    "tea": ("tea", "茶"),
    "nuts": ("nuts", "坚果"),
    "bedding": ("bedding", "duvet", "四件套", "床品"),
    "wok": ("wok", "炒锅"),
    "kettle": ("kettle", "水壶"),
    "desk-lamp": ("lamp", "台灯"),
    "dumbbells": ("dumbbell", "哑铃"),
    "yoga-mat": ("yoga mat", "瑜伽垫"),
    "badminton-racket": ("badminton", "羽毛球拍"),
}
# fmt: on
PLATFORM_NAMES: dict[str, tuple[str, ...]] = {
    p.id: (p.id, *(f for f in p.forms if not f.isascii())) for p in platforms().values()
}
"""How a reply names each platform (the vocabulary's platforms): its id, its Chinese names."""


def _word_pattern(words: Sequence[str]) -> re.Pattern[str]:
    # Latin words must start a word ("tea" is not in "steam"); a plural or suffix may follow.
    parts = [rf"(?<![a-z]){re.escape(w)}" if w.isascii() else re.escape(w) for w in words]
    return re.compile("|".join(parts))


TYPE_PATTERNS = {slug: _word_pattern(words) for slug, words in PRODUCT_TYPE_WORDS.items()}


def is_of_type(product: Product, slug: str) -> bool:
    return bool(TYPE_PATTERNS[slug].search(f"{product.title} {product.category_raw}".casefold()))


class ShownProduct(BaseModel):
    model_config = ConfigDict(extra="ignore")

    platform: str
    item_id: str
    title: str
    brand: str = ""
    price: float
    price_base: float


class StoredPreference(BaseModel):
    model_config = ConfigDict(extra="ignore")

    polarity: str
    slug: str
    keywords: list[str] = Field(default_factory=list)


class MemoryView(BaseModel):
    model_config = ConfigDict(extra="ignore")

    long_term: list[StoredPreference] = Field(default_factory=list)
    session: dict[str, Any] = Field(default_factory=dict)

    @property
    def open_questions(self) -> list[str]:
        return list(self.session.get("open_questions", []))

    def session_facts(self) -> dict[str, Any]:
        """P_t without its clock."""
        return {k: v for k, v in self.session.items() if k != "updated_at"}


class DialogueView(BaseModel):
    model_config = ConfigDict(extra="ignore")

    answer: dict[str, Any] | None = None


class TurnView(BaseModel):
    """The fields of a turn's JSON result the checks read."""

    model_config = ConfigDict(extra="ignore")

    reply: str
    products: list[ShownProduct] = Field(default_factory=list)
    questions: list[str] = Field(default_factory=list)
    catalog_gap: dict[str, Any] | None = None
    memory: MemoryView = Field(default_factory=MemoryView)
    timings: dict[str, float] = Field(default_factory=dict)
    dialogue: DialogueView = Field(default_factory=DialogueView)


# P_t fields that make a thread non-empty (resolved questions and the focus do not on their own).
SESSION_CONTENT = (
    "category", "current_intent", "constraints", "slots", "rejected_options",
    "open_questions", "decisions_made", "active_search", "shortlist",
)  # fmt: skip


@dataclass(frozen=True)
class Check:
    capability: str
    passed: bool
    detail: str = ""


@dataclass
class TurnContext:
    """What a check may look at besides the turn's own result."""

    message: str
    result: TurnView
    earlier: list[TurnView]
    """The conversation's previous results, oldest first."""
    earlier_types: list[str | None]
    """The expected product type of each earlier turn (None when it named none)."""
    memory_before: list[tuple[str, str]]
    """(polarity, slug) of the shopper's long-term entries before this turn."""
    lookup: Callable[[ShownProduct], Product | None]
    fx_to_base: dict[str, float]
    cheaper_exists: Callable[[str, float, Sequence[str]], bool]
    """(product type, price_base, refused brands) → does the catalog hold an in-stock listing
    of that type below that price, of a brand the shopper did not refuse? Lets "nothing
    cheaper" count as right when it is true."""


def question_kind(result: TurnView) -> QuestionKind:
    if not result.questions:
        return "none"
    text = result.questions[0]
    if asks_for_size(text):
        return "size"
    if asks_for_budget(text):
        return "budget"
    return "product_type"


def _previous_products(ctx: TurnContext) -> list[ShownProduct]:
    return next((r.products for r in reversed(ctx.earlier) if r.products), [])


def _type_capability(ctx: TurnContext, slug: str) -> str:
    before = next((t for t in reversed(ctx.earlier_types) if t), None)
    if before is None:
        return "product_type"
    return "type_kept" if before == slug else "type_switched"


def _names_price(line: str, product: ShownProduct, fx_to_base: dict[str, float]) -> bool:
    """The line states the product's price: as listed, in the base currency, or converted
    to any currency of the FX table (to within 1 %)."""
    amounts = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", line.replace(",", ""))]
    prices = [product.price, product.price_base]
    prices += [product.price_base / rate for rate in fx_to_base.values() if rate > 0]
    return any(abs(a - p) <= 0.01 * p + 0.01 for a in amounts for p in prices if p > 0)


def _echoes(message: str, reply: str) -> bool:
    """The reply quotes the shopper's message back instead of what was understood."""
    text = message.strip()
    quoted = (f"「{text}」", f"“{text}”", f'"{text}"')
    return any(q in reply for q in quoted) or (len(text) >= 8 and text in reply)


CURRENCY_SHOWN = {
    "USD": re.compile(r"\$\s?\d|\bUSD\b"),
    "CNY": re.compile(r"[¥￥]\s?\d|\d\s?元|\bCNY\b"),
}


def check_turn(expect: Expectation, ctx: TurnContext) -> list[Check]:
    result = ctx.result
    products = result.products
    checks: list[Check] = []

    primary = (
        "not_carried"
        if expect.not_carried
        else "small_talk"
        if expect.small_talk
        else "question"
        if expect.question not in (None, "none")
        else "results"
    )
    # "Cheaper" is below everything shown before; showing nothing is right only when the
    # catalog has nothing of the type that cheap.
    cheaper_floor = min((p.price_base for p in _previous_products(ctx)), default=0.0)
    honest_none = (
        expect.cheaper
        and not products
        and bool(expect.type)
        and not ctx.cheaper_exists(expect.type or "", cheaper_floor, expect.exclude_brands)
    )
    if expect.products == "some":
        checks.append(Check(primary, bool(products) or honest_none, "no products shown"))
    elif expect.products == "none":
        checks.append(Check(primary, not products, f"{len(products)} products shown"))

    if expect.type and products:
        full = [ctx.lookup(p) for p in products]
        wrong = [
            p.title
            for p, f in zip(products, full, strict=True)
            if not f or not is_of_type(f, expect.type)
        ]
        checks.append(
            Check(_type_capability(ctx, expect.type), not wrong, f"not {expect.type}: {wrong[:2]}")
        )
    if expect.max_price and products:
        amount, currency = expect.max_price
        ceiling = amount * ctx.fx_to_base.get(currency, 1.0) + 0.01
        over = [p.title for p in products if p.price_base > ceiling]
        checks.append(Check("constraints", not over, f"over {amount} {currency}: {over[:2]}"))
    if expect.exclude_brands and products:
        banned = {b.casefold() for b in expect.exclude_brands}
        shown = [p.title for p in products if p.brand.casefold() in banned]
        checks.append(Check("constraints", not shown, f"excluded brand shown: {shown[:2]}"))
    if expect.size and products:
        full = [ctx.lookup(p) for p in products]
        # The asked size as the shopper meant it: an English "size 9" shoe is EU 42 (the
        # documented table of cartwise.catalog.sizes), never a listing that literally says 9.
        wrong_size = [
            f.title
            for f in full
            if f
            and f.sizes
            and not offers_size(expect.size, f.sizes, shoes=f.domain is Domain.SHOES)
        ]
        checks.append(Check("constraints", not wrong_size, f"not in size: {wrong_size[:2]}"))
    if expect.excludes_term and products:
        entry = next((e for e in result.memory.long_term if e.slug == expect.excludes_term), None)
        words = [w.casefold() for w in (entry.keywords if entry else [expect.excludes_term])]
        full = [ctx.lookup(p) for p in products]
        hits = [
            f.title for f in full if f and any(w in f.searchable_text().casefold() for w in words)
        ]
        checks.append(
            Check("constraints", not hits, f"mentions {expect.excludes_term}: {hits[:2]}")
        )

    if expect.sort:
        prices = [p.price_base for p in products]
        ordered = sorted(prices, reverse=expect.sort == "price_desc")
        checks.append(Check("sort", bool(prices) and prices == ordered, f"prices {prices}"))
    if expect.no_repeat:
        seen = {p.platform + ":" + p.item_id for r in ctx.earlier for p in r.products}
        again = [p.title for p in products if p.platform + ":" + p.item_id in seen]
        checks.append(Check("more", bool(products) and not again, f"shown again: {again[:2]}"))
    if expect.cheaper:
        dearer = [p.price_base for p in products if p.price_base >= cheaper_floor]
        checks.append(
            Check(
                "cheaper",
                (bool(products) and not dearer) or honest_none,
                f"not below {cheaper_floor:.0f}: {dearer[:3]}",
            )
        )
    if expect.cheapest_first:
        first_line = result.reply.splitlines()[0].casefold() if result.reply else ""
        ok = bool(products)
        if ok:
            cheapest = min(products, key=lambda p: p.price_base)
            names = PLATFORM_NAMES.get(cheapest.platform, (cheapest.platform,))
            ok = any(n in first_line for n in names) and _names_price(
                first_line, cheapest, ctx.fx_to_base
            )
        checks.append(Check("cheapest", ok, f"first line: {first_line[:80]}"))

    if expect.question is not None:
        asked = question_kind(result)
        checks.append(Check("question", asked == expect.question, f"asked {asked}"))
    if expect.open_questions is not None:
        pending = result.memory.open_questions
        checks.append(Check("question", len(pending) == expect.open_questions, f"open: {pending}"))
    if expect.small_talk:
        searched = "searching" in result.timings
        after = [(e.polarity, e.slug) for e in result.memory.long_term]
        checks.append(
            Check(
                "small_talk",
                not searched and not products and after == ctx.memory_before,
                f"searched={searched} memory changed={after != ctx.memory_before}",
            )
        )
        session = result.memory
        unchanged = (
            not any(session.session.get(name) for name in SESSION_CONTENT)
            if not ctx.earlier
            else session.session_facts() == ctx.earlier[-1].memory.session_facts()
        )
        checks.append(Check("small_talk", unchanged, "P_t changed on small talk"))
    if expect.not_carried is not None:
        gap = result.catalog_gap is not None
        checks.append(Check("not_carried", gap == expect.not_carried, f"catalog_gap={gap}"))
    if expect.memory_has:
        stored = {(e.polarity, e.slug) for e in result.memory.long_term}
        missing = [m for m in expect.memory_has if tuple(m) not in stored]
        checks.append(Check("memory", not missing, f"missing {missing}"))
    if expect.memory_unchanged_long:
        after = [(e.polarity, e.slug) for e in result.memory.long_term]
        checks.append(Check("memory", after == ctx.memory_before, "long-term memory changed"))
    if expect.mentions_shown:
        before = _previous_products(ctx)
        missing_titles = [
            i
            for i in expect.mentions_shown
            if i >= len(before) or before[i].title not in result.reply
        ]
        checks.append(Check("reference", not missing_titles, f"not named: {missing_titles}"))
    if expect.currency and products:
        in_currency = bool(CURRENCY_SHOWN[expect.currency].search(result.reply))
        others = [
            c for c, p in CURRENCY_SHOWN.items() if c != expect.currency and p.search(result.reply)
        ]
        checks.append(
            Check(
                "reply",
                in_currency and not others,
                f"in {expect.currency}={in_currency} others={others}",
            )
        )
    if products and result.dialogue.answer is None:
        lead = result.reply.splitlines()[0] if result.reply else ""
        checks.append(
            Check(
                "reply",
                not _echoes(ctx.message, result.reply) and products[0].title in lead,
                f"echo or no lead pick: {lead[:80]}",
            )
        )
    return checks
