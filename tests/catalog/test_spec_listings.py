"""Listing specs: every unit family in both languages, context-decided attributes, labels."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cartwise.catalog.specs import ATTRIBUTES, extract_listing_specs
from cartwise.catalog.specs.units import UNIT_WORDS


def numbers(title: str, **attributes: list[str]) -> dict[str, list[float]]:
    return extract_listing_specs(title, attributes).numbers


def labels(title: str, **attributes: list[str]) -> dict[str, list[str]]:
    return extract_listing_specs(title, attributes).labels


@pytest.mark.parametrize(
    ("title", "attribute", "value"),
    [
        # length
        ("HDMI cable, 3 m, gold plated", "length", 3.0),
        ("Patch cable 50cm", "length", 0.5),
        ("Liquid cooler 360mm radiator", "length", 0.36),
        ("6ft USB cable", "length", 1.8288),
        ("Extension cord, 2 metres", "length", 2.0),
        ("网线 3米 超六类", "length", 3.0),
        ("数据线 150厘米", "length", 1.5),
        ("Drill, 1/2 in. chuck", "length", 0.0127),
        # screen size: inch, ", 寸, 英寸 on screens
        ('Asus 27" gaming monitor', "screen_size", 27.0),
        ("Lenovo laptop 15.6 inch", "screen_size", 15.6),
        ("17寸笔记本电脑", "screen_size", 17.0),
        ("小米电视 65英寸", "screen_size", 65.0),
        # storage and memory
        ("Kingston 1TB NVMe SSD", "storage", 1000.0),
        ("WD 2TB hard drive", "storage", 2000.0),
        ("RTX 4070, 12GB GDDR6X", "memory", 12.0),
        ("DDR5 32GB desktop memory", "memory", 32.0),
        ("手机 8GB+256GB", "storage", 256.0),
        ("手机 8GB+256GB", "memory", 8.0),
        ("显卡 显存16G", "memory", 16.0),
        # volume
        ("Hiking backpack 40L", "volume", 40.0),
        ("Shampoo 400ml", "volume", 0.4),
        ("双肩包 30升", "volume", 30.0),
        ("保温杯 500毫升", "volume", 0.5),
        ("Refrigerator 14.2 cu. ft.", "volume", 402.099),
        # battery
        ("Power bank 20000mAh", "battery", 20000.0),
        ("充电宝 10000毫安", "battery", 10000.0),
        ("充电宝 2万毫安", "battery", 20000.0),
        ("Drill kit with 4.0 Ah battery", "battery", 4000.0),
        # power
        ("Corsair 850W PSU", "power", 850.0),
        ("Heater 2 kW", "power", 2000.0),
        ("电暖器 2000瓦", "power", 2000.0),
        # frequency, speeds, refresh
        ("DDR4 3200MHz memory", "frequency", 3200.0),
        ("Ryzen 5, 3.6GHz", "frequency", 3600.0),
        ("SSD, R/W 3500/2100 MB/s", "read_speed", 3500.0),
        ("SSD, R/W 3500/2100 MB/s", "write_speed", 2100.0),
        ("USB drive, up to 1 GB/s read", "read_speed", 1000.0),
        ("Monitor 27 inch 165Hz", "refresh_rate", 165.0),
        ("显示器 144赫兹", "refresh_rate", 144.0),
        # resolution as total pixels
        ("Monitor 2560 x 1440", "resolution", 2560 * 1440),
        ("4K webcam", "resolution", 3840 * 2160),
        ("1080p camera", "resolution", 1920 * 1080),
        # camera
        ("Phone with 200MP camera", "camera", 200.0),
        ("Camera 24 megapixels", "camera", 24.0),
        ("手机 4800万像素", "camera", 48.0),
        # pack count
        ("AA batteries, 8-pack", "pack_count", 8.0),
        ("Pack of 4 towels", "pack_count", 4.0),
        ("玻璃杯 两个装", "pack_count", 2.0),
        ("锅具 3件套", "pack_count", 3.0),
        ("Memory kit 32GB (2 x 16GB) DDR5", "pack_count", 2.0),
        # weight
        ("Dumbbell 5 kg", "weight", 5.0),
        ("Mouse, 80 g", "weight", 0.08),
        ("Laptop 3.5 lbs", "weight", 1.58757),
        ("大米 5斤", "weight", 2.5),
        ("坚果 500克", "weight", 0.5),
        ("哑铃 10公斤", "weight", 10.0),
        # memory slots
        ("Board, AM5, 4 x DDR5 DIMM", "memory_slots", 4.0),
        ("Workstation board with 8 DDR5 slots", "memory_slots", 8.0),
        ("Asus PRIME B650M, AM5, Micro ATX, 4 DDR5, HDMI", "memory_slots", 4.0),
    ],
)
def test_every_unit_family_is_read_in_its_canonical_unit(
    title: str, attribute: str, value: float
) -> None:
    stated = numbers(title).get(attribute, [])
    assert any(abs(v - value) <= 1e-3 * value for v in stated), (title, numbers(title))


def test_canonical_units_are_the_vocabularys() -> None:
    assert ATTRIBUTES["length"].unit == "m"
    assert ATTRIBUTES["resolution"].unit == "px"
    assert ATTRIBUTES["storage"].unit == "GB"


def test_inch_is_a_length_where_no_screen_is_talked_about() -> None:
    assert numbers("Tumi suitcase 24 inch") == {"length": [0.6096]}
    assert "screen_size" not in numbers("20寸行李箱")


def test_a_drive_bay_inch_is_a_form_factor_not_a_screen() -> None:
    specs = extract_listing_specs('WD 3.5", 2TB, SATA3 hard drive', {})
    assert specs.labels["form_factor"] == ["3.5in"]
    assert "screen_size" not in specs.numbers


def test_capacities_that_are_no_storage_are_ignored() -> None:
    assert numbers("Board, 2.5G LAN, 5G Wi-Fi, 64MB cache") == {}


def test_an_audio_jack_is_no_length() -> None:
    assert "length" not in numbers("Speakers, 3.5 mm jack")
    assert "length" not in numbers("phone", 耳机插头类型=["3.5mm"])


def test_a_turbo_clock_inherits_the_base_clocks_unit() -> None:
    assert numbers("Ryzen 5 5600, 3.5GHz (4.4 Turbo)")["frequency"] == [3500.0, 4400.0]


def test_memory_beside_storage_on_a_computer() -> None:
    specs = numbers("Mini PC, i5, 16GB 3200MHz, 512GB SSD")
    assert specs["memory"] == [16.0]
    assert specs["storage"] == [512.0]
    tablet = numbers("Galaxy Tab 8GB 128GB")
    assert tablet["memory"] == [8.0] and tablet["storage"] == [128.0]


def test_attribute_keys_give_bare_numbers_their_unit() -> None:
    specs = numbers("Desk", dimensions_cm=["100x60x75"], capacity_l=["15"], pieces=["3"])
    assert specs == {"length": [1.0, 0.6, 0.75], "volume": [15.0], "pack_count": [3.0]}
    assert numbers("手机", 像素=["主摄6400万+广角800万"])["camera"] == [64.0, 8.0]


def test_range_values_in_attributes_state_both_ends() -> None:
    assert numbers("笔记本", 重量=["1kg(含)-1.5kg(不含)"])["weight"] == [1.0, 1.5]
    assert numbers("玻璃 6/8mm厚")["length"] == [0.006, 0.008]


@pytest.mark.parametrize(
    ("title", "attribute", "expected"),
    [
        ("AMD Ryzen 7, AM5, 8 cores", "socket", ["am5"]),
        ("Intel LGA1700 cooler", "socket", ["lga1700"]),
        ("Asrock Z790 PG, Intel Z790, 1700, ATX", "socket", ["lga1700"]),
        ("MSI PRO B650M-B", "socket", ["am5"]),
        ("Corsair 16GB DDR4 3200", "memory_type", ["ddr4"]),
        ("Palit RTX 3050, 8GB DDR6", "memory_type", ["gddr6"]),
        ("Cable USB-C to HDMI", "interface", ["usb-c", "hdmi"]),
        ("SSD, M.2 NVMe, PCIe 4.0", "interface", ["m.2", "nvme", "pcie4"]),
        ("Case, Micro ATX, black", "form_factor", ["matx"]),
        ("Case, E-ATX", "form_factor", ["e-atx"]),
        ("Case, Mini ITX", "form_factor", ["mini-itx"]),
        ("Keyboard, Rose Gold", "color_family", ["metallic"]),
        ("Fractal North Charcoal Black", "color_family", ["black"]),
        ("5米长的HDMI线", "interface", ["hdmi"]),
        ("雷蛇键盘 黑色", "color_family", ["black"]),
    ],
)
def test_categorical_specs_are_canonical_lowercase(
    title: str, attribute: str, expected: list[str]
) -> None:
    assert labels(title).get(attribute) == expected


def test_colour_attributes_map_to_families_in_both_languages() -> None:
    assert labels("T-shirt", color=["Navy", "Off-White"])["color_family"] == ["blue", "white"]
    assert labels("双肩包", 颜色分类=["深灰色", "玫瑰金"])["color_family"] == ["grey", "metallic"]


def test_a_brand_never_colours_a_listing() -> None:
    assert (
        "color_family"
        not in extract_listing_specs("Green Cell battery", {}, brand="Green Cell").labels
    )
    assert "color_family" not in labels("PC", 电源品牌=["Golden Field/金河田"])


def test_model_names_are_no_quantities() -> None:
    assert numbers("Asus B650M-A, RTX3050, i5-14400F") == {}


def test_the_description_only_fills_what_title_and_attributes_leave_unstated() -> None:
    specs = extract_listing_specs(
        "Kingston 1TB SSD",
        {},
        description="<p>Supports systems with up to 4TB, reads at 3500MB/s</p>",
    )
    assert specs.numbers["storage"] == [1000.0]
    assert specs.numbers["read_speed"] == [3500.0]


def test_every_spelling_carries_one_of_its_tables_markers() -> None:
    """A spelling without a marker would be skipped on text that only it matches."""
    from cartwise.catalog.specs.vocabulary import _TABLES

    for name, table in _TABLES.items():
        for pattern, value in table.spellings:
            source = pattern.pattern.lower().replace("\\", "")  # "m\\.2" reads m.2
            assert not table.markers or any(m in source for m in table.markers), (name, value)


def test_a_spelling_whose_boundary_needs_the_next_word_is_read_not_raised() -> None:
    # "SATA " ends at a word boundary only because "SSD" follows: matched in place, not alone
    specs = extract_listing_specs(
        "Crucial MX500 4TB", {}, description="SATA SSD that achieves the SATA interface limit"
    )
    assert specs.labels["interface"] == ["sata"]
    assert labels("Team 256GB MS30 M.2 SATA SSD, SATA3")["interface"] == ["m.2", "sata"]


@pytest.mark.parametrize(
    ("title", "attributes", "expected"),
    [
        ("ASUS ROG Strix Scope RX TKL, ROG RX Red Switches, Black", {}, ["black"]),
        ("Cherry MX Brown mechanical keyboard, white", {}, ["white"]),
        ("Corsair AF120 120mm White LED Fan, black frame", {}, ["black"]),
        ("Gaming mouse with red backlight, Grey", {}, ["grey"]),
        ("Red Dot award-winning case in Blue", {}, ["blue"]),
        ("Samsung 27in Black LED Monitor", {}, ["black"]),
        ("机械键盘 白色 红轴 蓝色背光", {}, ["white"]),
        ("Keyboard", {"颜色": ["黑色红轴"]}, ["black"]),
        ("Keyboard", {"Backlight colour": ["Red"], "Colour": ["Grey"]}, ["grey"]),
    ],
)
def test_a_colour_naming_a_switch_or_a_light_is_no_colour_of_the_product(
    title: str, attributes: dict[str, list[str]], expected: list[str]
) -> None:
    assert extract_listing_specs(title, attributes).labels.get("color_family") == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        (
            "Meshify 2 Mini Gaming Case, Micro ATX, 331mm GPU & 280mm Radiator Support",
            {"gpu_clearance": [331.0], "radiator_support": [280.0]},
        ),
        (
            "NZXT H5 Flow, supports up to 360mm radiators, GPU length up to 365 mm",
            {"radiator_support": [360.0], "gpu_clearance": [365.0]},
        ),
        ("Tower case | Radiator: 360 mm front, 280 mm top", {"radiator_support": [360.0, 280.0]}),
        (
            "机箱 支持360mm冷排 显卡限长400mm",
            {"radiator_support": [360.0], "gpu_clearance": [400.0]},
        ),
        ("Corsair H100i 240mm radiator AIO liquid cooler", {"length": [0.24]}),
    ],
)
def test_radiator_and_gpu_sizes_a_case_takes_are_their_own_attributes(
    title: str, expected: dict[str, list[float]]
) -> None:
    assert numbers(title) == expected


def test_the_grammars_spelling_and_unit_regexes_are_compiled_when_a_hit_needs_them() -> None:
    """A fresh process imports the spec grammar with none of them compiled; reading a listing
    compiles only what its hits needed, and reads it as before."""
    probe = (
        "import json\n"
        "from cartwise.catalog.specs import extract_listing_specs\n"
        "from cartwise.catalog.specs import units, vocabulary as v\n"
        "def compiled():\n"
        "    tables = sum('any_spelling' in t.__dict__ for t in v._TABLES.values())\n"
        "    return [v._spelling.cache_info().currsize, units._each_unit.cache_info().currsize,"
        " tables]\n"
        "before = compiled()\n"
        "specs = extract_listing_specs('Crucial MX500 2TB SATA SSD, 6 Gb/s', {})\n"
        "print(json.dumps([before, compiled(), specs.labels.get('interface')]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    before, after, interface = json.loads(out)
    assert before == [0, 0, 0]
    spellings, unit_words, tables = after
    assert 0 < spellings < 20 and 0 < unit_words < len(UNIT_WORDS) and 1 <= tables < 4
    assert interface == ["sata"]
