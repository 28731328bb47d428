"""What a request says besides its product words: whether it names any kind of product at
all, a gift and what its recipient is into, a bare size answering our question, a shop URL,
and a wish for something that goes with a referenced item."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cartwise.catalog.taxonomy import goods_names
from cartwise.recall.references import PRODUCT_URL
from cartwise.text import fold
from cartwise.understanding.questions import is_gift_question, slot_of_question
from cartwise.understanding.rules.lexicon import Match
from cartwise.vocabulary.matcher import Match as VocabularyMatch

# Words that name no product: what is left of a request once they are gone is its product.
_GENERIC = re.compile(
    r"(?<![a-z])(?:something|anything|stuff|things?|items?|products?|nice|good|great|cool|"
    r"useful|interesting|random|recommend(?:ations?)?|suggest(?:ions?)?|ideas?|shop(?:ping)?|"
    r"what|should|help|can|could|you|else|to|get|gifts?|presents?|for|my|mum|mom|mother|dad|"
    r"father|wife|husband|friend|girlfriend|boyfriend|kids?|son|daughter|someone|somebody|"
    r"please|pls|plz|some|buy|a|an|the|me|i|want|need|looking|find|show|any|then|also|teens?|"
    r"hey|hi|hello|birthday|bday|christmas|xmas|anniversary|valentine'?s?|wedding|holiday|"
    r"around|about|teenagers?|toddlers?|boys?|girls?|man|men|woman|women|guys?|ladies|lady|"
    r"years?|old|aged?|no|not|clue|sure|idk|dunno|honestly|really|"
    r"\d+(?=\s*(?:years?|yrs?|岁)))(?![a-z])|"
    r"东西|礼物|礼品|好物|什么|随便|推荐|好买|好的|好|挑|买|帮|送人|送给|给|人|有|点|些|个|"
    r"生日|圣诞|纪念日|情人节|节日|过节|嗨|你好|左右|送|"
    r"我妈|妈妈|爸爸|我爸|老婆|老公|朋友|女朋友|男朋友|孩子|同事|长辈|一下|看看|想|要|我|吧|呢|的|呗|嘛|啦|哈|呀|啊|"
    r"[爸妈哥姐弟妹岁]"
)
_GIFT = re.compile(r"礼物|礼品|送人|送给|(?<![a-z])(?:gifts?|presents?)(?![a-z])")
_SPACES = re.compile(r"[\s\W_]+")


def is_vague(phrase: str) -> bool:
    """The request names no kind of product ("help me find something", "想买个礼物")."""
    return not _SPACES.sub("", _GENERIC.sub(" ", phrase.casefold()))


def is_gift(message: str) -> bool:
    return bool(_GIFT.search(message.casefold()))


# At the message's start (an answer) or a clause's (a request telling it, "…, he loves X").
_INTEREST = re.compile(
    r"(?:^|[,，.。;；!！]\s*)(?:well|ok(?:ay)?|hmm|so)?[,\s]*(?:he|she|they|my \w+)(?:'s|'re| is| are)?\s+(?:really\s+|realy\s+|totally\s+)?"
    r"(?:likes?|loves?|enjoys?|into|a fan of|fond of|passionate about)\s+|"
    r"(?:^|[,，.。;；!！]\s*)(?:嗯|那个)?[，,\s]*(?:他|她|ta|我\w{1,2})(?:平时|平常|一直|特别|很|比较|最)?"
    r"(?:喜欢|爱好是|爱|热爱|迷|对)(?:上)?\s*",
    re.IGNORECASE,
)
_TRAILING = re.compile(r"(?:感兴趣|很感兴趣|的东西|之类的|什么的)?[\s。.!！?？,，]*$")


def gift_interest(message: str, open_questions: Sequence[str]) -> str:
    """What the recipient is into, when the message answers our gift question with it
    ("he likes hiking" → "hiking", "她平时爱喝茶" → "喝茶") or asks for a present with it
    ("a present for my nephew, he loves dinosaurs"): the thing to search for."""
    if not (any(is_gift_question(q) for q in open_questions) or is_gift(message)):
        return ""
    found = _INTEREST.search(message.strip())
    if found is None:
        return ""
    rest = message.strip()[found.end() :]
    return _TRAILING.sub("", re.split(r"[,，.。;；!！?？]", rest, maxsplit=1)[0]).strip()


_BARE_SIZE = re.compile(
    r"^(?:size|尺码|码数)?\s*(\d{1,2}(?:\.5)?|xxs|xs|s|m|l|xl|xxl|xxxl|[2-5]xl)\s*(?:码|号|號|yards?)?"
    r"\s*[.!。！]?$"
)


def bare_size(message: str, open_questions: Sequence[str]) -> str:
    """A reply that is only a size ("42", "42码", "XL") while our size question is open."""
    if not any(slot_of_question(q) == "size" for q in open_questions):
        return ""
    match = _BARE_SIZE.fullmatch(fold(message))
    return match.group(1).upper() if match else ""


COMPATIBILITY_CUE = re.compile(
    r"compatible|\bfits?\b|goes with|go with|works with|same colou?r|same size|"
    r"兼容|适配|配套|搭配|能用|同色|同样颜色|同样大小|一样大",
    re.IGNORECASE,
)
"""Words that make a referenced item the source of a compatibility search."""


def product_urls(message: str) -> list[str]:
    return PRODUCT_URL.findall(message)


def url_spans(message: str) -> list[tuple[int, int]]:
    """Where the shop URLs are: never words of the search phrase."""
    return [m.span() for m in PRODUCT_URL.finditer(message)]


def asks_compatible(message: str) -> bool:
    return COMPATIBILITY_CUE.search(message) is not None


_CONTAINER = re.compile(
    r"(?:能装|能放|能放下|装得下|放得下|可以装|可以放|塞得下|装下|放下|适合装|"
    r"(?<![a-z])(?:fits?|holds?|room for|big enough for|that takes|for carrying))"
    r"\s*(?:a|an|the|my|one|下)?\s*[\d.]*\s*(?:寸|英寸|inch|in|\"|-inch)?\s*$",
    re.IGNORECASE,
)


_PLACED_ZH = re.compile(
    r"(?:放在|放到|放|摆在|摆|搁在|搁|挂在|挂|贴在|装在)(?:我的|家里的?|我家的?)?$"
)
_PLACE_AFTER_ZH = re.compile(r"^(?:上面|里面|旁边|下面|上|里|边|旁|下)")
_PLACED_EN = re.compile(
    r"(?<![a-z])(?:put|goes|go|sit|sits|stand|stands|place|keep)\s+(?:it\s+|them\s+)?"
    r"(?:on top of|next to|beside|under|on|in|by)\s+(?:the|my|our|a)?\s*$|"
    r"(?<![a-z])on (?:my|our|the) $"
)


def contained_nouns(message: str, matches: Sequence[Match]) -> list[Match]:
    """Product nouns the asked-for thing must hold or fit ("能装15寸电脑", "fits a 16 inch
    laptop"): attributes of the request, never the product asked for."""
    lowered = message.lower()
    return [
        m
        for m in matches
        if m.first("domain") is not None
        and _CONTAINER.search(lowered[max(0, m.start - 24) : m.start])
    ]


def placed_nouns(message: str) -> list[tuple[int, int]]:
    """Spans of the goods the asked-for thing stands on or in, with the words that place it
    ("放床头柜上", "放在书桌上的台灯", "to sit on my desk"): where it goes, never the product
    asked for."""
    lowered = message.lower()
    return [span for m in goods_names().find(lowered) if (span := _placed(lowered, m)) is not None]


def _placed(lowered: str, noun: VocabularyMatch) -> tuple[int, int] | None:
    before = lowered[max(0, noun.start - 24) : noun.start]
    if noun.surface.isascii():
        lead = _PLACED_EN.search(before)
        return None if lead is None else (noun.start - len(before) + lead.start(), noun.end)
    lead = _PLACED_ZH.search(before)
    after = _PLACE_AFTER_ZH.match(lowered[noun.end :])
    if lead is None or after is None:
        return None
    return noun.start - len(before) + lead.start(), noun.end + after.end()
