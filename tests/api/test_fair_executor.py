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
from cartwise.api.fair import FairExecutor, current_shopper
from cartwise.api.main import create_app
from tests.api.conftest import run_input, signup
from tests.doubles import ScriptedAgent

WAIT = 10


@contextmanager
def executor(workers: int, per_shopper: int) -> Iterator[FairExecutor]:
    pool = FairExecutor(workers, per_shopper=per_shopper)
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
