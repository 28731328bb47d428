"""Polarity and negation scope of the rules engine, Chinese and English."""

from __future__ import annotations

import pytest

from cartwise.understanding.rules.lexicon import load_lexicon
from cartwise.understanding.rules.negation import scope_terms


def stances(text: str) -> dict[str, str]:
    scoping = scope_terms(text, load_lexicon().scan(text))
    return {t.term.slug: t.stance for t in scoping.terms}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("不要塑料和皮革", {"plastic": "dislike", "leather": "dislike"}),
        ("no plastic or leather", {"plastic": "dislike", "leather": "dislike"}),
        (
            "no plastic, leather or nylon",
            {"plastic": "dislike", "leather": "dislike", "nylon": "dislike"},
        ),
        ("不要塑料，皮革也不要", {"plastic": "dislike", "leather": "dislike"}),
        ("不要塑料的耳机，要金属的", {"plastic": "dislike", "metal": "want"}),
        ("I don't want plastic, but metal is great", {"plastic": "dislike", "metal": "neutral"}),
        ("不要塑料要金属", {"plastic": "dislike", "metal": "want"}),
        ("别买塑料的", {"plastic": "dislike"}),
        ("我特别喜欢紫色", {"purple": "like"}),
        ("无香精的面霜", {"fragrance": "dislike"}),
        ("gluten-free snacks", {"gluten": "dislike"}),
        ("塑料的不行", {"plastic": "dislike"}),
        ("find me a sofa, anything but leather", {"leather": "dislike"}),
        ("show me a desk lamp that isn't plastic", {"plastic": "dislike"}),
        ("I prefer in-ear over over-ear", {"in-ear": "like", "over-ear": "neutral"}),
    ],
)
def test_negation_scope(text: str, expected: dict[str, str]) -> None:
    assert stances(text) == expected


@pytest.mark.parametrize(
    "text",
    ["其实塑料也可以", "塑料的也行", "actually plastic is fine", "I don't mind plastic anymore"],
)
def test_retraction_is_neither_like_nor_dislike(text: str) -> None:
    assert stances(text) == {"plastic": "retract"}


@pytest.mark.parametrize(
    "text", ["我对花生过敏", "I'm allergic to peanuts", "I have a severe peanut allergy"]
)
def test_allergy_before_or_after_the_term_is_a_safety_dislike(text: str) -> None:
    scoping = scope_terms(text, load_lexicon().scan(text))
    assert [(t.term.slug, t.stance, t.trigger) for t in scoping.terms] == [
        ("peanut", "dislike", "safety")
    ]


def test_a_clause_boundary_ends_the_scope() -> None:
    assert stances("不要皮革的。喜欢纯棉") == {"leather": "dislike", "cotton": "like"}
    assert stances("no leather. I love cotton") == {"leather": "dislike", "cotton": "like"}
