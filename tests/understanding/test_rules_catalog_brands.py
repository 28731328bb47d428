"""Brands known from the catalogs: mined forms, Chinese aliases from titles, case rules."""

from __future__ import annotations

from cartwise.catalog.brands import demo_catalog_brands, mine_brands
from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.reading import Conversation
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.lexicon import load_lexicon

ROWS = [
    ("Zojirushi", "象印（Zojirushi）SM-SA48 保温杯 不锈钢", "home"),
    ("Zojirushi", "象印（Zojirushi）SW-KA52 焖烧杯", "home"),
    ("Zojirushi", "Zojirushi travel mug, stainless steel", "home"),
    ("Bloom", "Bloom Baby high chair", "baby"),
    ("Bloom", "Bloom (布鲁姆) stroller", "baby"),  # an alias seen once is not enough
]


def test_mined_brands_have_slug_domain_and_title_aliases() -> None:
    by_slug = {b.slug: b for b in mine_brands(ROWS)}
    assert by_slug["zojirushi"].domain == "home"
    assert by_slug["zojirushi"].forms == {"Zojirushi", "象印"}
    assert by_slug["bloom"].forms == {"Bloom"}


def test_the_engine_understands_a_catalog_brand_in_both_languages() -> None:
    engine = RulesEngine(load_lexicon(), catalog=mine_brands(ROWS))
    session = SessionPrefState(thread="t")
    for message in ("不要象印的保温杯", "no Zojirushi mugs"):
        (item,) = engine.read(message, Conversation(session=session)).stated
        assert (item.slug, item.category.value, item.domain) == ("zojirushi", "brand", "kitchen")


def test_a_mined_brand_that_is_an_everyday_word_matches_only_as_written() -> None:
    engine = RulesEngine(load_lexicon(), catalog=mine_brands(ROWS))
    session = SessionPrefState(thread="t")
    assert (
        engine.read("I love a bloom of flowers on a scarf", Conversation(session=session)).stated
        == []
    )
    assert [s.slug for s in engine.read("I love Bloom", Conversation(session=session)).stated] == [
        "bloom"
    ]


def test_a_mined_brand_that_is_no_everyday_word_matches_as_shoppers_type_it() -> None:
    rows = [
        *ROWS,
        ("Nalgene", "Nalgene wide mouth bottle", "kitchen"),
        ("Herman Miller", "Herman Miller Aeron chair", "furniture"),
    ]
    assert {b.slug: b.loose for b in mine_brands(rows)}["zojirushi"] == {"Zojirushi"}
    engine = RulesEngine(load_lexicon(), catalog=mine_brands(rows))
    session = SessionPrefState(thread="t")
    for message, slug in (
        ("any nalgene bottles?", "nalgene"),
        ("show me herman miller chairs", "herman-miller"),
        ("zojirushi的保温杯", "zojirushi"),
    ):
        assert engine.read(message, Conversation(session=session)).brands == [slug]


def test_the_default_engine_knows_the_demo_catalogs_brands() -> None:
    slugs = {b.slug for b in demo_catalog_brands()}
    assert {"lavazza", "fotile", "keep", "feihe"} <= slugs
    (item,) = (
        RulesEngine().read("我不要飞鹤", Conversation(session=SessionPrefState(thread="t"))).stated
    )
    assert item.slug == "feihe"
