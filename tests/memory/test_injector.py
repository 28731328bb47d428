"""What the model, the user tower and the hard filter see (hashing embedder: logic only)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from cartwise.memory.injector import (
    NAMED_DISLIKES,
    build_preference_block,
    build_user_profile,
    count_tokens,
    dislike_exclude_terms,
    keyword_fallbacks,
    preference_context,
)
from cartwise.memory.store import PreferenceEntry, PreferenceStore, ScoredNamespace
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


def _many_dislikes() -> list[PreferenceEntry]:
    """Hard and soft dislikes over global, placeable and unplaceable domains, some slugs
    stored for two domains, and likes among them."""
    domains = ["", "electronics", "clothing", "zqx-unplaced"]
    entries = []
    for n in range(240):
        domain = domains[n % len(domains)]
        entries.append(
            make_preference(
                f"hard-{n % 150}",
                domain=domain,
                keywords=[f"hard{n % 150}", "塑料" if n % 7 == 0 else f"硬{n}"],
            )
        )
        entries.append(
            make_preference(f"soft-{n}", domain=domain, strength="soft", keywords=[f"soft{n}"])
        )
        entries.append(make_preference(f"liked-{n}", polarity="like", domain=domain))
    return entries


def _terms_entry_by_entry(scored: ScoredNamespace, mask: np.ndarray) -> set[str]:
    return {word for i in np.flatnonzero(mask) for word in scored.entries[i].keywords}


def test_a_read_filters_and_demotes_on_every_dislike_but_names_a_bounded_few(
    store: PreferenceStore, tuned: Settings
) -> None:
    store.replace_all(USER, _many_dislikes())  # type: ignore[attr-defined]
    threshold = tuned.preference_relevance_threshold

    for query in [*QUERIES, "zqx unplaced thing"]:
        context = preference_context(store, USER, query, settings=tuned)
        scored = store.score_namespace(USER, query)
        assert scored.domain_in_scope is not None and -1 in scored.domain_in_scope.tolist()
        excluding = scored.hard_dislike & scored.may_apply(threshold)
        demoting = scored.dislike & ~scored.hard_dislike & scored.applies(threshold)

        assert set(context.exclude_terms) == _terms_entry_by_entry(scored, excluding), query
        assert set(context.demote_terms) == _terms_entry_by_entry(scored, demoting), query
        assert len(context.exclude_terms) == len(set(context.exclude_terms))
        hard = [e for e in context.dislikes if e.is_hard_dislike]
        soft = [e for e in context.dislikes if not e.is_hard_dislike]
        assert len(hard) <= NAMED_DISLIKES and len(soft) <= NAMED_DISLIKES
        hard_slugs = {scored.entries[i].slug for i in np.flatnonzero(excluding)}
        soft_slugs = {scored.entries[i].slug for i in np.flatnonzero(demoting)}
        assert context.excluded_more == len(hard_slugs - {e.slug for e in hard}), query
        assert context.demoted_more == len(soft_slugs - {e.slug for e in soft}), query


def test_a_write_after_a_read_changes_what_the_next_read_filters_on(
    store: PreferenceStore, tuned: Settings
) -> None:
    """The keyword groups are cached with the namespace and patched by each write."""
    store.replace_all(USER, _many_dislikes())  # type: ignore[attr-defined]
    before = preference_context(store, USER, "headphones", settings=tuned)
    assert "latecomer" not in before.exclude_terms

    store.upsert(USER, make_preference("latecomer", keywords=["latecomer"]))
    store.delete(USER, "dislike:material::hard-100")
    after = preference_context(store, USER, "headphones", settings=tuned)

    assert "latecomer" in after.exclude_terms
    assert "hard100" in before.exclude_terms and "hard100" not in after.exclude_terms
    assert after.excluded_more == before.excluded_more  # one in, one out


def test_the_profile_names_each_word_of_a_like_once(
    store: PreferenceStore, tuned: Settings
) -> None:
    """The profile is embedded per turn: a word said twice costs tokens and says nothing."""
    store.upsert(
        USER,
        make_preference(
            "solid-wood", polarity="like", keywords=["solid wood", "Wood", "实木", "walnut"]
        ),
    )

    assert build_user_profile(store, USER, "desk", settings=tuned) == "solid wood 实木 walnut"
