"""Per-user caps hold under concurrent writers, and an erase leaves nothing — not even for
work that began before it — on every backend."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.errors import AccountErased, QuotaExceeded
from cartwise.memory import create_preference_store, create_session_store
from cartwise.memory.pinned import PinnedPreferences, PinnedSessions
from cartwise.memory.session_state import ChatMessage, SessionPatch
from cartwise.memory.store import PreferenceEntry
from cartwise.settings import Settings
from tests.factories import make_preference

CAP = 7
RACERS = 18


def _race(task: Callable[[int], None]) -> list[BaseException | None]:
    """Run `task(n)` for RACERS threads released at the same moment."""
    start = threading.Barrier(RACERS)
    outcomes: list[BaseException | None] = [None] * RACERS

    def run(n: int) -> None:
        start.wait()
        try:
            task(n)
        except BaseException as exc:  # every outcome is inspected below
            outcomes[n] = exc

    threads = [threading.Thread(target=run, args=(n,)) for n in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.fixture
def capped(backend_settings: Settings) -> Settings:
    return backend_settings.model_copy(
        update={"max_threads_per_user": CAP, "max_preferences_per_user": CAP}
    )


def test_concurrent_first_turns_open_no_more_threads_than_the_cap(capped: Settings) -> None:
    sessions = create_session_store(capped)
    try:
        outcomes = _race(lambda n: sessions.start("ivy", f"race-{n}"))
        assert len(sessions.threads("ivy")) == CAP
        refused = [o for o in outcomes if o is not None]
        assert len(refused) == RACERS - CAP
        assert all(isinstance(o, QuotaExceeded) for o in refused)
        sessions.start("ivy", sessions.threads("ivy")[0])  # a live thread goes on at the cap
    finally:
        sessions.close()


def test_concurrent_new_entries_stop_at_the_cap_across_namespaces(capped: Settings) -> None:
    store = create_preference_store(capped, HashingEmbedder())
    recipients = ("self", "mum", "son")
    try:

        def write(n: int) -> None:
            entry = make_preference(f"fabric-{n}", keywords=[f"fabric{n}"])
            store.upsert("ivy", entry.model_copy(update={"recipient": recipients[n % 3]}))

        outcomes = _race(write)
        assert len(store.list("ivy")) == CAP
        assert sum(isinstance(o, QuotaExceeded) for o in outcomes) == RACERS - CAP
        kept = store.list("ivy")[0]
        store.upsert("ivy", kept.model_copy(update={"keywords": ["again"]}))  # an update is fine
        with pytest.raises(QuotaExceeded):
            store.replace_all("ivy", [make_preference(f"x{n}") for n in range(CAP + 1)])  # type: ignore[attr-defined]
    finally:
        store.close()


@pytest.fixture
def both(backend_settings: Settings) -> Iterator[tuple[object, object]]:
    store = create_preference_store(backend_settings, HashingEmbedder())
    sessions = create_session_store(backend_settings)
    yield store, sessions
    store.close()
    sessions.close()


def test_an_erase_removes_every_namespace_and_thread_and_outdates_earlier_work(
    both: tuple[object, object],
) -> None:
    store, sessions = both
    assert hasattr(store, "erase") and hasattr(sessions, "erase")
    for recipient in ("self", "aunt", "friend-zoe"):
        entry = make_preference("cork", keywords=["cork"]).model_copy(
            update={"recipient": recipient}
        )
        store.upsert("kim", entry)  # type: ignore[attr-defined]
    store.upsert("lee", make_preference("cork", keywords=["cork"]))  # type: ignore[attr-defined]
    sessions.start("kim", "k1")  # type: ignore[attr-defined]
    sessions.patch("kim", "k2", SessionPatch(current_intent="a cork board"))  # type: ignore[attr-defined]
    # Work that began before the erase holds the generation of then.
    earlier_prefs = PinnedPreferences(store, "kim", store.generation("kim"))  # type: ignore[arg-type, attr-defined]
    earlier_sessions = PinnedSessions(sessions, "kim", sessions.generation("kim"))  # type: ignore[arg-type, attr-defined]

    store.erase("kim")  # type: ignore[attr-defined]
    sessions.erase("kim")  # type: ignore[attr-defined]

    assert store.list("kim") == []  # type: ignore[attr-defined]
    assert [e.slug for e in store.list("lee")] == ["cork"]  # type: ignore[attr-defined]
    assert sessions.threads("kim") == []  # type: ignore[attr-defined]
    late = make_preference("felt", keywords=["felt"])
    for write in (
        lambda: earlier_prefs.upsert("kim", late),
        lambda: earlier_prefs.supersede("kim", [late.dedup_key]),
        lambda: earlier_sessions.start("kim", "k3"),
        lambda: earlier_sessions.patch("kim", "k1", SessionPatch(current_intent="x")),
        lambda: earlier_sessions.append_messages(
            "kim", "k1", [ChatMessage(role="user", content="late")]
        ),
    ):
        with pytest.raises(AccountErased):
            write()
    assert store.list("kim") == [] and sessions.threads("kim") == []  # type: ignore[attr-defined]
    # Work that begins after the erase (a new account of the same name) writes as usual.
    now = PinnedPreferences(store, "kim", store.generation("kim"))  # type: ignore[arg-type, attr-defined]
    stored = now.upsert("kim", late)
    assert isinstance(stored, PreferenceEntry)
    assert [e.slug for e in store.list("kim")] == ["felt"]  # type: ignore[attr-defined]


def test_the_cap_counts_a_shoppers_entries_through_an_index_not_their_vectors(
    settings: Settings,
) -> None:
    """Every new key counts the shopper's entries; through the table that read every row's
    vector (~20 ms at 10,000 entries, each write)."""
    import sqlite3

    capped = settings.model_copy(
        update={"max_preferences_per_user": CAP, "store_backend": "sqlite"}
    )
    store = create_preference_store(capped, HashingEmbedder())
    store.upsert("ann", make_preference("plastic"))
    store.close()
    with sqlite3.connect(capped.home / "preferences.sqlite3") as conn:
        plans = [
            " ".join(str(part) for part in row)
            for query in (
                "SELECT COUNT(*) FROM preferences WHERE user = ?",
                "SELECT COUNT(*) FROM preferences WHERE user = ? AND recipient = ?",
            )
            for row in conn.execute(
                f"EXPLAIN QUERY PLAN {query}", ("ann", "self")[: query.count("?")]
            )
        ]
    assert all("COVERING INDEX preferences_by_user" in plan for plan in plans), plans
