"""The attribute vocabulary listings and requests share, with canonical units and tolerances.

A tolerance is how far an *exact* request ("a 3 m cable", "1TB") may sit from a listed value
and still match: listings round ("2.9 m", "931 GB usable"), shoppers round more.
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
        _label("socket", "socket", "插槽"),
        _label("memory_type", "memory type", "内存类型"),
        _label("interface", "interface", "接口"),
        _label("form_factor", "form factor", "版型"),
        _label("color_family", "colour", "颜色"),
    )
}
"""Attribute name → what it measures. Grows with the parser; a name used anywhere else must
be a key here (a test checks it)."""
