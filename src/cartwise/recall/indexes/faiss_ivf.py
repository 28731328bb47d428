"""`FaissIvfIndex`: approximate search for large catalogs (faiss IVF-Flat), exact filters.

Same storage as `FaissIndex` (one SQLite file, so a catalog can switch between the two by
size alone; `create_index` picks this one from `ANN_MIN_PRODUCTS` stored products up), but the
vectors are searched through an inverted file: k-means cells, and a query scans only the
cells nearest to it. IVF-Flat over HNSW by measurement (docs/recall.md): at 100k products
in one run HNSW took 130–220 s to build (M=16/32) against 46 s, with lower filtered recall;
IVF removes and adds single rows without rebuilding, and its scores are exact inner products
(flat codes), so only *which* products are found is approximate, never their scores.

Filters stay exact. The filter mask is computed first (the same numpy columns as
`FaissIndex`); the cells are then probed nearest first until the probed cells hold at least
`candidates_per_k × k` rows that pass the filter (counted exactly per cell), and faiss scans
those cells with the mask as an `IDSelectorBitmap`. A selective filter ("walmart, under 50")
therefore probes more cells instead of returning fewer than k hits, and when it would have
to probe more than `max_probe_fraction` of the cells, or few rows pass at all, the rows that
pass are scored exactly instead.

The trained structure is saved beside the table (`persist`, which ingest calls: training and
filling are paid at ingest) as `<directory>/ivf-<state>/`, named by the same catalog state as
the saved table, and the first search of a process that opened that state reads it instead of
training (a read of the lists, no k-means).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cartwise.catalog.product import Product
from cartwise.embedding.base import Matrix, Vector
from cartwise.log import logger
from cartwise.recall.indexes.base import IndexHit, SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.table import BoolMask, top_k_rows

BuildProgress = Callable[[str, int, int], None]
"""(phase, done, total): called while the IVF structure is trained and filled."""

# Parameters chosen by measurement on clustered synthetic catalogs of 100k and 1M products
# (benchmarks/bench_ann.py, docs/recall.md): recall@20 ≥ 0.95 against exact search with
# platform and price filters on.
CELLS_PER_SQRT_N = 2
"""nlist = CELLS_PER_SQRT_N·√n cells (capped by MAX_CELLS and by the training sample)."""
MAX_CELLS = 4096
TRAINING_ROWS_PER_CELL = 40
"""faiss wants ≥ 39 training rows per cell; more only slows k-means down."""
KMEANS_ITERATIONS = 10
"""faiss' default is 25; 10 (with 2·√n cells instead of 4·√n) cut the 100k build from 40 s to
13 s with recall@20 unchanged: the cells only route queries, scores are exact."""
CANDIDATES_PER_K = 16
"""Probe cells until they hold this many rows per wanted hit that pass the filter."""
MIN_PROBES = 16
MAX_PROBE_FRACTION = 0.25
"""Needing more of the cells than this: score the passing rows exactly instead."""
EXACT_ROWS = 4096
"""At most this many rows pass the filter: score them all (a ~1 ms matrix product)."""
RETRAIN_GROWTH = 4.0
"""Retrain the cells when the catalog grew or shrank by this factor since training."""
_ADD_CHUNK = 50_000
_SAVED_IVF = "ivf-"
"""Prefix of the saved structures' directories, beside products.db."""

Positions = npt.NDArray[np.int64]


class FaissIvfIndex(FaissIndex):
    """`FaissIndex` storage, IVF-Flat search structure built lazily on the first search."""

    def __init__(
        self,
        directory: Path,
        dim: int,
        *,
        candidates_per_k: int = CANDIDATES_PER_K,
        min_probes: int = MIN_PROBES,
        max_probe_fraction: float = MAX_PROBE_FRACTION,
        exact_rows: int = EXACT_ROWS,
    ) -> None:
        super().__init__(directory, dim)
        self._candidates_per_k = candidates_per_k
        self._min_probes = min_probes
        self._max_probe_fraction = max_probe_fraction
        self._exact_rows = exact_rows
        self._ivf: Any = None
        self._quantizer: Any = None
        self._trained_rows = 0
        self._cell_of_row: Positions = np.zeros(0, dtype=np.int64)
        self._indexed_rows = 0
        """Rows [0, _indexed_rows) are in the inverted lists; later ones were appended since."""
        self._replaced: set[int] = set()
        """Positions whose vector changed since they were added to the lists."""

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        with self._lock:
            positions = self._table.positions
            replaced = {positions[p.key] for p in products if p.key in positions}
            super().upsert(products, vectors)
            self._replaced.update(p for p in replaced if p < self._indexed_rows)

    def delete(self, keys: Sequence[str]) -> int:
        with self._lock:
            removed = super().delete(keys)
            if removed:
                # Positions after a deleted row shift down: the lists are refilled (the
                # trained cells are kept) on the next search.
                self._indexed_rows = 0
                self._replaced.clear()
            return removed

    def reload(self) -> None:
        with self._lock:
            super().reload()
            # The rows were re-read (another replica changed the catalog): refill the lists
            # on the next search; the trained cells stay unless the catalog grew past
            # RETRAIN_GROWTH.
            self._indexed_rows = 0
            self._replaced.clear()

    @property
    def cells(self) -> int:
        """Number of IVF cells (0 before the structure is built)."""
        return 0 if self._ivf is None else int(self._ivf.nlist)

    def build(self, progress: BuildProgress | None = None) -> None:
        """Bring the IVF structure up to date with the stored rows (search calls this too;
        call it up front to pay the training time before the first query)."""
        with self._lock:
            rows = len(self._table)
            if rows == 0:
                return
            if self._ivf is None:
                self._load_saved()
            grown = rows / max(self._trained_rows, 1)
            if self._ivf is None or not (1 / RETRAIN_GROWTH <= grown <= RETRAIN_GROWTH):
                self._train(progress)
            if self._indexed_rows == 0 and self._ivf.ntotal:
                self._ivf.reset()
                self._cell_of_row = np.zeros(0, dtype=np.int64)
            if self._replaced:
                stale = np.fromiter(sorted(self._replaced), dtype=np.int64)
                self._ivf.remove_ids(self._faiss.IDSelectorBatch(stale))
                self._add(stale, None)
                self._replaced.clear()
            if self._indexed_rows < rows:
                self._add(np.arange(self._indexed_rows, rows, dtype=np.int64), progress)
                self._indexed_rows = rows

    def persist(self) -> None:
        """The table, then the structure, trained and filled now, for the next process."""
        with self._lock:
            super().persist()
            state = self._label
            if state is None or not len(self._table):
                return
            self.build()
            self._save_structure(state)

    def _structure_path(self, state: str) -> Path:
        return self._directory / f"{_SAVED_IVF}{state.replace(':', '-')}"

    def _save_structure(self, state: str) -> None:
        """Best effort, like the table: the directory appears whole or not at all."""
        target = self._structure_path(state)
        if target.exists():
            return
        scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=self._directory))
        try:
            self._faiss.write_index(self._ivf, str(scratch / "ivf.faiss"))
            np.save(scratch / "cells.npy", self._cell_of_row[: self._indexed_rows])
            meta = {"state": state, "trained_rows": self._trained_rows}
            (scratch / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
            os.rename(scratch, target)
        except (OSError, RuntimeError) as exc:  # faiss reports I/O errors as RuntimeError
            shutil.rmtree(scratch, ignore_errors=True)
            logger.warning("could not save the ivf structure to %s: %s", target, exc)
            return
        for older in self._directory.glob(f"{_SAVED_IVF}*"):
            if older != target:
                shutil.rmtree(older, ignore_errors=True)

    def _load_saved(self) -> None:
        """Adopt the structure saved for the state this process's table holds, if any."""
        state = self._label
        path = self._structure_path(state) if state is not None else None
        if path is None or not path.is_dir():
            return
        try:
            meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
            cells = np.load(path / "cells.npy")
            ivf = self._faiss.read_index(str(path / "ivf.faiss"))
        except (OSError, ValueError, RuntimeError) as exc:
            logger.warning("not using the saved ivf structure in %s: %s", path, exc)
            return
        rows = len(self._table)
        if meta.get("state") != state or len(cells) != rows or ivf.ntotal != rows:
            logger.warning("not using the saved ivf structure in %s: it disagrees", path)
            return
        self._ivf, self._quantizer = ivf, self._faiss.downcast_index(ivf.quantizer)
        self._trained_rows = int(meta["trained_rows"])
        self._cell_of_row = cells.astype(np.int64)
        self._indexed_rows = rows
        self._replaced.clear()
        logger.debug("ivf structure read from %s: %d cells", path, ivf.nlist)

    def _train(self, progress: BuildProgress | None) -> None:
        faiss = self._faiss
        vectors = self._table.vectors
        rows = len(vectors)
        cells = max(1, min(MAX_CELLS, round(CELLS_PER_SQRT_N * math.sqrt(rows)), rows // 39))
        sample_size = min(rows, cells * TRAINING_ROWS_PER_CELL)
        sample = np.random.default_rng(0).choice(rows, size=sample_size, replace=False)
        if progress:
            progress("train", 0, 1)
        quantizer = faiss.IndexFlatIP(self.dim)
        ivf = faiss.IndexIVFFlat(quantizer, self.dim, cells, faiss.METRIC_INNER_PRODUCT)
        ivf.cp.seed = 0
        ivf.cp.niter = KMEANS_ITERATIONS
        with _all_cores(faiss):
            ivf.train(vectors[np.sort(sample)])
        self._ivf, self._quantizer = ivf, quantizer
        self._trained_rows = rows
        self._indexed_rows = 0
        self._replaced.clear()
        self._cell_of_row = np.zeros(0, dtype=np.int64)
        logger.info("ivf index trained: %d cells on %d of %d rows", cells, sample_size, rows)
        if progress:
            progress("train", 1, 1)

    def _add(self, positions: Positions, progress: BuildProgress | None) -> None:
        """Assign `positions` to their nearest cell and append them to that cell's list."""
        faiss = self._faiss
        rows = len(self._table)
        if len(self._cell_of_row) < rows:
            grown = np.full(rows, -1, dtype=np.int64)
            grown[: len(self._cell_of_row)] = self._cell_of_row
            self._cell_of_row = grown
        with _all_cores(faiss):
            for start in range(0, len(positions), _ADD_CHUNK):
                chunk = np.ascontiguousarray(positions[start : start + _ADD_CHUNK])
                vectors = np.ascontiguousarray(self._table.vectors[chunk])
                _, cells = self._quantizer.search(vectors, 1)
                cells = np.ascontiguousarray(cells[:, 0])
                self._ivf.add_core(
                    len(chunk),
                    faiss.swig_ptr(vectors),
                    faiss.swig_ptr(chunk),
                    faiss.swig_ptr(cells),
                )
                self._cell_of_row[chunk] = cells
                if progress:
                    progress("add", start + len(chunk), len(positions))

    def search(
        self, vector: Vector, k: int, filters: SearchFilters | None = None
    ) -> list[IndexHit]:
        query = np.ascontiguousarray(np.asarray(vector, dtype=np.float32).reshape(1, -1))
        with self._lock:
            if k <= 0 or not len(self._table):
                return []
            mask = self._table.mask(filters)
            allowed = len(self._table) if mask is None else int(mask.sum())
            if allowed == 0:
                return []
            k = min(k, allowed)
            if allowed <= max(self._exact_rows, k):
                positions, scores = self._exact(query, k, mask)
            else:
                self.build()
                probes = self._probes(query, k, mask)
                if probes is None:
                    positions, scores = self._exact(query, k, mask)
                else:
                    positions, scores = self._scan(query, k, mask, probes)
            products = self._table.products
            return [
                IndexHit(product=products[int(p)], score=float(s))
                for p, s in zip(positions, scores, strict=True)
                if p >= 0
            ]

    def _probes(self, query: Matrix, k: int, mask: BoolMask | None) -> int | None:
        """How many cells, nearest first, hold enough rows that pass the filter (None: more
        than `max_probe_fraction` of them, so exact scoring is cheaper and certain)."""
        cells = int(self._ivf.nlist)
        _, order = self._quantizer.search(query, cells)
        if mask is None:
            per_cell = np.bincount(self._cell_of_row, minlength=cells)
        else:
            per_cell = np.bincount(self._cell_of_row[mask], minlength=cells)
        reached = np.cumsum(per_cell[order[0]])
        target = min(k * self._candidates_per_k, int(reached[-1]))
        probes = max(self._min_probes, int(np.searchsorted(reached, target)) + 1)
        if probes > max(self._min_probes, self._max_probe_fraction * cells):
            return None
        return min(probes, cells)

    def _scan(
        self, query: Matrix, k: int, mask: BoolMask | None, probes: int
    ) -> tuple[Positions, npt.NDArray[np.float32]]:
        faiss = self._faiss
        if mask is None:
            params = faiss.SearchParametersIVF(nprobe=probes)
            scores, ids = self._ivf.search(query, k, params=params)
        else:
            bitmap = np.packbits(mask, bitorder="little")  # must outlive the search call
            selector = faiss.IDSelectorBitmap(len(mask), faiss.swig_ptr(bitmap))
            params = faiss.SearchParametersIVF(nprobe=probes, sel=selector)
            scores, ids = self._ivf.search(query, k, params=params)
        return ids[0], scores[0]

    def _exact(
        self, query: Matrix, k: int, mask: BoolMask | None
    ) -> tuple[Positions, npt.NDArray[np.float32]]:
        vectors = self._table.vectors
        if mask is None:
            scores = vectors @ query[0]
            best = top_k_rows(scores, k)
            return best, scores[best]
        rows = np.flatnonzero(mask)
        subset_scores = vectors[rows] @ query[0]
        best = top_k_rows(subset_scores, k)
        return rows[best], subset_scores[best]


@contextmanager
def _all_cores(faiss: Any) -> Iterator[None]:
    """Training and filling use every core; queries stay single-threaded (see FaissIndex)."""
    faiss.omp_set_num_threads(os.cpu_count() or 1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(1)
