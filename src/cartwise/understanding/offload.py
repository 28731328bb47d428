"""`OffloadEngine`: an engine whose reading of a long message runs in a worker process.

The rules reader is pure Python and holds the GIL for its whole read: 135–220 ms for a
2,000-character message on the shared 2-core machine, during which every other shopper's
turn thread waits. Measured in-process (docs/reports/hardening.md), a quiet shopper's turn
p95 went from 26 ms alone to 195 ms with that reader looping in a thread of the same
process, and to 51 ms with it in a process of its own. So a message past `min_chars` is read
by a worker with an engine of its own (built once per worker by `build`); the turn waits for
the `Reading`, other turns do not wait on the GIL meanwhile. Short messages, whose read costs
less than the round trip, stay in this process.

The worker loads no embedding model: the query vectors its reader asks for (the act
classifier's sentence vector of the message's start) are embedded here, through the turn's
embedder and its memo, with the GIL released, and sent with the message. A worker reader that
asks for any other vector fails that read, which is then read here.

Nothing is lost when the pool is not there: until the worker has built its reader (started
in the background, never waited for by a turn) and after it died or timed out, messages are
read by `inner` in this process; each kind of failure is logged once, without user text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cartwise.embedding.base import Embedder, query_start
from cartwise.log import logger
from cartwise.understanding.base import CuratorOutput, CuratorTurn, Engine, ReplyFacts
from cartwise.understanding.reading import Conversation, Reading

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from cartwise.embedding.base import Matrix, Vector

OFFLOAD_TIMEOUT_S = 10.0
"""How long a turn waits for the worker's reading (a long read takes 0.1–0.3 s; the rest is
room for other long messages queued before it) before it reads here instead."""
QUEUED_PER_WORKER = 4
"""Reads sent to the worker and not answered yet, at most, per worker; a long message past
that is read here. It keeps a queue (a read takes 0.1–0.4 s) well inside the timeout, so a
timeout means a hung read, never a flood of long messages waiting their turn."""
CLOSE_WAIT_S = 5.0
"""How long closing waits for a worker to finish the read it is running."""
MAX_RESTARTS = 3
"""Pools started again after one died or hung; past this, every message is read here."""
WARM_UP_MESSAGE = (
    "想买一副降噪耳机，不要塑料的，预算五百以内 / noise-cancelling headphones, not plastic"
)

WorkerBuild = Callable[[Embedder | None], Engine]
"""Builds a worker's engine around the embedder it is given (None: the caller reads no
sentence vectors). Must pickle: a module-level function, or a `functools.partial` of one."""


def sentence_texts(message: str) -> tuple[str, ...]:
    """The texts whose query vectors the rules reader asks for while reading `message`: the
    act classifier embeds the start of the stripped message (`ActClassifier._sentence`)."""
    return (query_start(message.strip()),)


@dataclass(frozen=True)
class SentenceVectors:
    """How the worker's query vectors are made here: `embedder` (the turn's, memoised)
    embeds `texts(message)` before the message is sent."""

    embedder: Embedder
    texts: Callable[[str], Sequence[str]] = sentence_texts


@dataclass
class OffloadStats:
    """How long messages were read, since the engine was built."""

    offloaded: int = 0
    """Read by the worker."""
    in_process: int = 0
    """Read here: no worker ready yet, the worker's queue full, or the worker failed that
    read."""
    queue_full: int = 0
    """Of those, read here because `QUEUED_PER_WORKER` reads per worker were waiting."""
    failures: int = 0
    """Worker reads that died, timed out or raised (each then read here)."""
    restarts: int = 0


class OffloadEngine:
    """`inner`, with every message longer than `min_chars` read by a worker process."""

    def __init__(
        self,
        inner: Engine,
        build: WorkerBuild,
        *,
        min_chars: int,
        vectors: SentenceVectors | None = None,
        workers: int = 1,
        timeout_s: float = OFFLOAD_TIMEOUT_S,
    ) -> None:
        self._inner = inner
        self._build = build
        self._vectors = vectors
        self._min_chars = min_chars
        self._workers = workers
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._ready: threading.Event = threading.Event()
        self._closed = False
        self._logged: set[str] = set()
        self._pending = 0
        self.stats = OffloadStats()

    @property
    def name(self) -> str:
        return self._inner.name

    def read(self, message: str, conversation: Conversation) -> Reading:
        if len(message) <= self._min_chars:
            return self._inner.read(message, conversation)
        pool = self._ready_pool()
        if pool is None:
            self._count("in_process")
            return self._inner.read(message, conversation)
        with self._lock:
            full = self._pending >= QUEUED_PER_WORKER * self._workers
            if full:
                self.stats.in_process += 1
                self.stats.queue_full += 1
            else:
                self._pending += 1
        if full:
            return self._inner.read(message, conversation)
        try:
            return self._read_in_pool(pool, message, conversation)
        finally:
            with self._lock:
                self._pending -= 1

    def _read_in_pool(
        self, pool: ProcessPoolExecutor, message: str, conversation: Conversation
    ) -> Reading:
        from concurrent.futures.process import BrokenProcessPool

        # Embedded before the try: an embedder that fails, fails the read as it would here.
        vectors = self._sentence_vectors(message)
        future: Future[Reading] | None = None
        try:
            future = pool.submit(_read_in_worker, message, conversation, vectors)
            reading: object = future.result(timeout=self._timeout_s)
            if not isinstance(reading, Reading):
                raise TypeError(f"the worker answered a {type(reading).__name__}")
        except BrokenProcessPool:
            self._fail("died", "the reader's worker process died", pool, restart=True)
        except FutureTimeout:
            if future is not None:
                future.cancel()
            self._fail("timeout", f"no reading within {self._timeout_s:g}s", pool, restart=True)
        except Exception as exc:  # the worker's reader raised: read here, as without a worker
            self._fail("error", type(exc).__name__, pool, restart=False)
        else:
            self._count("offloaded")
            return reading
        self._count("in_process")
        return self._inner.read(message, conversation)

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        return self._inner.curate(turn)

    def write_reply(self, facts: ReplyFacts) -> str:
        return self._inner.write_reply(facts)

    def start(self) -> None:
        """Start the worker in the background (it builds its reader once); messages are read
        here until it is ready. Does nothing when it is running or starting."""
        # Imported here: a one-shot command that never starts a worker does not pay for it.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with self._lock:
            if self._pool is not None or self._closed:
                return
            if self.stats.restarts > MAX_RESTARTS:
                return
            self._ready.clear()
            pool = ProcessPoolExecutor(
                max_workers=self._workers,
                # spawn: the server has threads running; a forked child could inherit a lock
                # one of them held.
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self._build, _worker_embedder(self._vectors)),
            )
            self._pool = pool
        pings = [pool.submit(_ping) for _ in range(self._workers)]
        pending = [len(pings)]

        def on_ping(done: Future[int]) -> None:
            if done.cancelled() or done.exception() is not None:
                self._fail("start", "the reader's worker did not start", pool, restart=False)
                return
            with self._lock:
                pending[0] -= 1
                if pending[0] == 0 and self._pool is pool:
                    self._ready.set()

        for ping in pings:
            ping.add_done_callback(on_ping)

    def wait_ready(self, timeout: float) -> bool:
        """Start the worker if needed and wait until it has built its reader."""
        self.start()
        return self._ready.wait(timeout)

    def close(self) -> None:
        """Stop the worker: a read still running gets `CLOSE_WAIT_S`, then it is killed."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            self._ready.clear()
        if pool is None:
            return
        processes = list((pool._processes or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(CLOSE_WAIT_S)
            if process.is_alive():
                process.terminate()
                process.join(CLOSE_WAIT_S)

    def _ready_pool(self) -> ProcessPoolExecutor | None:
        if not self._ready.is_set():
            self.start()
            return None
        with self._lock:
            return self._pool

    def _count(self, field: str) -> None:
        with self._lock:
            setattr(self.stats, field, getattr(self.stats, field) + 1)

    def _sentence_vectors(self, message: str) -> dict[str, Vector]:
        if self._vectors is None:
            return {}
        embedder = self._vectors.embedder
        return {text: embedder.embed_query(text) for text in self._vectors.texts(message)}

    def _fail(self, kind: str, detail: str, pool: ProcessPoolExecutor, *, restart: bool) -> None:
        """Count a failed worker read; a pool that died or hung is replaced in the background
        (at most `MAX_RESTARTS` times)."""
        with self._lock:
            self.stats.failures += 1
            first = kind not in self._logged
            self._logged.add(kind)
            retire = (restart or kind == "start") and self._pool is pool
            if retire:
                self._pool = None
                self._ready.clear()
                self.stats.restarts += 1
        if first:
            logger.warning("long messages read in-process: %s (%s)", detail, self._inner.name)
        if retire:
            _retire(pool)
            if restart:
                self.start()


def _retire(pool: ProcessPoolExecutor) -> None:
    """Stop a pool that died or hangs, without waiting for it: a hung worker is killed."""
    # A hung read never returns, and shutdown does not stop a running task.
    for process in list((pool._processes or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


class GivenVectors:
    """The worker's embedder: it answers only the query vectors sent with the message being
    read, under the name and width of the embedder that made them."""

    def __init__(self, name: str, dim: int) -> None:
        self._name = name
        self._dim = dim
        self.vectors: Mapping[str, Vector] = {}

    @property
    def name(self) -> str:
        return self._name

    @property
    def dim(self) -> int:
        return self._dim

    def embed_query(self, text: str) -> Vector:
        vector = self.vectors.get(text)
        if vector is None:
            raise LookupError("a query vector the message was not sent with")
        return vector

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        raise LookupError("a worker reader embeds no documents")


def _worker_embedder(vectors: SentenceVectors | None) -> tuple[str, int] | None:
    return None if vectors is None else (vectors.embedder.name, vectors.embedder.dim)


_worker: tuple[Engine, GivenVectors | None] | None = None
"""In a worker process: its engine and the embedder that answers with the sent vectors."""


def _start_worker(build: WorkerBuild, embedder: tuple[str, int] | None) -> None:
    global _worker
    _exit_with_the_server()
    given = GivenVectors(*embedder) if embedder is not None else None
    engine = build(given)
    _worker = (engine, given)
    # The reader's tables, patterns and weights load on first use: pay it now, not in the
    # first long message (a zero vector stands in for the sentence's).
    vectors = {}
    if given is not None:
        import numpy as np

        vectors = {
            t: np.zeros(given.dim, dtype=np.float32) for t in sentence_texts(WARM_UP_MESSAGE)
        }
    _read_in_worker(WARM_UP_MESSAGE, Conversation(), vectors)


def _exit_with_the_server() -> None:
    """End this worker when the process that started it ends, however it ends.

    A pool's worker waits on a queue whose pipe it holds both ends of, so a server killed
    outright (SIGKILL, the OOM killer) would leave it waiting for ever, holding the server's
    stderr and memory. The parent's sentinel becomes readable when the parent is gone."""
    import multiprocessing
    import os

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(0)

    threading.Thread(target=watch, name="cartwise-parent-watch", daemon=True).start()


def _ping() -> int:
    return 1


def _read_in_worker(
    message: str, conversation: Conversation, vectors: Mapping[str, Vector]
) -> Reading:
    assert _worker is not None, "the worker's initializer builds its engine"
    engine, given = _worker
    if given is not None:
        given.vectors = vectors
    try:
        return engine.read(message, conversation)
    finally:
        if given is not None:
            given.vectors = {}
