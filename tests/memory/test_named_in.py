"""The slice of memory a turn hands the reader: the entries a message names (or the turn's
slugs), plus each namespace's latest like, bounded per namespace, found through a term
index kept with the cached namespace — the same on both backends, and current after writes
by anyone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cartwise.memory.store import PreferenceEntry, PreferenceStore, Provenance

USER = "slice-user"


def entry(slug: str, keywords: list[str], *, polarity: str = "dislike", recipient: str = "self",
          age_days: int = 0) -> PreferenceEntry:  # fmt: skip
    when = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=age_days)
    return PreferenceEntry.model_validate(
        {
            "recipient": recipient,
            "polarity": polarity,
            "category": "material",
            "slug": slug,
            "keywords": keywords,
            "provenance": Provenance(created_at=when, updated_at=when),
        }
    )


def filler(count: int) -> list[PreferenceEntry]:
    return [entry(f"filler-{n}", [f"filler{n}"]) for n in range(count)]


def test_only_what_the_message_names_and_the_latest_like(store: PreferenceStore) -> None:
    for written in [
        *filler(300),
        entry("plastic", ["塑料", "plastic"]),
        entry("abs-plastic", ["abs plastic"]),
        entry("wool", ["羊毛"], polarity="like", age_days=3),
        entry("cotton", ["棉"], polarity="like", age_days=1),
        entry("leather", ["真皮"], recipient="mum"),
    ]:
        store.upsert(USER, written)
    named = store.named_in(USER, "我不讨厌塑料了, and ABS Plastic is fine; 妈妈不要真皮")
    keys = {e.qualified_key for e in named}
    assert keys == {
        "dislike:material::plastic",
        "dislike:material::abs-plastic",
        "like:material::wool",  # the latest like, named or not ("not anymore")
        "mum/dislike:material::leather",
    }


def test_slugs_find_entries_whatever_words_they_were_stored_with(store: PreferenceStore) -> None:
    store.upsert(USER, entry("polyester", ["涤纶"]))
    store.upsert(USER, entry("nylon", []))
    found = store.named_in(USER, "", slugs=["polyester", "nylon"])
    assert {e.slug for e in found} == {"polyester", "nylon"}


def test_the_slice_is_bounded_per_namespace(store: PreferenceStore) -> None:
    for n in range(60):
        store.upsert(USER, entry(f"thing-{n}", ["共同词"]))
    assert len(store.named_in(USER, "共同词", limit=32)) == 32


def test_the_slice_follows_writes_and_deletes(store: PreferenceStore) -> None:
    store.upsert(USER, entry("plastic", ["塑料"]))
    assert [e.slug for e in store.named_in(USER, "塑料")] == ["plastic"]
    store.upsert(USER, entry("plastic", ["塑胶"]))  # merged keywords
    assert [e.slug for e in store.named_in(USER, "塑胶")] == ["plastic"]
    store.delete(USER, "dislike:material::plastic")
    assert store.named_in(USER, "塑料 塑胶") == []


def test_nobody_elses_entries(store: PreferenceStore) -> None:
    store.upsert("someone-else", entry("plastic", ["塑料"]))
    assert store.named_in(USER, "塑料") == []
