"""A refinement said with no product noun: "要羊毛的", "something in wool", "any waterproof
ones?", "索尼的有吗". Its words narrow the search already running; searched alone they would
start a search for "wool" and lose the product type the shopper is looking at.

Only a message whose every word is a known attribute (material, colour, style, brand) or
filler counts: "I'd like a kayak" names something, so it stays a search of its own.
"""

from __future__ import annotations

import re

from cartwise.memory.store import Category
from cartwise.understanding.rules.lexicon import Lexicon, Match

NARROWING = {Category.MATERIAL, Category.COLOR, Category.STYLE, Category.BRAND}
FILLER = re.compile(
    r"算了|还是|那就|就|有没有|还有|有吗|想要|换成|来点|要|换|的|有|吗|呢|吧|款|种|些|点|一|那|这|个|也|"
    r"\b(?:something|anything|any|ones?|it|its|do|does|you|have|got|in|please|maybe|instead|"
    r"how|about|what|with|made|of|is|there|are|them|those|these|that|comes?|available|"
    r"version|options?|by|from|brand|actually|ok|okay|fine|then|rather|go|let'?\s?s|let)\b"
)
PUNCTUATION = re.compile(r"[\s，。,.;；！!？?、:：~\"'()（）-]+")


def narrowing_terms(query: str, lexicon: Lexicon) -> list[Match]:
    """The attribute terms of `query` when they are all it says (besides filler), else []."""
    matches = lexicon.scan(query)
    if not matches:
        return []
    for match in matches:
        term = match.first("preference")
        if term is None or term.category not in NARROWING or match.first("domain"):
            return []
    rest = list(query.lower())
    for match in matches:
        rest[match.start : match.end] = " " * (match.end - match.start)
    leftover = PUNCTUATION.sub("", FILLER.sub(" ", "".join(rest)))
    return [] if leftover else matches
