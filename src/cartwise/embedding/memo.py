"""`QueryMemo`: a wrapper that remembers recent query vectors, single-flight."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

from cartwise.embedding.base import Embedder

if TYPE_CHECKING:
    from cartwise.embedding.base import Matrix, Vector

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
