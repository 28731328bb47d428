"""The rules planner reads a request's specs before its budget: only money is a budget."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine


def plan(message: str) -> Reading:
    return RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))


@pytest.mark.parametrize(
    ("message", "attribute"),
    [
        ("a PSU with more than 550 W", "power"),
        ("HDMI cables longer than 3 metres", "length"),
        ("5000毫安以上的充电宝", "battery"),
        ("17寸以上的笔记本", "screen_size"),
        ("a GPU with more than 16GB of VRAM", "memory"),
    ],
)
def test_a_quantity_is_a_spec_never_a_budget(message: str, attribute: str) -> None:
    planned = plan(message)
    assert attribute in {s.attribute for s in planned.specs.numeric}
    assert "budget_max" not in planned.slots and "budget_min" not in planned.slots


@pytest.mark.parametrize(
    ("message", "budget", "attribute"),
    [
        ("a monitor of at least 27 inch under 600 EUR", "600", "screen_size"),
        ("预算500元，5000毫安以上的充电宝", "500", "battery"),
    ],
)
def test_money_beside_a_spec_stays_the_budget(message: str, budget: str, attribute: str) -> None:
    planned = plan(message)
    assert planned.slots.get("budget_max") == budget
    assert attribute in {s.attribute for s in planned.specs.numeric}


def test_superlatives_and_cheapest_are_orders() -> None:
    assert plan("the lightest laptop").specs.sort is not None
    cheapest = plan("the cheapest external SSD with 1TB").specs
    assert cheapest.cheapest and [s.attribute for s in cheapest.numeric] == ["storage"]


def test_a_colour_with_a_stated_liking_or_dislike_is_a_preference_not_a_colour_filter() -> None:
    """Regression: "我不太喜欢黑色的" became a filter *for* black, and "not a fan of black
    ones" a hard filter against it, where a soft dislike only ranks black lower."""
    engine = RulesEngine()
    for message in ("我不太喜欢黑色的", "not a fan of black ones"):
        planned = engine.read(message, Conversation(session=SessionPrefState(thread="t")))
        assert [s.slug for s in planned.stated] == ["black"]
        assert [label for label in planned.specs.labels if label.attribute == "color_family"] == []
    plain = engine.read("a black keyboard", Conversation(session=SessionPrefState(thread="t")))
    assert [label.values for label in plain.specs.labels] == [["black"]]
