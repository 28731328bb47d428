"""Sizes → the slot `size`: 42码, 尺码42, 穿42的鞋, size 10, XL, M号, 大码.

Values come out in the canonical form of `cartwise.catalog.sizes` (letter sizes upper case,
2XL/3XL as XXL/XXXL, numbers with their half sizes), the form listings are compared in.
A shoe size of another system keeps its mark ("US 9", "UK 8"; "US W8" when the message says
women's), and a bare number of US range for women's shoes is a US women's size; the picker
compares them in EU sizes (`cartwise.catalog.sizes.shoe_size_eu`). Word sizes come from the
lexicon: 大码/大号 → XL (in Chinese shops "大码" means the plus range, which starts at XL), 加大码 → XXL, 中码 → M, 小码 → S, 均码 → one-size. English "large/medium/small" count only next to "size".
"""

from __future__ import annotations

import re

from cartwise.catalog.sizes import BARE_US_SHOE_SIZES, LETTER_SIZES, WORD_SIZES, canonical_size
from cartwise.understanding.rules.lexicon import Match

_NUMBER = r"\d{1,2}(?:\.5)?"
_WORD = "|".join(sorted(map(re.escape, WORD_SIZES), key=len, reverse=True))

PATTERNS: list[re.Pattern[str]] = [
    re.compile(
        rf"(?:尺码|鞋码|码数)\s?(?:是|为|要|:|：)?\s?(?P<v>{_NUMBER}|{LETTER_SIZES})(?![\d a-z])"
    ),
    re.compile(rf"(?<![\d.a-z月])(?P<v>{_NUMBER})\s?(?:码|号)(?!\d)"),
    re.compile(rf"(?<![a-z])(?P<v>{LETTER_SIZES})\s?(?:码|号)"),
    re.compile(rf"穿\s?(?P<v>{_NUMBER}|{LETTER_SIZES})(?![\d.])"),
    re.compile(
        rf"\bsize\s?(?:is\s|of\s|:\s?)?(?:(?P<sys>us|eu|uk)\s?)?(?P<v>{_NUMBER}|{LETTER_SIZES}|{_WORD})(?![\da-z])"
    ),
    re.compile(rf"\b(?P<sys>eu|us|uk)\s?(?P<v>{_NUMBER})\b(?!\s?(?:dollars?|\$))"),
    re.compile(rf"\b(?P<v>{_WORD})[\s-]size\b"),
    re.compile(r"(?<![a-z0-9])(?P<v>xxs|xs|xl|xxl|xxxl|[2-5]xl)(?![a-z0-9])"),
]
WOMEN = re.compile(r"\bwomen'?s?\b|\bwomens\b|\bladies\b|\blady'?s\b|女")
"""A message about women's shoes: its US sizes are women's sizes."""
SHOE_SIZE_BARE = re.compile(r"(?<![\d.])(?P<v>3[4-9]|4[0-8])(?:\.5)?\s?的")
ANSWER_ONLY = re.compile(
    r"^\s*(?:(?:usually|normally|i wear|i'?m|i am|my size is|it'?s|a|an|about|around)\s+|"
    r"size\s?|一般穿|平时穿|我穿|穿|一般|大概)*"
    rf"(?:(?P<sys>us|uk|eu)\s?)?(?P<v>{_NUMBER}|{LETTER_SIZES}|{_WORD})\s?(?:码|号|的|吧|就行|谢谢)?\s*[。.!！]?\s*$"
)


def parse_size(
    text: str, matches: list[Match], *, domain: str
) -> tuple[str | None, list[tuple[int, int]]]:
    """The size stated in `text` and the spans it came from (to strip from the query)."""
    lowered = text.lower()
    for pattern in PATTERNS:
        hit = pattern.search(lowered)
        if hit:
            return _marked(hit, lowered, shoes=domain == "shoes"), [hit.span()]
    for match in matches:
        term = match.first("size")
        if term is not None:
            return term.slug, [(match.start, match.end)]
    if domain == "shoes":
        hit = SHOE_SIZE_BARE.search(lowered)
        if hit:
            return hit.group("v"), [hit.span("v")]
    return None, []


def parse_size_answer(text: str) -> str | None:
    """A message that is nothing but a size ("42", "42码", "size 10", "XL")."""
    hit = ANSWER_ONLY.match(text.lower())
    return _marked(hit, text.lower(), shoes=False) if hit else None


def _marked(hit: re.Match[str], lowered: str, *, shoes: bool) -> str:
    """The size with its system mark ("US 9", "US W8", "UK 8"); a bare number of US range
    for women's shoes is a US women's size (a bare "38" stays the EU size it is)."""
    value = hit.group("v")
    system = hit.groupdict().get("sys") or ""
    number = re.fullmatch(_NUMBER, value) is not None
    women = WOMEN.search(lowered) is not None
    smallest, largest = BARE_US_SHOE_SIZES
    if not system and shoes and women and number and smallest <= float(value) <= largest:
        system = "us"
    if system in ("us", "uk") and number:
        gender = "w" if system == "us" and women else ""
        return canonical_size(f"{system} {gender}{value}")
    return canonical_size(value)
