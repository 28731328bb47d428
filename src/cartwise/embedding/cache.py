"""An embedding cache that wraps any Embedder: document vectors keyed by
sha256(model name, text) in SQLite, so a re-ingest embeds only the texts that changed.

Queries are not cached: each is embedded once per turn, and caching user text on disk would
keep personal data nobody asked to keep.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cartwise.embedding.base import Embedder, Matrix, Vector
from cartwise.errors import StoreUnavailable

_LOOKUP_CHUNK = 500  # SQLite limits the number of bound parameters per statement
_STORE_CHUNK = 256


@dataclass
class CacheStats:
    """Texts embedded by the model vs served from the cache, since the wrapper was built."""

    embedded: int = 0
    cached: int = 0


class CachedEmbedder:
    """Delegates to `inner`; `embed_documents` reads and fills the cache."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self._inner = inner
        self._path = path
        self._lock = threading.Lock()
        self.stats = CacheStats()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
            )
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(path), str(exc)) from exc

    @property
    def inner(self) -> Embedder:
        return self._inner

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dim(self) -> int:
        return self._inner.dim

    def embed_query(self, text: str) -> Vector:
        return self._inner.embed_query(text)

    def key(self, text: str) -> str:
        """The cache key of a document text for this model."""
        return hashlib.sha256(f"{self._inner.name}\0{text}".encode()).hexdigest()

    def seed(self, keys: Sequence[str], vectors: Matrix) -> None:
        """Pre-fill the cache (e.g. with shipped demo vectors); existing entries are kept."""
        rows = [
            (k, np.asarray(v, dtype=np.float32).tobytes())
            for k, v in zip(keys, vectors, strict=True)
        ]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)", rows)
            self._db.execute("COMMIT")

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        keys = [self.key(t) for t in texts]
        found = self._lookup(list(dict.fromkeys(keys)))
        missing = list(dict.fromkeys(k for k in keys if k not in found))
        text_of = dict(zip(keys, texts, strict=True))
        # Stored chunk by chunk: an ingest interrupted after an hour keeps an hour of work.
        for start in range(0, len(missing), _STORE_CHUNK):
            chunk = missing[start : start + _STORE_CHUNK]
            fresh = self._inner.embed_documents([text_of[k] for k in chunk])
            found.update(zip(chunk, fresh, strict=True))
            self._store(chunk, fresh)
        with self._lock:
            self.stats.embedded += len(missing)
            self.stats.cached += len(keys) - len(missing)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32)

    def _lookup(self, keys: list[str]) -> dict[str, Vector]:
        found: dict[str, Vector] = {}
        with self._lock:
            for start in range(0, len(keys), _LOOKUP_CHUNK):
                chunk = keys[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk
                ).fetchall()
                for key, blob in rows:
                    vector = np.frombuffer(blob, dtype=np.float32)
                    if vector.shape[0] == self.dim:
                        found[key] = vector
        return found

    def _store(self, keys: list[str], vectors: Matrix) -> None:
        rows = [
            (k, np.asarray(v, dtype=np.float32).tobytes())
            for k, v in zip(keys, vectors, strict=True)
        ]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
            self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()


def cache_path(home: Path) -> Path:
    """Where the embedding cache of a Cartwise home lives."""
    return home / "embedding_cache.sqlite"
