"""Clarifying questions for slots a domain needs, and recognizing their answers.

Shoes and clothing need a size when their listings come in sizes (a scarf or a belt of the
clothing domain is sold one size, so asking would be noise). When it is missing the turn still shows best-effort results
and asks exactly one question; the curator records it in `open_questions`. The next message
("42") fills the slot, and the question is resolved by exact match — the agent knows the
exact wording it asked, so resolution never depends on an engine paraphrasing it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from cartwise.catalog.product import Product
from cartwise.text import fold
from cartwise.understanding.base import Language

SLOTS_REQUIRED_BY_DOMAIN: dict[str, tuple[str, ...]] = {
    "shoes": ("size",),
    "clothing": ("size",),
}

SLOT_QUESTIONS: dict[str, dict[Language, str]] = {
    "size": {
        "zh": "请问你需要多大的尺码？（例如 42 或 M）",
        "en": "What size do you need? (for example 42 or M)",
    },
}

_BARE_SIZE = re.compile(
    r"^(?:size|尺码|码数)?\s*(\d{1,2}(?:\.5)?|xxs|xs|s|m|l|xl|xxl|xxxl|[2-5]xl)\s*(?:码|号|號|yards?)?"
    r"\s*[.!。！]?$"
)


def missing_slot(domain: str, slots: dict[str, str], *, sized: bool) -> str:
    """The first slot the domain needs that is not filled, or "". `sized`: whether the
    listings found come in sizes at all."""
    needed = [s for s in SLOTS_REQUIRED_BY_DOMAIN.get(domain, ()) if s != "size" or sized]
    return next((s for s in needed if not slots.get(s)), "")


def sold_in_sizes(products: Iterable[Product]) -> bool:
    """Whether any of these listings offers a choice of sizes."""
    return any(len(set(p.sizes)) > 1 for p in products)


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


def bare_slot_answer(message: str, open_questions: Sequence[str]) -> dict[str, str]:
    """A reply that is only a size ("42", "42码", "XL") while our size question is open.
    The engine usually extracts it; this covers a bare number it cannot place."""
    if not any(slot_of_question(q) == "size" for q in open_questions):
        return {}
    match = _BARE_SIZE.fullmatch(fold(message))
    return {"size": match.group(1).upper()} if match else {}
