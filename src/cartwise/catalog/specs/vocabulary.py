"""Categorical spec values: how listings and shoppers write them, and their canonical form.

Each table maps a regex (matched case-insensitively on width-folded text) to one canonical
lowercase value. Longer spellings are tried first and their spans masked, so "Micro ATX"
is `matx` and not also `atx`. Colours are no table here: they are the vocabulary's one
colour table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cartwise.vocabulary.colours import family_matcher, hue_matches

_I = re.IGNORECASE | re.ASCII
"""ASCII word boundaries: in "的HDMI线" or "LGA1700接口" a Chinese character is no word
character, so `\bhdmi\b` must match there."""

SOCKETS: list[tuple[str, str]] = [
    (r"\bam5\b", "am5"),
    (r"\bam4\b", "am4"),
    (r"\bam3\+?", "am3"),
    (r"\bs?trx4\b|\btr4\b", "strx4"),
    (r"\bs?wrx8\b", "swrx8"),
    (r"\bstr5\b", "str5"),
    (r"\blga\s?-?1851\b", "lga1851"),
    (r"\blga\s?-?1700\b", "lga1700"),
    (r"\blga\s?-?1200\b", "lga1200"),
    (r"\blga\s?-?1151\b", "lga1151"),
    (r"\blga\s?-?1150\b", "lga1150"),
    (r"\blga\s?-?1155\b", "lga1155"),
    (r"\blga\s?-?2066\b", "lga2066"),
    (r"\blga\s?-?4677\b", "lga4677"),
]
"""CPU sockets. Bare Intel socket numbers ("Intel Z790, 1700") are read by `INTEL_BARE`."""

INTEL_BARE = re.compile(r"(?<![\w.])(1851|1700|1200|1151|1150|1155|2066)(?![\w.])", re.ASCII)
"""A bare socket number, trusted only in text that names Intel and a board or cooler."""

CHIPSET_SOCKETS: list[tuple[str, str]] = [
    (r"\b(?:a620|b650e?|x670e?|b840|b850|x870e?)(?:m|e|i)?\b", "am5"),
    (r"\b(?:a320|b350|x370|b450|x470|a520|b550|x570)(?:m|e|i)?\b", "am4"),
    (r"\b(?:h610|b660|h670|z690|q670|w680|b760|h770|z790)(?:m|e|i)?\b", "lga1700"),
    (r"\b(?:h810|b860|z890)(?:m|e|i)?\b", "lga1851"),
    (r"\b(?:h410|b460|h470|z490|h510|b560|h570|z590)(?:m|e|i)?\b", "lga1200"),
    (r"\b(?:h310|b360|b365|h370|q370|z370|z390)(?:m|e|i)?\b", "lga1151"),
]
"""Motherboard chipsets that fix the socket: used when a board states no socket itself."""

MEMORY_TYPES: list[tuple[str, str]] = [
    (r"\blpddr5x\b", "lpddr5x"),
    (r"\blpddr5\b", "lpddr5"),
    (r"\blpddr4x\b", "lpddr4x"),
    (r"\blpddr4\b", "lpddr4"),
    (r"\bg?ddr7\b", "gddr7"),
    (r"\bg?ddr6x\b", "gddr6x"),
    (r"\bg?ddr6\b", "gddr6"),  # GPU listings write "8GB DDR6"; no DDR6 system memory exists
    (r"\bgddr5x?\b", "gddr5"),
    (r"\bddr5\b|\bpc5-\d", "ddr5"),
    (r"\bddr4\b|\bpc4-\d", "ddr4"),
    (r"\bddr3l?\b|\bpc3l?-\d", "ddr3"),
]

INTERFACES: list[tuple[str, str]] = [
    (r"\bthunderbolt\b|\btb[345]\b|雷电", "thunderbolt"),
    (r"\bhdmi\b", "hdmi"),
    (r"\bdisplay\s?port\b|\bmini\s?dp\b|(?<![\w-])dp(?:\s?1\.[24])?\b", "displayport"),
    (
        r"\busb[\s-]?(?:3\.\d\s*(?:gen\s?\d\s*)?)?type[\s-]?c\b|\busb[\s-]?c\b|\btype[\s-]?c\b",
        "usb-c",
    ),
    (
        r"\busb[\s-]?(?:3\.\d\s*(?:gen\s?\d\s*)?)?type[\s-]?a\b|\busb[\s-]?a\b|\btype[\s-]?a\b",
        "usb-a",
    ),
    (
        r"\blightning\s*(?:cable|connector|port|adapter|to\b|接口|数据线)|\bto\s+lightning\b|"
        r"\bapple\s+lightning\b|(?:接口|interface|connector)[^|]{0,12}?\blightning\b",
        "lightning",
    ),
    (r"\bsata(?:\s?(?:iii|3|ii|2))?\b", "sata"),
    (r"\bnvme\b", "nvme"),
    (r"\bpcie\s?(?:gen\s?)?5(?:\.0)?\b|\bpci-e\s?5(?:\.0)?\b", "pcie5"),
    (r"\bpcie\s?(?:gen\s?)?4(?:\.0)?\b|\bpci-e\s?4(?:\.0)?\b|\bnvme\s+gen\s?4\b", "pcie4"),
    (r"\bpcie\s?(?:gen\s?)?3(?:\.0)?\b|\bpci-e\s?3(?:\.0)?\b|\bnvme\s+gen\s?3\b", "pcie3"),
    (r"\bm\.2\b", "m.2"),
    (r"\bvga\b", "vga"),
    (r"\bdvi(?:-[di])?\b", "dvi"),
]

FORM_FACTORS: list[tuple[str, str]] = [
    (r"\be-?atx\b|\bextended\s?atx\b|\bxl-atx\b", "e-atx"),
    (r"\bmicro[\s-]?atx\b|\bm-?atx\b|\buatx\b", "matx"),
    (r"\bmini[\s-]?itx\b|(?<![\w-])itx\b", "mini-itx"),
    (r"\batx\b", "atx"),
]
"""Board and case form factors; drive bays (2.5"/3.5") are added by the quantity scanner."""

COMPONENT_AFTER = re.compile(
    r"[\s-]*(?:(?:mechanical|optical|linear|tactile|clicky|hot-?swap(?:pable)?|key)\s+){0,2}"
    r"(?:switch(?:es)?\b|axis\b|leds?\b(?!\s*(?:monitor|tv|display|screen))|light(?:s|ing)?\b|"
    r"back-?light(?:ing)?\b|back-?lit\b|dot\b|glow\b|illumination\b|laser\b|accents?\b|"
    r"色?(?:轴|背光|灯|光))",
    _I,
)
"""What may follow a colour word that names a part's colour, not the product's: keyboard
switches ("ROG RX Red Switches", 红轴), lights ("white LED fan", "red backlight", 蓝色背光),
"Red Dot" (an award, a sight). An LED *monitor* stays a colour ("black LED monitor")."""

SWITCH_BEFORE = re.compile(
    r"(?:\bcherry\s+mx|\bmx|\brx|\bnx|\bgateron|\bkailh|\boutemu|\bakko|\btactile|\blinear|"
    r"\bclicky)[\s-]*(?:speed\s+)?$",
    _I,
)
"""A switch family right before a colour makes it a switch type: "Cherry MX Brown", "NX Red"."""

COMPONENT_KEY = re.compile(r"light|\bled|switch|背光|灯|轴", re.IGNORECASE)
"""Attribute keys naming a part's colour ("Backlight colour", "Switch colour")."""


def names_a_component(text: str, start: int, end: int) -> bool:
    """Whether the colour word at text[start:end] colours a part (switches, lights)."""
    return bool(
        COMPONENT_AFTER.match(text, end) or SWITCH_BEFORE.search(text, max(0, start - 20), start)
    )


@dataclass(frozen=True)
class LabelHit:
    attribute: str
    value: str
    start: int
    end: int


@functools.cache
def _spelling(source: str) -> re.Pattern[str]:
    """One spelling's regex, compiled the first time a hit needs it: most processes read no
    socket or interface at all, and compiling every spelling at import cost ~80 ms at a load average of 6."""
    return re.compile(source, _I)


@dataclass(frozen=True)
class _Table:
    """One regex for the whole table (a single pass finds the leftmost spelling; at one
    position the earlier, longer spelling wins) and the spellings to name a hit's value.
    Plain alternation: named groups would make every scan ~10x slower in `re`. Each regex is
    compiled on first use."""

    table: tuple[tuple[str, str], ...]
    """(spelling regex, value), earlier and longer spellings first."""
    markers: tuple[str, ...]
    """Lowercase substrings one of which every spelling contains: text with none of them is
    skipped without a regex pass (empty: always scan)."""

    @functools.cached_property
    def any_spelling(self) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{spelling})" for spelling, _ in self.table), _I)

    @property
    def spellings(self) -> list[tuple[re.Pattern[str], str]]:
        return [(_spelling(spelling), value) for spelling, value in self.table]

    def worth_scanning(self, lowered: str) -> bool:
        return not self.markers or any(marker in lowered for marker in self.markers)

    def value_of(self, match: re.Match[str]) -> str | None:
        """The value of the first spelling that matches exactly `match`'s span *in place*:
        a spelling's lookarounds and word boundaries need the text around the hit ("SATA "
        ends at a boundary only because a word follows it)."""
        start, end = match.span()
        for spelling, value in self.table:
            hit = _spelling(spelling).match(match.string, start)
            if hit is not None and hit.end() == end:
                return value
        return None


def _table(table: list[tuple[str, str]], markers: tuple[str, ...] = ()) -> _Table:
    return _Table(tuple(table), markers)


_TABLES: dict[str, _Table] = {
    "socket": _table(SOCKETS, ("am", "tr", "wrx", "lga")),
    "memory_type": _table(MEMORY_TYPES, ("ddr", "pc")),
    "interface": _table(
        INTERFACES,
        (
            *("hdmi", "display", "dp", "usb", "type", "thunderbolt", "tb", "雷电"),
            *("lightning", "sata", "nvme", "pci", "m.2", "vga", "dvi"),
        ),
    ),
    "form_factor": _table(FORM_FACTORS, ("atx", "itx")),
}

_ANY_CHIPSET = re.compile(r"\b[abhqwxz][1-9]\d0", _I)
_INTEL = re.compile(r"\bintel\b|英特尔", _I)
_BOARD_OR_COOLER = re.compile(
    r"motherboard|mainboard|主板|cooler|heatsink|散热|socket|\b[zbhq][4-8]\d0\b|\bcpu\b",
    _I,
)


def _scan(text: str, attribute: str) -> Iterator[LabelHit]:
    table = _TABLES[attribute]
    if not table.worth_scanning(text.lower()):
        return
    for match in table.any_spelling.finditer(text):
        value = table.value_of(match)
        if value is not None:
            yield LabelHit(attribute, value, match.start(), match.end())


ATTRIBUTES = (*_TABLES, "color_family")
"""Every categorical attribute free text is read for."""


def label_hits(text: str, attributes: Sequence[str] = ATTRIBUTES) -> list[LabelHit]:
    """Every categorical value stated in free text, in text order. Colour families come from
    the vocabulary's one colour table (`cartwise.vocabulary.colours`): a colour word or a
    Chinese hue before 色, unless it colours a part (a switch, a light)."""
    hits = [
        hit for attribute in attributes if attribute in _TABLES for hit in _scan(text, attribute)
    ]
    if "color_family" in attributes:
        hits += [
            LabelHit("color_family", m.entries[0].detail, m.start, m.end)
            for m in family_matcher().find(text)
            if not names_a_component(text, m.start, m.end)
        ]
    return sorted(hits, key=lambda hit: hit.start)


_ZH_COMPONENT_COLOUR = re.compile(r"[黑白红青茶蓝绿黄银粉紫灰橙][色]?(?:轴|背光|灯光|灯)")
"""红轴, 蓝色背光: a switch type or a light colour inside a colour value ("黑色红轴")."""


def zh_colour_families(text: str) -> list[str]:
    """Colour families in a Chinese colour value ("深灰色" → grey), from the colour table's
    hues; the longest hue at a place wins (玫瑰金 is metallic, not pink), and a switch or
    light colour inside the value ("黑色红轴") names no family."""
    found: list[str] = []
    parts = [m.span() for m in _ZH_COMPONENT_COLOUR.finditer(text)]
    for start, end, family in hue_matches(text):
        if any(start < b and a < end for a, b in parts) or family in found:
            continue
        found.append(family)
    return found


def inferred_sockets(text: str) -> list[str]:
    """Sockets a listing implies without naming them: a bare Intel socket number on a board
    or cooler ("Intel Z790, 1700"), or a chipset that fixes the socket ("AMD B650")."""
    found: list[str] = []
    if _INTEL.search(text) and _BOARD_OR_COOLER.search(text):
        found += [f"lga{m.group(1)}" for m in INTEL_BARE.finditer(text)]
    if not found and _ANY_CHIPSET.search(text):
        for pattern, value in CHIPSET_SOCKETS:
            if _spelling(pattern).search(text):
                found.append(value)
                break
    return list(dict.fromkeys(found))
