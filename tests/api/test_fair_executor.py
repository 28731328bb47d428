"""The threads turns share: one shopper's queued work never keeps another's waiting for all
of it, and a turn's blocking work is counted against its shopper."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.fair import BUSY_JOBS, MAX_PAUSE, FairExecutor, current_shopper
from cartwise.api.main import create_app
from cartwise.sharing import let_others_run
from tests.api.conftest import run_input, signup
from tests.doubles import ScriptedAgent

WAIT = 10


class Clock:
    """A monotonic clock the test moves by hand (thread time is measured with it)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def executor(workers: int, per_shopper: int, **options: Any) -> Iterator[FairExecutor]:
    pool = FairExecutor(workers, per_shopper=per_shopper, **options)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def submit_as(pool: FairExecutor, shopper: str | None, fn: Any, *args: Any) -> Future[Any]:
    token = current_shopper.set(shopper)
    try:
        return pool.submit(fn, *args)
    finally:
        current_shopper.reset(token)


class Blocker:
    """Jobs that report when they start and end when released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started: list[str] = []
        self._lock = threading.Condition()

    def job(self, name: str) -> str:
        with self._lock:
            self.started.append(name)
            self._lock.notify_all()
        assert self.release.wait(WAIT)
        return name

    def wait_started(self, count: int) -> None:
        with self._lock:
            assert self._lock.wait_for(lambda: len(self.started) >= count, WAIT)


def test_a_shopper_never_runs_more_jobs_than_the_cap_and_others_still_get_a_thread() -> None:
    blocker = Blocker()
    with executor(6, per_shopper=2) as pool:
        hostile = [submit_as(pool, "mallory", blocker.job, f"m{n}") for n in range(10)]
        blocker.wait_started(2)
        quiet = submit_as(pool, "alice", blocker.job, "a0")
        blocker.wait_started(3)

        assert pool.running("mallory") == 2
        assert pool.running("alice") == 1
        assert "a0" in blocker.started
        blocker.release.set()
        assert quiet.result(WAIT) == "a0"
        assert [f.result(WAIT) for f in hostile] == [f"m{n}" for n in range(10)]


def test_a_free_thread_serves_the_shopper_with_fewest_jobs_running_first() -> None:
    first, rest = threading.Event(), threading.Event()
    order: list[str] = []
    started = threading.Condition()

    def job(name: str, gate: threading.Event) -> None:
        with started:
            order.append(name)
            started.notify_all()
        assert gate.wait(WAIT)

    with executor(2, per_shopper=2) as pool:
        running = [submit_as(pool, "mallory", job, f"m{n}", first) for n in range(2)]
        with started:
            assert started.wait_for(lambda: len(order) == 2, WAIT)
        queued = [submit_as(pool, "mallory", job, f"m{n}", rest) for n in range(2, 5)]
        quiet = submit_as(pool, "alice", job, "a0", rest)
        first.set()  # both threads free up: alice (none running) goes before mallory's third
        for future in running:
            future.result(WAIT)
        rest.set()
        quiet.result(WAIT)
        for future in queued:
            future.result(WAIT)

    assert order.index("a0") < order.index("m3")


def test_shutdown_runs_what_was_queued_or_cancels_it_and_refuses_new_work() -> None:
    blocker = Blocker()
    pool = FairExecutor(1, per_shopper=1)
    running = submit_as(pool, "alice", blocker.job, "a0")
    queued = submit_as(pool, "alice", blocker.job, "a1")
    blocker.wait_started(1)
    pool.shutdown(wait=False, cancel_futures=True)
    blocker.release.set()

    assert running.result(WAIT) == "a0"
    assert queued.cancelled()
    with pytest.raises(RuntimeError):
        pool.submit(print)

    drained = FairExecutor(1, per_shopper=1)
    futures = [submit_as(drained, None, lambda n=n: n) for n in range(3)]
    drained.shutdown(wait=True)
    assert [f.result(0) for f in futures] == [0, 1, 2]


def test_a_job_that_raises_hands_its_error_to_the_caller() -> None:
    with executor(2, per_shopper=1) as pool:
        failed = submit_as(pool, "alice", lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failed.result(WAIT)
        assert submit_as(pool, "alice", lambda: "next").result(WAIT) == "next"


def until(condition: Any) -> None:
    """Wait for a state other threads reach (checked each millisecond, at most WAIT s)."""
    done = threading.Event()
    for _ in range(WAIT * 1000):
        if condition():
            return
        done.wait(0.001)
    raise AssertionError("the executor never got there")


def test_a_shopper_who_used_far_more_starts_one_job_at_a_time_while_another_has_work() -> None:
    clock, blocker = Clock(), Blocker()
    with executor(8, per_shopper=4, clock=clock) as pool:
        essay = [submit_as(pool, "mallory", blocker.job, f"m{n}") for n in range(2)]
        blocker.wait_started(2)
        clock.now += 5  # mallory's two jobs have run 5 s each; alice has used nothing
        quiet = submit_as(pool, "alice", blocker.job, "a0")
        blocker.wait_started(3)
        more = [submit_as(pool, "mallory", blocker.job, f"m{n}") for n in range(2, 4)]
        later = submit_as(pool, "alice", blocker.job, "a1")
        blocker.wait_started(4)

        assert "a1" in blocker.started, "alice still gets a thread at once"
        assert pool.running("mallory") == 2 > BUSY_JOBS, "none of mallory's new jobs started"
        assert pool.used("mallory") > 10 * pool.used("alice")
        blocker.release.set()
        assert [f.result(WAIT) for f in (quiet, later)] == ["a0", "a1"]
        assert [f.result(WAIT) for f in essay + more] == ["m0", "m1", "m2", "m3"]


def test_two_shoppers_who_used_alike_both_run_up_to_the_cap() -> None:
    clock, blocker = Clock(), Blocker()
    with executor(8, per_shopper=3, clock=clock) as pool:
        first = [submit_as(pool, "bob", blocker.job, f"b{n}") for n in range(3)]
        first += [submit_as(pool, "alice", blocker.job, f"a{n}") for n in range(3)]
        blocker.wait_started(6)
        clock.now += 5

        assert (pool.running("bob"), pool.running("alice")) == (3, 3)
        blocker.release.set()
        for future in first:
            future.result(WAIT)


def test_a_busy_shoppers_long_work_pauses_for_another_shopper_then_goes_on() -> None:
    clock, release, alice_done = Clock(), threading.Event(), threading.Event()
    slices: dict[str, int] = {}

    def long_work(name: str) -> int:
        while not release.is_set():
            slices[name] = slices.get(name, 0) + 1
            let_others_run()
            release.wait(0.001)
        return slices[name]

    with executor(8, per_shopper=4, clock=clock) as pool:
        try:
            essay = [submit_as(pool, "mallory", long_work, f"m{n}") for n in range(3)]
            until(lambda: pool.running("mallory") == 3)
            clock.now += 5
            quiet = submit_as(pool, "alice", alice_done.wait, WAIT)
            until(lambda: pool.running("mallory") == BUSY_JOBS)  # two stepped aside

            alice_done.set()
            assert quiet.result(WAIT)
            until(lambda: pool.running("mallory") == 3)  # alice is done: all three go on
        finally:
            release.set()
            alice_done.set()
        assert all(f.result(WAIT) > 0 for f in essay)


def test_a_pause_ends_after_max_pause_even_while_the_other_shopper_still_runs() -> None:
    clock, blocker = Clock(), Blocker()
    started, go = threading.Event(), threading.Event()
    paused: list[float] = []

    def long_work() -> None:
        started.set()
        assert go.wait(WAIT)
        let_others_run()
        paused.append(clock.now)

    with executor(8, per_shopper=4, clock=clock) as pool:
        hold = submit_as(pool, "mallory", blocker.job, "m0")
        job = submit_as(pool, "mallory", long_work)
        blocker.wait_started(1)
        assert started.wait(WAIT)
        clock.now += 5  # both of mallory's jobs have run 5 s when alice comes
        other = submit_as(pool, "alice", blocker.job, "a0")
        blocker.wait_started(2)
        go.set()
        until(lambda: pool.running("mallory") == 1)  # the long job stepped aside
        clock.now += MAX_PAUSE + 0.01
        job.result(WAIT)  # ended its pause though alice's job still runs

        assert paused == [pytest.approx(1_005 + MAX_PAUSE + 0.01)], "it did pause, till then"
        assert not other.done()
        blocker.release.set()
        other.result(WAIT), hold.result(WAIT)


def test_with_busy_share_zero_nobody_is_held_back() -> None:
    clock, blocker = Clock(), Blocker()
    with executor(8, per_shopper=4, busy_share=0, clock=clock) as pool:
        first = [submit_as(pool, "mallory", blocker.job, f"m{n}") for n in range(2)]
        blocker.wait_started(2)
        clock.now += 50
        quiet = submit_as(pool, "alice", blocker.job, "a0")
        more = [submit_as(pool, "mallory", blocker.job, f"m{n}") for n in range(2, 4)]
        blocker.wait_started(5)

        assert pool.running("mallory") == 4
        blocker.release.set()
        for future in [*first, quiet, *more]:
            future.result(WAIT)


class ShopperProbe(ScriptedAgent):
    """Notes whose work the turn's blocking calls are counted as, and in which executor."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str | None, str]] = []

    async def __call__(self, deps: Any, **kwargs: Any) -> Any:
        shopper = await asyncio.to_thread(current_shopper.get)
        thread_name = await asyncio.to_thread(lambda: threading.current_thread().name)
        self.seen.append((shopper, thread_name))
        return await super().__call__(deps, **kwargs)


def test_a_turns_blocking_work_runs_in_the_fair_threads_as_its_shopper(stores: AgentDeps) -> None:
    probe = ShopperProbe()
    app = create_app(stores.settings, stores, runner=probe)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        headers = signup(client, "alice")
        response = client.post("/api/agent", json=run_input("t1", "hello"), headers=headers)
        assert response.status_code == 200

    assert probe.seen == [("alice", probe.seen[0][1])]
    assert probe.seen[0][1].startswith("cartwise-turn-")
