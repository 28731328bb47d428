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

from collections.abc import Sequence

from cartwise.agent.clarification import missing_slot
from cartwise.understanding.questions import (
    BUDGET_QUESTIONS,
    UNUSABLE_BUDGET_QUESTIONS,
    is_product_type_question,
    product_type_question,
    question_for,
)
from cartwise.understanding.reading import Reading


def choose_question(
    *,
    reading: Reading,
    searched: bool,
    domain: str,
    slots: dict[str, str],
    open_questions: Sequence[str],
    sized: bool,
) -> str:
    """The one question of this turn, or "". `sized`: the listings found come in sizes."""
    language = reading.language
    if reading.vague:
        question = product_type_question(language, gift=reading.gift is not None)
    elif reading.unusable_budget:
        question = UNUSABLE_BUDGET_QUESTIONS[language]
    elif searched and (slot := missing_slot(domain, slots, sized=sized)):
        question = question_for(slot, language)
    elif searched and reading.vague_budget and not _has_budget(slots):
        question = BUDGET_QUESTIONS[language]
    else:
        return ""
    return "" if question in open_questions else question


def answered_type_questions(open_questions: Sequence[str], *, named_product: bool) -> list[str]:
    """Our "what kind of thing" questions this turn answers: any request naming a product."""
    return [q for q in open_questions if named_product and is_product_type_question(q)]


def _has_budget(slots: dict[str, str]) -> bool:
    return bool(slots.get("budget_max") or slots.get("budget_min"))
