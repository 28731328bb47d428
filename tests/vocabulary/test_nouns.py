"""`singular` on real nouns, measured against `inflect` (the general inflection library it
replaces on the hot path): the product types' English names, their plurals, and the plural
nouns of 12,087 crowd-written WebShop shopping instructions. Every disagreement must be one of
the deliberate ones listed here, each with its reason."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cartwise.catalog.taxonomy import product_types
from cartwise.vocabulary.nouns import plurals, singular

PLURAL_ONLY = {
    "jeans", "pants", "shorts", "leggings", "tights", "briefs", "panties", "clothes",
    "headphones", "earphones", "earbuds", "goggles", "binoculars", "glasses", "sunglasses",
}  # fmt: skip
"""Shoppers ask for "jeans" and "headphones": a slug keeps the word they use."""
NOT_PLURALS = {"lens", "electronics", "cosmetics", "thanks"}
"""Singular or uncountable although they end in -s; inflect cuts them ("len", "electronic")."""
INFLECT_WRONG = {
    "joes": "joe",  # sloppy joes; inflect: "jo"
    "booties": "bootie",  # the baby shoe; inflect: "booty"
    "agenda": "agenda",  # a planner, not a plural; inflect: "agendum"
    "ramen": "ramen",  # inflect: "raman"
}
NOT_NOUNS = {"goes", "ups", "they", "them"}
"""Verbs and pronouns (inflect: "they" → "it"): whatever a noun rule makes of them is no error."""
TOO_SHORT = {"acs"}
"""Three letters with a vowel: no rule tells "acs" (air conditioners) from "gas" or "bus"."""


@cache
def _inflect() -> Any:
    import inflect  # seconds to import: only in this measurement

    return inflect.engine()


def inflect_singular(word: str) -> str:
    result = _inflect().singular_noun(word)
    return result if isinstance(result, str) and result else word


def disagreements(pairs: list[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """plural → (ours, expected) where `singular` misses and no deliberate reason covers it."""
    missed = {}
    for plural, expected in pairs:
        ours = singular(plural)
        if ours == expected or plural in NOT_NOUNS | TOO_SHORT:
            continue
        if plural in PLURAL_ONLY | NOT_PLURALS and ours == plural:
            continue
        if INFLECT_WRONG.get(plural) == ours:
            continue
        missed[plural] = (ours, expected)
    return missed


def test_shopping_plurals_that_trip_suffix_rules() -> None:
    cases = {
        "shoes": "shoe", "running shoes": "running shoe", "t-shirts": "t-shirt",
        "movies": "movie", "horror movies": "horror movie", "strawberries": "strawberry",
        "knives": "knife", "bookshelves": "bookshelf", "olives": "olive", "leaves": "leaf",
        "gloves": "glove", "potatoes": "potato", "toes": "toe", "watches": "watch",
        "headaches": "headache", "dresses": "dress", "boxes": "box", "quizzes": "quiz",
        "sizes": "size", "lenses": "lens", "cases": "case", "buses": "bus", "houses": "house",
        "analyses": "analysis", "women": "woman", "grandchildren": "grandchild",
        "tvs": "tv", "keys": "key", "ties": "tie", "hoodies": "hoodie", "bikinis": "bikini",
        "slip-ons": "slip-on", "neck-ties": "neck-tie", "saleswomen": "saleswoman",
    }  # fmt: skip
    assert {plural: singular(plural) for plural in cases} == cases


@pytest.mark.parametrize(
    "word", ["jeans", "glass", "gas", "bus", "canvas", "iris", "arthritis", "ramen", "series"]
)
def test_words_that_are_not_plurals_stay_as_they_are(word: str) -> None:
    assert singular(word) == word


def test_text_without_a_lowercase_head_word_is_returned_as_is() -> None:
    assert singular("") == ""
    assert singular("42") == "42"
    assert singular("耳机") == "耳机"


@pytest.mark.slow
def test_agrees_with_inflect_on_every_product_type_name_and_its_plural() -> None:
    pairs = []
    for kind in product_types():
        for name in kind.en_names:
            head = re.findall(r"[a-z]+(?:-[a-z]+)*", name.lower())[-1]
            expected = inflect_singular(head)
            pairs.append((head, expected))
            if expected == head:  # a singular name: its plural must come back to it
                plural = _inflect().plural_noun(head)
                if plural != head and plural.endswith("s") and not plural.endswith("oes"):
                    pairs.append((plural, head))
    assert len(pairs) > 600
    assert disagreements(pairs) == {}


@pytest.mark.slow
@pytest.mark.shared_data
def test_agrees_with_inflect_on_the_plural_nouns_of_webshop_instructions(
    shared_data: Path,
) -> None:
    goals = json.loads((shared_data / "nlu" / "webshop" / "human_goals.json").read_text())
    words = Counter(w for goal in goals for w in re.findall(r"[a-z]+", goal.lower()))
    # A plural noun: inflect calls it plural and its singular is written somewhere too.
    pairs = [
        (word, inflect_singular(word))
        for word in words
        if len(word) > 3 and inflect_singular(word) != word and inflect_singular(word) in words
    ]
    assert len(pairs) > 700
    assert disagreements(pairs) == {}
    agreed = sum(singular(plural) == expected for plural, expected in pairs)
    assert agreed / len(pairs) > 0.95


@pytest.mark.parametrize(
    ("noun", "expected"),
    [
        ("scarf", "scarves"),
        ("shelf", "shelves"),
        ("battery", "batteries"),
        ("toy", "toys"),
        ("dress", "dresses"),
        ("running shoe", "running shoes"),
    ],
)
def test_a_noun_is_matched_in_its_plural_spelled_as_english_spells_it(
    noun: str, expected: str
) -> None:
    assert expected in plurals(noun)
    assert all(singular(p) == noun for p in plurals(noun) if p == expected)


def test_a_noun_that_never_changes_has_no_plural_spelling() -> None:
    assert plurals("jeans") == []
    assert "batterys" not in plurals("battery")
