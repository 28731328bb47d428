"""The compatibility table: which specs of a referenced product a target must meet."""

from __future__ import annotations

from cartwise.catalog.specs import ATTRIBUTES, LabelSpec, NumericSpec, ProductSpecs
from cartwise.catalog.specs.compatibility import (
    compatibility_specs,
    compatibility_table,
    kinds_named,
    product_kind,
)


def test_table_names_only_known_attributes_and_kinds() -> None:
    table = compatibility_table()
    for rule in table.rules:
        assert rule.source in table.kinds and rule.target in table.kinds
        assert all(name in ATTRIBUTES for name, _ in rule.relations())
    assert all(name in ATTRIBUTES for name in table.cues)


def test_kinds_in_order_and_whole_words_only() -> None:
    assert kinds_named("an HDMI cable to connect my monitor to this GPU") == [
        "cable",
        "monitor",
        "gpu",
    ]
    assert kinds_named("DisplayPort showcase") == []  # no "display" in DisplayPort, no "case"
    assert kinds_named("兼容的主板") == ["motherboard"]


def test_a_board_is_known_by_its_category_when_its_title_never_says() -> None:
    assert product_kind("Asrock B550 PHANTOM GAMING 4, AM4", "Hardware > Motherboards") == (
        "motherboard"
    )


def test_cpu_for_a_board_must_share_its_socket() -> None:
    board = ProductSpecs(labels={"socket": ["am5"], "memory_type": ["ddr5"]})
    plan = compatibility_specs("compatible CPUs for this board", board, source_kind="motherboard")
    assert plan.target_kind == "cpu"
    assert [(s.attribute, s.values) for s in plan.specs.labels] == [("socket", ["am5"])]
    memory = compatibility_specs("兼容的内存条", board, source_kind="motherboard")
    assert [(s.attribute, s.values) for s in memory.specs.labels] == [("memory_type", ["ddr5"])]


def test_backup_drive_holds_at_least_the_source_capacity() -> None:
    drive = ProductSpecs(numbers={"storage": [4000.0]})
    plan = compatibility_specs("external SSDs to back up this SSD", drive, source_kind="storage")
    assert plan.specs.numeric == [
        NumericSpec(attribute="storage", op="ge", value=4000.0, text="as the referenced item")
    ]


def test_cable_for_a_gpu_has_one_of_its_ports() -> None:
    gpu = ProductSpecs(labels={"interface": ["minidp"]})
    plan = compatibility_specs("an HDMI cable for this GPU", gpu, source_kind="gpu")
    assert plan.specs.labels == [
        LabelSpec(attribute="interface", values=["minidp"], text="as the referenced item")
    ]


def test_same_colour_cue_applies_whatever_the_kinds() -> None:
    case = ProductSpecs(labels={"color_family": ["white"]})
    for request in ("keyboards in the same colour as this case", "要和这个机箱同色的键盘"):
        plan = compatibility_specs(request, case, source_kind="case")
        assert plan.target_kind == "keyboard"
        assert [(s.attribute, s.values) for s in plan.specs.labels] == [("color_family", ["white"])]


def test_a_needed_attribute_the_source_does_not_state_is_reported() -> None:
    plan = compatibility_specs("compatible motherboard", ProductSpecs(), source_kind="cpu")
    assert plan.applies and plan.missing == ["socket"] and plan.specs.is_empty()


def test_no_rule_no_cue_means_no_compatibility_ask() -> None:
    plan = compatibility_specs("the cheapest offer of this", ProductSpecs(), source_kind="cpu")
    assert not plan.applies
