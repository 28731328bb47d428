"""Superlatives in a request as a sort: "highest read speed", "最大容量", "the lightest".

A superlative names a direction and, usually, an attribute noun next to it; some adjectives
carry their attribute themselves (lightest → weight). Nouns that name several attributes
("capacity", 容量, "speed") are resolved by what the request is about: a power bank's
capacity is mAh, a backpack's is litres, a drive's is GB.
"""

from __future__ import annotations

import re

from cartwise.catalog.specs.model import SpecSort

_I = re.IGNORECASE | re.ASCII
"""ASCII word boundaries: in "的HDMI线" a Chinese character is no word character, so
`\bhdmi\b` must match there."""

_NOUNS_EN: list[tuple[str, str]] = [
    (r"read(?:ing)?\s+speeds?|reads?", "read_speed"),
    (r"write\s+speeds?|writes?|writing\s+speeds?", "write_speed"),
    (r"refresh\s+rates?", "refresh_rate"),
    (r"(?:transfer\s+)?speeds?|transfer\s+rates?", "speed"),
    (r"battery(?:\s+capacity)?", "battery"),
    (r"capacity|capacities", "capacity"),
    (r"storage|disk\s+space|space", "storage"),
    (r"memory|ram|vram", "memory"),
    (r"screens?|displays?|screen\s+size", "screen_size"),
    (r"power|wattage|output", "power"),
    (r"resolution", "resolution"),
    (r"cameras?|megapixels?", "camera"),
    (r"weight", "weight"),
    (r"length|cables?", "length"),
    (r"clock(?:\s+speed)?|frequency|boost", "frequency"),
    (r"volume|litres|liters", "volume"),
    (r"(?:memory\s+)?slots", "memory_slots"),
]
_NOUNS_ZH: list[tuple[str, str]] = [
    (r"读取速度|读速|读取", "read_speed"),
    (r"写入速度|写速|写入", "write_speed"),
    (r"刷新率", "refresh_rate"),
    (r"传输速度|速度", "speed"),
    (r"电池容量|电池|电量", "battery"),
    (r"容量", "capacity"),
    (r"存储空间|存储|储存|硬盘", "storage"),
    (r"内存|运存|显存", "memory"),
    (r"屏幕尺寸|屏幕|屏|尺寸", "screen_size"),
    (r"功率|瓦数", "power"),
    (r"分辨率", "resolution"),
    (r"像素|摄像头", "camera"),
    (r"重量", "weight"),
    (r"长度", "length"),
    (r"主频|频率", "frequency"),
    (r"插槽", "memory_slots"),
]
_NOUN_EN = "|".join(f"(?:{p})" for p, _ in _NOUNS_EN)
_NOUN_ZH = "|".join(f"(?:{p})" for p, _ in _NOUNS_ZH)

_EN_DESC = r"highest|largest|biggest|most|greatest|maximum|max|longest|fastest|heaviest|top"
_EN_ASC = r"lowest|smallest|least|minimum|min|shortest|slowest|lightest"
_EN = re.compile(
    rf"(?<!at\s)\b(?P<adj>{_EN_DESC}|{_EN_ASC})\b(?:\s+[\w-]+){{0,2}}?\s+(?P<noun>{_NOUN_EN})\b"
    rf"|(?<!at\s)\b(?P<bare>{_EN_DESC}|{_EN_ASC})\b",  # "at most 11 inch" compares
    _I,
)
_ZH_DESC = "大高长快多重"
_ZH_ASC = "小低短慢少轻"
_ZH = re.compile(
    rf"最(?P<adj>[{_ZH_DESC}{_ZH_ASC}])(?:的)?(?P<noun>{_NOUN_ZH})?"
    rf"|(?P<noun2>{_NOUN_ZH})(?:要)?最(?P<adj2>[{_ZH_DESC}{_ZH_ASC}])"
)
_IMPLIED = {
    "lightest": "weight",
    "heaviest": "weight",
    "longest": "length",
    "shortest": "length",
    "fastest": "speed",
    "slowest": "speed",
    "轻": "weight",
    "重": "weight",
    "长": "length",
    "短": "length",
    "快": "speed",
    "慢": "speed",
    "largest": "size",
    "biggest": "size",
    "smallest": "size",
    "大": "size",
    "小": "size",
}

_SCREEN = re.compile(
    r"monitor|screen|\btv\b|laptop|tablet|phone|显示器|屏|电视|笔记本|平板|手机", _I
)
_BATTERY = re.compile(r"power\s?bank|battery|charger|充电宝|移动电源|电池|mah|毫安", _I)
_VOLUME = re.compile(
    r"backpack|\bbag\b|fridge|refrigerator|bottle|kettle|\bpot\b|cooker|luggage|suitcase|"
    r"背包|书包|冰箱|水杯|杯|壶|锅|行李箱|\d\s*l\b|升",
    _I,
)
_STORAGE = re.compile(
    r"\bssd\b|\bhdd\b|drive|storage|u盘|硬盘|固态|存储|usb\s?stick|memory\s?card", _I
)
_CLOCK = re.compile(r"\bcpu\b|processor|\bram\b|memory|处理器|内存|\bddr\d", _I)


def _resolve(attribute: str, text: str) -> str | None:
    if attribute == "capacity":
        if _BATTERY.search(text):
            return "battery"
        return "volume" if _VOLUME.search(text) else "storage"
    if attribute == "speed":
        return "frequency" if _CLOCK.search(text) and not _STORAGE.search(text) else "read_speed"
    if attribute == "size":
        if _SCREEN.search(text):
            return "screen_size"
        for pattern, name in ((_BATTERY, "battery"), (_VOLUME, "volume"), (_STORAGE, "storage")):
            if pattern.search(text):
                return name
        return None
    return attribute


def _noun_attribute(noun: str, table: list[tuple[str, str]]) -> str:
    return next(name for pattern, name in table if re.fullmatch(pattern, noun, _I))


def find_sort(text: str, context: str = "") -> SpecSort | None:
    """The first superlative with an attribute the vocabulary knows, else None. `context`
    (what the running search is for, when the message names no product) resolves a noun
    of several attributes: "哪个容量最大" after flasks is their volume."""
    about = f"{text} {context.lower()}" if context else text
    for m in _ZH.finditer(text):
        adjective = m.group("adj") or m.group("adj2")
        noun = m.group("noun") or m.group("noun2")
        attribute = _noun_attribute(noun, _NOUNS_ZH) if noun else _IMPLIED.get(adjective)
        resolved = _resolve(attribute, about) if attribute else None
        if resolved:
            return SpecSort(attribute=resolved, descending=adjective in _ZH_DESC, text=m.group(0))
    for m in _EN.finditer(text):
        adjective = (m.group("adj") or m.group("bare")).lower()
        noun = m.group("noun")
        attribute = _noun_attribute(noun, _NOUNS_EN) if noun else _IMPLIED.get(adjective)
        resolved = _resolve(attribute, about) if attribute else None
        if resolved:
            descending = re.fullmatch(_EN_DESC, adjective) is not None
            return SpecSort(attribute=resolved, descending=descending, text=m.group(0))
    return None
