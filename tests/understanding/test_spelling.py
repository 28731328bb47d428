"""Typos: a word the reader cannot read, one keystroke or one homophone from a word it can, is
read as that word; a real word, or a typo of an everyday word, is left as typed."""

from __future__ import annotations

import pytest

from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.spelling import Respeller, one_edit_apart


@pytest.fixture(scope="module")
def rules() -> RulesEngine:
    return RulesEngine()


def read(rules: RulesEngine, message: str) -> Reading:
    return rules.read(message, Conversation())


@pytest.mark.parametrize(
    ("message", "typo", "product_type", "word"),
    [
        ("I want a new backpak for school", "backpak", "backpack", "backpack"),  # left out
        ("some wireless headphnoes", "headphnoes", "over_ear_headphones", "headphones"),
        ("想买个吹风鸡", "吹风鸡", "hair_dryer", "吹风机"),  # typed by sound
        ("推荐一款保温悲", "保温悲", "vacuum_flask", "保温杯"),
    ],
)
def test_a_mistyped_product_is_read_and_searched_as_spelled_right(
    rules: RulesEngine, message: str, typo: str, product_type: str, word: str
) -> None:
    reading = read(rules, message)
    assert reading.types == [product_type]
    assert word in reading.query
    assert typo not in reading.query


def test_a_mistyped_step_over_the_shown_items_is_that_step(rules: RulesEngine) -> None:
    reading = read(rules, "show me cheapre ones")
    assert reading.followup is not None and reading.followup.price == "lower"
    assert reading.query == ""


def test_real_words_and_typos_of_everyday_words_are_left_as_typed(rules: RulesEngine) -> None:
    respeller = Respeller(rules.lexicon.surfaces())
    for message in (
        "a really sleek wallet",  # sleek is a word, not a typo of sleep
        "he's realy into fishing",  # a typo of really, not of the mattress brand Sealy
        "boats and boots",
        "a tent for a long hike",  # hike is a word, however near like
        "这个颜色挺好看的",
    ):
        assert respeller.respell(message) == message


def test_a_typo_beside_a_product_named_is_read_too(rules: RulesEngine) -> None:
    reading = read(rules, "hiking boots, waterprof ones")
    assert reading.types == ["hiking_shoes"]
    assert "waterproof" in reading.query


@pytest.mark.parametrize(
    ("first", "second", "apart"),
    [
        ("hoodei", "hoodie", True),
        ("blendr", "blender", True),
        ("sweeter", "sweater", True),
        ("kettle", "kettle", False),
        ("kettle", "ketle", True),
        ("kettle", "kelte", False),
        ("abcd", "bacd", True),
    ],
)
def test_one_edit_apart(first: str, second: str, apart: bool) -> None:
    assert one_edit_apart(first, second) is apart
    assert one_edit_apart(second, first) is apart
