"""The attribute vocabulary listings and requests share, with canonical units and tolerances.

A tolerance is how far an *exact* request ("a 3 m cable", "1TB") may sit from a listed value
and still match: listings round ("2.9 m", "931 GB usable"), shoppers round more.

Canonical units and exact-match tolerances (relative to the asked value):

| attribute | unit | tolerance | why |
|---|---|---|---|
| length | m | 5 % | "6 ft" is 1.83 m, sold as "1.8 m"; beds are 1.5 m or 1.8 m, never in between |
| screen_size | inch | 3 % | "17寸" asks for 17.3"; 43.9 cm panels are 17.3" |
| storage | GB | 8 % | "1TB" drives state 931-1000 GB; TB is 1000 GB (decimal, as drives are sold) |
| memory | GB | 0 | RAM and VRAM come in exact sizes (8, 12, 16 GB) |
| volume | L | 5 % | "40L" packs measure 38-42 L; cu ft and US gallons converted by pint |
| battery | mAh | 5 % | rated vs typical capacity; Ah converted ×1000 |
| power | W | 5 % | "550 W" PSUs are 550 W; heaters round 1950 → 2000 |
| frequency | MHz | 2 % | DDR "3200" is 3200 MT/s; CPUs 3.5 vs 3.6 GHz are different parts |
| read_speed, write_speed | MB/s | 5 % | "up to 3500 MB/s" marketing rounding |
| refresh_rate | Hz | 0 | panels come in fixed steps (60, 75, 144, 165, 240) |
| resolution | px (total) | 0 | width × height: "4K" is 3840×2160 = 8,294,400, "1080p" 1920×1080 |
| camera | MP | 5 % | 4800万像素 is 48 MP; 50.3 MP sensors sold as "50 MP" |
| pack_count | pcs | 0 | a 2-pack is not a 3-pack |
| weight | kg | 5 % | 斤 = 0.5 kg; lb and oz converted by pint |
| memory_slots | slots | 0 | a board has 2, 4 or 8 |
| radiator_support | mm | 0 | the largest radiator a case takes (120, 240, 280, 360, 420) |
| gpu_clearance | mm | 2 % | the longest graphics card a case takes ("331mm GPU") |

radiator_support and gpu_clearance are capacity limits: a request "supports 240mm
radiators" is `≥ 240 mm` (`scan.CLEARANCE_ATTRIBUTES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

AttributeKind = Literal["number", "label"]


class AttributeInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    kind: AttributeKind
    unit: str = ""
    """Canonical unit symbol for numbers ("m", "inch", "GB", "W"...); "" for labels."""
    relative_tolerance: float = 0.0
    """For "eq": |listed - asked| <= relative_tolerance * asked."""
    label_en: str
    label_zh: str


def _number(name: str, unit: str, tolerance: float, label_en: str, label_zh: str) -> AttributeInfo:
    return AttributeInfo(
        name=name,
        kind="number",
        unit=unit,
        relative_tolerance=tolerance,
        label_en=label_en,
        label_zh=label_zh,
    )


def _label(name: str, label_en: str, label_zh: str) -> AttributeInfo:
    return AttributeInfo(name=name, kind="label", label_en=label_en, label_zh=label_zh)


ATTRIBUTES: Mapping[str, AttributeInfo] = {
    info.name: info
    for info in (
        _number("length", "m", 0.05, "length", "长度"),
        _number("screen_size", "inch", 0.03, "screen size", "屏幕尺寸"),
        _number("storage", "GB", 0.08, "storage", "容量"),
        _number("memory", "GB", 0.0, "memory", "内存"),
        _number("volume", "L", 0.05, "volume", "容量"),
        _number("battery", "mAh", 0.05, "battery", "电池容量"),
        _number("power", "W", 0.05, "power", "功率"),
        _number("frequency", "MHz", 0.02, "speed", "频率"),
        _number("read_speed", "MB/s", 0.05, "read speed", "读取速度"),
        _number("write_speed", "MB/s", 0.05, "write speed", "写入速度"),
        _number("refresh_rate", "Hz", 0.0, "refresh rate", "刷新率"),
        _number("resolution", "px", 0.0, "resolution (pixels)", "分辨率"),
        _number("camera", "MP", 0.05, "camera", "像素"),
        _number("pack_count", "pcs", 0.0, "pack size", "数量"),
        _number("weight", "kg", 0.05, "weight", "重量"),
        _number("memory_slots", "slots", 0.0, "memory slots", "内存插槽"),
        _number("radiator_support", "mm", 0.0, "radiator support", "冷排支持"),
        _number("gpu_clearance", "mm", 0.02, "GPU length supported", "显卡限长"),
        _label("socket", "socket", "插槽"),
        _label("memory_type", "memory type", "内存类型"),
        _label("interface", "interface", "接口"),
        _label("form_factor", "form factor", "版型"),
        _label("color_family", "colour", "颜色"),
    )
}
"""Attribute name → what it measures. Grows with the parser; a name used anywhere else must
be a key here (a test checks it)."""
