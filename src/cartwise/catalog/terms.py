"""Matching exclude/like terms against product text: case-, width- and script-insensitive.

Width and case: both sides are NFKC-normalized and case-folded, so "ＰＬＡＳＴＩＣ" and
"Plastic" are the same word. Script: a Chinese dislike ("塑料") catches English listings
through the entry's bilingual keywords (["plastic", "塑料", "塑胶"]) — every keyword is a
term, and any one matching is enough.

ASCII terms match whole words (an optional plural "s"/"es" allowed), so "plastic" catches
"plastics" and "Plastic case" but not "plasticity"; "wood" does not hit "Hollywood". The
words of a term match across a space, a hyphen or nothing: "faux-leather" / "faux leather"
catch "faux-leather", "faux leather" and "fauxleather"; "second-hand" catches "secondhand".
CJK text has no word boundaries, so non-ASCII terms match as substrings.

A mention the listing itself negates does not count: "plastic-free", "latex-free",
"non-plastic", "no plastic", "无塑料", "不含塑料" say the very thing a shopper who refuses
plastic wants to hear. "free"/"less" negate only when attached by a hyphen: in "ABS plastic
free gift" or "latex - free returns" the "free" is about something else, and an allergy
filter must fail safe (keep excluding). ("BPA-free plastic" is still plastic.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from cartwise.text import fold


@lru_cache(maxsize=4096)
def _ascii_pattern(term: str) -> re.Pattern[str]:
    words = r"[\s-]?".join(re.escape(word) for word in term.split())
    return re.compile(r"(?<![a-z0-9])" + words + r"(?:e?s)?(?![a-z0-9])")


@dataclass(frozen=True)
class TermMatcher:
    """A set of terms matched as described in the module docstring."""

    terms: tuple[str, ...]

    @classmethod
    def of(cls, terms: Iterable[str]) -> TermMatcher:
        seen: dict[str, None] = {}
        for raw in terms:
            term = fold(raw.replace("-", " ") if raw.isascii() else raw)
            if term and term not in seen:
                seen[term] = None
        return cls(tuple(seen))

    def __bool__(self) -> bool:
        return bool(self.terms)

    def first_match(self, folded_text: str) -> str | None:
        """The first term found in already-folded text, or None."""
        return next((t for t in self.terms if contains_term(folded_text, t)), None)

    def all_matches(self, folded_text: str) -> list[str]:
        """Every term found in already-folded text, in term order."""
        return [t for t in self.terms if contains_term(folded_text, t)]


_NEGATED_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:no|non|without|zero|free of)[\s-]*|(?:无|不含|零|非|没有|免)\s*)$"
)
_NEGATED_AFTER = re.compile(r"^(?:e?s)?-(?:free|less)(?![a-z])")
_CONTEXT = 12


def _negated(text: str, start: int, end: int) -> bool:
    return bool(
        _NEGATED_BEFORE.search(text[max(0, start - _CONTEXT) : start])
        or _NEGATED_AFTER.match(text[end : end + _CONTEXT])
    )


def contains_term(folded_text: str, folded_term: str) -> bool:
    """Whole-word match for ASCII terms, substring match for CJK and other scripts; a
    mention the listing negates ("plastic-free", "无塑料") does not count."""
    if folded_term.isascii():
        return any(
            not _negated(folded_text, m.start(), m.end())
            for m in _ascii_pattern(folded_term).finditer(folded_text)
        )
    start = folded_text.find(folded_term)
    while start != -1:
        if not _negated(folded_text, start, start + len(folded_term)):
            return True
        start = folded_text.find(folded_term, start + 1)
    return False


def slug_terms(slug: str, keywords: Sequence[str]) -> list[str]:
    """The terms of one preference: its keywords plus the slug as words ("solid-wood" →
    "solid wood"), so an entry with no keywords still filters on its canonical name."""
    return [*keywords, slug.replace("-", " ")]
