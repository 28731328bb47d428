"""Request specs: every comparison form in both languages, ranges, sorts, labels, budgets."""

from __future__ import annotations

import pytest

from cartwise.catalog.specs import RequestSpecs, parse_request_specs


def comparisons(text: str) -> list[tuple[str, str, float]]:
    return [(n.attribute, n.op, round(n.value, 4)) for n in parse_request_specs(text).numeric]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # English: before the number
        ("an HDMI cable longer than 2 metres", ("length", "gt", 2.0)),
        ("a PSU with more than 650 W", ("power", "gt", 650.0)),
        ("a GPU with over 12GB of VRAM", ("memory", "gt", 12.0)),
        ("a monitor of at least 24 inch", ("screen_size", "ge", 24.0)),
        ("a laptop no less than 16GB RAM", ("memory", "ge", 16.0)),
        ("a tent under 2kg", ("weight", "lt", 2.0)),
        ("a bottle less than 750 ml", ("volume", "lt", 0.75)),
        ("a phone with at most 6.1 inch screen", ("screen_size", "le", 6.1)),
        ("a kettle no more than 1.5 L", ("volume", "le", 1.5)),
        ("a cable of exactly 3 meters", ("length", "eq", 3.0)),
        ("ssd faster than 3000 MB/s", ("read_speed", "gt", 3000.0)),
        # English: after the number
        ("a 27 inch or larger screen", ("screen_size", "ge", 27.0)),
        ("850W or more", ("power", "ge", 850.0)),
        ("144Hz and up", ("refresh_rate", "ge", 144.0)),
        ("1.2 kg or less", ("weight", "le", 1.2)),
        ("550W+ power supply", ("power", "ge", 550.0)),
        ("7000 MB/s read or faster", ("read_speed", "ge", 7000.0)),
        # exact
        ("a 2TB external SSD", ("storage", "eq", 2000.0)),
        ("a 40L backpack", ("volume", "eq", 40.0)),
        ("phone with a 200 Megapixel camera", ("camera", "eq", 200.0)),
        # Chinese: after the number
        ("17寸以上的笔记本", ("screen_size", "ge", 17.0)),
        ("5000毫安以上的充电宝", ("battery", "ge", 5000.0)),
        ("1TB以上的硬盘", ("storage", "ge", 1000.0)),
        ("2公斤以下的帐篷", ("weight", "le", 2.0)),
        ("1米以内的数据线", ("length", "le", 1.0)),
        # Chinese: before the number
        ("不超过1.5kg的笔记本", ("weight", "le", 1.5)),
        ("大于16G显存的显卡", ("memory", "gt", 16.0)),
        ("至少8G内存", ("memory", "ge", 8.0)),
        ("超过3米的网线", ("length", "gt", 3.0)),
        ("小于500克的音箱", ("weight", "lt", 0.5)),
        ("不低于1000瓦的吸尘器", ("power", "ge", 1000.0)),
        ("正好2米的桌子", ("length", "eq", 2.0)),
        # Chinese exact
        ("40L 的双肩包", ("volume", "eq", 40.0)),
        ("1.5米的床", ("length", "eq", 1.5)),
        ("两个装的杯子", ("pack_count", "eq", 2.0)),
        ("4800万像素的手机", ("camera", "eq", 48.0)),
        ("1亿像素的手机", ("camera", "eq", 100.0)),
        ("2万毫安的充电宝", ("battery", "eq", 20000.0)),
        # full-width digits and comparison signs
        ("充电宝 ＞５０００mAh", ("battery", "gt", 5000.0)),
        ("monitor ≥ 27 inch", ("screen_size", "ge", 27.0)),
    ],
)
def test_every_comparison_form_in_both_languages(
    text: str, expected: tuple[str, str, float]
) -> None:
    assert comparisons(text) == [expected]


@pytest.mark.parametrize(
    ("text", "attribute", "low", "high"),
    [
        ("monitors between 27 and 32 inch", "screen_size", 27.0, 32.0),
        ("27到32寸的显示器", "screen_size", 27.0, 32.0),
        ("a 3-5 m cable", "length", 3.0, 5.0),
        ("三十升到四十升的背包", "volume", 30.0, 40.0),
    ],
)
def test_a_range_is_a_floor_and_a_ceiling(
    text: str, attribute: str, low: float, high: float
) -> None:
    assert comparisons(text) == [(attribute, "ge", low), (attribute, "le", high)]


@pytest.mark.parametrize(
    ("text", "attribute", "descending"),
    [
        ("the SSD with the highest read speed", "read_speed", True),
        ("the lightest laptop", "weight", False),
        ("which TV has the biggest screen", "screen_size", True),
        ("the laptop with the most RAM", "memory", True),
        ("最大容量的充电宝", "battery", True),
        ("容量最大的移动硬盘", "storage", True),
        ("最轻的笔记本", "weight", False),
        ("读取速度最快的固态硬盘", "read_speed", True),
        ("the most expensive chair", "price", True),
        ("最便宜的显示器", "price", False),
    ],
)
def test_superlatives_become_one_sort(text: str, attribute: str, descending: bool) -> None:
    sort = parse_request_specs(text).sort
    assert sort is not None
    assert (sort.attribute, sort.descending) == (attribute, descending)


def test_the_cheapest_x_with_y_is_a_filter_plus_a_price_sort() -> None:
    specs = parse_request_specs("the cheapest external SSD with 1TB")
    assert specs.cheapest
    assert specs.sort is not None and specs.sort.attribute == "price"
    assert comparisons("the cheapest external SSD with 1TB") == [("storage", "eq", 1000.0)]
    assert parse_request_specs("最便宜的2TB移动硬盘").cheapest


def test_at_most_is_a_comparison_not_a_superlative() -> None:
    assert parse_request_specs("a tablet with at most 11 inch screen").sort is None


@pytest.mark.parametrize(
    ("text", "attribute", "values", "negated"),
    [
        ("a DDR5 kit", "memory_type", ["ddr5"], False),
        ("an AM5 board", "socket", ["am5"], False),
        ("LGA1700接口的散热器", "socket", ["lga1700"], False),
        ("带Type-C接口的耳机", "interface", ["usb-c"], False),
        ("a keyboard not colored black, white or metallic", "color_family",
         ["black", "white", "metallic"], True),
        ("不要白色和银色的手机壳", "color_family", ["white", "metallic"], True),
        ("黑色或者灰色的双肩包", "color_family", ["black", "grey"], False),
        ("GPU with no less than 10GB GDDR6", "memory_type", ["gddr6"], False),
    ],
)  # fmt: skip
def test_categorical_specs_and_their_negation(
    text: str, attribute: str, values: list[str], negated: bool
) -> None:
    found = [s for s in parse_request_specs(text).labels if s.attribute == attribute]
    assert [(s.values, s.negated) for s in found] == [(values, negated)]


@pytest.mark.parametrize(
    "text",
    [
        "headphones under 600 EUR",
        "300元以内的耳机",
        "$80 headphones",
        "a monitor under 2k",
        "预算1000块左右的手机",
        "a PSU, nothing above 600 EUR",
        "under 150",
    ],
)
def test_a_budget_is_never_a_spec(text: str) -> None:
    assert parse_request_specs(text).numeric == []


def test_checkable_and_uncheckable_specs_are_told_apart() -> None:
    assert parse_request_specs("a fan quieter than 25 dB").unchecked == ["25 dB"]
    assert parse_request_specs("噪音低于30分贝的风扇").unchecked == ["30分贝"]
    assert parse_request_specs("quiet fans, LLM-ready").is_empty()
    assert parse_request_specs("200 Megapixel phone").unchecked == []


def test_a_request_without_specs_is_empty() -> None:
    assert parse_request_specs("a nice gift for my mother") == RequestSpecs()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "a case which supports 280mm radiators and 320mm graphics cards",
            [("radiator_support", "ge", 280.0), ("gpu_clearance", "ge", 320.0)],
        ),
        ("a tower that fits up to 360 mm radiators", [("radiator_support", "ge", 360.0)]),
        ("a chassis with room for a 300mm GPU", [("gpu_clearance", "ge", 300.0)]),
        ("能装360mm冷排的机箱", [("radiator_support", "ge", 360.0)]),
        ("an AIO cooler with a 240mm radiator", [("length", "eq", 0.24)]),
    ],
)
def test_a_supported_part_size_is_a_lower_bound_on_what_the_case_takes(
    text: str, expected: list[tuple[str, str, float]]
) -> None:
    assert comparisons(text) == expected


def test_switch_and_light_colours_are_no_colour_filter() -> None:
    labels = parse_request_specs("a white keyboard with red switches and blue backlight").labels
    assert [(spec.attribute, spec.values) for spec in labels] == [("color_family", ["white"])]


@pytest.mark.parametrize("request_text", ["find me green tea", "来点红茶", "黑巧克力推荐"])
def test_a_colour_inside_a_product_name_is_not_a_colour_spec(request_text: str) -> None:
    """Regression: "green tea" filtered tea listings by the colour green."""
    assert [
        s for s in parse_request_specs(request_text).labels if s.attribute == "color_family"
    ] == []


def test_a_colour_said_of_the_product_is_still_a_colour_spec() -> None:
    assert [s.values for s in parse_request_specs("a green water bottle").labels] == [["green"]]
