"""One canonical form for a garment or shoe size, so a shopper's size and a listing's sizes
compare equal whenever they mean the same size.

Equivalences: width and case ("ＸＬ" = "xl" = "XL"); the counted letter forms (2XL = XXL,
3XL = XXXL, up to 5XL); English words next to "size" (large = L, extra large = XL);
unit and system marks around a number ("42码" = "42号" = "EU 42" = "size 42" = "42").
Letter sizes come out upper case, numbers keep their half sizes ("7.5").
"""

from __future__ import annotations

import re

from cartwise.text import narrow

LETTER_SIZES = r"xxxs|xxs|xs|s|m|l|xl|xxl|xxxl|[2-5]xl"
"""Letter sizes as written in lower case (a regex alternation)."""
WORD_SIZES = {
    "small": "S",
    "medium": "M",
    "large": "L",
    "x-large": "XL",
    "extra large": "XL",
    "extra-large": "XL",
    "xx-large": "XXL",
}
_PREFIXES = ("尺码", "鞋码", "size", "eu")
_SUFFIXES = ("码", "號", "号")
"""Words around a size that say what kind of number it is, not which size ("one-size" keeps
its "size": only a leading "size" is a mark)."""
_COUNTED_X = re.compile(r"([2-5])xl")
_LETTER_FORM = re.compile(r"x*[sl]|m")


def canonical_size(raw: str) -> str:
    """The canonical form of one size: "2xl" → "XXL", "ＥＵ ４２" → "42", "large" → "L"."""
    value = narrow(raw).casefold().strip()
    for prefix in _PREFIXES:
        value = value.removeprefix(prefix).strip()
    for suffix in _SUFFIXES:
        value = value.removesuffix(suffix).strip()
    if value in WORD_SIZES:
        return WORD_SIZES[value]
    counted = _COUNTED_X.fullmatch(value)
    if counted:
        return "X" * int(counted.group(1)) + "L"
    if _LETTER_FORM.fullmatch(value):
        return value.upper()
    return value


def same_size(a: str, b: str) -> bool:
    """Whether two written sizes are the same size."""
    return canonical_size(a) == canonical_size(b)
