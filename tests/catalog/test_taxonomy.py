"""The taxonomy: what the store carries, its names, and the published list in docs/."""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from cartwise.catalog.images import COLOR_HEX, icons, image_path, product_svg
from cartwise.catalog.product import Domain
from cartwise.catalog.taxonomy import domains, product_type, product_types, types_named_in
from cartwise.errors import NotFound

ROOT = Path(__file__).resolve().parents[2]


def test_twenty_domains_and_150_types_each_with_both_languages() -> None:
    assert {d.domain for d in domains()} == set(Domain) - {Domain.OTHER}
    assert len(domains()) >= 20
    types = product_types()
    assert len(types) >= 150
    assert len({t.slug for t in types}) == len(types)
    for kind in types:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", kind.slug)
        assert kind.zh_names and kind.en_names and kind.icon in icons()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in kind.zh), kind.slug
        assert kind.en.isascii() and kind.en[0].isupper(), kind.slug
        assert product_type(kind.slug) is kind
    assert {t.domain for t in types} == {d.domain for d in domains()}
    assert product_type("spaceship") is None


def test_a_name_belongs_to_one_type() -> None:
    owners: dict[str, str] = {}
    for kind in product_types():
        for name in kind.names:
            assert owners.setdefault(name.casefold(), kind.slug) == kind.slug, name


@pytest.mark.parametrize(
    ("text", "slugs"),
    [
        ("I need a bookshelf for the study", ["bookshelf"]),
        ("有没有便宜的书架", ["bookshelf"]),
        ("two bookshelves and a raincoat", ["bookshelf", "raincoat"]),
        ("想买件雨衣和一把折叠伞", ["raincoat", "umbrella"]),
        ("running shoes for my kid", ["running_shoes"]),
        ("a sofa, not sofas plural twice", ["sofa"]),
        ("program guide", []),
        ("a spaceship", []),
    ],
)
def test_types_named_in_finds_names_and_synonyms(text: str, slugs: list[str]) -> None:
    assert [t.slug for t in types_named_in(text)] == slugs


def test_every_type_is_drawn_in_every_colour() -> None:
    for kind in product_types():
        for color in COLOR_HEX:
            svg = product_svg(kind.slug, color)
            root = ElementTree.fromstring(svg)
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
            assert COLOR_HEX[color] in svg
    assert image_path("bookshelf", "brown") == "/images/bookshelf/brown.svg"
    assert product_svg("bookshelf", "brown") != product_svg("raincoat", "brown")
    with pytest.raises(NotFound):
        product_svg("spaceship", "brown")
    with pytest.raises(NotFound):
        product_svg("bookshelf", "ultraviolet")


def test_pictures_carry_no_words() -> None:
    """A picture reads the same on a Chinese and an English page: nothing written in it."""
    for kind in product_types():
        root = ElementTree.fromstring(product_svg(kind.slug, "white"))
        assert not [el for el in root.iter() if el.tag.endswith("text") or el.text], kind.slug


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("air_fryer", "stock_pot"),
        ("rice_cooker", "stock_pot"),
        ("coffee_machine", "electric_kettle"),
        ("robot_vacuum", "vacuum_cleaner"),
        ("projector", "television"),
        ("air_purifier", "electric_fan"),
        ("car_seat", "office_chair"),
        ("necklace", "earrings"),
        ("kettlebell", "dumbbells"),
        ("aquarium", "storage_box"),
    ],
)
def test_look_alike_types_get_their_own_picture(one: str, other: str) -> None:
    """An air fryer is not drawn as a pot, a robot vacuum not as an upright one."""
    kinds = {k.slug: k for k in product_types()}
    assert kinds[one].icon != kinds[other].icon


def test_published_list_is_in_step_with_the_taxonomy() -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_catalog_doc", ROOT / "scripts" / "gen_catalog_doc.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (ROOT / "docs" / "catalog.md").read_text(encoding="utf-8")
    assert text == module.render(), "stale docs/catalog.md: run scripts/gen_catalog_doc.py"
    for kind in product_types():
        assert f"`{kind.slug}`" in text


@pytest.mark.parametrize(
    ("text", "member", "not_member"),
    [
        ("我想买点零食", "potato_chips", "rice"),
        ("vegan snacks please", "mixed_nuts", "olive_oil"),
        ("do you sell toys for a 5 year old?", "building_blocks", "pet_toy"),
        ("化妆品", "lipstick", "shampoo"),
    ],
)
def test_an_umbrella_word_names_all_its_member_types(
    text: str, member: str, not_member: str
) -> None:
    """Regression: "snacks" and "toys" named no type, so the catalog scope said the store
    did not carry them."""
    slugs = [t.slug for t in types_named_in(text)]
    assert member in slugs and not_member not in slugs


def test_a_types_own_name_wins_over_an_umbrella_word() -> None:
    assert [t.slug for t in types_named_in("toy car")] == ["toy_car"]
    assert [t.slug for t in types_named_in("pet toy")] == ["pet_toy"]
