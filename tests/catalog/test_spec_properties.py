"""Parse → check round trip, and odd input never raising."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cartwise.catalog.specs import (
    NumericSpec,
    SpecOp,
    check,
    extract_listing_specs,
    numeric_holds,
    parse_request_specs,
)

# attribute → (listing text with {v}, request noun, unit written in requests, canonical factor)
FAMILIES: dict[str, list[tuple[str, str, str, float]]] = {
    "length": [("HDMI cable {v} m", "cable", "m", 1.0), ("网线 {v}米", "网线", "米", 1.0)],
    "power": [("PSU {v}W", "PSU", "W", 1.0), ("电暖器 {v}瓦", "电暖器", "瓦", 1.0)],
    "weight": [("Tent {v} kg", "tent", "kg", 1.0), ("帐篷 {v}公斤", "帐篷", "公斤", 1.0)],
    "volume": [("Backpack {v}L", "backpack", "L", 1.0), ("背包 {v}升", "背包", "升", 1.0)],
    "battery": [("Power bank {v}mAh", "power bank", "mAh", 1.0), ("充电宝 {v}毫安", "充电宝", "毫安", 1.0)],
    "screen_size": [("Monitor {v} inch", "monitor", "inch", 1.0), ("显示器 {v}寸", "显示器", "寸", 1.0)],
    "storage": [("External SSD {v}GB", "SSD", "GB", 1.0), ("移动硬盘 {v}GB", "移动硬盘", "GB", 1.0)],
    "refresh_rate": [("Monitor {v}Hz", "monitor", "Hz", 1.0), ("显示器 {v}赫兹", "显示器", "赫兹", 1.0)],
}  # fmt: skip

EN_FORMS: list[tuple[str, SpecOp]] = [
    ("a {noun} with more than {v} {u}", "gt"),
    ("a {noun} over {v}{u}", "gt"),
    ("a {noun} of at least {v} {u}", "ge"),
    ("a {noun}, {v}{u} or more", "ge"),
    ("a {noun} under {v} {u}", "lt"),
    ("a {noun} with less than {v}{u}", "lt"),
    ("a {noun} of at most {v} {u}", "le"),
    ("a {noun}, no more than {v}{u}", "le"),
    ("a {noun}, {v} {u} or less", "le"),
    ("a {noun} of exactly {v}{u}", "eq"),
]
ZH_FORMS: list[tuple[str, SpecOp]] = [
    ("{v}{u}以上的{noun}", "ge"),
    ("大于{v}{u}的{noun}", "gt"),
    ("超过{v}{u}的{noun}", "gt"),
    ("至少{v}{u}的{noun}", "ge"),
    ("不超过{v}{u}的{noun}", "le"),
    ("{v}{u}以下的{noun}", "le"),
    ("{v}{u}以内的{noun}", "le"),
    ("小于{v}{u}的{noun}", "lt"),
    ("低于{v}{u}的{noun}", "lt"),
    ("{v}{u}的{noun}", "eq"),
]

values = st.one_of(
    st.integers(min_value=1, max_value=20000).map(float),
    st.integers(min_value=1, max_value=999).map(lambda n: n / 10),
)


def _written(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


@given(
    attribute=st.sampled_from(sorted(FAMILIES)),
    chinese=st.booleans(),
    form=st.integers(min_value=0, max_value=len(EN_FORMS) - 1),
    asked=values,
    listed=values,
)
@settings(max_examples=400, deadline=None)
def test_a_parsed_filter_never_passes_a_listing_that_violates_it(
    attribute: str, chinese: bool, form: int, asked: float, listed: float
) -> None:
    listing_text, noun, unit, scale = FAMILIES[attribute][int(chinese)]
    template, op = (ZH_FORMS if chinese else EN_FORMS)[form]
    request = parse_request_specs(template.format(noun=noun, v=_written(asked), u=unit))
    listing = extract_listing_specs(listing_text.format(v=_written(listed)), {})

    assert [(n.attribute, n.op) for n in request.numeric] == [(attribute, op)]
    assert request.numeric[0].value == pytest.approx(asked * scale)
    truth = NumericSpec(attribute=attribute, op=op, value=asked * scale)
    if not numeric_holds(truth, listed * scale):
        assert check(listing, request) != "meets"
    else:
        assert check(listing, request) == "meets"


odd_text = st.lists(
    st.sampled_from(
        list("0123456789０１２３４５６７８９.,/+-x×＞＜≥≤%$¥ ") + list("mMgGtTlLwWkKhHzZ")
        + list("米寸升瓦克斤毫安万亿两个装以上下内不超过最大小便宜的色黑白")
        + ["GB", "TB", "mAh", "inch", '"', "MB/s", "Hz", "DDR5", "AM5", "\x00", "٣", "\u200b"]
    ),
    max_size=40,
).map("".join)  # fmt: skip


@given(text=odd_text)
@settings(max_examples=300, deadline=None)
@example(text="")
@example(text="0 W")
@example(text="9" * 400 + " W")
@example(text="9" * 400 + "万毫安")
@example(text="１２３４５６７８９０ｍ以上")
@example(text="＞３米")
@example(text="between 9e999 and 1 m")
@example(text="0x0")
@example(text="/" * 50 + "1/0 in.")
def test_odd_input_never_raises(text: str) -> None:
    parse_request_specs(text)
    extract_listing_specs(text, {text: [text]}, description=text, brand=text)


TITLE_WORDS = [
    *("Crucial", "MX500", "4TB", "500GB", "SSD", "SATA", "SATA3", "III", "NVMe", "M.2", "2280"),
    *('2.5"', "3.5in", "PCIe", "Gen4", "USB", "3.2", "Gen1", "Type-C", "Type", "C", "A"),
    *("HDMI", "DP", "DisplayPort", "1.4", "Thunderbolt", "4", "VGA", "DVI-D", "Lightning"),
    *("AMD", "Intel", "B450M-K", "Z790", "AM4", "AM5", "LGA1700", "1700", "DDR4", "DDR5"),
    *("2", "Micro", "ATX", "Mini-ITX", "E-ATX", "Case", "Motherboard", "Cooler", "GPU"),
    *("radiator", "radiators", "240mm", "360", "mm", "up", "to", "supports", "length"),
    *("RTX", "4070", "12GB", "GDDR6X", "R/W", "500/400", "MB/s", "6Gb/s", "IOPS", "98K/88K"),
    *("Red", "Blue", "Black", "White", "Rose", "Gold", "Space", "Grey", "RX", "NX", "MX"),
    *("Switches", "Switch", "LED", "RGB", "Backlight", "Dot", "Mechanical", "Keyboard"),
    *('27"', "144Hz", "4K", "1440p", "2560x1440", "1.8m", "6ft", "650W", "3.6GHz", "(5.0"),
    *("Turbo)", "2-pack", "x2", "16GBx2", "黑色", "红轴", "蓝色背光", "硬盘", "1T", "固态"),
    *("17寸", "机箱", "冷排", "两个装", "5000毫安", "显卡", "with", "for", "&amp;", "-"),
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(TITLE_WORDS), st.sampled_from([" ", ", ", " - ", "/", "", " | "])
        ),
        min_size=1,
        max_size=14,
    )
)
@example([("SATA", " "), ("SSD", " "), ("with", " "), ("cloning", "")])
@example([("ROG", " "), ("RX", " "), ("Red", " "), ("Switches", "")])
def test_real_looking_titles_never_raise(words: list[tuple[str, str]]) -> None:
    title = "".join(word + gap for word, gap in words)
    extract_listing_specs(title, {"Interface": [title]}, description=title)
    parse_request_specs(title)
