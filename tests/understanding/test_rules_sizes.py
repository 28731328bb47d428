"""Sizes → the slot `size`."""

from __future__ import annotations

import pytest

from cartwise.understanding.rules.lexicon import load_lexicon
from cartwise.understanding.rules.sizes import parse_size, parse_size_answer


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("42码", "42"),
        ("尺码42", "42"),
        ("鞋码43", "43"),
        ("我平时穿42的鞋", "42"),
        ("size 10", "10"),
        ("in size 7.5 wide", "7.5"),
        ("a black hoodie, XL", "XL"),
        ("有没有大码的连衣裙", "XL"),
        ("加大码", "XXL"),
        ("T恤M号就行", "M"),
        ("I wear a size medium", "M"),
        ("large size white golf shirt", "L"),
        ("a 3XL tee", "XXXL"),
    ],
)
def test_sizes(text: str, size: str) -> None:
    assert parse_size(text, load_lexicon().scan(text), domain="")[0] == size


def test_a_bare_shoe_size_needs_the_shoes_domain() -> None:
    text = "要42的"
    assert parse_size(text, [], domain="shoes")[0] == "42"
    assert parse_size(text, [], domain="electronics")[0] is None


@pytest.mark.parametrize(
    ("text", "size"),
    [("42", "42"), ("42码", "42"), ("size 10", "10"), ("XL吧", "XL"), ("medium", "M")],
)
def test_answers_that_are_only_a_size(text: str, size: str) -> None:
    assert parse_size_answer(text) == size


def test_a_date_is_not_a_size() -> None:
    text = "11月11号发货"
    assert parse_size(text, load_lexicon().scan(text), domain="")[0] is None


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("size 10 running shoes", "10"),
        ("running shoes, US 9", "US 9"),
        ("boots in size UK 8", "UK 8"),
        ("women's trail shoes, US 8", "US W8"),
        ("ladies running shoes size 7", "US W7"),
        ("女士跑鞋 38码", "38"),
    ],
)
def test_shoe_sizes_keep_their_system(text: str, size: str) -> None:
    assert parse_size(text, [], domain="shoes")[0] == size


def test_an_answer_keeps_its_shoe_size_system() -> None:
    assert parse_size_answer("US 9") == "US 9"
    assert parse_size_answer("uk 8") == "UK 8"
