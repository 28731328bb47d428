"""The `ProductIndex` seam: product vectors with exact filters.

Exact matches (platform, price range, brand, domain, product type, stock) are filters in the
index query, never scores: a result outside the filter is a bug, not a low-ranked hit.

The product-type filter lets untyped listings through: most real listings carry no
`Product.product_type` (ingest leaves it "" when the type is not known), and a shopper asking
for running shoes must not lose every untyped shoe. Typed listings of another type are out.

Spec filters ("> 3 m", socket AM5) follow `cartwise.catalog.specs.check`: a listing *meets*,
*violates* or leaves *unknown* (does not state the attribute) each request. A filter names
which verdicts pass: "meets" only by default (strict), or "unknown" only for the top-up the
service runs when too few listings state the spec (`recall/spec_search.py`). A "violates"
never passes, whatever the caller asks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field, field_validator

from cartwise.catalog.product import Product
from cartwise.catalog.specs import LabelSpec, NumericSpec, RequestSpecs, check
from cartwise.catalog.specs.model import distinct_specs

if TYPE_CHECKING:
    import numpy as np

    from cartwise.embedding.base import Matrix, Vector

SpecVerdict = Literal["meets", "unknown"]


def _strict() -> list[SpecVerdict]:
    return ["meets"]


class SearchFilters(BaseModel):
    """Exact filters. Empty lists / None mean "no restriction"."""

    platforms: list[str] = Field(default_factory=list)
    min_price_base: float | None = None
    max_price_base: float | None = None
    brands: list[str] = Field(default_factory=list)
    """Matched case-insensitively against `Product.brand`."""
    domains: list[str] = Field(default_factory=list)
    product_types: frozenset[str] = frozenset()
    """Taxonomy slugs (`cartwise.catalog.taxonomy`), matched exactly against
    `Product.product_type`; a listing with no known type ("") always passes."""
    in_stock: bool | None = None
    numeric_specs: list[NumericSpec] = Field(default_factory=list)
    """Comparisons every result must meet ("> 3 m", "≥ 27 inch")."""
    label_specs: list[LabelSpec] = Field(default_factory=list)
    """Categorical specs every result must meet (socket am5, not black)."""
    spec_verdicts: list[SpecVerdict] = Field(default_factory=_strict)
    """Which `check` verdicts pass when there are specs: ["meets"] (strict, the default),
    ["unknown"] (listings that do not state an asked attribute: the top-up), or both."""

    _numeric_specs = field_validator("numeric_specs")(distinct_specs)
    _label_specs = field_validator("label_specs")(distinct_specs)

    @field_validator("spec_verdicts")
    @classmethod
    def _some_verdict(cls, value: list[SpecVerdict]) -> list[SpecVerdict]:
        if not value:
            raise ValueError("spec_verdicts needs meets, unknown or both")
        return sorted(set(value))

    @property
    def has_specs(self) -> bool:
        return bool(self.numeric_specs or self.label_specs)

    def request_specs(self) -> RequestSpecs:
        return RequestSpecs(numeric=self.numeric_specs, labels=self.label_specs)

    def accepts_product_type(self, product: Product) -> bool:
        """The product-type part of `accepts` alone (untyped listings pass)."""
        return (
            not self.product_types
            or not product.product_type
            or product.product_type in self.product_types
        )

    def accepts_specs(self, product: Product) -> bool:
        """The spec part of `accepts` alone (what post-filtering indexes apply)."""
        if not self.has_specs:
            return True
        return check(product.specs, self.request_specs()) in self.spec_verdicts

    def without_specs(self) -> SearchFilters:
        return self.model_copy(update={"numeric_specs": [], "label_specs": []})

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
        if not self.accepts_product_type(product):
            return False
        if self.in_stock is not None and product.in_stock != self.in_stock:
            return False
        return self.accepts_specs(product)


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
class ColumnFilteredIndex(Protocol):
    """An index that holds its filter fields as columns (its in-memory table), so which
    products may pass a filter is known without reading one."""

    def passing(
        self, filters: SearchFilters | None, keys: Sequence[str]
    ) -> np.ndarray[Any, np.dtype[np.bool_]] | None:
        """For each of `keys`, in order, whether `filters` may accept its product (False for
        a key the index does not hold); None: no restriction at all. A product marked False
        is one `filters.accepts` rejects."""
        ...


@runtime_checkable
class PersistentIndex(Protocol):
    """An index that can save what opening it would otherwise compute (FAISS: its in-memory
    table), so the next process opens it in milliseconds."""

    def persist(self) -> None: ...

    def state(self) -> str | None:
        """The catalog state this process's copy holds (a store id and write generation),
        or None when another process wrote since: what is saved for it is named by it."""
        ...

    def products(self, keys: Sequence[str]) -> list[Product | None]:
        """Products by key, in order (None: not stored), read in one call: what a saved
        BM25's hits are read with."""
        ...


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
