"""`AgentDeps`: everything a turn reads but never changes — stores, recall, engine, embedder,
settings — opened once per process and shared by every run."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import ExitStack
from dataclasses import dataclass

from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.recall.embedders.base import Embedder, Matrix, Vector
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.base import Engine

QUERY_MEMO_SIZE = 256


class QueryMemo:
    """Remembers the last few query vectors in process memory, single-flight.

    One turn embeds the same texts many times: the query and the profile once per platform
    search (six platforms: twelve calls, started at the same moment) and the query again for
    preference relevance. The memo turns that into two model calls: concurrent callers of
    the same text wait for the first one instead of all missing at once. Memory only — user
    text is never written to disk; documents pass straight through."""

    def __init__(self, inner: Embedder, size: int = QUERY_MEMO_SIZE) -> None:
        self._inner = inner
        self._size = size
        self._vectors: OrderedDict[str, Vector] = OrderedDict()
        self._pending: dict[str, Future[Vector]] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dim(self) -> int:
        return self._inner.dim

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            if text in self._vectors:
                self._vectors.move_to_end(text)
                return self._vectors[text]
            pending = self._pending.get(text)
            owner = pending is None
            if pending is None:
                pending = self._pending[text] = Future()
        if not owner:
            return pending.result()
        try:
            vector = self._inner.embed_query(text)
        except BaseException as exc:
            with self._lock:
                del self._pending[text]
            pending.set_exception(exc)
            raise
        with self._lock:
            del self._pending[text]
            self._vectors[text] = vector
            if len(self._vectors) > self._size:
                self._vectors.popitem(last=False)
        pending.set_result(vector)
        return vector

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return self._inner.embed_documents(texts)

    def clear(self) -> None:
        """Forget every remembered vector (benchmarks measure cold turns)."""
        with self._lock:
            self._vectors.clear()


@dataclass(frozen=True)
class AgentDeps:
    """Read-only dependencies of the agent."""

    settings: Settings
    preferences: PreferenceStore
    sessions: SessionStore
    recall: RecallService
    engine: Engine
    embedder: Embedder

    def close(self) -> None:
        self.preferences.close()
        self.sessions.close()
        self.recall.close()


READINESS_PROBE_THREAD = "cartwise-readiness-probe"


def create_deps(settings: Settings, *, embedder: Embedder | None = None) -> AgentDeps:
    """Open the configured backends and touch each store once, so a dead Redis is a
    StoreUnavailable now rather than in the middle of someone's turn."""
    from cartwise.memory import create_preference_store, create_session_store
    from cartwise.recall.embedders import create_embedder
    from cartwise.understanding import create_engine

    engine = create_engine(settings)
    memo = QueryMemo(embedder or create_embedder(settings.embedder, settings))
    with ExitStack() as cleanup:
        sessions = create_session_store(settings)
        cleanup.callback(sessions.close)
        preferences = create_preference_store(settings, memo)
        cleanup.callback(preferences.close)
        recall = RecallService.open(settings, memo)
        cleanup.callback(recall.close)
        sessions.owner(READINESS_PROBE_THREAD)
        preferences.get(READINESS_PROBE_THREAD, "like:other::probe")
        cleanup.pop_all()
    return AgentDeps(
        settings=settings,
        preferences=preferences,
        sessions=sessions,
        recall=recall,
        engine=engine,
        embedder=memo,
    )
