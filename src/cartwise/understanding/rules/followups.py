"""Follow-ups: what a message says about the results already shown or the search already
running, in Chinese and English — references to shown items (第二个 / the 2nd / 最后一个 /
that one / 它), refinements with no product noun (cheaper / 更实惠 / 大一码 / 换个颜色 /
another brand), "more like this", "more / 换一批", sorting, comparing, and link / details
questions.

The parser only reads the words: whether there is anything to follow up on, and what "the
2nd" points at, is decided by the agent against the session's shortlist. The spans it
returns are cue words the planner removes from the search text, so "有没有更便宜的" never
becomes a search for 「更便宜」.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from cartwise.memory.session_state import SortOrder
from cartwise.text import has_han
from cartwise.understanding.reading import Followup, FollowupKind, PriceAsk, SizeStep
from cartwise.understanding.rules.numbers import NUMBER_PATTERN, parse_amount
from cartwise.vocabulary.currencies import currency_alternation, currency_of
from cartwise.vocabulary.price_cues import price_cues

Span = tuple[int, int]

_ZH_NUMBERS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
_ZH_NUMBERS |= {"九": 9, "十": 10}
_EN_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
}
MEASURE = "个款件双台条种家名只顶副套瓶盒把支张"

ORDINAL_ZH = re.compile(
    rf"第\s*(?P<n>[一二两三四五六七八九十]|\d{{1,2}})\s*(?:[{MEASURE}])?(?![天次年周章页期])"
    # "二号" is the 2nd; "42号" is a size, so only a written numeral counts without 第.
    r"|(?<![一二两三四五六七八九十\d])(?P<n2>[一二两三四五六七八九十])号"
)
LAST_ZH = re.compile(rf"最后(?:一)?[{MEASURE}那这]?")
ORDINAL_EN = re.compile(
    # "my first pick", "at first", "first of all", "the first time", "last year" point at no
    # shown item.
    r"(?<!\bmy )(?<!\bour )(?<!\bat )(?<!\bher )(?<!\bhis )"
    r"\b(?:the\s+)?(?P<w>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
    r"|(?P<d>\d{1,2})(?:st|nd|rd|th))"
    r"(?!\s+(?:of all|time|thing|choice|priority|year|month|week|night|minute)s?\b)"
    r"(?:\s+(?:one|item|pair|option|pick|product|result)s?)?\b"
)
NUMBERED_EN = re.compile(
    r"(?:#\s?|\b(?:number|no\.|item|option|pick|result)\s+)(?P<d>\d{1,2})\b", re.IGNORECASE
)
NUMBER_PAIR = re.compile(
    r"(?<![\d.])(?P<a>\d{1,2})\s*(?:号|个)?\s*(?:和|与|跟|、|,|，|and|&|vs\.?|versus)\s*"
    r"(?:第\s*)?(?P<b>\d{1,2})(?:号|个)?(?![\d.%])"
)
PRONOUN_ZH = re.compile(
    r"它们?|这[个款双件台条只]|那[个款双件台条只]|这一[个款双件台]|那一[个款双件台]|此款|该商品"
)
PRONOUN_EN = re.compile(r"\b(?:that one|this one|these|those|them|it|its)\b")
BARE_REFERENCE = re.compile(
    r"^(?:刚才|刚刚|上面|前面|就|我要|要|选|看看|那就|i'?ll take|i want|show me|let'?s see|"
    r"the|one|please|ok|okay|[\s,，。.!！?？的吧呢了])*$"
)
"""What may surround a bare reference ("刚才那个", "i'll take that one") for it to mean
"show me that item"."""

SIMILAR = re.compile(
    r"类似的?|相似的?|差不多的|同类的?|同款|像(?:它|这个|那个|这款|那款|第.[个款件双台])(?:一样|这样|那样)?的|"
    r"像这样的|这样的还有|\bmore like\b|\bsimilar\b|"
    r"\b(?:anything|something|any|ones?|others?|more) (?:similar to|like) (?:this|that|it|the\b)|\blike (?:this|that|it|the \w+)(?: one)?\b(?=.*\b(?:more|another|others?|find|show|something)\b)|"
    r"\b(?:something|anything|one) like (?:this|that|it)\b|\balternatives? to\b"
)
MORE = re.compile(
    r"换一批|换一些|换几个|下一页|下一批|多来[几一]?[个些款]|多给[几一]?[个些款]|多推荐[几一]?[个些款]?|还有吗|还有别的|还有其他|还有没有别的|还有没有其他|更多|再来[几一]?[些个点款]|"
    r"再看看别的|看看别的|其他的呢|别的呢|再推荐[几一]?[些个款]?|"
    r"\bnext page\b|\b(?:show|give) me more\b|\bmore (?:options|results|items|ones|choices)\b|"
    r"^\s*any ?more\b|\b(?:have|got|are there|is there|see|show(?: me)?|find|need) any ?more\b|"
    r"\bany ?more (?:like|of|options|ones|in|with|under|below|from|that)\b|\banything else\b|\bother (?:options|ones|choices)\b|\bload more\b|"
    r"\bsee more\b|\bnext (?:few|batch|ones)\b|\bsome more\b|^\s*more\b|\bshow (?:me )?others\b|"
    r"\bwhat else\b|^\s*next\s*[.!?]*\s*$|\bdifferent ones\b|\bany others?\b|\bsome others\b"
)
CHEAPEST_WHERE = re.compile(
    r"哪[个家里儿]?(?:个)?(?:平台|家|店|里|儿|边)?(?:买|卖|上)?(?:的)?(?:最|更)(?:便宜|划算|实惠|低)|"
    r"(?:最|更)(?:便宜|划算|实惠)的?(?:是|在)?(?:哪个平台|哪家店?|哪里|哪儿|哪边)|"
    r"哪(?:个平台|家店?|里|儿|边)[^，。？?]{0,8}?(?:便宜|划算|实惠|价格最低|最低价|价格低|价低)|"
    r"在哪(?:个平台|家|里|儿)?[^，。？?]{0,6}?(?:划算|便宜|实惠)|比价|比比价|比一下价|价格对比|比较价格|"
    r"\bwhere\b.*\b(?:cheapest|cheaper|best (?:price|deal)|lowest price|for (?:the )?least|least expensive)\b|"
    r"\bwhich (?:platform|store|shop|site|website|seller)\b.*\b(?:cheapest|cheaper|best price|lowest)\b|"
    r"\bcheapest (?:place|platform|store|shop|site|offer|deal)\b|\bcompare (?:the )?prices?\b|"
    r"\bprice comparison\b|\bbest (?:price|deal) (?:for|on)\b"
)
CHEAPEST_WORDS = re.compile(
    r"\bwhere(?: (?:is|are|can i (?:buy|get)|should i buy|do i (?:buy|get)|to (?:buy|get)))?\b|"
    r"\bwhich (?:platform|store|shop|site|website|seller)(?: (?:is|has|sells|offers))?\b|"
    r"\b(?:the )?(?:cheapest|cheaper|lowest price|best (?:price|deal)|least expensive)(?: (?:place|platform|store|shop|site|offer|deal))?\b|"
    r"\bfor (?:the )?least\b|"
    r"\bcompare (?:the )?prices?(?: (?:of|for))?\b|\bprice comparison(?: (?:of|for))?\b|\b(?:for|on|it)\b"
)
"""What to drop from the search text of an English "where is X cheapest" (X stays)."""
CHEAPEST_WORDS_ZH = re.compile(
    r"的?(?:是|在)?哪(?:个平台|家店?|个|里|儿|边)|在哪(?:个平台|家|里|儿)?|(?:最|更|比较)?(?:便宜|划算|实惠)|"
    r"价格最低|最低价|价格低|价低|比比价|比一下价|比价|价格对比|比较价格|能买到|买"
)
"""The same for Chinese ("哪里买婴儿推车最便宜" keeps 婴儿推车)."""
COMPARE = re.compile(
    r"对比|比较|比一比|比一下|比比|有什么区别|有啥区别|区别是什么|哪个更好|哪个好|"
    r"\bcompare\b|\bcomparison\b|\bside by side\b|\bversus\b|\bvs\.?(?=\s)|\bdifference between\b|"
    r"\bwhich (?:one )?is better\b"
)
DETAILS = re.compile(
    r"链接|网址|购买地址|详情|详细信息|详细|具体信息|参数|规格|介绍一下|"
    r"\blinks?\b|\burls?\b|\bdetails?\b|\bspecs?\b|\bspecifications?\b|\bmore about\b|"
    r"\btell me about\b|\bmore info(?:rmation)?\b|\bwhere (?:can|do) i (?:buy|get|order)\b"
)
QUESTION_ZH = re.compile(
    r"吗|么|有没有|是不是|是否|能不能|可不可以|会不会|几[种个款色]|多少|多大|多重|多长|哪些|[?？]\s*$"
)
QUESTION_EN = re.compile(
    r"^\s*(?:is|are|does|do|can|has|have|will|would|could|was)\b|\?\s*$", re.IGNORECASE
)

SORTS: list[tuple[re.Pattern[str], SortOrder]] = [
    (
        re.compile(
            r"(?:按(?:价格|价钱))?(?:价格|价钱)?(?:从高到低|从贵到便宜|由高到低|降序)(?:排序|排列|排)?|"
            r"(?:价格|价钱)?(?:贵|高)的(?:排|放)?(?:在)?前(?:面)?|最贵的|[从由]?高到低|"
            r"\b(?:price:? )?high(?:est)? to low(?:est)?\b|\bmost expensive (?:first|ones?)\b|"
            r"\b(?:from )?expensive to cheap(?:est)?\b|\bdescending price\b|高价优先|"
            r"\bpriciest\b|\bsort(?:ed)? by price,? (?:descending|high)|\bexpensive first\b"
        ),
        "price_desc",
    ),
    (
        re.compile(
            r"(?:按(?:价格|价钱))?(?:价格|价钱)?(?:从低到高|从便宜到贵|由低到高|升序)(?:排序|排列|排)?|"
            r"按(?:价格|价钱)(?:排序|排列|排)?|价格排序|便宜的(?:排|放)?(?:在)?前(?:面)?|最便宜的|最实惠的|"
            r"(?:价格|价钱)低的(?:排|放)?(?:在)?前(?:面)?|[从由]?低到高|"
            r"\b(?:price:? )?low(?:est)? to high(?:est)?\b|\bcheapest (?:first|ones?)\b|"
            r"\b(?:from )?cheap(?:est)? to (?:most )?expensive\b|\bleast expensive first\b|"
            r"\bascending price\b|低价优先|"
            r"\bsort(?:ed)? by price\b|\border(?:ed)? by price\b|\bby price\b|\bthe cheapest\b|"
            r"\blowest price first\b|^\s*cheapest\b|\bfrom (?:the )?cheapest\b"
        ),
        "price_asc",
    ),
    (
        re.compile(
            r"评价最多|评论最多|按(?:评价数|评论数|评论|销量)(?:排序|排列|排)?|销量最高|最多人买|"
            r"\bmost review(?:s|ed)\b|\bby (?:number of )?reviews\b|\breview count\b|\bmost popular\b|"
            r"\bby popularity\b|按人气|人气最高"
        ),
        "reviews",
    ),
    (
        re.compile(
            r"按(?:评分|好评)(?:排序|排列|排)?|评分(?:排序|最高|高的)|好评最多|口碑最好|"
            r"\bby rating\b|\bhighest[- ]rated\b|\bbest[- ]rated\b|\btop[- ]rated\b|"
            r"\bsort(?:ed)? by (?:rating|stars)\b|\bbest reviewed\b"
        ),
        "rating",
    ),
]
CHEAPER = re.compile(
    r"更便宜|便宜[一]?[点些]|再便宜|便宜的吗|有便宜的|低价(?!优先)[一]?[点些]?|平价[一]?[点些]?|价格(?:能|可以)?再?低[一]?[点些]|"
    r"比[^，。,.？?]{1,10}?便宜|不那么贵|太贵了?|贵了|更实惠|实惠[一]?[点些]|价格低[一]?[点些]|更低价|省钱[一]?[点些]?|"
    r"\bcheaper\b|\bless expensive\b|\blower[- ]priced?\b|\bmore affordable\b|\btoo expensive\b|"
    r"\btoo pricey\b|\bless money\b|\bbudget (?:option|pick|one)s?\b|\bnot so expensive\b|"
    r"\bless pricey\b|\bbudget[- ]friendly\b|\blower[- ]cost\b|\blower prices?\b|平替|\bdupes?\b"
)
PRICIER = re.compile(
    r"更贵|贵[一]?[点些]的|更高端|高端[一]?[点些]|档次高[一]?[点些]|大牌[一]?[点些]?|名牌|大品牌|"
    r"\bmore expensive\b|\bpricier\b|\bhigher[- ]end\b|\bmore premium\b|\bupscale\b"
)
OTHER: list[tuple[re.Pattern[str], Literal["brand", "color", "model"]]] = [
    (
        re.compile(
            r"换[个一]?(?:种|个)?颜色|别的颜色|其他颜色|其它颜色|另一种颜色|换色|"
            r"\b(?:another|other|different) colou?rs?\b|\bin a different colou?r\b"
        ),
        "color",
    ),
    (
        re.compile(
            r"换[个一]?(?:个|家)?[^，。,.？?！!]{0,6}?(?:牌子|品牌)|别的(?:牌子|品牌)|其他(?:牌子|品牌)|"
            r"其它(?:牌子|品牌)|不同(?:牌子|品牌)|平替|"
            r"(?:不要|别要|不想要|不买)(?:这个?|那个?|这家)(?:牌子|品牌)|(?:这个?|那个?|这家)(?:牌子|品牌)的?(?:不要|别|不行|不想要|就算了)|"
            r"\b(?:not|no more of) (?:this|that) brand\b|\b(?:this|that) brand,? no\b|"
            r"\b(?:another|other|different) brands?\b|\balternatives?\b|\bdupes?\b"
        ),
        "brand",
    ),
    (
        re.compile(
            r"换[个一]?(?:款|个款式|种款式|个型号)|别的款式|其他款式|别的型号|"
            r"\b(?:another|other|different) (?:model|style)s?\b"
        ),
        "model",
    ),
]
SIZE_STEPS: list[tuple[re.Pattern[str], SizeStep]] = [
    (
        re.compile(
            r"大[一半]?[码号]|大一点的?[码号尺]|尺码大[一]?[点些]|"
            r"\b(?:a|one) size (?:up|bigger|larger)\b|\b(?:bigger|larger) size\b|\bsize up\b"
        ),
        "up",
    ),
    (
        re.compile(
            r"小[一半]?[码号]|小一点的?[码号尺]|尺码小[一]?[点些]|"
            r"\b(?:a|one) size (?:down|smaller)\b|\bsmaller size\b|\bsize down\b"
        ),
        "down",
    ),
]


@dataclass
class FollowupCues:
    """The follow-up a message expresses, and the cue spans to drop from its search text."""

    followup: Followup | None = None
    spans: list[Span] = field(default_factory=list)


FIRST_N = re.compile(
    r"\b(?:the )?(?:first|top) (?P<en>two|three|four|[2-4])\b|前(?P<zh>[两二三四2-4])[个款件双台条]?"
)
""""the first two / 前两个": the first n shown items."""
_COUNTS = {"two": 2, "three": 3, "four": 4, "两": 2, "二": 2, "三": 3, "四": 4}


def _ordinal_refs(text: str, spans: list[Span]) -> list[int]:
    """Shown-item references in the order they appear (duplicates dropped)."""
    found: list[tuple[int, int]] = []
    taken: list[Span] = []
    for hit in FIRST_N.finditer(text):
        count = hit.group("en") or hit.group("zh")
        n = int(count) if count.isdigit() else _COUNTS[count]
        found += [(hit.start() + i, i + 1) for i in range(n)]
        spans.append(hit.span())
        taken.append(hit.span())
    for hit in ORDINAL_ZH.finditer(text):
        number = hit.group("n") or hit.group("n2")
        found.append((hit.start(), int(number) if number.isdigit() else _ZH_NUMBERS[number]))
        spans.append(hit.span())
    for hit in LAST_ZH.finditer(text):
        found.append((hit.start(), -1))
        spans.append(hit.span())
    for hit in ORDINAL_EN.finditer(text):
        if any(start <= hit.start() < end for start, end in taken):
            continue
        digits = hit.group("d")
        found.append((hit.start(), int(digits) if digits else _EN_ORDINALS[hit.group("w")]))
        spans.append(hit.span())
    for hit in NUMBERED_EN.finditer(text):
        found.append((hit.start(), int(hit.group("d"))))
        spans.append(hit.span())
    return list(dict.fromkeys(n for _, n in sorted(found) if n != 0))


def _pair_refs(text: str, spans: list[Span]) -> list[int]:
    """ "1和3" / "2 and 4": bare numbers, only read as references where comparing."""
    refs: list[int] = []
    for hit in NUMBER_PAIR.finditer(text):
        refs += [int(hit.group("a")), int(hit.group("b"))]
        spans.append(hit.span())
    return refs


def _search(pattern: re.Pattern[str], text: str, spans: list[Span]) -> bool:
    hits = list(pattern.finditer(text))
    spans.extend(hit.span() for hit in hits)
    return bool(hits)


def _sort(text: str, spans: list[Span]) -> SortOrder | None:
    for pattern, order in SORTS:
        if _search(pattern, text, spans):
            return order
    return None


def _without(text: str, spans: list[Span]) -> str:
    keep = [True] * len(text)
    for start, end in spans:
        for i in range(start, min(end, len(text))):
            keep[i] = False
    return "".join(ch if keep[i] else " " for i, ch in enumerate(text))


def _asked(text: str, spans: list[Span]) -> str:
    """What a question about a shown item asks, minus the reference and question words."""
    rest = _without(text, spans)
    rest = re.sub(
        r"吗|么|呢|吧|啊|有没有|是不是|是否|能不能|可不可以|会不会|请问|的|[?？。.!！,，]"
        r"|\b(?:is|are|does|do|can|has|have|will|would|could|was|the|a|an|one|item|please|"
        r"tell me|any|some|of|for|about|there)\b",
        " ",
        rest,
        flags=re.IGNORECASE,
    )
    return re.sub(r"\s+", " ", rest).strip()


def _cue_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Chinese forms as substrings, English ones on word boundaries; the longest first."""
    ordered = sorted(forms, key=len, reverse=True)
    return re.compile(
        "|".join(re.escape(f) if has_han(f) else rf"\b{re.escape(f)}\b" for f in ordered)
    )


@cache
def _price_patterns() -> dict[str, re.Pattern[str]]:
    cues_ = price_cues()
    return {group: _cue_pattern(getattr(cues_, group)) for group in ("deal", "lowest", "notify",
                                                                     "drop", "stock")}  # fmt: skip


def _price_ask(text: str, spans: list[Span]) -> PriceAsk | None:
    """A question about the item's price history, or a watch asked for (the watch's target
    is the message's amount: the planner moves it from the budget into the ask)."""
    patterns = _price_patterns()
    found = {group: list(p.finditer(text)) for group, p in patterns.items()}
    ask: PriceAsk | None = None
    if found["notify"] and found["stock"]:
        ask = PriceAsk(kind="watch_stock")
    elif found["drop"] and (found["notify"] or _WATCH_VERB.search(text)):
        ask = PriceAsk(kind="watch_price")
        # "降到300提醒我": the amount right after the drop is the target, budget words or not.
        for hit in found["drop"]:
            amount = _AMOUNT_AFTER.match(text, hit.end())
            if amount is not None:
                ask.target = parse_amount(amount.group("amount"))
                ask.currency = currency_of(amount.group("currency") or "") or ""
                spans.append(amount.span())
                break
    elif found["lowest"]:
        ask = PriceAsk(kind="lowest")
    elif found["deal"]:
        ask = PriceAsk(kind="deal")
    if ask is not None:
        groups = ("notify", "stock", "drop", "lowest", "deal")
        spans += [hit.span() for group in groups for hit in found[group]]
    return ask


_AMOUNT_AFTER = re.compile(
    rf"\s*(?P<currency>{currency_alternation('before')})?\s*(?P<amount>{NUMBER_PATTERN})",
    re.IGNORECASE,
)

# "降到300就买" is a watch said without "remind me"; "under 300" alone is a budget.
_WATCH_VERB = re.compile(r"降到.{0,8}(?:就买|再买|告诉|通知)")


def parse_followup(message: str, *, names_product: bool) -> FollowupCues:
    """The follow-up in `message`, if any. `names_product`: the message names a product noun
    (then a bare reference word is not a follow-up: "那个蓝牙耳机" is a new search)."""
    text = message.strip().lower()
    spans: list[Span] = []
    refs = _ordinal_refs(text, spans)
    pronoun_spans: list[Span] = []
    pronoun = _search(PRONOUN_ZH, text, pronoun_spans) or _search(PRONOUN_EN, text, pronoun_spans)

    def cues(kind: FollowupKind, **fields: object) -> FollowupCues:
        chosen = refs or ([0] if pronoun else [])
        followup = Followup.model_validate({"kind": kind, "refs": chosen, **fields})
        return FollowupCues(followup=followup, spans=[*spans, *pronoun_spans])

    price_ask = _price_ask(text, spans)
    if price_ask is not None:
        return cues("price", price_ask=price_ask)
    where = list(CHEAPEST_WHERE.finditer(text))
    if where and len(refs) >= 2:
        # "第一个和第三个哪个更便宜": a question between shown items, answered side by side.
        spans += [hit.span() for hit in where]
        return cues("compare")
    if where:
        # A Chinese cue is a tight phrase; an English one spans the product ("where is X
        # cheapest"), so only its cue words are dropped.
        _search(CHEAPEST_WORDS_ZH if has_han(text) else CHEAPEST_WORDS, text, spans)
        # Not a sort: "where is X cheapest" is about X's offers, not the cheapest product.
        return cues("cheapest")
    if _search(COMPARE, text, spans) and not names_product:
        if len(refs) < 2:
            refs = list(dict.fromkeys([*refs, *_pair_refs(text, spans)]))
        return cues("compare")
    similar = _search(SIMILAR, text, spans)
    price: Literal["", "lower", "higher"] = ""
    if _search(CHEAPER, text, spans):
        price = "lower"
    elif _search(PRICIER, text, spans):
        price = "higher"
    other = [name for pattern, name in OTHER if _search(pattern, text, spans)]
    if similar and not (price or other):
        return cues("similar")
    # "similar vibe but cheaper, different brand is fine": like what is shown, with changes.
    sort = _sort(text, spans)
    size_step: SizeStep = next((s for p, s in SIZE_STEPS if _search(p, text, spans)), "")
    question = bool(QUESTION_ZH.search(text) or QUESTION_EN.search(text))
    if other == ["color"] and not (price or size_step) and question and (refs or pronoun):
        # "第二个有别的颜色吗 / does it come in other colours?" asks about that item's colours
        # (its listing facts list them), not for other items in other colours.
        return cues("details")
    if price or other or size_step:
        return cues("refine", price=price, other=other, size_step=size_step, sort=sort)
    if _search(MORE, text, spans):
        return cues("more", page_delta=1)
    if sort is not None:
        return cues("sort", sort=sort)
    if names_product:
        return FollowupCues()
    details = _search(DETAILS, text, spans)
    bare = pronoun and BARE_REFERENCE.match(_without(text, pronoun_spans)) is not None
    if details or refs or (pronoun and question) or bare:
        asked = "" if details else _asked(text, [*spans, *pronoun_spans])
        return cues("details", asked=asked)
    return FollowupCues()
