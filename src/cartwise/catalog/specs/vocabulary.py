"""Categorical spec values: how listings and shoppers write them, and their canonical form.

Each table maps a regex (matched case-insensitively on width-folded text) to one canonical
lowercase value. Longer spellings are tried first and their spans masked, so "Micro ATX"
is `matx` and not also `atx`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

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

COLOURS_EN: list[tuple[str, str]] = [
    (r"\brose\s?gold\b|\bchampagne\b|\bgold(?:en)?\b|\bsilver\b|\bchrome\b", "metallic"),
    (r"\bmetallic\b|\bgun\s?metal\b|\btitanium\b|\bplatinum\s?(?:grey|gray|silver)\b", "metallic"),
    (r"\boff[\s-]?white\b|\bwhite\b|\bivory\b|\bsnow\b", "white"),
    (r"\b(?:charcoal|jet|space|midnight|matte?)\s+black\b", "black"),
    (r"\bblack\b|\bjet\b|\bonyx\b|\bmidnight\s?black\b", "black"),
    (r"\bgr[ae]y\b|\bgraphite\b|\bcharcoal\b|\bslate\b|\bspace\s?gr[ae]y\b", "grey"),
    (r"\bnavy\b|\bblue\b|\bcyan\b|\bturquoise\b|\bteal\b|\bcobalt\b|\bdenim\b", "blue"),
    (r"\bred\b|\bburgundy\b|\bmaroon\b|\bcrimson\b|\bwine\b|\bscarlet\b", "red"),
    (r"\bgreen\b|\bolive\b|\bmint\b|\bsage\b|\blime\b|\bkhaki\s?green\b", "green"),
    (r"\byellow\b|\bmustard\b|\blemon\b", "yellow"),
    (r"\borange\b|\bcoral\b|\bpeach\b|\btangerine\b", "orange"),
    (r"\bpurple\b|\bviolet\b|\blavender\b|\blilac\b|\bplum\b", "purple"),
    (r"\bpink\b|\bfuchsia\b|\bmagenta\b|\brose\b|\bblush\b", "pink"),
    (
        r"\bbrown\b|\bchocolate\b|\bcoffee\b|\bcamel\b|\btan\b|\bwalnut\b|\boak\b|\bbronze\b",
        "brown",
    ),
    (r"\bbeige\b|\bcream\b|\bkhaki\b|\bsand\b|\bnude\b|\btaupe\b", "beige"),
]
"""Colour words → the 13 families a shopper filters on ("metallic" covers silver and gold)."""

COLOURS_ZH: list[tuple[str, str]] = [
    (r"玫瑰金|香槟|金色|银色|银白|银灰|钛|铬|金属色|土豪金|[金银](?=[色]?)", "metallic"),
    (r"象牙白|米白|白", "white"),
    (r"黑", "black"),
    (r"深空灰|灰", "grey"),
    (r"藏青|湖蓝|天蓝|宝蓝|蓝|青", "blue"),
    (r"酒红|枣红|大红|红", "red"),
    (r"军绿|墨绿|绿", "green"),
    (r"黄", "yellow"),
    (r"橙|桔|橘", "orange"),
    (r"紫", "purple"),
    (r"粉", "pink"),
    (r"咖啡|咖|棕|褐|驼", "brown"),
    (r"米色|米黄|杏|卡其", "beige"),
]
"""Chinese colour characters, for colour attribute values ("深灰色", "【升级款】黑色")."""

COLOUR_ZH_IN_TEXT = re.compile(
    r"(玫瑰金|香槟金|深空灰|象牙白|藏青|酒红|军绿|墨绿|卡其|咖啡|[黑白灰银金红橙黄绿蓝紫粉棕褐米杏青])色"
)
"""In free text (titles, requests) a colour needs 色 after it: 黑珍珠 is a pearl."""

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


@dataclass(frozen=True)
class _Table:
    """One regex for the whole table (a single pass finds the leftmost spelling; at one
    position the earlier, longer spelling wins) and the spellings to name a hit's value.
    Plain alternation: named groups would make every scan ~10x slower in `re`."""

    any_spelling: re.Pattern[str]
    spellings: list[tuple[re.Pattern[str], str]]
    markers: tuple[str, ...]
    """Lowercase substrings one of which every spelling contains: text with none of them is
    skipped without a regex pass (empty: always scan)."""

    def worth_scanning(self, lowered: str) -> bool:
        return not self.markers or any(marker in lowered for marker in self.markers)

    def value_of(self, match: re.Match[str]) -> str | None:
        """The value of the first spelling that matches exactly `match`'s span *in place*:
        a spelling's lookarounds and word boundaries need the text around the hit ("SATA "
        ends at a boundary only because a word follows it)."""
        start, end = match.span()
        for pattern, value in self.spellings:
            hit = pattern.match(match.string, start)
            if hit is not None and hit.end() == end:
                return value
        return None


def _table(table: list[tuple[str, str]], markers: tuple[str, ...] = ()) -> _Table:
    combined = "|".join(f"(?:{spelling})" for spelling, _ in table)
    return _Table(
        re.compile(combined, _I),
        [(re.compile(spelling, _I), value) for spelling, value in table],
        markers,
    )


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
    "color_family": _table(
        COLOURS_EN,
        (
            *("gold", "champagne", "silver", "chrome", "metal", "titan", "platinum", "white"),
            *("ivory", "snow", "black", "jet", "onyx", "gr", "slate", "charcoal", "navy"),
            *("blue", "cyan", "turquoise", "teal", "cobalt", "denim", "red", "burgundy"),
            *("maroon", "crimson", "wine", "scarlet", "olive", "mint", "sage", "lime"),
            *("khaki", "yellow", "mustard", "lemon", "orange", "coral", "peach", "tangerine"),
            *("purple", "violet", "lavender", "lilac", "plum", "pink", "fuchsia", "magenta"),
            *("rose", "blush", "brown", "chocolate", "coffee", "camel", "tan", "walnut", "oak"),
            *("bronze", "beige", "cream", "sand", "nude", "taupe", "matt", "space", "midnight"),
        ),
    ),
}
_COLOURS_ZH = [(re.compile(pattern), value) for pattern, value in COLOURS_ZH]
_CHIPSETS = [(re.compile(pattern, _I), value) for pattern, value in CHIPSET_SOCKETS]
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


def label_hits(text: str, attributes: Sequence[str] = tuple(_TABLES)) -> list[LabelHit]:
    """Every categorical value stated in free text, in text order."""
    hits = [hit for attribute in attributes for hit in _scan(text, attribute)]
    if "color_family" in attributes:
        hits += [
            LabelHit("color_family", value, m.start(), m.end())
            for m in COLOUR_ZH_IN_TEXT.finditer(text)
            for value in zh_colour_families(m.group(1))[:1]
        ]
        hits = [
            hit
            for hit in hits
            if hit.attribute != "color_family" or not names_a_component(text, hit.start, hit.end)
        ]
    return sorted(hits, key=lambda hit: hit.start)


_ZH_COMPONENT_COLOUR = re.compile(r"[黑白红青茶蓝绿黄银粉紫灰橙][色]?(?:轴|背光|灯光|灯)")
"""红轴, 蓝色背光: a switch type or a light colour inside a colour value ("黑色红轴")."""


def zh_colour_families(text: str) -> list[str]:
    """Colour families in a Chinese colour value ("深灰色" → grey); the first spelling wins
    over the characters it contains (玫瑰金 is metallic, not pink)."""
    found: list[str] = []
    taken = [m.span() for m in _ZH_COMPONENT_COLOUR.finditer(text)]
    for pattern, value in _COLOURS_ZH:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            taken.append((start, end))
            if value not in found:
                found.append(value)
    return found


def inferred_sockets(text: str) -> list[str]:
    """Sockets a listing implies without naming them: a bare Intel socket number on a board
    or cooler ("Intel Z790, 1700"), or a chipset that fixes the socket ("AMD B650")."""
    found: list[str] = []
    if _INTEL.search(text) and _BOARD_OR_COOLER.search(text):
        found += [f"lga{m.group(1)}" for m in INTEL_BARE.finditer(text)]
    if not found and _ANY_CHIPSET.search(text):
        for pattern, value in _CHIPSETS:
            if pattern.search(text):
                found.append(value)
                break
    return list(dict.fromkeys(found))
