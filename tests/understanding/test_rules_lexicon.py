"""The lexicon: slugs valid, enough brands, bilingual surface forms."""

from __future__ import annotations

import pytest

from cartwise.memory.store import SLUG_PATTERN, Category
from cartwise.understanding.rules.lexicon import load_lexicon


def test_every_slug_is_a_valid_preference_slug() -> None:
    lexicon = load_lexicon()
    assert all(SLUG_PATTERN.fullmatch(slug) for slug in lexicon.preference_slugs())


def test_at_least_150_brands() -> None:
    lexicon = load_lexicon()
    brands = {
        t.slug
        for m in lexicon.scan(" ".join(lexicon.surfaces()))
        for t in m.terms
        if t.category is Category.BRAND
    }
    assert len(brands) >= 150


@pytest.mark.parametrize(
    ("chinese", "english", "slug"),
    [
        ("耐克", "nike", "nike"),
        ("阿迪达斯", "adidas", "adidas"),
        ("李宁", "li-ning", "li-ning"),
        ("安踏", "anta", "anta"),
        ("索尼", "sony", "sony"),
        ("漫步者", "edifier", "edifier"),
        ("小米", "xiaomi", "xiaomi"),
        ("华为", "huawei", "huawei"),
        ("苹果", "apple", "apple"),
        ("塑料", "plastic", "plastic"),
        ("紫色", "purple", "purple"),
        ("头戴式", "over-ear", "over-ear"),
        ("花生", "peanut", "peanut"),
    ],
)
def test_chinese_and_english_forms_meet_in_one_slug(chinese: str, english: str, slug: str) -> None:
    lexicon = load_lexicon()
    for text in (chinese, english):
        (match,) = lexicon.scan(text)
        assert match.first("preference") is not None
        assert match.first("preference").slug == slug  # type: ignore[union-attr]
    keywords = {k.lower() for k in lexicon.keywords("preference", slug)}
    assert chinese in keywords and english in keywords


@pytest.mark.parametrize(
    ("noun", "domain"),
    [
        ("耳机", "electronics"),
        ("夹克", "clothing"),
        ("跑鞋", "shoes"),
        ("沙发", "furniture"),
        ("口红", "beauty"),
        ("零食", "food"),
        ("瑜伽垫", "sports"),
        ("奶瓶", "baby"),
        ("sweaters", "clothing"),
        ("mattresses", "furniture"),
    ],
)
def test_product_nouns_map_to_domains(noun: str, domain: str) -> None:
    (match,) = load_lexicon().scan(noun)
    assert match.first("domain") is not None
    assert match.first("domain").slug == domain  # type: ignore[union-attr]


def test_longest_form_wins() -> None:
    surfaces = [m.surface for m in load_lexicon().scan("羽绒服 咖啡色")]
    assert surfaces == ["羽绒服", "咖啡色"]


def test_a_message_is_segmented_at_most_once_however_many_one_character_nouns_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each one-character noun is checked against jieba's words; a pasted message holding
    dozens of them was segmented whole once per noun, then whole once. Now only the blocks
    jieba would cut holding such a noun are segmented, each once."""
    import jieba

    calls: list[str] = []
    real = jieba.tokenize

    def counting(text: str, *args: object, **kwargs: object) -> object:
        calls.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jieba, "tokenize", counting)
    message = "想买一双鞋，一个包，一盏灯，一把伞，还有一个杯和一条裤子，" * 6
    matches = load_lexicon().scan(message)
    assert sum(m.surface in {"鞋", "包", "灯", "伞", "杯"} for m in matches) > 5
    assert len(calls) == len(set(calls))
    assert sum(map(len, calls)) < len(message) / 6


@pytest.mark.parametrize(
    "text",
    [
        "我想买一双灯芯绒的鞋，还要一盏台灯和一把伞 for my mum, 预算300-500元",
        "给宝宝买个杯子。杯垫也要！A3尺寸的包包（黑色）和床上用品",
        "跑步鞋42码\n不要太贵的包, 要一个能装15寸电脑的双肩包",
    ],
)
def test_a_word_read_from_its_block_is_the_word_of_the_whole_text(text: str) -> None:
    """Only the block holding a one-character noun is segmented: the word found there must
    be the word jieba finds in the whole text, at every Chinese character."""
    import jieba

    from cartwise.text import word_at

    whole = {
        position: (start, end)
        for _word, start, end in jieba.tokenize(text)
        for position in range(start, end)
    }
    for position, character in enumerate(text):
        if "\u4e00" <= character <= "\u9fd5":
            assert word_at(text, position) == whole[position], (text, position)


def test_an_engine_for_a_catalog_builds_one_lexicon(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's brands replace the demo catalog's: the packaged lexicon and the demo's
    were built first and dropped (two of three matcher builds of every process)."""
    from cartwise.catalog.brands import CatalogBrand
    from cartwise.understanding.rules import engine, lexicon

    built: list[object] = []
    real = lexicon.build_matcher

    def counting(*args: object, **kwargs: object) -> object:
        built.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lexicon, "build_matcher", counting)
    engine.default_lexicon.cache_clear()
    lexicon.load_lexicon.cache_clear()
    try:
        rules = engine.RulesEngine(catalog=[CatalogBrand("zorbix", "electronics", {"zorbix"})])
        assert len(built) == 1
        assert any(m.surface == "zorbix" for m in rules.lexicon.scan("zorbix 耳机"))
        assert any(m.surface == "耐克" for m in rules.lexicon.scan("耐克跑鞋"))
    finally:
        engine.default_lexicon.cache_clear()
        lexicon.load_lexicon.cache_clear()
