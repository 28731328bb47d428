"""The assistant's own questions, word for word. A question is resolved by exact match: the
reader knows the wording it may be answering, so resolution never depends on a paraphrase."""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.understanding.reading import Language

PRODUCT_TYPE_QUESTIONS: dict[Language, str] = {
    "zh": "你想找哪一类商品？比如耳机、跑鞋、面霜或茶叶，说个大概的种类我就能帮你挑。",
    "en": "What kind of thing are you after? For example earbuds, running shoes, a face cream "
    "or tea — name the kind and I will pick the best ones.",
}
UNSURE_SCOPE_QUESTIONS: dict[Language, str] = {
    "zh": "我不确定店里有没有你说的这种东西。它是哪一类商品？比如耳机、跑鞋、面霜或茶叶。",
    "en": "I am not sure we carry what you mean. What kind of product is it? For example "
    "earbuds, running shoes, a face cream or tea.",
}
"""Asked when nothing says whether the catalog carries the request and its best matches are
far from it: one question instead of a verdict either way."""
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
SLOT_QUESTIONS: dict[str, dict[Language, str]] = {
    "size": {
        "zh": "请问你需要多大的尺码？（例如 42 或 M）",
        "en": "What size do you need? (for example 42 or M)",
    },
}


def product_type_question(language: Language, *, gift: bool) -> str:
    return (GIFT_QUESTIONS if gift else PRODUCT_TYPE_QUESTIONS)[language]


def unsure_scope_question(language: Language) -> str:
    return UNSURE_SCOPE_QUESTIONS[language]


def is_product_type_question(question: str) -> bool:
    return question in (
        *PRODUCT_TYPE_QUESTIONS.values(),
        *UNSURE_SCOPE_QUESTIONS.values(),
        *GIFT_QUESTIONS.values(),
    )


def is_gift_question(question: str) -> bool:
    return question in GIFT_QUESTIONS.values()


def question_for(slot: str, language: Language) -> str:
    return SLOT_QUESTIONS[slot][language]


def slot_of_question(question: str) -> str:
    """Which slot one of our questions asks for ("" for a question we did not word)."""
    for slot, wordings in SLOT_QUESTIONS.items():
        if question in wordings.values():
            return slot
    return ""


def answered_by_slots(open_questions: Sequence[str], slots: dict[str, str]) -> list[str]:
    """Open questions (verbatim) whose slot is now filled."""
    return [q for q in open_questions if (slot := slot_of_question(q)) and slots.get(slot)]


def asks_for_size(question: str) -> bool:
    return question in SLOT_QUESTIONS["size"].values()


def asks_for_budget(question: str) -> bool:
    return question in (*BUDGET_QUESTIONS.values(), *UNUSABLE_BUDGET_QUESTIONS.values())
