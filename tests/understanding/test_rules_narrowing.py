"""A refinement with no product noun narrows the running search; a message that names
something (even something the catalog lacks) stays a search of its own."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine


def plan(message: str) -> Reading:
    return RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))


@pytest.mark.parametrize(
    ("message", "narrow", "liked"),
    [
        ("要羊毛的", ["羊毛"], ["wool"]),
        ("有没有真皮的？", ["真皮"], ["leather"]),
        ("something in wool please", ["wool"], ["wool"]),
        ("any waterproof ones?", ["waterproof"], ["waterproof"]),
        ("防水的有吗", ["防水"], ["waterproof"]),
        ("蓝色的呢", ["蓝色"], ["blue"]),
        ("how about black?", ["black"], ["black"]),
    ],
)
def test_an_attribute_alone_refines_the_search_and_is_liked_for_this_request(
    message: str, narrow: list[str], liked: list[str]
) -> None:
    planned = plan(message)
    assert planned.followup is not None and planned.followup.kind == "refine"
    assert planned.followup.narrow == narrow
    wanted = [s for s in planned.stated if s.scope == "request"]
    assert [s.slug for s in wanted] == liked
    assert all(s.polarity.value == "like" for s in wanted)


def test_a_brand_alone_refines_with_the_brand_as_a_filter() -> None:
    planned = plan("索尼的有吗")
    assert planned.followup is not None and planned.followup.narrow == ["索尼"]
    assert planned.brands == ["sony"]
    assert [s for s in planned.stated if s.scope == "request"] == []


@pytest.mark.parametrize(
    "message",
    ["I'd like a kayak", "我想买个皮划艇", "wool scarf", "羊毛围巾", "red running shoes", "你好"],
)
def test_a_message_naming_a_thing_is_not_a_narrowing(message: str) -> None:
    planned = plan(message)
    assert planned.followup is None or not planned.followup.narrow
