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


def test_a_message_is_segmented_once_however_many_one_character_nouns_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each one-character noun is checked against jieba's words; a pasted message holding
    dozens of them was segmented whole once per noun."""
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
    assert len(calls) == 1
