"""One size normalizer: a shopper's size and a listing's sizes compare equal when they mean
the same size."""

from __future__ import annotations

import pytest

from cartwise.catalog.sizes import canonical_size, same_size


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
