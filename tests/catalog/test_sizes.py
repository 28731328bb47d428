"""One size normalizer: a shopper's size and a listing's sizes compare equal when they mean
the same size."""

from __future__ import annotations

import pytest

from cartwise.catalog.sizes import canonical_size, offers_size, same_size, shoe_size_eu


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2XL", "XXL"),
        ("3xl", "XXXL"),
        ("5XL", "XXXXXL"),
        ("ＸＬ", "xl"),
        ("42码", "42"),
        ("42号", "42"),
        ("EU 42", "42"),
        ("size 42", "42码"),
        ("尺码 42", "eu42"),
        ("M号", "m"),
        ("large", "L"),
        ("extra large", "XL"),
        ("7.5", "７.５"),
    ],
)
def test_equivalent_sizes(a: str, b: str) -> None:
    assert same_size(a, b)


@pytest.mark.parametrize(("a", "b"), [("XL", "XXL"), ("42", "43"), ("7", "7.5"), ("S", "XS")])
def test_different_sizes_stay_different(a: str, b: str) -> None:
    assert not same_size(a, b)


def test_canonical_forms() -> None:
    assert [canonical_size(s) for s in ("2xl", " ｍ ", "EU 42", "one-size")] == [
        "XXL",
        "M",
        "42",
        "one-size",
    ]


@pytest.mark.parametrize(
    ("asked", "eu"),
    [
        ("US 9", "42"),  # men's (and unisex) by default: US + 33
        ("us 10", "43"),
        ("US 8.5", "42"),  # a half size takes the next whole EU size up
        ("US W8", "39"),  # women's: US + 31
        ("US women's 7", "38"),
        ("UK 8", "42"),  # UK + 34
        ("uk7.5", "42"),
        ("size 10", "43"),  # a bare number no EU size can be: US men's
        ("9", "42"),
        ("42", "42"),  # an EU size stays
        ("EU 38", "38"),
        ("XL", "XL"),  # letter sizes are no shoe numbers
        ("US 2", "US 2"),  # a children's US size is not converted
    ],
)
def test_shoe_sizes_convert_to_whole_eu_sizes(asked: str, eu: str) -> None:
    assert shoe_size_eu(asked) == eu


def test_marked_shoe_sizes_have_one_canonical_form() -> None:
    assert [canonical_size(s) for s in ("us 9", "US9", "size US 9", "us w 8", "uk 8")] == [
        "US 9",
        "US 9",
        "US 9",
        "US W8",
        "UK 8",
    ]


def test_a_shoe_listing_offers_the_eu_equivalent_and_clothing_stays_literal() -> None:
    eu_sizes = ["40", "41", "42", "43"]
    assert offers_size("US 9", eu_sizes, shoes=True)
    assert offers_size("size 10", eu_sizes, shoes=True)
    assert not offers_size("US 11", eu_sizes, shoes=True)
    assert offers_size("42", eu_sizes, shoes=True)
    # A dress size 10 is no shoe size.
    assert not offers_size("10", eu_sizes, shoes=False)
    assert offers_size("10", ["8", "10"], shoes=False)
