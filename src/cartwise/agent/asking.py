"""Questions that help: at most one per turn, only when a search cannot be good.

Priority, highest first:
1. no product type ("help me find something", "a gift"): nothing is searched; ask what
   kind of thing (for a gift: for whom, and what they like);
2. a size for sized goods (shoes, clothing sold in sizes) — results are still shown;
3. a budget that cannot be one (negative, zero, 10^32): it is not used, results are still
   shown and the shopper is asked for a real number;
4. a vague budget ("别太贵", "not too expensive") with no number: results are still shown
   and the shopper is asked for a number. We ask rather than invent a ceiling: any relative
   rule ("below the median price") would silently hide things the shopper may well accept,
   and one number answers it for the rest of the session.
A question is never asked when its answer is already known (the slot is filled) or when the
same question is still open, and every question's exact wording is how it is resolved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cartwise.agent.clarification import missing_slot, question_for
from cartwise.understanding.base import Language
from cartwise.understanding.rules import cues

PRODUCT_TYPE_QUESTIONS: dict[Language, str] = {
    "zh": "你想找哪一类商品？比如耳机、跑鞋、面霜或茶叶，说个大概的种类我就能帮你挑。",
    "en": "What kind of thing are you after? For example earbuds, running shoes, a face cream "
    "or tea — name the kind and I will pick the best ones.",
}
GIFT_QUESTIONS: dict[Language, str] = {
    "zh": "这份礼物是送给谁的？TA 平时喜欢什么（比如数码、美妆、运动、茶和咖啡）？",
    "en": "Who is the gift for, and what are they into (for example gadgets, beauty, sports, "
    "or tea and coffee)?",
}
BUDGET_QUESTIONS: dict[Language, str] = {
    "zh": "你的预算大概多少？给我一个数字（比如 300 元以内），我就按它筛选。",
    "en": "What is your budget? Give me a number (for example under $50) and I will keep to it.",
}

UNUSABLE_BUDGET_QUESTIONS: dict[Language, str] = {
    "zh": "这个预算不像真实的价格，我没有按它筛选。你的预算大概多少？比如 300 元以内。",
    "en": "That budget does not look like a real price, so I did not filter by it. What is "
    "your budget? For example under $50.",
}

# Words that name no product: what is left of a request once they are gone is its product.
_GENERIC = re.compile(
    r"(?<![a-z])(?:something|anything|stuff|things?|items?|products?|nice|good|great|cool|"
    r"useful|interesting|random|recommend(?:ations?)?|suggest(?:ions?)?|ideas?|shop(?:ping)?|"
    r"what|should|help|can|could|you|else|to|get|gifts?|presents?|for|my|mum|mom|mother|dad|"
    r"father|wife|husband|friend|girlfriend|boyfriend|kids?|son|daughter|someone|somebody|"
    r"please|some|buy|a|an|the|me|i|want|need|looking|find|show|any|then|also|teens?|hey|hi|"
    r"hello|birthday|christmas|xmas|anniversary|valentine'?s?|wedding|holiday|around|about|"
    r"teenagers?|toddlers?|boys?|girls?|man|men|woman|women|guys?|ladies|lady|years?|old|aged?|"
    r"\d+(?=\s*(?:years?|yrs?|岁)))(?![a-z])|"
    r"东西|礼物|礼品|好物|什么|随便|推荐|好买|好的|好|挑|买|帮|送人|送给|给|人|有|点|些|个|"
    r"生日|圣诞|纪念日|情人节|节日|过节|嗨|你好|左右|送|"
    r"我妈|妈妈|爸爸|我爸|老婆|老公|朋友|女朋友|男朋友|孩子|同事|长辈|一下|看看|想|要|我|吧|呢|的|"
    # What the filler pass leaves of 我爸 / 给我妈 ("想给 爸买个礼物").
    r"[爸妈哥姐弟妹岁]"
)
_GIFT = re.compile(r"礼物|礼品|送人|送给|(?<![a-z])(?:gifts?|presents?)(?![a-z])")
_SPACES = re.compile(r"[\s\W_]+")


def is_vague_request(query: str) -> bool:
    """The request names no kind of product ("help me find something", "想买个礼物")."""
    return not _SPACES.sub("", _GENERIC.sub(" ", query.casefold()))


_INTEREST = re.compile(
    r"^(?:well|ok(?:ay)?|hmm|so)?[,\s]*(?:he|she|they|my \w+)(?:'s|'re| is| are)?\s+(?:really\s+)?"
    r"(?:likes?|loves?|enjoys?|into|a fan of|fond of|passionate about)\s+|"
    r"^(?:嗯|那个)?[，,\s]*(?:他|她|ta|我\w{1,2})(?:平时|平常|一直|特别|很|比较|最)?"
    r"(?:喜欢|爱好是|爱|热爱|迷|对)(?:上)?\s*",
    re.IGNORECASE,
)
_TRAILING = re.compile(r"(?:感兴趣|很感兴趣|的东西|之类的|什么的)?[\s。.!！?？,，]*$")


def gift_interest(message: str, open_questions: Sequence[str]) -> str:
    """What the recipient is into, when the message answers our gift question with it
    ("he likes hiking" → "hiking", "她平时爱喝茶" → "喝茶"): the thing to search for."""
    if not any(q in GIFT_QUESTIONS.values() for q in open_questions):
        return ""
    found = _INTEREST.search(message.strip())
    if found is None:
        return ""
    return _TRAILING.sub("", message.strip()[found.end() :]).strip()


def is_gift(message: str) -> bool:
    return bool(_GIFT.search(message.casefold()))


def has_vague_budget(message: str) -> bool:
    return bool(cues.VAGUE_BUDGET.search(message))


def without_vague_budget(query: str) -> str:
    """The search text without "别太贵 / not too expensive" (a price wish, not a product word)."""
    return re.sub(r"\s+", " ", cues.VAGUE_BUDGET.sub(" ", query)).strip()


def product_type_question(message: str, language: Language) -> str:
    return (GIFT_QUESTIONS if is_gift(message) else PRODUCT_TYPE_QUESTIONS)[language]


def is_product_type_question(question: str) -> bool:
    return question in (*PRODUCT_TYPE_QUESTIONS.values(), *GIFT_QUESTIONS.values())


def choose_question(
    *,
    message: str,
    language: Language,
    vague_request: bool,
    searched: bool,
    domain: str,
    slots: dict[str, str],
    open_questions: Sequence[str],
    sized: bool,
    unusable_budget: bool = False,
) -> str:
    """The one question of this turn, or "". `sized`: the listings found come in sizes;
    `unusable_budget`: the message gave a budget that cannot be one."""
    if vague_request:
        question = product_type_question(message, language)
    elif unusable_budget:
        question = UNUSABLE_BUDGET_QUESTIONS[language]
    elif searched and (slot := missing_slot(domain, slots, sized=sized)):
        question = question_for(slot, language)
    elif searched and has_vague_budget(message) and not _has_budget(slots):
        question = BUDGET_QUESTIONS[language]
    else:
        return ""
    return "" if question in open_questions else question


def answered_type_questions(open_questions: Sequence[str], *, named_product: bool) -> list[str]:
    """Our "what kind of thing" questions this turn answers: any request naming a product."""
    return [q for q in open_questions if named_product and is_product_type_question(q)]


def _has_budget(slots: dict[str, str]) -> bool:
    return bool(slots.get("budget_max") or slots.get("budget_min"))
