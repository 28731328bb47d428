"""Clarification: which slots a domain needs, our exact wording, and recognizing answers."""

from __future__ import annotations

from cartwise.agent.clarification import missing_slot, sold_in_sizes
from cartwise.understanding.questions import answered_by_slots, question_for
from cartwise.understanding.rules.requests import bare_size
from tests.factories import make_product


def test_shoes_and_clothing_sold_in_sizes_need_a_size_electronics_do_not() -> None:
    assert missing_slot("shoes", {}, sized=True) == "size"
    assert missing_slot("clothing", {"color": "red"}, sized=True) == "size"
    assert missing_slot("shoes", {"size": "42"}, sized=True) == ""
    assert missing_slot("electronics", {}, sized=True) == ""


def test_clothing_sold_one_size_needs_no_size() -> None:
    """Regression: "a scarf for my mom" was asked "What size do you need?"."""
    scarf = make_product(title="Wool Scarf", attributes={"sizes": ["one-size"]})
    coat = make_product(title="Wool Coat", attributes={"sizes": ["S", "M", "L"]})
    assert not sold_in_sizes([scarf])
    assert sold_in_sizes([scarf, coat])
    assert missing_slot("clothing", {}, sized=sold_in_sizes([scarf])) == ""


def test_question_is_in_the_users_language_and_resolved_by_exact_match() -> None:
    zh, en = question_for("size", "zh"), question_for("size", "en")
    assert "尺码" in zh and "size" in en
    assert answered_by_slots([zh, "something else"], {"size": "42"}) == [zh]
    assert answered_by_slots([zh], {}) == []


def test_a_bare_size_answers_an_open_size_question_only() -> None:
    open_questions = [question_for("size", "zh")]
    assert bare_size("42", open_questions) == "42"
    assert bare_size("４２码", open_questions) == "42"
    assert bare_size("xl", open_questions) == "XL"
    assert bare_size("size 10", [question_for("size", "en")]) == "10"
    assert bare_size("42", []) == ""
    assert bare_size("42 pairs of socks please", open_questions) == ""
