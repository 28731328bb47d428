"""Recipients: each is a namespace of its own under the same user, in both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.errors import InvalidPreference
from cartwise.memory import create_preference_store
from cartwise.memory.backends.sqlite import SqlitePreferenceStore
from cartwise.memory.doctor import diagnose, repair
from cartwise.memory.store import PreferenceStore
from cartwise.settings import Settings
from tests.factories import make_preference

USER = "alice"


def test_the_same_fact_for_two_recipients_is_two_entries(store: PreferenceStore) -> None:
    mine = store.upsert(USER, make_preference("purple", category="color", polarity="like"))
    mums = store.upsert(USER, make_preference("purple", category="color", recipient="mum"))

    # Same dedup_key format inside each namespace; a dislike of mum's is no flip of my like.
    assert mine.dedup_key == "like:color::purple"
    assert mums.dedup_key == "dislike:color::purple"
    assert store.get(USER, "like:color::purple") == mine
    assert store.get(USER, "dislike:color::purple") is None
    assert store.get(USER, "dislike:color::purple", recipient="mum") == mums
    assert [e.dedup_key for e in store.list(USER, recipient="self")] == ["like:color::purple"]
    assert [e.recipient for e in store.list(USER)] == ["self", "mum"]


def test_supersede_and_delete_stay_in_their_namespace(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("brown", category="color"))
    store.upsert(USER, make_preference("brown", category="color", recipient="dad"))

    assert store.delete(USER, "dislike:color::brown", recipient="dad")
    assert not store.delete(USER, "dislike:color::brown", recipient="dad")
    assert [e.recipient for e in store.list(USER)] == ["self"]
    store.upsert(USER, make_preference("brown", category="color", recipient="dad"))
    assert store.supersede(USER, ["dislike:color::brown"]) == 1
    assert [e.recipient for e in store.list(USER)] == ["dad"]


def test_a_flip_retires_the_twin_only_in_the_same_namespace(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("wool", polarity="like"))
    store.upsert(USER, make_preference("wool", polarity="like", recipient="mum"))
    store.upsert(USER, make_preference("wool", recipient="mum"))

    assert sorted((e.recipient, e.dedup_key) for e in store.list(USER)) == [
        ("mum", "dislike:material::wool"),
        ("self", "like:material::wool"),
    ]


def test_reads_rank_one_namespace_only(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic"))
    store.upsert(USER, make_preference("purple", category="color", recipient="mum"))

    assert [s.entry.slug for s in store.rank_relevant(USER, "scarf", k=10)] == ["plastic"]
    mums = store.rank_relevant(USER, "scarf", k=10, recipient="mum")
    assert [s.entry.slug for s in mums] == ["purple"]
    assert [e.slug for e in store.read_relevant(USER, "scarf", recipient="mum")] == ["purple"]
    assert store.rank_relevant(USER, "scarf", k=10, recipient="son") == []


def test_a_write_is_seen_by_the_next_read_through_the_cache(
    backend_settings: Settings, store: PreferenceStore
) -> None:
    """The read cache is keyed by the namespace's write version: a write by another store
    object (another process, in production) is never hidden by it."""
    store.upsert(USER, make_preference("plastic"))
    assert len(store.rank_relevant(USER, "q", k=10)) == 1
    other = create_preference_store(backend_settings, HashingEmbedder())
    try:
        other.upsert(USER, make_preference("leather"))
        assert len(store.rank_relevant(USER, "q", k=10)) == 2
        other.delete(USER, "dislike:material::plastic")
        assert [s.entry.slug for s in store.rank_relevant(USER, "q", k=10)] == ["leather"]
        other.upsert(USER, make_preference("leather", keywords=["皮革"]))
        [scored] = store.rank_relevant(USER, "q", k=10)
        assert scored.entry.keywords == ["leather", "皮革"]
    finally:
        other.close()


def test_export_style_replace_all_keeps_every_namespace(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("plastic"))
    store.upsert(USER, make_preference("silk", recipient="wife"))
    entries = [make_preference("wool", recipient="mum"), make_preference("metal")]
    store.replace_all(USER, entries)  # type: ignore[attr-defined]

    assert sorted((e.recipient, e.slug) for e in store.list(USER)) == [
        ("mum", "wool"),
        ("self", "metal"),
    ]
    assert store.list(USER, recipient="wife") == []
    assert store.rank_relevant(USER, "q", k=5, recipient="wife") == []


def test_doctor_sees_conflicts_per_namespace_only(store: PreferenceStore) -> None:
    store.upsert(USER, make_preference("wool", polarity="like"))
    store.upsert(USER, make_preference("wool", recipient="mum"))
    report = diagnose(store, USER)  # type: ignore[arg-type]
    assert report.healthy and report.rows == 2
    assert repair(store, USER).kept == 2  # type: ignore[arg-type]


def test_a_bad_recipient_is_refused_before_anything_is_written(store: PreferenceStore) -> None:
    with pytest.raises(InvalidPreference, match="recipient"):
        make_preference("wool", recipient="My Mum")
    with pytest.raises(InvalidPreference, match="recipient"):
        store.list(USER, recipient="mum}")
    assert store.list(USER) == []


def test_an_old_sqlite_file_migrates_to_the_shoppers_own_namespace(tmp_path: Path) -> None:
    path = tmp_path / "preferences.sqlite3"
    entry = make_preference("plastic", keywords=["plastic", "塑料"])
    legacy = entry.model_dump_json(exclude={"recipient"})
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE preferences (
            user TEXT NOT NULL, key TEXT NOT NULL, payload TEXT NOT NULL, vector BLOB,
            vector_tag TEXT NOT NULL DEFAULT '', PRIMARY KEY (user, key)
        ) WITHOUT ROWID;
        """
    )
    conn.execute(
        "INSERT INTO preferences (user, key, payload) VALUES (?, ?, ?)",
        (USER, entry.dedup_key, legacy),
    )
    conn.commit()
    conn.close()

    store = SqlitePreferenceStore(path, HashingEmbedder())
    try:
        [migrated] = store.list(USER)
        assert migrated.recipient == "self" and migrated.keywords == ["plastic", "塑料"]
        assert store.get(USER, entry.dedup_key) == migrated
        assert [s.entry.slug for s in store.rank_relevant(USER, "q", k=3)] == ["plastic"]
        store.upsert(USER, make_preference("plastic", recipient="mum"))
        assert len(store.list(USER)) == 2
    finally:
        store.close()
    # Opening again finds nothing left to migrate.
    again = SqlitePreferenceStore(path, HashingEmbedder())
    try:
        assert len(again.list(USER)) == 2
    finally:
        again.close()
