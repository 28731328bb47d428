"""Matching exclude/like terms against product text: case-, width- and script-insensitive.

Width and case: both sides are NFKC-normalized and case-folded, so "ＰＬＡＳＴＩＣ" and
"Plastic" are the same word. Script: a Chinese dislike ("塑料") catches English listings
through the entry's bilingual keywords (["plastic", "塑料", "塑胶"]) — every keyword is a
term, and any one matching is enough.

ASCII terms match whole words (an optional plural "s"/"es" allowed), so "plastic" catches
"plastics" and "Plastic case" but not "plasticity"; "wood" does not hit "Hollywood".
CJK text has no word boundaries, so non-ASCII terms match as substrings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache


def fold(text: str) -> str:
    """NFKC (full-width → ASCII) then case-fold; whitespace runs collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@lru_cache(maxsize=4096)
def _ascii_pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9])" + re.escape(term) + r"(?:e?s)?(?![a-z0-9])")


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


def contains_term(folded_text: str, folded_term: str) -> bool:
    """Whole-word match for ASCII terms, substring match for CJK and other scripts."""
    if folded_term.isascii():
        return _ascii_pattern(folded_term).search(folded_text) is not None
    return folded_term in folded_text


def slug_terms(slug: str, keywords: Sequence[str]) -> list[str]:
    """The terms of one preference: its keywords plus the slug as words ("solid-wood" →
    "solid wood"), so an entry with no keywords still filters on its canonical name."""
    return [*keywords, slug.replace("-", " ")]
