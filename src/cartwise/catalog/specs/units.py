"""Unit words as listings and shoppers write them, and their factors to canonical units.

Factors are a literal table (`FACTORS`), checked against `pint` by
`tests/catalog/test_spec_units.py` (which defines the Chinese market units pint does not
know: 斤 = 0.5 kg, 万像素 = 10,000 pixels): building pint's registry costs 0.5-17 s on a loaded machine, and the first request of a
process must not pay it. No value string ever goes through pint.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

Family = Literal[
    "length",
    "inch",
    "data",
    "volume",
    "battery",
    "power",
    "frequency",
    "speed",
    "refresh",
    "camera",
    "weight",
]
"""What a unit measures. "inch" is its own family: the same word is a screen diagonal on a
monitor and a length on a suitcase, so the context picks the attribute. "data" likewise
becomes storage or memory by context."""

CANONICAL: dict[Family, str] = {
    "length": "m",
    "inch": "inch",
    "data": "GB",
    "volume": "L",
    "battery": "mA*h",
    "power": "W",
    "frequency": "MHz",
    "speed": "MB/s",
    "refresh": "Hz",
    "camera": "MP",
    "weight": "kg",
}
"""Each family's canonical unit in pint spelling (the attribute vocabulary's unit)."""

# (regex for the unit word, family, pint unit), matched case-insensitively and followed by
# a word boundary, so order only matters where two alternatives both end at a boundary
# ("GB/s" before "GB"). Case-sensitive entries use a `(?-i:...)` group: "g" is grams but
# "G" is gigabytes in Chinese listings ("256G").
UNIT_WORDS: list[tuple[str, Family, str]] = [
    # length
    (r"met(?:er|re)s?", "length", "m"),
    (r"centimet(?:er|re)s?", "length", "cm"),
    (r"millimet(?:er|re)s?", "length", "mm"),
    (r"km", "length", "km"),
    (r"cm", "length", "cm"),
    (r"mm", "length", "mm"),
    (r"m", "length", "m"),
    (r"cu\.?\s*ft\.?|cubic\s+f(?:oo|ee)t", "volume", "cubic_foot"),
    (r"ft\.?|feet|foot|-foot", "length", "ft"),
    (r"米", "length", "m"),
    (r"厘米|公分", "length", "cm"),
    (r"毫米", "length", "mm"),
    # inch (screen or length by context)
    (r"inch(?:es)?|-inch|in\.|[\"″”]|''", "inch", "inch"),
    (r"英寸|寸", "inch", "inch"),
    # speed before data: "GB/s" must not read as "GB"
    (r"gb/s|gbytes/s", "speed", "GB/s"),
    (r"mb/s|mbytes/s", "speed", "MB/s"),
    # data
    (r"TB|(?-i:T)(?=\s*(?:固态|硬盘|存储|ssd|SSD|移动硬盘))", "data", "TB"),
    (r"GB|(?-i:G)", "data", "GB"),
    # volume
    (r"lit(?:er|re)s?", "volume", "L"),
    (r"millilit(?:er|re)s?", "volume", "mL"),
    (r"ml", "volume", "mL"),
    (r"l", "volume", "L"),
    (r"升", "volume", "L"),
    (r"gal\.?|gallons?", "volume", "gallon"),
    (r"毫升", "volume", "mL"),
    # battery
    (r"mah", "battery", "mA*h"),
    (r"毫安时?", "battery", "mA*h"),
    (r"ah|amp\s+hours?", "battery", "A*h"),
    # power
    (r"kw|kilowatts?", "power", "kW"),
    (r"w|watts?", "power", "W"),
    (r"千瓦", "power", "kW"),
    (r"瓦", "power", "W"),
    # frequency, speed, refresh
    (r"ghz", "frequency", "GHz"),
    (r"mhz|mt/s", "frequency", "MHz"),
    (r"兆赫", "frequency", "MHz"),
    (r"hz|赫兹", "refresh", "Hz"),
    # camera
    (r"mp|megapixels?|mega\s?pixels?", "camera", "MP"),
    (r"万像素", "camera", "wan_pixel"),
    (r"百万像素", "camera", "MP"),
    (r"像素", "camera", "count"),  # "1亿像素" arrives as 100000000像素
    # weight
    (r"kg|kilograms?|kgs", "weight", "kg"),
    (r"(?-i:g)|grams?|gr", "weight", "g"),
    (r"lbs?|pounds?", "weight", "lb"),
    (r"oz|ounces?", "weight", "oz"),
    (r"公斤|千克", "weight", "kg"),
    (r"斤", "weight", "jin"),
    (r"克", "weight", "g"),
]


FACTORS: dict[tuple[str, Family], float] = {
    ("m", "length"): 1.0,
    ("cm", "length"): 0.01,
    ("mm", "length"): 0.001,
    ("km", "length"): 1000.0,
    ("ft", "length"): 0.3048,
    ("inch", "length"): 0.0254,
    ("inch", "inch"): 1.0,
    ("GB/s", "speed"): 1000.0,
    ("MB/s", "speed"): 1.0,
    ("TB", "data"): 1000.0,
    ("GB", "data"): 1.0,
    ("L", "volume"): 1.0,
    ("mL", "volume"): 0.001,
    ("cubic_foot", "volume"): 28.316846592,
    ("gallon", "volume"): 3.785411784,
    ("mA*h", "battery"): 1.0,
    ("A*h", "battery"): 1000.0,
    ("kW", "power"): 1000.0,
    ("W", "power"): 1.0,
    ("GHz", "frequency"): 1000.0,
    ("MHz", "frequency"): 1.0,
    ("Hz", "refresh"): 1.0,
    ("MP", "camera"): 1.0,
    ("wan_pixel", "camera"): 0.01,
    ("count", "camera"): 1e-6,
    ("kg", "weight"): 1.0,
    ("g", "weight"): 0.001,
    ("lb", "weight"): 0.45359237,
    ("oz", "weight"): 0.028349523125,
    ("jin", "weight"): 0.5,
}
"""(pint unit, family) → how many canonical units one unit is ("ft" → 0.3048 m): every pair
`UNIT_WORDS` names, plus inch as a length. Exact definitions (SI prefixes, the international
foot and pound, the US gallon); `tests/catalog/test_spec_units.py` checks each against pint."""


def factor(unit: str, family: Family) -> float:
    """How many canonical units one `unit` is ("ft" → 0.3048 for length)."""
    return FACTORS[unit, family]


UNIT_PATTERN = "(?P<unit>" + "|".join(f"(?:{pattern})" for pattern, _, _ in UNIT_WORDS) + ")"
"""Any unit word, captured as `unit`. One plain alternation: a group per unit would make the
scan an order of magnitude slower in `re`."""

UNIT_END = r"(?![a-wyz0-9])(?!x[a-z])"
"""A unit word ends where a word would: "3 min" is no metre, "5 wires" no watt; an "x"
may follow as a dimension separator ("2寸x3寸", "16GBx2")."""


@functools.cache
def _each_unit(pattern: str) -> re.Pattern[str]:
    """One unit word's regex, compiled the first time a hit needs it (compiling every one of
    them at import cost 60–80 ms at a load average of 6 in every process that read a spec)."""
    return re.compile(f"(?:{pattern}){UNIT_END}", re.IGNORECASE)


def unit_of(match: re.Match[str]) -> tuple[Family, str] | None:
    """The (family, pint unit) of the unit word `match` captured: the first `UNIT_WORDS`
    entry that matches exactly that span (in place, so lookaheads see what follows)."""
    start, end = match.span("unit")
    text = match.string
    for pattern, family, unit in UNIT_WORDS:
        hit = _each_unit(pattern).match(text, start)
        if hit is not None and hit.end() == end:
            return family, unit
    return None
