"""The rules reply writer: a short reply a person would write, from ReplyFacts only.

It leads with the best pick and why, then the alternatives; prices are in the shopper's
currency ("≈" where converted); refused brands are named as brands; a listing that cannot
confirm an exclusion says so. It never quotes the shopper's message back. When the catalog
does not carry the thing, it says so plainly and offers the closest carried kind (or asks).
"""

from __future__ import annotations

from cartwise.understanding.base import MAX_REPLY_ITEMS, CatalogGap, ReplyFacts, ReplyItem
from cartwise.understanding.reading import Language, SmallTalk
from cartwise.vocabulary import format_money
from cartwise.vocabulary.platforms import platforms

SMALL_TALK: dict[SmallTalk, dict[Language, str]] = {
    "greeting": {
        "zh": "你好！想买点什么？告诉我商品（和预算），我帮你在各平台挑。",
        "en": "Hi! What are you shopping for? Tell me the product (and a budget) and I will "
        "pick from every platform.",
    },
    "thanks": {
        "zh": "不客气！还需要什么随时说。",
        "en": "You're welcome! Just ask if you need anything else.",
    },
    "done": {
        "zh": "好的，那就先到这里。需要时随时找我。",
        "en": "All right, that's it for now. I'm here whenever you need me.",
    },
    "bye": {"zh": "再见，购物愉快！", "en": "Bye, happy shopping!"},
    "ack": {"zh": "好的。", "en": "OK."},
    "capabilities": {
        "zh": "我是 Cartwise 购物助手：一次在六个电商平台里找商品、比同款的价格，按预算、尺码和品牌筛选，"
        "还会记住你（和你送礼的人）喜欢和不要的东西。直接告诉我想买什么就行，比如「三百以内的跑步鞋，42码」。",
        "en": "I'm Cartwise, a shopping assistant: I search six shops at once, compare prices of "
        "the same product, filter by budget, size and brand, and remember what you (and the "
        "people you buy for) like and refuse. Just tell me what you need, for example "
        '"running shoes under $50, size 42".',
    },
}

GAP_KINDS: dict[str, dict[Language, str]] = {
    "service": {"zh": "服务类项目", "en": "services"},
    "ticket": {"zh": "票务和旅行产品", "en": "tickets and travel"},
    "finance": {"zh": "金融产品", "en": "financial products"},
    "vehicle": {"zh": "车辆", "en": "vehicles"},
    "property": {"zh": "房产", "en": "property"},
    "medicine": {"zh": "处方药", "en": "prescription medicine"},
    "animal": {"zh": "活体动物", "en": "live animals"},
    "weapon": {"zh": "武器", "en": "weapons"},
}


def _platform(item: ReplyItem, language: Language) -> str:
    known = platforms().get(item.platform)
    return known.name(language) if known else item.platform


def _price(item: ReplyItem, currency: str) -> str:
    converted = item.currency.upper() != currency
    return ("≈" if converted else "") + format_money(item.shown_price or item.price, currency)


def _join(parts: list[str], zh: bool) -> str:
    return ("、" if zh else ", ").join(parts)


def gap_reply(gap: CatalogGap, language: Language) -> str:
    zh = language == "zh"
    kind = GAP_KINDS.get(gap.kind, {}).get(language, "")
    if zh:
        first = f"抱歉，这里没有{gap.requested}" + (
            f"——我们不卖{kind}。" if kind else "，目前的商品里没有这一类。"
        )
        second = f"最接近的是{gap.closest}，要看看吗？" if gap.closest else "你还想找点别的吗？"
    else:
        first = f"Sorry, we don't carry {gap.requested}" + (
            f": {kind} are not sold here."
            if kind
            else "; there is nothing of that kind in the catalog."
        )
        second = (
            f"The closest thing we carry is {gap.closest}. Want to see those?"
            if gap.closest
            else "Is there something else I can find for you?"
        )
    return f"{first}{second}" if zh else f"{first} {second}"


def _reason(item: ReplyItem, zh: bool) -> str:
    parts = [*item.why, *item.caveats]
    return ("；" if zh else "; ").join(parts)


def write_reply(facts: ReplyFacts) -> str:
    language = facts.language
    zh = language == "zh"
    if facts.small_talk:
        return SMALL_TALK[facts.small_talk][language]
    if facts.catalog_gap is not None:
        return "\n".join(p for p in (gap_reply(facts.catalog_gap, language), facts.question) if p)
    lines: list[str] = []
    if facts.items:
        best, *others = facts.items[:MAX_REPLY_ITEMS]
        reason = _reason(best, zh)
        price = _price(best, facts.currency)
        if zh:
            lines.append(
                f"最推荐{_platform(best, language)}的 {best.title}，{price}"
                + (f"：{reason}。" if reason else "。")
            )
        else:
            lines.append(
                f"My top pick: {best.title} on {_platform(best, language)}, {price}"
                + (f": {reason}." if reason else ".")
            )
        if others:
            lines.append("其他选择：" if zh else "Other options:")
        for index, item in enumerate(others, start=2):
            why = _reason(item, zh)
            suffix = (f"（{why}）" if zh else f" ({why})") if why else ""
            lines.append(
                f"{index}. {_platform(item, language)} {item.title} — "
                f"{_price(item, facts.currency)}{suffix}"
            )
    elif facts.query:
        lines.append(
            "没有找到符合你条件的商品，可以放宽预算或换个说法试试。"
            if zh
            else "Nothing met all your conditions; a wider budget or other words may help."
        )
    searched = bool(facts.items or facts.query)
    if facts.excluded_brands and searched:
        brands = _join(facts.excluded_brands, zh)
        lines.append(
            f"已避开这些品牌：{brands}。" if zh else f"Leaving out these brands: {brands}."
        )
    if facts.excluded_terms and searched:
        terms = _join(facts.excluded_terms, zh)
        lines.append(f"已排除含有{terms}的商品。" if zh else f"Leaving out anything with {terms}.")
    if facts.applied:
        joined = _join(facts.applied, zh)
        lines.append(f"已按你的要求：{joined}。" if zh else f"Applied: {joined}.")
    lines.extend(facts.notices)
    if facts.filtered_out:
        parts = [
            f"{reason} {count} 件" if zh else f"{count} {reason}"
            for reason, count in facts.filtered_out.items()
        ]
        lines.append(
            ("另有" + "，".join(parts) + "，已略过。")
            if zh
            else ("Skipped: " + "; ".join(parts) + ".")
        )
    if facts.question:
        lines.append(facts.question)
    if not lines:
        # A turn that only stated a preference: acknowledge instead of "nothing matching ''".
        lines.append("好的，记下了。" if zh else "Got it.")
    return "\n".join(lines)
