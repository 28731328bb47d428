"""What the model, the user tower and the hard filter see (hashing embedder: logic only)."""

from __future__ import annotations

import logging

import pytest

from cartwise.memory.injector import (
    build_preference_block,
    build_user_profile,
    count_tokens,
    dislike_exclude_terms,
    keyword_fallbacks,
    preference_context,
)
from cartwise.memory.store import PreferenceStore
from cartwise.settings import Settings
from tests.factories import make_preference

USER = "alice"
QUERIES = ["塑料 耳机 headphones", "nike running shoes", "plastic", "electronics", "雨衣 raincoat"]


@pytest.fixture
def tuned(settings: Settings) -> Settings:
    """A threshold the hashing embedder can meet when the query names the domain."""
    return settings.model_copy(update={"preference_relevance_threshold": 0.3})


def _seed_mixed(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic", keywords=["plastic", "塑料"]))
    store.upsert(USER, make_preference("adidas", category="brand", strength="soft"))
    store.upsert(
        USER, make_preference("nike", polarity="like", category="brand", keywords=["nike", "耐克"])
    )
    store.upsert(
        USER,
        make_preference("metal", polarity="like", domain="electronics", keywords=["metal", "金属"]),
    )


def test_user_profile_never_contains_a_dislike(store: PreferenceStore, tuned: Settings) -> None:
    _seed_mixed(store)

    for query in QUERIES:
        profile = build_user_profile(store, USER, query, settings=tuned)
        assert "nike" in profile
        for refused in ["plastic", "塑料", "adidas"]:
            assert refused not in profile, (query, profile)


def test_user_profile_keeps_scoped_likes_only_when_relevant(
    store: PreferenceStore, tuned: Settings
) -> None:
    _seed_mixed(store)

    assert "金属" in build_user_profile(store, USER, "electronics headphones", settings=tuned)
    assert "金属" not in build_user_profile(store, USER, "garden chair", settings=tuned)


def test_user_profile_is_empty_without_likes(store: PreferenceStore, tuned: Settings) -> None:
    store.upsert(USER, make_preference("plastic"))

    assert build_user_profile(store, USER, "plastic", settings=tuned) == ""
    assert build_user_profile(store, "nobody", "plastic", settings=tuned) == ""


def test_block_holds_every_hard_dislike_among_200_other_entries(
    store: PreferenceStore, settings: Settings
) -> None:
    for n in range(12):
        store.upsert(USER, make_preference(f"banned-{n}", keywords=[f"banned {n}", f"禁{n}"]))
    for n in range(200):
        polarity = "like" if n % 2 else "dislike"
        store.upsert(USER, make_preference(f"other-{n}", polarity=polarity, strength="soft"))

    block = build_preference_block(store, USER, "other 7 headphones", settings=settings)

    [hard_line] = [line for line in block.splitlines() if line.startswith("material: ")]
    for n in range(12):  # in full: slug and every other surface form
        assert f"banned-{n} 禁{n}" in hard_line.removeprefix("material: ").split("; ")
    others = [item for line in block.splitlines() for item in line.split("; ") if "other-" in item]
    assert len(others) <= settings.preference_top_k
    assert count_tokens(block) < 300


def test_block_is_empty_without_preferences(store: PreferenceStore, settings: Settings) -> None:
    assert build_preference_block(store, USER, "anything", settings=settings) == ""


def test_exclude_terms_cover_global_and_relevant_scoped_hard_dislikes_soft_ones_demote(
    store: PreferenceStore, tuned: Settings
) -> None:
    store.upsert(USER, make_preference("leather", keywords=["leather", "皮革"]))
    store.upsert(
        USER, make_preference("plastic", domain="electronics", keywords=["plastic", "塑料"])
    )
    store.upsert(USER, make_preference("polyester", strength="soft", keywords=["polyester"]))
    store.upsert(USER, make_preference("wool", polarity="like", keywords=["wool"]))

    # A soft dislike ("我不太喜欢涤纶") is a leaning: it demotes, it never filters.
    assert sorted(dislike_exclude_terms(store, USER, "electronics headphones", settings=tuned)) == [
        "leather",
        "plastic",
        "塑料",
        "皮革",
    ]
    assert sorted(dislike_exclude_terms(store, USER, "garden chair", settings=tuned)) == [
        "leather",
        "皮革",
    ]
    context = preference_context(store, USER, "garden chair", settings=tuned)
    assert context.demote_terms == ["polyester"]
    assert {e.slug for e in context.dislikes} == {"leather", "polyester"}


def test_dislike_without_keywords_falls_back_to_its_phrase_with_warning_and_count(
    store: PreferenceStore, tuned: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    store.upsert(USER, make_preference("memory-foam", keywords=[]))
    before = keyword_fallbacks["material"]

    with caplog.at_level(logging.WARNING, logger="cartwise"):
        terms = dislike_exclude_terms(store, USER, "mattress", settings=tuned)

    assert terms == ["memory foam"]
    assert keyword_fallbacks["material"] == before + 1
    assert any("whole phrase" in r.getMessage() for r in caplog.records)
    assert "memory-foam" not in caplog.text  # personal data stays out of logs by default


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("", 0), ("hello world", 3), ("不要塑料", 4), ("不要塑料的耳机, under 500", 11)],
)
def test_count_tokens_estimate(text: str, tokens: int) -> None:
    assert count_tokens(text) == tokens


def test_preference_context_is_the_three_views_from_one_read(
    store: PreferenceStore, tuned: Settings
) -> None:
    _seed_mixed(store)
    store.upsert(USER, make_preference("rubber", domain="electronics", keywords=["rubber"]))

    for query in QUERIES:
        context = preference_context(store, USER, query, settings=tuned)
        assert context.block == build_preference_block(store, USER, query, settings=tuned)
        assert context.profile == build_user_profile(store, USER, query, settings=tuned)
        assert context.exclude_terms == dislike_exclude_terms(store, USER, query, settings=tuned)
