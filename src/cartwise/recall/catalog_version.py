"""The catalog's version, shared by every replica through Redis.

Where the catalog lives: with INDEX_BACKEND=faiss, in `<CARTWISE_HOME>/index/<name>/products.db`
(SQLite; replicas mount one CARTWISE_HOME volume, so each can load what another ingested);
with INDEX_BACKEND=milvus, in the Milvus server. Either way each replica keeps in-memory
structures built from it (the FAISS matrix, the BM25 table, Milvus' platform list), which
are stale once someone else ingests. So every write through `RecallService` bumps
`cw:{catalog}:version` (INCR), and each replica reads that one key at most every
CATALOG_CHECK_SECONDS and reloads when it moved — no restart, one GET per interval.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

VERSION_KEY = "cw:{catalog}:version"


class CatalogVersion(Protocol):
    def current(self) -> int:
        """The version now (0 before the first bump)."""
        ...

    def bump(self) -> int:
        """Announce a change; returns the new version."""
        ...

    def close(self) -> None: ...


class RedisCatalogVersion:
    """`CatalogVersion` as one Redis counter."""

    def __init__(
        self, url: str, *, timeout: float, max_connections: int, key: str = VERSION_KEY
    ) -> None:
        from cartwise.redis_connection import RedisConnection  # redis-py: only for a fleet

        self._redis = RedisConnection(url, timeout=timeout, max_connections=max_connections)
        self._key = key

    def current(self) -> int:
        with self._redis.guard():
            value = self._redis.client.get(self._key)
        return int(value) if value is not None else 0

    def bump(self) -> int:
        with self._redis.guard():
            return int(self._redis.client.incr(self._key))

    def close(self) -> None:
        self._redis.close()


class CatalogWatcher:
    """Calls `reload` when the shared version moved, checking at most every `interval`
    seconds. Thread-safe; a reload runs once even when many requests notice together."""

    def __init__(
        self,
        version: CatalogVersion,
        reload: Callable[[], None],
        *,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._version = version
        self._reload = reload
        self._interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._checked_at = clock()
        self._seen = version.current()

    def sync(self) -> None:
        """Reload if another replica changed the catalog since the last check."""
        if self._clock() - self._checked_at < self._interval:
            return
        with self._lock:
            if self._clock() - self._checked_at < self._interval:
                return
            current = self._version.current()
            self._checked_at = self._clock()
            if current != self._seen:
                self._reload()
                self._seen = current

    def announce(self) -> None:
        """This process changed the catalog (its own structures are already current)."""
        with self._lock:
            self._seen = self._version.bump()

    def close(self) -> None:
        self._version.close()
