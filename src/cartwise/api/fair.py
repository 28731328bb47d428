"""The threads turns run their blocking work in, shared fairly between shoppers.

A turn's stages run blocking work (store calls, the reader, searches, the model) through
`asyncio.to_thread`, that is in the event loop's default executor: six per-platform searches
at once, each waiting on the model. asyncio's own pool has min(32, CPUs + 4) threads — six
on a 2-core machine — and hands them out first come, first served: one shopper's turn with a
pasted 2,000-character message held all six, and another shopper's 80 ms turn queued behind
it for up to 1.7 s (docs/reports/fairness.md). `FairExecutor` replaces that pool for the
server: one queue per shopper, a free thread takes the oldest job of the shopper with the
fewest jobs running, and no shopper runs more than `per_shopper` jobs at once, so however
much one shopper sends, threads stay free for the next shopper's jobs.

Threads are not the only thing shared: every running thread takes its turn at the GIL and
the cores, so a shopper running six 0.1 s jobs of a pasted essay slowed another shopper's
turn 2-3× even with threads free (benchmarks/reports/fairness.md). So each shopper's recent
thread time is kept (decaying by half every `HALF_LIFE` seconds), and a shopper who used
more than `BUSY_SHARE` times what another shopper with work waiting or running used is busy:
a busy shopper starts no job while `BUSY_JOBS` of theirs run, and a running job of theirs
pauses (at most `MAX_PAUSE` at a time) at the points long work offers
(`cartwise.sharing.let_others_run`) until the others' work is done. Alone, nobody is busy.
`cartwise serve` leaves the rule off unless TURN_BUSY_SHARE is set: measured on the shared
2-core machine it did not lower the quiet shopper's p95 (the GIL and the cores are shared
however the threads are handed out).

The shopper is `current_shopper`, which the turn sets; `asyncio.to_thread` submits in the
caller's context, so every job of a turn counts against its shopper. Jobs with no shopper
share one queue of their own.

A job must not wait for a job of its own shopper that was submitted after it (the cap could
keep that one queued): a turn's jobs only wait for work already running (the query memo's
single flight waits for the thread that embeds).
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from cartwise.sharing import installed_pause

__all__ = ["FairExecutor", "current_shopper"]

current_shopper: ContextVar[str | None] = ContextVar("cartwise_current_shopper", default=None)
"""Whose turn the blocking work being submitted belongs to (None: nobody's)."""

HALF_LIFE = 2.0
"""Seconds over which a shopper's recorded thread time halves."""
BUSY_SHARE = 4.0
"""A shopper is busy past this many times the thread time of the lightest other shopper
with work (and `BUSY_SLACK` more): two shoppers taking ordinary turns are never busy. The
executor's default; the server takes the TURN_BUSY_SHARE setting (default 0, off: the rule
did not measurably help on the shared 2-core machine, benchmarks/reports/fairness.md)."""
BUSY_SLACK = 0.25
"""Thread seconds a shopper may be ahead of another before being busy (a turn or two)."""
BUSY_JOBS = 1
"""Jobs a busy shopper runs at once while others have work."""
MAX_PAUSE = 0.25
"""The longest one pause point holds a busy shopper's running job (then it goes on, so a
pause never waits for work that waits for it)."""


@dataclass
class _Job:
    order: int
    shopper: str | None
    future: Future[Any]
    call: Callable[[], Any]
    started: float = 0.0

    def run(self) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            result = self.call()
        except BaseException as exc:
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)


class FairExecutor(ThreadPoolExecutor):
    """`workers` threads (started as needed) serving one queue per shopper.

    A ThreadPoolExecutor only because `loop.set_default_executor` accepts nothing else;
    none of its machinery is used."""

    def __init__(
        self,
        workers: int,
        *,
        per_shopper: int,
        busy_share: float = BUSY_SHARE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`busy_share` 0: nobody is ever busy (threads are still shared by jobs running)."""
        if not 1 <= per_shopper <= workers:
            raise ValueError(f"per_shopper must be 1..{workers}, not {per_shopper}")
        self._busy_share = busy_share
        self._clock = clock
        self._used: dict[str | None, tuple[float, float]] = {}
        """Per shopper: thread seconds of finished jobs (decayed) as of a moment."""
        self._jobs: dict[str | None, list[_Job]] = {}
        """Per shopper: the jobs running now."""
        self._paused = 0
        super().__init__(max_workers=workers, thread_name_prefix="cartwise-turn")
        self._workers = workers
        self._per_shopper = per_shopper
        mutex = threading.Lock()
        self._lock = threading.Condition(mutex)
        self._resumed = threading.Condition(mutex)
        """Paused jobs wait here for other shoppers' jobs to end."""
        self._queues: dict[str | None, deque[_Job]] = {}
        self._running: Counter[str | None] = Counter()
        self._started: list[threading.Thread] = []
        self._idle = 0
        """Threads waiting for a job that no submit has woken yet."""
        self._order = itertools.count()
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        shopper = current_shopper.get()
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            job = _Job(next(self._order), shopper, future, lambda: fn(*args, **kwargs))
            self._queues.setdefault(shopper, deque()).append(job)
            if self._idle:
                self._idle -= 1
                self._lock.notify()
            elif len(self._started) < self._workers:
                thread = threading.Thread(
                    target=self._work, name=f"cartwise-turn-{len(self._started)}", daemon=True
                )
                self._started.append(thread)
                thread.start()
        return future

    def running(self, shopper: str | None) -> int:
        """How many of `shopper`'s jobs run now."""
        with self._lock:
            return self._running[shopper]

    def _work(self) -> None:
        while (job := self._take()) is not None:
            installed_pause(functools.partial(self._pause, job))
            try:
                job.run()
            finally:
                installed_pause(None)
                with self._lock:
                    self._finish(job)

    def _take(self) -> _Job | None:
        with self._lock:
            while True:
                job = self._next()
                if job is not None:
                    self._start(job)
                    return job
                if self._closed and not any(self._queues.values()):
                    return None
                self._idle += 1
                self._lock.wait()

    def _start(self, job: _Job) -> None:
        job.started = self._clock()
        self._running[job.shopper] += 1
        self._jobs.setdefault(job.shopper, []).append(job)

    def _finish(self, job: _Job) -> None:
        now = self._clock()
        self._running[job.shopper] -= 1
        self._jobs[job.shopper].remove(job)
        if not self._jobs[job.shopper]:
            del self._jobs[job.shopper]
        self._used[job.shopper] = (self._decayed(job.shopper, now) + now - job.started, now)
        if self._paused:
            self._resumed.notify_all()
        if self._idle and self._queues:
            # A job held back by the busy rule may start now that this one ended.
            self._idle -= 1
            self._lock.notify()

    def _decayed(self, shopper: str | None, now: float) -> float:
        used, at = self._used.get(shopper, (0.0, now))
        return used * math.exp2((at - now) / HALF_LIFE)

    def used(self, shopper: str | None) -> float:
        """`shopper`'s recent thread seconds: finished jobs decayed, running ones so far."""
        with self._lock:
            return self._usage(shopper, self._clock())

    def _usage(self, shopper: str | None, now: float) -> float:
        running = sum(now - job.started for job in self._jobs.get(shopper, ()))
        return self._decayed(shopper, now) + running

    def _busy(self, shopper: str | None, now: float) -> bool:
        """Whether `shopper` used far more than some other shopper with work running or
        queued (the one who would wait)."""
        others = {s for s in (*self._jobs, *self._queues) if s != shopper}
        if not others or not self._busy_share:
            return False
        lightest = min(self._usage(other, now) for other in others)
        return self._usage(shopper, now) > self._busy_share * lightest + BUSY_SLACK

    def _pause(self, job: _Job) -> None:
        """At a pause point of `job`: while its shopper is busy and runs more than
        `BUSY_JOBS`, step aside (for at most `MAX_PAUSE`)."""
        with self._lock:
            deadline = self._clock() + MAX_PAUSE
            while (
                self._running[job.shopper] > BUSY_JOBS
                and self._busy(job.shopper, now := self._clock())
                and now < deadline
            ):
                self._running[job.shopper] -= 1
                self._paused += 1
                try:
                    self._resumed.wait(deadline - now)
                finally:
                    self._paused -= 1
                    self._running[job.shopper] += 1

    def _next(self) -> _Job | None:
        """The oldest job of the shopper with the fewest running, below the cap (a busy
        shopper's: `BUSY_JOBS`)."""
        now = self._clock()
        best: tuple[int, int, str | None] | None = None
        for shopper, queue in self._queues.items():
            running = self._running[shopper]
            cap = BUSY_JOBS if self._busy(shopper, now) else self._per_shopper
            if queue and running < cap:
                candidate = (running, queue[0].order, shopper)
                if best is None or candidate[:2] < best[:2]:
                    best = candidate
        if best is None:
            return None
        queue = self._queues[best[2]]
        job = queue.popleft()
        if not queue:
            del self._queues[best[2]]
        return job

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            if cancel_futures:
                for queue in self._queues.values():
                    for job in queue:
                        job.future.cancel()
                self._queues.clear()
            self._idle = 0
            self._lock.notify_all()
            threads = list(self._started)
        if wait:
            for thread in threads:
                if thread is not threading.current_thread():
                    thread.join()
