"""Superlatives read as a sort, with the running search resolving a noun of several
attributes."""

from __future__ import annotations

import pytest

from cartwise.catalog.specs.superlatives import find_sort


@pytest.mark.parametrize(
    ("message", "context", "attribute"),
    [
        ("哪个容量最大", "保温杯", "volume"),
        ("哪个容量最大", "充电宝", "battery"),
        ("哪个容量最大", "移动硬盘", "storage"),
        ("which has the biggest capacity", "insulated water bottle", "volume"),
        ("the biggest capacity one, a power bank", "water bottle", "battery"),
    ],
)
def test_a_noun_of_several_attributes_is_read_by_the_running_search(
    message: str, context: str, attribute: str
) -> None:
    sort = find_sort(message.lower(), context)
    assert sort is not None and sort.attribute == attribute
