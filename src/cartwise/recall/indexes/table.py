"""`ProductTable`: the in-memory rows of the embedded indexes (products, vectors, filter columns).

Filters are evaluated on numpy columns (platform codes, price_base, casefolded brand codes,
domain codes, in_stock) so pre-filtering a 100k catalog costs a few vectorized comparisons,
and the allowed row ids are known *before* any vector is scored. The semantics are exactly
`SearchFilters.accepts`; the property tests hold the two side by side.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from cartwise.catalog.product import Product
from cartwise.embedding.base import Matrix
from cartwise.errors import InvalidInput
from cartwise.recall.indexes.base import SearchFilters

BoolMask = npt.NDArray[np.bool_]
RowIds = npt.NDArray[np.int64]


class _Codes:
    """A string → small-int dictionary for one categorical column."""

    def __init__(self) -> None:
        self.codes: dict[str, int] = {}

    def code(self, value: str) -> int:
        return self.codes.setdefault(value, len(self.codes))

    def lookup(self, values: Sequence[str]) -> list[int]:
        return [self.codes[v] for v in values if v in self.codes]


class ProductTable:
    """Rows addressed by position; `Product.key` → position kept in `positions`."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.keys: list[str] = []
        self.products: list[Product] = []
        self.positions: dict[str, int] = {}
        self.vectors: Matrix = np.zeros((0, dim), dtype=np.float32)
        self._platform = _Codes()
        self._brand = _Codes()
        self._domain = _Codes()
        self._platform_col = np.zeros(0, dtype=np.int32)
        self._brand_col = np.zeros(0, dtype=np.int32)
        self._domain_col = np.zeros(0, dtype=np.int32)
        self._price_col = np.zeros(0, dtype=np.float64)
        self._stock_col = np.zeros(0, dtype=np.bool_)

    def __len__(self) -> int:
        return len(self.keys)

    def check(self, products: Sequence[Product], vectors: Matrix) -> Matrix:
        """Validate an upsert batch before anything is written; returns float32 vectors."""
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape != (len(products), self.dim):
            raise InvalidInput(
                f"expected {len(products)} vectors of dimension {self.dim}, got shape {matrix.shape}"
            )
        if not np.isfinite(matrix).all():
            raise InvalidInput("vectors contain NaN or infinite values")
        return matrix

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        """Replace rows whose key exists, append the rest (last one wins within a batch)."""
        matrix = self.check(products, vectors)
        latest: dict[str, int] = {p.key: i for i, p in enumerate(products)}
        new_rows: list[int] = []
        for key, i in latest.items():
            position = self.positions.get(key)
            if position is None:
                new_rows.append(i)
                continue
            self.products[position] = products[i]
            self.vectors[position] = matrix[i]
            self._set_columns(position, products[i])
        if new_rows:
            start = len(self.keys)
            added = [products[i] for i in new_rows]
            for offset, product in enumerate(added):
                self.positions[product.key] = start + offset
                self.keys.append(product.key)
                self.products.append(product)
            self.vectors = np.concatenate([self.vectors, matrix[new_rows]], axis=0)
            self._platform_col = np.concatenate(
                [self._platform_col, [self._platform.code(p.platform) for p in added]]
            ).astype(np.int32)
            self._brand_col = np.concatenate(
                [self._brand_col, [self._brand.code(p.brand.casefold()) for p in added]]
            ).astype(np.int32)
            self._domain_col = np.concatenate(
                [self._domain_col, [self._domain.code(p.domain.value) for p in added]]
            ).astype(np.int32)
            self._price_col = np.concatenate([self._price_col, [p.price_base for p in added]])
            self._stock_col = np.concatenate(
                [self._stock_col, np.array([p.in_stock for p in added], dtype=np.bool_)]
            )

    def _set_columns(self, position: int, product: Product) -> None:
        self._platform_col[position] = self._platform.code(product.platform)
        self._brand_col[position] = self._brand.code(product.brand.casefold())
        self._domain_col[position] = self._domain.code(product.domain.value)
        self._price_col[position] = product.price_base
        self._stock_col[position] = product.in_stock

    def delete(self, keys: Sequence[str]) -> list[str]:
        """Remove rows; returns the keys that existed. Positions after them shift down."""
        doomed = sorted({self.positions[k] for k in keys if k in self.positions})
        if not doomed:
            return []
        removed = [self.keys[i] for i in doomed]
        keep = np.ones(len(self.keys), dtype=np.bool_)
        keep[doomed] = False
        self.keys = [k for k, kept in zip(self.keys, keep, strict=True) if kept]
        self.products = [p for p, kept in zip(self.products, keep, strict=True) if kept]
        self.positions = {k: i for i, k in enumerate(self.keys)}
        self.vectors = self.vectors[keep]
        self._platform_col = self._platform_col[keep]
        self._brand_col = self._brand_col[keep]
        self._domain_col = self._domain_col[keep]
        self._price_col = self._price_col[keep]
        self._stock_col = self._stock_col[keep]
        return removed

    def platforms(self) -> list[str]:
        present = set(np.unique(self._platform_col).tolist())
        return sorted(name for name, code in self._platform.codes.items() if code in present)

    def iter_products(self) -> Iterator[Product]:
        return iter(list(self.products))

    def vectors_for(self, keys: Sequence[str]) -> Matrix:
        out = np.zeros((len(keys), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            position = self.positions.get(key)
            if position is not None:
                out[row] = self.vectors[position]
        return out

    def mask(self, filters: SearchFilters | None) -> BoolMask | None:
        """Rows passing `filters` (None: no restriction at all)."""
        if filters is None:
            return None
        mask: BoolMask | None = None

        def narrow(condition: BoolMask) -> None:
            nonlocal mask
            mask = condition if mask is None else mask & condition

        if filters.platforms:
            narrow(np.isin(self._platform_col, self._platform.lookup(filters.platforms)))
        if filters.min_price_base is not None:
            narrow(self._price_col >= filters.min_price_base)
        if filters.max_price_base is not None:
            narrow(self._price_col <= filters.max_price_base)
        if filters.brands:
            wanted = [b.casefold() for b in filters.brands]
            narrow(np.isin(self._brand_col, self._brand.lookup(wanted)))
        if filters.domains:
            narrow(np.isin(self._domain_col, self._domain.lookup(filters.domains)))
        if filters.in_stock is not None:
            narrow(self._stock_col == filters.in_stock)
        return mask

    def allowed_rows(self, filters: SearchFilters | None) -> RowIds | None:
        mask = self.mask(filters)
        return None if mask is None else np.flatnonzero(mask).astype(np.int64)


def top_k_rows(scores: npt.NDArray[np.float32], k: int) -> RowIds:
    """Indices of the k highest scores, best first (ties broken by lower index)."""
    if k >= len(scores):
        return np.argsort(-scores, kind="stable").astype(np.int64)
    part = np.argpartition(-scores, k - 1)[:k]
    order = np.lexsort((part, -scores[part]))
    return part[order].astype(np.int64)
