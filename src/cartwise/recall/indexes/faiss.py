"""`FaissIndex`: the embedded default. Exact inner-product search with pre-filtering,
persisted in one SQLite file under CARTWISE_HOME.

Pre-filtering, not post-filtering: the allowed row ids are computed from numpy filter columns
first and only those rows are scored (a faiss `IDSelectorBitmap`, or a direct numpy product
when few rows pass). Post-filtering a top-k can return fewer than k results, or none, when
the filter is selective ("walmart, under 50"), which a shopper reads as "nothing exists".

Persistence: products and vectors are rows of one SQLite table, written in one transaction
per upsert/delete. That gives the same guarantee as temp file + `os.replace` (a crash leaves
the old or the new catalog, never half of one) without rewriting the whole catalog on every
ingest batch. The faiss structure itself is rebuilt in memory from the rows on demand.

Opening without parsing the catalog: every write transaction also counts up a generation in
the `meta` table, and a saved copy of the in-memory table (`<directory>/table-<state>/`, see
`ProductTable.save`: memory-mapped vectors and filter columns, products parsed when first
read) is named after the catalog id and generation it holds, and never changed: a newer
state is a new directory, and the older ones are removed (a process still mapping their
files keeps reading them; unlinked files live while they are mapped). Opening loads that copy when
its label is the store's current one (milliseconds), and otherwise reads the rows (every
product parsed) and saves a fresh copy for the next process. Ingest saves it at the end
(`persist`), so a catalog written by ingest opens fast from the first process on.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np

from cartwise.catalog.product import Product
from cartwise.embedding.base import Matrix, Vector
from cartwise.errors import ConfigurationError, StoreUnavailable
from cartwise.log import logger
from cartwise.recall.indexes.base import IndexHit, SearchFilters
from cartwise.recall.indexes.table import BoolMask, ProductTable, top_k_rows

# Below this many allowed rows a numpy product over the subset beats building a selector
# (measured on 384-d vectors: ~0.1 ms for 2k rows, where the faiss call overhead dominates).
_SUBSET_ROWS = 2048

_SCHEMA = """
CREATE TABLE IF NOT EXISTS products (key TEXT PRIMARY KEY, product TEXT NOT NULL, vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO meta VALUES ('generation', '0');
"""
_SAVED_TABLE = "table-"
"""Prefix of the saved in-memory tables' directories, beside products.db."""


class FaissIndex:
    """Product vectors in memory (faiss `IndexFlatIP`), durable in `<directory>/products.db`."""

    def __init__(self, directory: Path, dim: int) -> None:
        import faiss

        self._faiss: Any = faiss
        # One query at a time: faiss' OpenMP threads only add wake-up latency (measured on a
        # busy 2-core machine: 10k unfiltered search, median 47 ms with 2 threads, 0.7 ms with
        # one). Parallel per-platform searches already run in separate threads.
        faiss.omp_set_num_threads(1)
        self._path = directory / "products.db"
        self._table = ProductTable(dim)
        self._flat: Any = None
        self._lock = threading.RLock()
        self._directory = directory
        self._label: str | None = None
        """The catalog state (catalog id and generation) the in-memory table holds; None when
        another process wrote in between and the table may lag the store."""
        try:
            directory.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None)
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('catalog', ?)", (uuid.uuid4().hex,)
            )
            self._check_dim(dim)
            self._load()
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(self._path), str(exc)) from exc

    def _check_dim(self, dim: int) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE name = 'dim'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('dim', ?)", (str(dim),))
        elif int(row[0]) != dim:
            raise ConfigurationError(
                f"{self._path} holds {row[0]}-d vectors but the embedder makes {dim}-d ones; "
                "re-ingest into a fresh CARTWISE_HOME"
            )

    def _state(self) -> str:
        """The store's catalog id and write generation, e.g. "3f…9a:42"."""
        meta = dict(self._db.execute("SELECT name, value FROM meta").fetchall())
        return f"{meta['catalog']}:{meta['generation']}"

    def _load(self) -> None:
        """Fill the empty in-memory table: from the saved copy when it holds the store's
        current state, else from the rows (then saved for the next process)."""
        self._db.execute("BEGIN")  # the state and the rows of one snapshot of the store
        try:
            state = self._state()
            saved = ProductTable.load(self._saved_table(state), self._table.dim, label=state)
            rows = [] if saved is not None else self._db.execute(
                "SELECT product, vector FROM products ORDER BY rowid"
            ).fetchall()  # fmt: skip
        finally:
            self._db.execute("COMMIT")
        self._label = state
        if saved is not None:
            self._table = saved
            logger.debug("faiss index opened %d saved products (%s)", len(saved), state)
            return
        if not rows:
            return
        products = [Product.model_validate_json(text) for text, _ in rows]
        vectors = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
        self._table.upsert(products, vectors.reshape(len(rows), self._table.dim))
        logger.debug("faiss index loaded %d products from %s", len(rows), self._path)
        self._save_table()

    def _saved_table(self, state: str) -> Path:
        return self._directory / f"{_SAVED_TABLE}{state.replace(':', '-')}"

    def _save_table(self) -> None:
        """Best effort: a copy that cannot be written only makes the next open slower."""
        if self._label is None:
            return
        target = self._saved_table(self._label)
        try:
            self._table.save(target, label=self._label)
            for older in self._directory.glob(f"{_SAVED_TABLE}*"):
                if older != target:
                    shutil.rmtree(older, ignore_errors=True)
        except OSError as exc:
            logger.warning("could not save the index table to %s: %s", target, exc)

    def state(self) -> str | None:
        with self._lock:
            return self._label

    def persist(self) -> None:
        """Save the in-memory table for the next process (ingest calls this at its end); when
        another process wrote meanwhile, the rows are read again first."""
        with self._lock:
            if self._label is None:
                self.reload()  # reads the rows and saves them
            else:
                self._save_table()

    @property
    def dim(self) -> int:
        return self._table.dim

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        matrix = self._table.check(products, vectors)
        if not products:
            return
        rows = [(p.key, p.model_dump_json(), matrix[i].tobytes()) for i, p in enumerate(products)]
        with self._lock:
            self._write(
                "INSERT INTO products (key, product, vector) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET product = excluded.product, vector = excluded.vector",
                rows,
            )
            self._table.upsert(products, matrix)
            self._flat = None

    def delete(self, keys: Sequence[str]) -> int:
        with self._lock:
            existing = [k for k in dict.fromkeys(keys) if k in self._table.positions]
            if not existing:
                return 0
            self._write("DELETE FROM products WHERE key = ?", [(k,) for k in existing])
            self._table.delete(existing)
            self._flat = None
            return len(existing)

    def _write(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        """One transaction: all rows or none, and the generation counted up with them."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                before = self._state()
                self._db.executemany(statement, rows)
                self._db.execute(
                    "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE name = 'generation'"
                )
                after = self._state()
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(self._path), str(exc)) from exc
        # The table holds `after` only if it held `before`: else another process wrote too.
        self._label = after if self._label == before else None

    def count(self) -> int:
        return len(self._table)

    def get(self, key: str) -> Product | None:
        with self._lock:
            position = self._table.positions.get(key)
            return None if position is None else self._table.products[position]

    def products(self, keys: Sequence[str]) -> list[Product | None]:
        with self._lock:
            positions, stored = self._table.positions, self._table.products
            return [None if (at := positions.get(key)) is None else stored[at] for key in keys]

    def platforms(self) -> list[str]:
        with self._lock:
            return self._table.platforms()

    def passing(self, filters: SearchFilters | None, keys: Sequence[str]) -> BoolMask | None:
        with self._lock:
            return self._table.passing(filters, keys)

    def iter_products(self) -> Iterator[Product]:
        with self._lock:
            return self._table.iter_products()

    def vectors(self, keys: Sequence[str]) -> Matrix:
        with self._lock:
            return self._table.vectors_for(keys)

    def search(
        self, vector: Vector, k: int, filters: SearchFilters | None = None
    ) -> list[IndexHit]:
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        with self._lock:
            if k <= 0 or not len(self._table):
                return []
            mask = self._table.mask(filters)
            if mask is None:
                positions, scores = self._search_flat(query, k, None)
            else:
                allowed = int(mask.sum())
                if allowed == 0:
                    return []
                if allowed <= _SUBSET_ROWS:
                    rows = np.flatnonzero(mask)
                    subset_scores = self._table.vectors[rows] @ query[0]
                    best = top_k_rows(subset_scores, k)
                    positions, scores = rows[best], subset_scores[best]
                else:
                    positions, scores = self._search_flat(query, min(k, allowed), mask)
            products = self._table.products
            return [
                IndexHit(product=products[int(p)], score=float(s))
                for p, s in zip(positions, scores, strict=True)
                if p >= 0
            ]

    def _search_flat(
        self, query: Matrix, k: int, mask: np.ndarray[Any, np.dtype[np.bool_]] | None
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        faiss = self._faiss
        if self._flat is None:
            self._flat = faiss.IndexFlatIP(self._table.dim)
            self._flat.add(self._table.vectors)
        k = min(k, len(self._table))
        if mask is None:
            scores, ids = self._flat.search(query, k)
        else:
            bitmap = np.packbits(mask, bitorder="little")
            selector = faiss.IDSelectorBitmap(len(mask), faiss.swig_ptr(bitmap))
            scores, ids = self._flat.search(query, k, params=faiss.SearchParameters(sel=selector))
        return ids[0], scores[0]

    def reload(self) -> None:
        with self._lock:
            self._table = ProductTable(self._table.dim)
            self._label = None
            self._flat = None
            try:
                self._load()
            except sqlite3.Error as exc:
                raise StoreUnavailable(str(self._path), str(exc)) from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()


def stored_products(directory: Path) -> int:
    """How many products the store in `directory` holds (0 when there is none yet), read
    without loading them: `create_index` picks exact or approximate search by it."""
    path = directory / "products.db"
    if not path.exists():
        return 0
    try:
        with closing(sqlite3.connect(path)) as db:
            return int(db.execute("SELECT count(*) FROM products").fetchone()[0])
    except sqlite3.Error as exc:
        raise StoreUnavailable(str(path), str(exc)) from exc
