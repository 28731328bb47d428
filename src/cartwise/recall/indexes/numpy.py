"""`NumpyIndex`: in-memory brute force over pre-filtered rows. The baseline the benchmark
compares against, and the simplest correct `ProductIndex` (not persisted)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from cartwise.catalog.product import Product
from cartwise.embedding.base import Matrix, Vector
from cartwise.recall.indexes.base import IndexHit, SearchFilters
from cartwise.recall.indexes.table import BoolMask, ProductTable, top_k_rows


class NumpyIndex:
    """Exact inner product: one matrix-vector product over the rows that pass the filters."""

    def __init__(self, dim: int) -> None:
        self._table = ProductTable(dim)

    @property
    def dim(self) -> int:
        return self._table.dim

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        self._table.upsert(products, vectors)

    def delete(self, keys: Sequence[str]) -> int:
        return len(self._table.delete(keys))

    def count(self) -> int:
        return len(self._table)

    def get(self, key: str) -> Product | None:
        position = self._table.positions.get(key)
        return None if position is None else self._table.products[position]

    def platforms(self) -> list[str]:
        return self._table.platforms()

    def passing(self, filters: SearchFilters | None, keys: Sequence[str]) -> BoolMask | None:
        return self._table.passing(filters, keys)

    def iter_products(self) -> Iterator[Product]:
        return self._table.iter_products()

    def vectors(self, keys: Sequence[str]) -> Matrix:
        return self._table.vectors_for(keys)

    def search(
        self, vector: Vector, k: int, filters: SearchFilters | None = None
    ) -> list[IndexHit]:
        if k <= 0 or not len(self._table):
            return []
        query = np.asarray(vector, dtype=np.float32).ravel()
        rows = self._table.allowed_rows(filters)
        candidates = self._table.vectors if rows is None else self._table.vectors[rows]
        if not len(candidates):
            return []
        scores = candidates @ query
        best = top_k_rows(scores, k)
        positions = best if rows is None else rows[best]
        return [
            IndexHit(product=self._table.products[int(p)], score=float(s))
            for p, s in zip(positions, scores[best], strict=True)
        ]

    def reload(self) -> None:
        """Nothing durable to re-read: the rows exist only in this process."""

    def close(self) -> None:
        """Nothing to release."""
