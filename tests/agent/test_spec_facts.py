"""How specs are said: units, comparisons, orders and counts in both languages."""

from __future__ import annotations

from cartwise.agent.spec_facts import applied_line, quantity, spec_facts, unchecked_line
from cartwise.catalog.specs import LabelSpec, NumericSpec, RequestSpecs, SpecSort

SPECS = RequestSpecs(
    numeric=[NumericSpec(attribute="screen_size", op="ge", value=27.0)],
    labels=[LabelSpec(attribute="color_family", values=["black", "white"], negated=True)],
    sort=SpecSort(attribute="refresh_rate", descending=True),
)


def test_english_line_names_each_spec_the_order_and_the_count() -> None:
    assert applied_line(SPECS, 4, "en") == (
        "screen size ≥ 27 inch, colour not black/white, highest refresh rate first: 4 offers"
    )
    assert applied_line(SPECS, 1, "en").endswith(": 1 offer")


def test_chinese_line_uses_chinese_names() -> None:
    assert applied_line(SPECS, 3, "zh") == (
        "屏幕尺寸 ≥ 27 inch，颜色不是黑色/白色，按刷新率从高到低：3 个商品符合"
    )


def test_large_values_read_in_the_bigger_unit() -> None:
    assert quantity("storage", 4000.0) == "4 TB"
    assert quantity("storage", 512.0) == "512 GB"
    assert quantity("length", 3.0) == "3 m"


def test_cheapest_is_said_as_an_order() -> None:
    cheapest = RequestSpecs(
        numeric=[NumericSpec(attribute="power", op="gt", value=550.0)], cheapest=True
    )
    assert spec_facts(cheapest, "en") == ["power > 550 W", "cheapest first"]
    assert spec_facts(cheapest, "zh") == ["功率 > 550 W", "最便宜的在前"]


def test_no_specs_no_line_and_unchecked_specs_are_said() -> None:
    assert applied_line(RequestSpecs(), 5, "en") == ""
    assert unchecked_line([], "en") == ""
    assert "waterproof" in unchecked_line(["waterproof"], "en")
    assert unchecked_line(["防水"], "zh").startswith("目录无法核对：防水")


def test_a_listing_that_does_not_state_a_spec_ranks_after_an_equal_one_that_meets() -> None:
    from cartwise.agent.picker import PickCriteria, item_picker
    from cartwise.agent.state import Candidate
    from tests.factories import make_product

    meets = Candidate(product=make_product("a", title="cable a"), score=1.0)
    silent = Candidate(product=make_product("b", title="cable b"), score=1.0, unstated_specs=True)
    criteria = PickCriteria(spec_attributes=("length",))
    picks = item_picker([silent, meets], criteria, language="en").picks
    assert [p.candidate.product.item_id for p in picks] == ["a", "b"]
    assert "the listing does not state its length" in picks[1].why
    # Far more relevant (by more than the meeting bonus), it may still lead.
    strong = silent.model_copy(update={"score": 2.0})
    picks = item_picker([strong, meets], criteria, language="en").picks
    assert picks[0].candidate.product.item_id == "b"
