"""The PreferenceStore contract, identical for SQLite and Redis."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.errors import InvalidInput, InvalidPreference
from cartwise.memory import create_preference_store
from cartwise.memory.backends.common import VECTOR_TEXT_CHARS
from cartwise.memory.store import PreferenceEntry, PreferenceStore
from cartwise.settings import Settings
from tests.doubles import CountingEmbedder
from tests.factories import make_preference

USER = "alice"


def test_same_key_twice_is_one_entry_with_merged_keywords(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic", keywords=["plastic", "塑料"]))
    stored = store.upsert(USER, make_preference("plastic", keywords=["塑胶", "Plastic"]))

    assert [e.dedup_key for e in store.list(USER)] == ["dislike:material::plastic"]
    assert stored.keywords == ["plastic", "塑料", "塑胶"]
    assert store.get(USER, "dislike:material::plastic") == stored


def test_merge_keeps_creation_time_and_takes_newer_strength(store: PreferenceStore) -> None:
    first = store.upsert(USER, make_preference("leather", strength="soft"))
    second = store.upsert(USER, make_preference("leather", strength="hard"))

    assert second.strength.value == "hard"
    assert second.provenance.created_at == first.provenance.created_at
    assert second.provenance.updated_at >= first.provenance.updated_at


def test_same_slug_in_two_domains_is_two_entries(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic", domain="electronics"))
    store.upsert(USER, make_preference("plastic", domain="clothing"))

    assert sorted(e.dedup_key for e in store.list(USER)) == [
        "dislike:material:clothing:plastic",
        "dislike:material:electronics:plastic",
    ]


def test_like_flipped_to_dislike_leaves_only_the_dislike(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("nike", polarity="like", category="brand"))
    store.upsert(USER, make_preference("nike", polarity="dislike", category="brand"))

    assert [e.dedup_key for e in store.list(USER)] == ["dislike:brand::nike"]


def test_supersede_named_keys_in_the_same_step(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("red", polarity="like", category="color"))
    store.upsert(
        USER,
        make_preference("blue", polarity="like", category="color"),
        supersede=["like:color::red"],
    )

    assert [e.dedup_key for e in store.list(USER)] == ["like:color::blue"]


def test_superseding_an_entrys_own_key_replaces_instead_of_merging(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic", keywords=["plastik"]))
    stored = store.upsert(
        USER,
        make_preference("plastic", keywords=["plastic"]),
        supersede=["dislike:material::plastic"],
    )

    assert stored.keywords == ["plastic"]


def test_supersede_delete_and_get(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("a"))
    store.upsert(USER, make_preference("b"))

    assert store.supersede(USER, ["dislike:material::a", "like:material::zzz"]) == 1
    assert store.get(USER, "dislike:material::a") is None
    assert store.delete(USER, "dislike:material::b") is True
    assert store.delete(USER, "dislike:material::b") is False
    assert store.list(USER) == []


def test_users_are_isolated(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic"))

    assert store.list("bob") == []
    assert store.get("bob", "dislike:material::plastic") is None
    assert store.rank_relevant("bob", "plastic", k=5) == []


def test_list_is_oldest_first(store: PreferenceStore) -> None:
    for slug in ["c", "a", "b"]:
        store.upsert(USER, make_preference(slug))

    assert [e.slug for e in store.list(USER)] == ["c", "a", "b"]


def test_no_caller_can_set_dedup_key() -> None:
    with pytest.raises(ValidationError, match="dedup_key"):
        PreferenceEntry.model_validate(
            {
                "polarity": "like",
                "category": "brand",
                "slug": "nike",
                "dedup_key": "like:brand::adidas",
            }
        )
    entry = make_preference("nike", polarity="like", category="brand")
    with pytest.raises(ValidationError, match="frozen"):
        entry.dedup_key = "like:brand::adidas"  # type: ignore[misc]
    assert entry.model_copy(update={"slug": "puma"}).dedup_key == "like:brand::puma"


@pytest.mark.parametrize(
    ("field", "value"),
    [("category", "colour"), ("polarity", "love"), ("slug", "Plastic Bags"), ("slug", "塑料")],
)
def test_invalid_fields_are_rejected_and_nothing_is_written(
    store: PreferenceStore, field: str, value: str
) -> None:
    data = {"polarity": "dislike", "category": "material", "slug": "plastic", field: value}

    with pytest.raises(InvalidPreference) as info:
        store.upsert(USER, PreferenceEntry.model_validate(data))

    assert info.value.field == field
    assert f"invalid preference {field}=" in str(info.value)
    assert store.list(USER) == []


def test_invalid_supersede_key_writes_nothing(store: PreferenceStore) -> None:
    with pytest.raises(InvalidPreference, match="dedup_key"):
        store.upsert(USER, make_preference("plastic"), supersede=["not-a-key"])

    assert store.list(USER) == []


def test_user_ids_that_would_break_keys_are_rejected(store: PreferenceStore) -> None:
    with pytest.raises(InvalidInput):
        store.upsert("a}b", make_preference("plastic"))


def test_rank_relevant_orders_by_similarity_and_limits(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("leather", keywords=["leather", "皮革"]))
    store.upsert(USER, make_preference("plastic", keywords=["plastic", "塑料"]))
    store.upsert(USER, make_preference("wool", keywords=["wool"]))

    ranked = store.rank_relevant(USER, "塑料 plastic", k=2)

    assert ranked[0].entry.slug == "plastic"
    assert len(ranked) == 2
    assert ranked[0].score > ranked[1].score


def test_read_relevant_keeps_globals_and_relevant_scoped_entries(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("leather"))  # global: always applies
    store.upsert(USER, make_preference("plastic", domain="electronics"))
    store.upsert(USER, make_preference("polyester", domain="clothing"))

    about_electronics = store.read_relevant(USER, "electronics headphones", threshold=0.3)

    assert {e.dedup_key for e in about_electronics} == {
        "dislike:material::leather",
        "dislike:material:electronics:plastic",
    }
    assert [e.slug for e in store.read_relevant(USER, "garden chair", threshold=0.3)] == ["leather"]


def test_a_model_change_re_embeds_stored_vectors(
    backend_settings: Settings, store: PreferenceStore
) -> None:
    store.upsert(USER, make_preference("plastic", domain="electronics"))
    other = create_preference_store(backend_settings, HashingEmbedder(64))
    try:
        ranked = other.rank_relevant(USER, "electronics", k=1)
        assert ranked[0].score == pytest.approx(1.0, abs=1e-5)
        # Re-embedded once and kept: the next read finds vectors tagged with the new model.
        _, rows = other._vector_rows(USER, "self")  # type: ignore[attr-defined]
        assert rows and all(row.vector is not None and row.vector.shape == (64,) for row in rows)
    finally:
        other.close()


def test_the_largest_entry_the_api_accepts_embeds_only_its_start(
    backend_settings: Settings,
) -> None:
    embedder = CountingEmbedder(HashingEmbedder())
    store = create_preference_store(backend_settings, embedder)
    try:
        keywords = [f"{n:02d}" + "q" * 62 for n in range(24)]
        store.upsert("vera", make_preference("steel-wool", keywords=keywords))
        scoped = make_preference("jute", domain="home-kitchen", keywords=["jute"])
        store.upsert("vera", scoped)
        assert embedder.documents, "an entry's vector is computed when it is written"
        assert all(len(text) <= VECTOR_TEXT_CHARS for text in embedder.documents)
        assert embedder.documents[0].startswith("steel wool 00qqq")
        # A scoped entry's vector is its own words (the user tower's material); its
        # relevance to a query is its domain's, embedded when a read first needs it.
        assert embedder.documents[1] == "jute jute"
        stored = store.get("vera", "dislike:material::steel-wool")
        assert stored is not None and stored.keywords == keywords  # stored whole
    finally:
        store.close()
