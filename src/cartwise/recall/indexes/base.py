"""The `ProductIndex` seam: product vectors with exact filters.

Exact matches (platform, price range, brand, domain, stock) are filters in the index
query, never scores: a result outside the filter is a bug, not a low-ranked hit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.embedding.base import Matrix, Vector


class SearchFilters(BaseModel):
    """Exact filters. Empty lists / None mean "no restriction"."""

    platforms: list[str] = Field(default_factory=list)
    min_price_base: float | None = None
    max_price_base: float | None = None
    brands: list[str] = Field(default_factory=list)
    """Matched case-insensitively against `Product.brand`."""
    domains: list[str] = Field(default_factory=list)
    in_stock: bool | None = None

    def accepts(self, product: Product) -> bool:
        """The reference semantics every index must reproduce exactly."""
        if self.platforms and product.platform not in self.platforms:
            return False
        if self.min_price_base is not None and product.price_base < self.min_price_base:
            return False
        if self.max_price_base is not None and product.price_base > self.max_price_base:
            return False
        if self.brands and product.brand.casefold() not in {b.casefold() for b in self.brands}:
            return False
        if self.domains and product.domain.value not in self.domains:
            return False
        return self.in_stock is None or product.in_stock == self.in_stock


class IndexHit(BaseModel):
    product: Product
    score: float
    """Inner product of the request vector and the item vector (cosine: both normalized)."""


@runtime_checkable
class FullTextIndex(Protocol):
    """An index that also ranks products by BM25 itself (Milvus), so the service needs no
    in-process BM25 copy of the catalog."""

    full_text: bool
    """False when this particular store lacks the text field (an older collection)."""

    def search_text(
        self, query: str, k: int, filters: SearchFilters | None = None
    ) -> list[tuple[Product, float]]: ...


@runtime_checkable
class ProductIndex(Protocol):
    """Product vectors keyed by `Product.key`."""

    @property
    def dim(self) -> int: ...

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        """Insert or replace by (platform, item_id); durable when it returns."""
        ...

    def delete(self, keys: Sequence[str]) -> int: ...

    def count(self) -> int: ...

    def get(self, key: str) -> Product | None: ...

    def platforms(self) -> list[str]:
        """Every platform with at least one product."""
        ...

    def iter_products(self) -> Iterator[Product]:
        """Every stored product (the lexical index is rebuilt from these)."""
        ...

    def vectors(self, keys: Sequence[str]) -> Matrix:
        """Stored item vectors for `keys`, in order (zero rows for unknown keys): the
        service splits a hit's score into its query and user parts with them."""
        ...

    def search(
        self, vector: Vector, k: int, filters: SearchFilters | None = None
    ) -> list[IndexHit]:
        """Top-k by inner product among products that pass `filters` exactly."""
        ...

    def reload(self) -> None:
        """Re-read the durable catalog another process changed (drop in-memory copies)."""
        ...

    def close(self) -> None: ...
