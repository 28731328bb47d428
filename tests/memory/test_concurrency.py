"""Concurrent writer processes and a writer killed mid-write, against both backends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from cartwise.memory.doctor import diagnose
from cartwise.memory.store import MAX_KEYWORD_CHARS, PreferenceStore
from tests.memory.workers import (
    BULK_ENTRIES,
    USER,
    StoreSpec,
    add_under_cap,
    contended_entry,
    open_capped,
    upsert_many,
    write_until_killed,
)

PROCESSES = 8
UPSERTS_EACH = 200
SPAWN = multiprocessing.get_context("spawn")


def _state(store: PreferenceStore, user: str) -> dict[str, tuple[frozenset[str], str]]:
    return {e.dedup_key: (frozenset(e.keywords), e.strength.value) for e in store.list(user)}


@pytest.mark.slow
def test_eight_processes_lose_no_update(store: PreferenceStore, spec: StoreSpec) -> None:
    start = SPAWN.Event()
    workers = [
        SPAWN.Process(target=upsert_many, args=(spec, worker, UPSERTS_EACH, start))
        for worker in range(PROCESSES)
    ]
    for process in workers:
        process.start()
    start.set()  # all released together so their writes overlap
    for process in workers:
        process.join(timeout=240)
    assert [p.exitcode for p in workers] == [0] * PROCESSES

    serial_user = "serial-run"
    for worker in range(PROCESSES):
        for index in range(UPSERTS_EACH):
            store.upsert(serial_user, contended_entry(worker, index))

    concurrent = _state(store, USER)
    assert len(concurrent) == 80
    assert sum(len(words) for words, _ in concurrent.values()) == PROCESSES * UPSERTS_EACH
    assert concurrent == _state(store, serial_user)


@pytest.mark.slow
def test_writer_killed_mid_write_leaves_only_whole_entries(
    store: PreferenceStore, spec: StoreSpec
) -> None:
    trapped = SPAWN.Event()
    writer = SPAWN.Process(target=write_until_killed, args=(spec, trapped))
    writer.start()
    try:
        assert trapped.wait(timeout=120), "writer never reached the middle of its write"
    finally:
        assert writer.pid is not None
        os.kill(writer.pid, signal.SIGKILL)
        writer.join(timeout=30)
    assert writer.exitcode == -signal.SIGKILL

    reopened = spec.open()
    try:
        report = diagnose(reopened, USER)  # type: ignore[arg-type]
        entries = reopened.list(USER)
    finally:
        reopened.close()
    assert report.healthy, report
    bulk = [e for e in entries if e.slug.startswith("material-")]
    # The half-written generation 2 vanished whole; generation 1 is intact, row for row.
    assert len(bulk) == BULK_ENTRIES
    assert {e.keywords[0] for e in bulk} == {"gen-1"}
    assert all(len(e.keywords[1]) == MAX_KEYWORD_CHARS for e in bulk)
    assert [e.slug for e in entries if not e.slug.startswith("material-")] == ["teal"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["threads", "entries", "watches"])
def test_processes_racing_past_a_cap_keep_exactly_the_cap(
    store: PreferenceStore, spec: StoreSpec, kind: str
) -> None:
    """Eight processes each add one thread, entry or watch of the same shopper at once, under
    a cap of 3: the count and the write are one step in the store itself (a transaction or a
    script), not in any one process."""
    from cartwise.memory import create_session_store, create_watch_store

    cap, racers = 3, 8
    start = SPAWN.Event()
    workers = [
        SPAWN.Process(target=add_under_cap, args=(spec, kind, worker, cap, start))
        for worker in range(racers)
    ]
    for process in workers:
        process.start()
    time.sleep(3)  # every worker opened its store and waits at the start line
    start.set()
    for process in workers:
        process.join(timeout=120)
    assert [p.exitcode for p in workers] == [0] * racers
    settings = open_capped(spec, cap)
    if kind == "threads":
        sessions = create_session_store(settings)
        kept = len(sessions.threads(USER))
        sessions.close()
    elif kind == "entries":
        kept = len(store.list(USER))
    else:
        watches = create_watch_store(settings)
        kept = len(watches.list(USER))
        watches.close()
    assert kept == cap
