"""Find the quantities a text states and decide which attribute each one measures.

Listings and requests share this scanner, so "17寸" in a request and "17.3英寸" in a
listing land on the same attribute in the same unit. The attribute of an ambiguous unit is
decided by context: "16GB GDDR6" and "DDR5 32GB" are memory, "1TB SSD" is storage; 寸 and
inch are a screen diagonal where a screen is being talked about, a length elsewhere (a
"20寸行李箱" is a 20-inch suitcase); 2.5"/3.5" on a drive is its bay form factor.

Resolution is stored as total pixels (1920×1080 → 2,073,600): "4K", "1440p" and "2560x1440"
all reduce to one comparable number.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import pairwise

from cartwise.catalog.specs.units import UNIT_END, UNIT_PATTERN, Family, factor, unit_of
from cartwise.text import narrow

NUMBER = r"(?<![A-Za-z0-9_./])(\d+(?:\.\d+)?)"
"""A plain decimal not glued to a model name ("B650M", "RTX3050") or a fraction ("1/2")."""

_QUANTITY = re.compile(NUMBER + r"\s*-?\s*" + UNIT_PATTERN + UNIT_END, re.IGNORECASE | re.ASCII)

_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_ZH_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_ZH_NUMERAL = re.compile(
    r"([零一二两三四五六七八九十百]+)(?=\s*(?:个|只|件|支|片|瓶|包|双|条|盒|袋|罐|卷|张|套|"
    r"米|厘米|公斤|千克|斤|升|寸|英寸|克|瓦|毫安|根|台|节|倍|条内存|[Tt][Bb]|G))"
)
_ZH_NUMERAL_CHARS = re.compile(r"[一二两三四五六七八九十百]")
_WAN = re.compile(r"(\d+(?:\.\d+)?)\s*万(?!像素)")
_YI = re.compile(r"(\d+(?:\.\d+)?)\s*亿")
_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3}),(\d{3})(?![\d,])")
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])(\d+),(\d{1,2})(?=\s*[a-zA-Z\u4e00-\u9fff\"])")

_DIGIT = re.compile(r"\d")

MAX_VALUE = 1e12
"""Larger numbers are noise (serials, phone numbers), never a spec."""


def zh_numeral(text: str) -> int:
    """一..九百九十九 with 两 and 十 ("十二" → 12, "两百" → 200)."""
    total, digit = 0, 0
    for char in text:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char == "十":
            total += (digit or 1) * 10
            digit = 0
        elif char == "百":
            total += (digit or 1) * 100
            digit = 0
    return total + digit


def normalize(text: str) -> str:
    """Width-fold, write Chinese counts and 万 as digits, and drop thousands separators, so
    every later pattern sees "2个装", "20000毫安", "1200W"."""
    text = narrow(text).replace("&amp;", "&").replace("×", "x")
    # Each rewrite runs only when its marker occurs: ingest normalizes every offer.
    if _ZH_NUMERAL_CHARS.search(text):
        text = _ZH_NUMERAL.sub(lambda m: str(zh_numeral(m.group(1))), text)
    if "万" in text:
        text = _WAN.sub(lambda m: _plain(float(m.group(1)) * 10000), text)
    if "亿" in text:
        text = _YI.sub(lambda m: _plain(float(m.group(1)) * 100_000_000), text)
    if "," in text:
        text = _THOUSANDS.sub(r"\1\2", text)
        text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    return text


def _plain(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


@dataclass(frozen=True)
class Quantity:
    """One stated quantity, already in its attribute's canonical unit."""

    attribute: str
    value: float
    start: int
    end: int
    text: str


@dataclass
class Scan:
    quantities: list[Quantity] = field(default_factory=list)
    labels: list[tuple[str, str]] = field(default_factory=list)
    """(attribute, value) pairs the quantity forms imply (a 3.5" drive bay form factor)."""
    taken: list[tuple[int, int]] = field(default_factory=list)
    guessed: set[int] = field(default_factory=set)
    """Starts of capacities whose storage/memory reading came from the listing as a whole."""

    def free(self, start: int, end: int) -> bool:
        return not any(start < b and a < end for a, b in self.taken)

    def add(self, attribute: str, value: float, match: re.Match[str], group: int = 0) -> None:
        if not math.isfinite(value) or value < 0 or value > MAX_VALUE:
            return
        start, end = match.span(group)
        rounded = float(f"{value:.6g}")  # unit factors leave float dust (1000.0000000000001)
        self.quantities.append(Quantity(attribute, rounded, start, end, match.group(group)))


_I = re.IGNORECASE | re.ASCII
"""ASCII word boundaries: in "的HDMI线" a Chinese character is no word character, so
`\bhdmi\b` must match there."""
_SCREEN = re.compile(
    r"monitor|\bdisplay\b|screen|\btv\b|television|laptop|notebook|tablet|ipad|iphone|"
    r"phone|\btab\b|macbook|chromebook|projector|e-?reader|kindle|显示器|屏|电视|笔记本|平板|手机|一体机|"
    r"电脑|播放器|阅读器|学习机|导航仪",
    _I,
)
_DRIVE = re.compile(r"hard\s?drive|\bhdd\b|\bssd\b|\bsata\b|硬盘|固态", _I)
_GPU = re.compile(
    r"\brtx\b|\brtx\s?\d|\bgtx\b|radeon|geforce|graphics\s?card|video\s?card|\bgpu\b|显卡|"
    r"\brx\s?\d{4}\b|\barc\s?a\d",
    _I,
)
_RAM_PRODUCT = re.compile(r"\bdimm\b|\bsodimm\b|\bram\b|内存条|memory\s?kit|\bddr\d\b", _I)
_STORAGE_PRODUCT = re.compile(
    r"\bssd\b|\bhdd\b|hard\s?drive|flash|\busb\b|memory\s?(?:pen|card|stick)|\bsd\b|"
    r"硬盘|固态|u盘|存储卡|储存|存储|nas\b",
    _I,
)
_MEMORY_AFTER = re.compile(
    r"^\s*(?:of\s+)?(?:\(?\d\s*x\s*\d+\s*gb\)?\s*,?\s*)?(?:kit\s*)?(?:\(|,)?\s*"
    r"(?:lp)?g?ddr\d|^\s*(?:of\s+)?(?:unified\s+|graphics\s+|video\s+|system\s+)?"
    r"(?:ram\b|vram\b|memory\b(?!\s*(?:pen|card|stick))|内存|运存|显存)"
    r"|^\s*,?\s*\d{4}\s*(?:mhz|mt/s)",  # "16GB 3200MHz": a capacity with a memory clock
    _I,
)
_MEMORY_BEFORE = re.compile(
    r"(?:(?:lp)?g?ddr\d\w*|\bram|\bvram|memory|内存(?!\s*rom)|运存|显存)[^\d,;]{0,6}$", _I
)
_STORAGE_AFTER = re.compile(
    r"^\s*(?:of\s+)?(?:ssd|hdd|hard|storage|rom\b|emmc|nvme|m\.2|flash|usb|micro\s?sd|"
    r"sd\b|存储|储存|硬盘|固态|机身|闪存|u盘|移动)",
    _I,
)
_STORAGE_BEFORE = re.compile(r"(?:storage|ssd|hdd|rom|存储|储存|硬盘|固态)[^\d,;]{0,6}$", _I)
_NOT_DATA_AFTER = re.compile(r"^\s*(?:lan|ethernet|网|wifi|network|信号|手机|cache)", _I)
_DATA_G_VALUES = {1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 96.0}
_DATA_G_VALUES |= {128.0, 256.0, 512.0}
_JACK_AFTER = re.compile(r"^\s*(?:jack|audio|aux|stereo|插孔|耳机孔|音频)", _I)
_JACK_BEFORE = re.compile(r"(?:jack|audio|headphone|耳机|插头|插孔)[^|]{0,12}$", _I)
_WRITE_NEAR = re.compile(r"write|写", _I)
_READ_NEAR = re.compile(r"read|读", _I)

_RW_PAIR = re.compile(NUMBER + r"\s*/\s*(\d+(?:\.\d+)?)\s*(mb/s|gb/s)(?![a-z0-9])", _I)
_KIT = re.compile(NUMBER + r"\s*x\s*(\d+(?:\.\d+)?)\s*(gb|tb)(?![a-z0-9])", _I)
_PLUS_PAIR = re.compile(
    NUMBER + r"\s*(?:gb|g)?\s*\+\s*(\d+(?:\.\d+)?)\s*(gb|g|tb|t)(?![a-z0-9])", _I
)
_PIXELS = re.compile(NUMBER + r"\s*x\s*(\d{3,4})(?![\d.])(?!\s*(?:mm|cm|m|in)\b)", _I)
_LINES = re.compile(r"(?<![A-Za-z0-9_./])(480|720|1080|1440|2160|4320)\s*[pi](?![a-z0-9])", _I)
_RESOLUTION_WORDS = re.compile(
    r"(?<![A-Za-z0-9_./$€£¥])([2458])\s?k(?![a-z0-9])|\b(uhd|wqhd|qhd|fhd|full\s?hd)\b", _I
)
_SLOTS = re.compile(
    r"(?<![A-Za-z0-9_./])(\d{1,2})\s*(?:x\s*)?(?:(?:lp)?ddr\d\w*\s*)?"
    r"(?:(?:dimm|memory|ram)\s*(?:slots?|sockets?)|slots?|插槽|条?内存插槽|个内存插槽)",
    _I,
)
_SLOTS_BOARD = re.compile(
    r"(?<![A-Za-z0-9_./])(\d{1,2})\s*(?:x\s*)?(ddr\d)(?:\s*(?:dimm|sodimm))?(?=\s*(?:,|$|\)))",
    _I,
)
_PACK = re.compile(
    r"(?<![A-Za-z0-9_./])(\d+)\s*-?\s*(?:pack|pk|count|ct|pcs|pieces?|pc)(?![a-z0-9])|"
    r"\b(?:pack|set|box|bundle)\s+of\s+(\d+)|"
    r"(\d+)\s*(?:个|只|件|支|片|瓶|包|双|条|盒|袋|罐|卷|张|根|节)\s*装|(\d+)\s*件套|"
    r"\b(twin|dual)[\s-]pack\b",
    _I,
)
_TURBO = re.compile(
    NUMBER + r"\s*(ghz|mhz)\s*\(\s*(\d+(?:\.\d+)?)\s*(?:ghz|mhz)?\s*(?:turbo|boost|睿频)", _I
)
_FRACTION_INCH = re.compile(
    r"(?<![\d/.])(?:(\d+)[-\s])?(\d+)/(\d+)\s*(?:in\.|inch(?:es)?\b|\"|英寸|寸)", _I
)
_ALTERNATIVES = re.compile(NUMBER + r"\s*/\s*(\d+(?:\.\d+)?)", _I)
_UNIT_AT = re.compile(r"\s*" + UNIT_PATTERN + UNIT_END, re.IGNORECASE | re.ASCII)
_ALTERNATIVE_FAMILIES = ("length", "weight", "volume", "power")
_PACK_MARKERS = ("pack", "pk", "count", "ct", "pc", "piece", " of ", "装", "套")
_DDR_RATE = re.compile(r"\b(?:lp)?ddr\d[x]?-(\d{4})\b", _I)

_PIXELS_OF = {
    "480": 640 * 480,
    "720": 1280 * 720,
    "1080": 1920 * 1080,
    "1440": 2560 * 1440,
    "2160": 3840 * 2160,
    "4320": 7680 * 4320,
}
_PIXELS_OF_WORD = {
    "2": 2560 * 1440,
    "4": 3840 * 2160,
    "5": 5120 * 2880,
    "8": 7680 * 4320,
    "uhd": 3840 * 2160,
    "wqhd": 2560 * 1440,
    "qhd": 2560 * 1440,
    "fhd": 1920 * 1080,
    "fullhd": 1920 * 1080,
}


def _data_attribute(text: str, match: re.Match[str], context: str) -> tuple[str, bool] | None:
    """(storage or memory, whether words next to the number said so), or None when the
    number is no capacity ("2.5GB LAN", "64MB cache")."""
    after = text[match.end() : match.end() + 24]
    before = text[max(0, match.start() - 14) : match.start()]
    if _NOT_DATA_AFTER.match(after):
        return None
    if _MEMORY_AFTER.match(after) or _MEMORY_BEFORE.search(before):
        return "memory", True
    if _STORAGE_AFTER.match(after) or _STORAGE_BEFORE.search(before):
        return "storage", True
    if _GPU.search(context):
        return "memory", False
    if _RAM_PRODUCT.search(context) and not _STORAGE_PRODUCT.search(context):
        return "memory", False
    return "storage", False


_PAIR_GAP = re.compile(r"[\s,/]{0,3}")
_COMPUTER = re.compile(r"\bpc\b|computer|desktop|\bmini\s?pc\b|主机|台式", _I)
MAX_PAIRED_MEMORY = 64.0


def _pair_memory_with_storage(scan: Scan, text: str, guessed: set[int]) -> None:
    """ "8GB 128GB", "8GB, 256GB SSD": two capacities side by side on a computer or phone
    are memory then storage, when no word next to the first said otherwise."""
    if not (_SCREEN.search(text) or _COMPUTER.search(text)):
        return
    data = [i for i, q in enumerate(scan.quantities) if q.attribute in ("memory", "storage")]
    for first, second in pairwise(data):
        a, b = scan.quantities[first], scan.quantities[second]
        if (
            a.start in guessed
            and a.value < b.value
            and a.value <= MAX_PAIRED_MEMORY
            and _PAIR_GAP.fullmatch(text[a.end : b.start])
        ):
            scan.quantities[first] = Quantity("memory", a.value, a.start, a.end, a.text)
            if b.start in guessed:
                scan.quantities[second] = Quantity("storage", b.value, b.start, b.end, b.text)


_RADIATOR_AFTER = re.compile(
    r"\s*-?\s*(?:aio\s+|liquid\s+|water\s+)?(?:radiators?|rads?)\b|\s*冷排", _I
)
_RADIATOR_BEFORE = re.compile(r"(?:radiators?|\brads?\b|冷排)[^|;.\d]{0,28}$", _I)
_GPU_AFTER = re.compile(
    r"\s*-?\s*(?:long\s+)?(?:gpus?\b|graphics\s+cards?\b|video\s+cards?\b|vga\b|显卡)", _I
)
_GPU_BEFORE = re.compile(
    r"(?:\bgpus?\b|graphics\s+cards?\b|video\s+cards?\b|\bvga\b|显卡)[^|;.\d]{0,28}$", _I
)
_CAPACITY_WORDS = re.compile(
    r"support|up\s+to|\bmax|\bfits?\b|clearance|compatib|room\s+for|space\s+for|\ballows?\b|"
    r"支持|最大|最长|兼容|限长",
    _I,
)
_CASE = re.compile(r"\bcases?\b|chassis|\btower\b|机箱", _I)
"""A size next to "radiator" or "GPU" is what a case takes when a capacity word is near it
or the text is about a case; an AIO cooler's "240mm radiator" stays its own length."""
_CLEARANCE_CHAIN = re.compile(r"[^|;\d]{0,16}", _I)
CLEARANCE_ATTRIBUTES = ("radiator_support", "gpu_clearance")
"""Capacity limits: the largest part a case takes, so a request for N means "≥ N"."""


def _clearance_attribute(scan: Scan, text: str, m: re.Match[str], context: str) -> str | None:
    """radiator_support / gpu_clearance when the length at `m` is the size of a radiator or
    graphics card a case takes ("supports 240mm radiators", "GPU length up to 400mm",
    "331mm GPU & 280mm Radiator Support"), else None. The words right after the number
    decide before the words before it: in "radiators and 330mm GPUs" 330 is a GPU; a size
    right after one continues its list ("Radiator: 360 mm front, 280 mm top")."""
    after = text[m.end() : m.end() + 24]
    before = text[max(0, m.start() - 32) : m.start()]
    previous = scan.quantities[-1] if scan.quantities else None
    if _GPU_AFTER.match(after):
        attribute = "gpu_clearance"
    elif _RADIATOR_AFTER.match(after):
        attribute = "radiator_support"
    elif _GPU_BEFORE.search(before):
        attribute = "gpu_clearance"
    elif _RADIATOR_BEFORE.search(before):
        attribute = "radiator_support"
    elif (
        previous is not None
        and previous.attribute in CLEARANCE_ATTRIBUTES
        and previous.end <= m.start()
        and _CLEARANCE_CHAIN.fullmatch(text[previous.end : m.start()])
    ):
        return previous.attribute
    else:
        return None
    near = text[max(0, m.start() - 40) : m.end() + 40]
    return attribute if _CAPACITY_WORDS.search(near) or _CASE.search(context) else None


_NOT_SCREEN = re.compile(
    r"cable|\blong\b|length|luggage|suitcase|carry-?on|wheel|bike|bicycle|tyre|tire|pizza|cake|"
    r"pipe|hose|线|长|行李箱|拉杆箱|轮|自行车|单车|蛋糕|披萨|水管",
    _I,
)


def _inch(
    scan: Scan, match: re.Match[str], value: float, context: str, screen_default: bool
) -> None:
    screen = _SCREEN.search(context) or (screen_default and not _NOT_SCREEN.search(context))
    if _DRIVE.search(context) and value in (1.8, 2.5, 3.5):
        scan.labels.append(("form_factor", f"{_plain(value)}in"))
    elif screen:
        scan.add("screen_size", value, match)
    else:
        scan.add("length", value * factor("inch", "length"), match)


def _resolution_words(scan: Scan, text: str) -> None:
    for m in _RESOLUTION_WORDS.finditer(text):
        # "FHD+(2400x1080)": the explicit pixels that follow say it better
        if scan.free(*m.span()) and not _PIXELS.search(text[m.end() : m.end() + 16]):
            key = (m.group(1) or m.group(2)).lower().replace(" ", "")
            scan.add("resolution", float(_PIXELS_OF_WORD[key]), m)
            scan.taken.append(m.span())


def _special_forms(scan: Scan, text: str) -> None:
    """Forms whose meaning is more than number + unit: R/W pairs, kits, phone memory+storage,
    resolutions, slots, pack counts, DDR rates. Their spans are taken before the generic
    quantity pass. Each form is only searched for when its marker occurs: a substring test
    costs nanoseconds, a regex pass microseconds, and ingest parses every offer."""
    lowered = text.lower()
    for m in _RW_PAIR.finditer(text) if "/s" in lowered else ():
        scale = 1000.0 if m.group(3).lower() == "gb/s" else 1.0
        scan.add("read_speed", float(m.group(1)) * scale, m, 1)
        scan.add("write_speed", float(m.group(2)) * scale, m, 2)
        scan.taken.append(m.span())
    for m in _PLUS_PAIR.finditer(text) if "+" in text else ():
        unit = m.group(3).lower()
        scale = 1000.0 if unit.startswith("t") else 1.0
        scan.add("memory", float(m.group(1)), m, 1)
        scan.add("storage", float(m.group(2)) * scale, m, 2)
        scan.taken.append(m.span())
    for m in _KIT.finditer(text) if "x" in lowered else ():
        scan.add("pack_count", float(m.group(1)), m, 1)
        scan.taken.append(m.span())
    for m in _PIXELS.finditer(text) if "x" in lowered else ():
        width, height = float(m.group(1)), float(m.group(2))
        if 100 <= width <= 20000 and height >= 100:
            scan.add("resolution", width * height, m)
            scan.taken.append(m.span())
    for m in _LINES.finditer(text):
        scan.add("resolution", float(_PIXELS_OF[m.group(1)]), m)
        scan.taken.append(m.span())
    _resolution_words(scan, text)
    slot_forms = [_SLOTS] if "slot" in lowered or "插槽" in text else []
    slot_forms += [_SLOTS_BOARD] if "ddr" in lowered else []
    for pattern in slot_forms:
        for m in pattern.finditer(text):
            if scan.free(*m.span()):
                scan.add("memory_slots", float(m.group(1)), m, 1)
                scan.taken.append(m.span(1))
    for m in _PACK.finditer(text) if any(w in lowered for w in _PACK_MARKERS) else ():
        if not scan.free(*m.span()):
            continue
        count = next((g for g in m.groups()[:4] if g), None)
        scan.add("pack_count", float(count) if count else 2.0, m)
        scan.taken.append(m.span())
    for m in _DDR_RATE.finditer(text) if "ddr" in lowered else ():
        scan.add("frequency", float(m.group(1)), m, 1)
        scan.taken.append(m.span(1))
    for m in _TURBO.finditer(text) if "(" in text else ():
        scale = 1000.0 if m.group(2).lower() == "ghz" else 1.0
        scan.add("frequency", float(m.group(1)) * scale, m, 1)
        scan.add("frequency", float(m.group(3)) * scale, m, 3)
        scan.taken.append(m.span())
    for m in _FRACTION_INCH.finditer(text) if "/" in text else ():
        whole, top, bottom = float(m.group(1) or 0), float(m.group(2)), float(m.group(3))
        if bottom and top < bottom:
            scan.add("length", (whole + top / bottom) * factor("inch", "length"), m)
            scan.taken.append(m.span())


def scan_quantities(text: str, *, context: str = "", screen_default: bool = False) -> Scan:
    """Every quantity in (normalized) `text`; `context` is the wider text that decides
    ambiguous units (the listing's title and attributes, or the whole request).

    `screen_default`: an inch with no screen or length words around it is a screen size.
    Requests set it ("at least 27 inch" is about a screen); listings do not, because a
    listing that is a screen says so ("monitor", 显示器) and an inch elsewhere (a 20寸
    suitcase, 24 in. shelf) is a length."""
    context = context or text
    scan = Scan()
    if not _DIGIT.search(text):
        _resolution_words(scan, text)  # "UHD", "Full HD": the only specs without a digit
        return scan
    _special_forms(scan, text)
    for m in _ALTERNATIVES.finditer(text) if "/" in text else ():
        # "6/8mm厚": either value, in the unit written after the second
        unit_match = _UNIT_AT.match(text, m.end())
        found = unit_of(unit_match) if unit_match else None
        if unit_match and found and found[0] in _ALTERNATIVE_FAMILIES and scan.free(*m.span()):
            for value in (m.group(1), m.group(2)):
                _add_quantity(scan, text, unit_match, *found, float(value), context, screen_default)
            scan.taken.append((m.start(), unit_match.end()))
    for m in _QUANTITY.finditer(text):
        if not scan.free(*m.span()):
            continue
        found = unit_of(m)
        if found is None:
            continue
        family, unit = found
        value = float(m.group(1))
        _add_quantity(scan, text, m, family, unit, value, context, screen_default)
    _pair_memory_with_storage(scan, text, scan.guessed)
    return scan


def _add_quantity(
    scan: Scan,
    text: str,
    m: re.Match[str],
    family: Family,
    unit: str,
    value: float,
    context: str,
    screen_default: bool,
) -> None:
    scaled = value * factor(unit, family)
    if family == "inch":
        _inch(scan, m, value, context, screen_default)
    elif family == "length":
        if unit == "mm" and (
            _JACK_AFTER.match(text[m.end() : m.end() + 12])
            or _JACK_BEFORE.search(text[max(0, m.start() - 16) : m.start()])
        ):
            return
        clearance = _clearance_attribute(scan, text, m, context)
        if clearance is not None:
            scan.add(clearance, scaled * 1000.0, m)  # canonical mm
        else:
            scan.add("length", scaled, m)
    elif family == "data":
        if m.group(0)[-1:] == "G" and value not in _DATA_G_VALUES:
            return
        decided = _data_attribute(text, m, context)
        if decided:
            scan.add(decided[0], scaled, m)
            if not decided[1]:
                scan.guessed.add(m.start())
    elif family == "speed":
        near = text[max(0, m.start() - 16) : m.end() + 8]
        write = _WRITE_NEAR.search(near) and not _READ_NEAR.search(near)
        scan.add("write_speed" if write else "read_speed", scaled, m)
    else:
        scan.add(_FAMILY_ATTRIBUTE[family], scaled, m)


_FAMILY_ATTRIBUTE: dict[Family, str] = {
    "volume": "volume",
    "battery": "battery",
    "power": "power",
    "frequency": "frequency",
    "refresh": "refresh_rate",
    "camera": "camera",
    "weight": "weight",
}
