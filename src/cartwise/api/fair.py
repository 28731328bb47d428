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

The shopper is `current_shopper`, which the turn sets; `asyncio.to_thread` submits in the
caller's context, so every job of a turn counts against its shopper. Jobs with no shopper
share one queue of their own.

A job must not wait for a job of its own shopper that was submitted after it (the cap could
keep that one queued): a turn's jobs only wait for work already running (the query memo's
single flight waits for the thread that embeds).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

__all__ = ["FairExecutor", "current_shopper"]

current_shopper: ContextVar[str | None] = ContextVar("cartwise_current_shopper", default=None)
"""Whose turn the blocking work being submitted belongs to (None: nobody's)."""


@dataclass
class _Job:
    order: int
    shopper: str | None
    future: Future[Any]
    call: Callable[[], Any]

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

    def __init__(self, workers: int, *, per_shopper: int) -> None:
        if not 1 <= per_shopper <= workers:
            raise ValueError(f"per_shopper must be 1..{workers}, not {per_shopper}")
        super().__init__(max_workers=workers, thread_name_prefix="cartwise-turn")
        self._workers = workers
        self._per_shopper = per_shopper
        self._lock = threading.Condition()
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
            job.run()
            with self._lock:
                self._running[job.shopper] -= 1

    def _take(self) -> _Job | None:
        with self._lock:
            while True:
                job = self._next()
                if job is not None:
                    self._running[job.shopper] += 1
                    return job
                if self._closed and not any(self._queues.values()):
                    return None
                self._idle += 1
                self._lock.wait()

    def _next(self) -> _Job | None:
        """The oldest job of the shopper with the fewest running, below the cap."""
        best: tuple[int, int, str | None] | None = None
        for shopper, queue in self._queues.items():
            running = self._running[shopper]
            if queue and running < self._per_shopper:
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
