"""The in-process read cache of a namespace: a write patches it (the rows it touched are read,
not the whole namespace), and whatever wrote — this store, another store object, another
process — the next read sees exactly what is stored. Both backends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_preference_store
from cartwise.memory.backends.common import CHANGE_LOG_SLACK
from cartwise.memory.injector import preference_context
from cartwise.memory.store import PreferenceStore
from cartwise.settings import Settings
from tests.factories import make_preference

USER = "alice"


def read_slugs(store: PreferenceStore, recipient: str = "self") -> list[str]:
    return sorted(
        s.entry.slug for s in store.rank_relevant(USER, "q", k=10_000, recipient=recipient)
    )


def count_reads(store: PreferenceStore) -> Counter[str]:
    """How often the store read a namespace whole (`full`) or only what changed (`changes`)."""
    reads: Counter[str] = Counter()
    full, changes = store._vector_rows, store._changes_since  # type: ignore[attr-defined]

    def counted_full(*args: Any) -> Any:
        reads["full"] += 1
        return full(*args)

    def counted_changes(*args: Any) -> Any:
        reads["changes"] += 1
        return changes(*args)

    store._vector_rows = counted_full  # type: ignore[attr-defined]
    store._changes_since = counted_changes  # type: ignore[attr-defined]
    return reads


@pytest.fixture
def other(backend_settings: Settings) -> Iterator[PreferenceStore]:
    """A second store object on the same data (another replica, in production)."""
    opened = create_preference_store(backend_settings, HashingEmbedder())
    yield opened
    opened.close()


def test_a_write_patches_the_cached_namespace_instead_of_reading_it_whole(
    store: PreferenceStore,
) -> None:
    store.upsert(USER, make_preference("plastic"))
    store.upsert(USER, make_preference("leather"))
    reads = count_reads(store)
    assert read_slugs(store) == ["leather", "plastic"]
    assert reads == Counter(full=1)

    store.upsert(USER, make_preference("wool"))
    assert read_slugs(store) == ["leather", "plastic", "wool"]
    assert read_slugs(store) == ["leather", "plastic", "wool"]  # cached: no read at all
    assert reads == Counter(full=1, changes=1)


def test_a_merge_a_delete_and_a_flip_reach_the_next_read(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic", keywords=["plastic"]))
    store.upsert(USER, make_preference("leather"))
    store.upsert(USER, make_preference("nike", category="brand", polarity="like"))
    reads = count_reads(store)
    read_slugs(store)

    store.upsert(USER, make_preference("plastic", keywords=["塑料"]))
    [plastic] = [s.entry for s in store.rank_relevant(USER, "q", k=10) if s.entry.slug == "plastic"]
    assert plastic.keywords == ["plastic", "塑料"]

    store.delete(USER, "dislike:material::leather")
    assert read_slugs(store) == ["nike", "plastic"]

    # The dislike retires its like twin in the same write: both keys change in one step.
    store.upsert(USER, make_preference("nike", category="brand"))
    assert sorted(s.entry.dedup_key for s in store.rank_relevant(USER, "q", k=10)) == [
        "dislike:brand::nike",
        "dislike:material::plastic",
    ]
    store.upsert(USER, make_preference("wool"), supersede=["dislike:material::plastic"])
    assert read_slugs(store) == ["nike", "wool"]
    assert reads == Counter(full=1, changes=4)


def test_the_patched_namespace_scores_like_a_fresh_read(
    backend_settings: Settings, store: PreferenceStore
) -> None:
    for slug in ("plastic", "leather", "wool", "silk"):
        store.upsert(USER, make_preference(slug))
    read_slugs(store)
    store.upsert(USER, make_preference("cotton"))
    store.delete(USER, "dislike:material::leather")
    patched = store.rank_relevant(USER, "cotton 棉", k=10)
    fresh_store = create_preference_store(backend_settings, HashingEmbedder())
    try:
        fresh = fresh_store.rank_relevant(USER, "cotton 棉", k=10)
    finally:
        fresh_store.close()
    assert [(s.entry, s.score) for s in patched] == [(s.entry, s.score) for s in fresh]


def test_a_write_for_one_recipient_leaves_the_others_cache_alone(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic"))
    store.upsert(USER, make_preference("purple", category="color", recipient="mum"))
    reads = count_reads(store)
    read_slugs(store)
    read_slugs(store, "mum")

    store.upsert(USER, make_preference("brown", category="color", recipient="mum"))
    assert read_slugs(store) == ["plastic"]
    assert reads == Counter(full=2)  # self's namespace: still current, nothing read
    assert read_slugs(store, "mum") == ["brown", "purple"]
    assert reads == Counter(full=2, changes=1)


def test_a_second_store_object_sees_every_write_of_the_first(
    store: PreferenceStore, other: PreferenceStore
) -> None:
    store.upsert(USER, make_preference("plastic"))
    store.upsert(USER, make_preference("leather"))
    reads = count_reads(other)
    assert read_slugs(other) == ["leather", "plastic"]

    store.upsert(USER, make_preference("wool"))
    assert read_slugs(other) == ["leather", "plastic", "wool"]
    store.delete(USER, "dislike:material::plastic")
    assert read_slugs(other) == ["leather", "wool"]
    store.supersede(USER, ["dislike:material::wool", "dislike:material::leather"])
    assert read_slugs(other) == []
    assert reads == Counter(full=1, changes=3)


def test_a_whole_replace_makes_every_cache_read_the_namespace_again(
    store: PreferenceStore, other: PreferenceStore
) -> None:
    store.upsert(USER, make_preference("plastic"))
    reads = count_reads(other)
    read_slugs(other)
    store.replace_all(USER, [make_preference("metal")])  # type: ignore[attr-defined]
    assert read_slugs(other) == ["metal"]
    assert reads == Counter(full=2)


def test_a_change_log_full_of_deleted_keys_starts_over(
    store: PreferenceStore, other: PreferenceStore
) -> None:
    many = [make_preference(f"thing-{n}") for n in range(CHANGE_LOG_SLACK + 8)]
    store.replace_all(USER, many)  # type: ignore[attr-defined]
    reads = count_reads(other)
    assert len(read_slugs(other)) == len(many)
    store.supersede(USER, [e.dedup_key for e in many])  # one write, many deleted keys
    assert read_slugs(other) == []
    store.upsert(USER, make_preference("wool"))  # clears the log: a new epoch
    assert read_slugs(other) == ["wool"]
    store.upsert(USER, make_preference("silk"))  # and patches again from there
    assert read_slugs(other) == ["silk", "wool"]
    assert reads == Counter(full=2, changes=2)


def _views(store: PreferenceStore, settings: Settings) -> list[Any]:
    """What reads derive from a namespace, for queries in and out of its domains."""
    views: list[Any] = []
    for query in ("electronics headphones", "garden chair", "zqx thing"):
        context = preference_context(store, USER, query, settings=settings)
        scored = store.score_namespace(USER, query)
        views.append(
            (
                context.block,
                context.profile,
                sorted(context.exclude_terms),
                sorted(context.demote_terms),
                [e.dedup_key for e in context.dislikes],
                context.excluded_more,
                context.demoted_more,
                scored.domain_index.tolist() if scored.domain_index is not None else None,
            )
        )
    views.append([e.dedup_key for e in store.named_in(USER, "wool and the new rubber please")])
    return views


def test_the_patched_lookups_are_those_of_a_fresh_read(
    backend_settings: Settings, store: PreferenceStore
) -> None:
    """Filter and demote keywords, counts, the term index, the latest like and the domains
    are patched by each write, never derived from every entry again: after every kind of
    write they are what a fresh read derives."""
    settings = backend_settings.model_copy(update={"preference_relevance_threshold": 0.3})
    for n, domain in enumerate(["", "electronics", "clothing", "zqx-unplaced"] * 3):
        store.upsert(USER, make_preference(f"hard-{n}", domain=domain, keywords=[f"h{n}", "塑料"]))
        store.upsert(USER, make_preference(f"soft-{n}", domain=domain, strength="soft"))
        store.upsert(USER, make_preference(f"like-{n}", polarity="like", domain=domain))
    writes = [
        lambda: store.upsert(USER, make_preference("rubber", domain="garden", keywords=["rubber"])),
        lambda: store.upsert(USER, make_preference("hard-0", keywords=["h0", "extra"])),  # merge
        lambda: store.delete(USER, "dislike:material:garden:rubber"),  # a domain's last entry
        lambda: store.upsert(USER, make_preference("soft-1", domain="electronics")),  # harden
        lambda: store.upsert(USER, make_preference("wool", polarity="like", keywords=["wool"])),
        lambda: store.delete(USER, "like:material::wool"),  # the latest like goes
        lambda: store.upsert(USER, make_preference("bare", keywords=[])),  # no keywords
        lambda: store.upsert(USER, make_preference("hard-2", polarity="like", domain="clothing")),
    ]
    _views(store, settings)  # cached from here on: every write below patches it
    reads = count_reads(store)
    for write in writes:
        write()
        fresh_store = create_preference_store(backend_settings, HashingEmbedder())
        try:
            assert _views(store, settings) == _views(fresh_store, settings)
        finally:
            fresh_store.close()
    assert reads["full"] == 0 and reads["changes"] == len(writes)
