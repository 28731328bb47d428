"""One canonical form for a garment or shoe size, so a shopper's size and a listing's sizes
compare equal whenever they mean the same size.

Equivalences: width and case ("ＸＬ" = "xl" = "XL"); the counted letter forms (2XL = XXL,
3XL = XXXL, up to 5XL); English words next to "size" (large = L, extra large = XL);
unit and system marks around a number ("42码" = "42号" = "EU 42" = "size 42" = "42").
Letter sizes come out upper case, numbers keep their half sizes ("7.5").

Shoe sizes of other systems keep their mark: "US 9" (men's, also unisex), "US W8" (women's),
"UK 8". The catalog lists shoes in whole EU sizes, so a shoe listing is checked against the
EU size of the asked one (`shoe_size_eu`), by this table (common retail charts: US men's 9 =
UK 8 = EU 42, US women's 8 = EU 39):

| system | sizes | EU size |
|---|---|---|
| US men's (and unisex; the default when no gender is stated) | 3.5–15 | US + 33 |
| US women's ("women's", "ladies") | 4–13 | US + 31 |
| UK | 2.5–14 | UK + 34 |

A half size takes the next whole EU size up (US 8.5 → EU 42: between 41 and 42, and a
shoe half a size large fits, half a size small does not). A bare number from 1 to 15 for a
shoe ("size 10 running shoes") is no EU size — adult EU sizes start at 35, children's at
about 16 — so it is read as a US men's size. Children's US sizes are not converted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

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


_NUMBER = r"\d{1,2}(?:\.5)?"
_MARKED_SHOE_SIZE = re.compile(
    rf"(us|uk)\s?(w|m|women'?s|womens|women|ladies|men'?s|mens|men)?\s?({_NUMBER})"
)
SHOE_SIZE_SYSTEMS: dict[str, tuple[float, float, int]] = {
    "US": (3.5, 15.0, 33),
    "US W": (4.0, 13.0, 31),
    "UK": (2.5, 14.0, 34),
}
"""System mark → (smallest, largest, EU offset): the table above."""
BARE_US_SHOE_SIZES = (1.0, 15.0)
"""A bare shoe size in this range is a US men's size (no EU shoe size is this small)."""


def canonical_size(raw: str) -> str:
    """The canonical form of one size: "2xl" → "XXL", "ＥＵ ４２" → "42", "large" → "L",
    "us 9" → "US 9", "US women's 8" → "US W8", "uk8" → "UK 8"."""
    value = narrow(raw).casefold().strip()
    value = value.removeprefix("size").strip()
    marked = _MARKED_SHOE_SIZE.fullmatch(value)
    if marked:
        system, gender, number = marked.groups()
        women = system == "us" and gender is not None and gender[0] in "wl"
        return f"US W{number}" if women else f"{system.upper()} {number}"
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


def shoe_size_eu(size: str) -> str:
    """The whole EU size of a shoe size, by the table above ("US 9" → "42", "US W8" → "39",
    "UK 8" → "42", "10" → "43", "42" → "42"); the canonical form unchanged when it is no
    convertible number (a letter size, a children's US size)."""
    value = canonical_size(size)
    system, _, number = value.rpartition(" ") if value[:2] in ("US", "UK") else ("", "", value)
    if system == "US" and number.startswith("W"):
        system, number = "US W", number[1:]
    try:
        amount = float(number)
    except ValueError:
        return value
    if not system:
        if not BARE_US_SHOE_SIZES[0] <= amount <= BARE_US_SHOE_SIZES[1]:
            return value
        system = "US"
    smallest, largest, offset = SHOE_SIZE_SYSTEMS[system]
    if not smallest <= amount <= largest:
        return value
    return str(math.ceil(amount) + offset)


def offers_size(asked: str, sizes: Iterable[str], *, shoes: bool) -> bool:
    """Whether a listing's sizes include the asked size; for shoes, compared in EU sizes."""
    listed = {canonical_size(s) for s in sizes}
    wanted = canonical_size(asked)
    return wanted in listed or (shoes and shoe_size_eu(wanted) in listed)
