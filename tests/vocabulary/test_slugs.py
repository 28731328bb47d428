"""`slugify`: one ASCII slug for brands, recipients, refused things, titles and directories."""

from __future__ import annotations

import pytest

from cartwise.memory.store import SLUG_PATTERN
from cartwise.vocabulary.slugs import slugify


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Under Armour", "under-armour"),
        ("Estée Lauder", "estee-lauder"),
        ("Levi's", "levis"),
        ("Levi’s 501", "levis-501"),
        ("方太", "fangtai"),
        ("香菜", "xiangcai"),
        ("朋友小林", "pengyouxiaolin"),
        ("华为 Huawei", "huawei"),
        ("WH-1000XM5  索尼", "wh-1000xm5"),
        ("  Dr. Martens!  ", "dr-martens"),
    ],
)
def test_names_become_lowercase_ascii_words_joined_by_hyphens(name: str, slug: str) -> None:
    assert slugify(name) == slug
    assert SLUG_PATTERN.fullmatch(slug)


def test_a_mixed_name_and_its_latin_name_meet_in_one_slug() -> None:
    assert slugify("方太（Fotile）") == slugify("Fotile") == "fotile"


def test_nothing_nameable_gives_an_empty_slug() -> None:
    assert slugify("") == slugify("!!! ---") == slugify("🙂") == ""


def test_the_separator_can_be_chosen() -> None:
    assert slugify("e5:small", separator="_") == "e5_small"
