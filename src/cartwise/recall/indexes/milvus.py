"""`MilvusIndex`: product vectors in Milvus (a server by URI, or Milvus Lite when the URI is a
local file path). pymilvus is an optional dependency, imported lazily.

Filters become a Milvus boolean expression over scalar fields (platform, price_base,
brand_cf = casefolded brand, domain, product_type, in_stock), evaluated by Milvus before the
vector scan. A collection created before the `product_type` field has no such column: there
the product-type filter is applied after the scan, like the spec filters below.
String literals are JSON-escaped, so a brand like `Levi's "Red"` cannot break or inject
into the expression.

No `flush()` after writes: Milvus (server and Lite 3.2) shows upserted rows to query and
search at once (a test checks it on Lite), and a server persists them from its write-ahead
log; a flush per ingest batch only forced tiny sealed segments. `platforms()` is cached
(MILVUS_PLATFORM_CACHE_SECONDS) instead of scanning the collection on every search; a write
through this process or a catalog-version change (`reload()`) drops the cache.

Full-text search runs in Milvus too (its BM25 function over a `lexical` field), so no
replica keeps a BM25 copy of the catalog. The text is Cartwise's own tokens (`tokenize`: jieba
words, model numbers, folded Latin words), each written as a short hash so Milvus' `standard`
analyzer keeps it whole: Milvus Lite offers only `standard` and `jieba` tokenizers, and the
query must be cut exactly like the products. Milvus Lite reports BM25 distances negated
(best first, most negative); the magnitude is the score on both Lite and a server.
A collection created before these fields has no `lexical` field: `full_text` is then False
and the service keeps its in-process BM25 until the catalog is re-ingested into a fresh
collection.

Spec filters ("> 3 m", socket AM5) are applied after the scan, on the stored product's
specs, with over-fetch: Milvus expressions cannot say "one element of this array is > 3"
(a listing may state several lengths), and keeping the specs inside the product JSON needs
no schema change for existing collections. The scan asks for 4× the wanted hits, then 4×
more while it came back full and short of k, so the answer is the exact filtered top-k.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from cartwise.catalog.product import Product
from cartwise.embedding.base import Matrix, Vector
from cartwise.errors import ConfigurationError, InvalidInput, StoreUnavailable
from cartwise.log import logger
from cartwise.recall.indexes.base import IndexHit, SearchFilters
from cartwise.recall.lexical import lexical_text, tokenize
from cartwise.settings import Settings

_INSTALL_HINT = "the Milvus backend needs pymilvus: pip install 'cartwise[milvus]'"
_MAX_JSON_BYTES = 60000
_BATCH = 4000
_MAX_LIMIT = 16384  # Milvus' top-k ceiling
_SPEC_OVERFETCH = 4
"""Rows scanned per wanted hit while a filter is applied after the scan (grows by this factor)."""


def _literal(value: str) -> str:
    """A string literal safe inside a Milvus expression."""
    return json.dumps(value, ensure_ascii=False)


def filter_expression(filters: SearchFilters | None, *, typed: bool = True) -> str:
    """The Milvus boolean expression equivalent to `filters.accepts` without its specs
    ("" = no filter). `typed`: the collection has the `product_type` field (else the caller
    post-filters by product type)."""
    if filters is None:
        return ""
    clauses: list[str] = []
    if filters.platforms:
        clauses.append(f"platform in [{', '.join(_literal(p) for p in filters.platforms)}]")
    if filters.min_price_base is not None:
        clauses.append(f"price_base >= {float(filters.min_price_base)!r}")
    if filters.max_price_base is not None:
        clauses.append(f"price_base <= {float(filters.max_price_base)!r}")
    if filters.brands:
        brands = ", ".join(_literal(b.casefold()) for b in filters.brands)
        clauses.append(f"brand_cf in [{brands}]")
    if filters.domains:
        clauses.append(f"domain in [{', '.join(_literal(d) for d in filters.domains)}]")
    if filters.product_types and typed:
        types = ", ".join(_literal(t) for t in sorted(filters.product_types))
        clauses.append(f'product_type in [{types}] or product_type == ""')
    if filters.in_stock is not None:
        clauses.append(f"in_stock == {'true' if filters.in_stock else 'false'}")
    return " and ".join(f"({c})" for c in clauses)


def lexical_terms(text: str) -> str:
    """`text` as Cartwise tokens, each hashed to one ASCII word the analyzer keeps whole."""
    return " ".join(
        "t" + hashlib.blake2b(token.encode(), digest_size=8).hexdigest() for token in tokenize(text)
    )


def _lexical_field(product: Product) -> str:
    """The tokens BM25 sees, within Milvus' VARCHAR limit (whole tokens only)."""
    terms = lexical_terms(lexical_text(product))
    if len(terms) <= _MAX_JSON_BYTES:
        return terms
    return terms[: terms.rfind(" ", 0, _MAX_JSON_BYTES)]


def _product_json(product: Product) -> str:
    """The product as JSON within Milvus' VARCHAR limit (a long description is shortened)."""
    text = product.model_dump_json()
    if len(text.encode()) <= _MAX_JSON_BYTES:
        return text
    overflow = len(text.encode()) - _MAX_JSON_BYTES
    shortened = product.model_copy(
        update={
            "description": product.description[: max(0, len(product.description) - overflow - 16)]
        }
    )
    logger.warning("description of %s shortened to fit Milvus", product.key)
    return shortened.model_dump_json()


@dataclass(frozen=True)
class MilvusOptions:
    """Connection and index settings (see the MILVUS_* settings)."""

    token: str = ""
    db_name: str = ""
    server_pem_path: str = ""
    server_name: str = ""
    index_type: Literal["FLAT", "HNSW", "IVF_FLAT"] = "FLAT"
    hnsw_m: int = 16
    hnsw_ef_construction: int = 200
    hnsw_ef: int = 128
    ivf_nlist: int = 1024
    ivf_nprobe: int = 16
    platform_cache_seconds: float = 30.0

    @classmethod
    def from_settings(cls, settings: Settings) -> MilvusOptions:
        return cls(
            token=settings.milvus_token,
            db_name=settings.milvus_db,
            server_pem_path=settings.milvus_server_pem_path,
            server_name=settings.milvus_server_name,
            index_type=settings.milvus_index_type,
            hnsw_m=settings.milvus_hnsw_m,
            hnsw_ef_construction=settings.milvus_hnsw_ef_construction,
            hnsw_ef=settings.milvus_hnsw_ef,
            ivf_nlist=settings.milvus_ivf_nlist,
            ivf_nprobe=settings.milvus_ivf_nprobe,
            platform_cache_seconds=settings.milvus_platform_cache_seconds,
        )

    def client_arguments(self) -> dict[str, str]:
        """Keyword arguments of `MilvusClient` beyond the URI (only those that are set)."""
        arguments = {
            "token": self.token,
            "db_name": self.db_name,
            "server_pem_path": self.server_pem_path,
            "server_name": self.server_name,
        }
        return {name: value for name, value in arguments.items() if value}

    def index_params(self) -> dict[str, int]:
        if self.index_type == "HNSW":
            return {"M": self.hnsw_m, "efConstruction": self.hnsw_ef_construction}
        if self.index_type == "IVF_FLAT":
            return {"nlist": self.ivf_nlist}
        return {}

    def search_params(self, k: int) -> dict[str, int]:
        if self.index_type == "HNSW":
            return {"ef": max(self.hnsw_ef, k)}
        if self.index_type == "IVF_FLAT":
            return {"nprobe": self.ivf_nprobe}
        return {}


class MilvusIndex:
    """One Milvus collection per embedder; primary key = `Product.key`; metric IP."""

    def __init__(
        self,
        uri: str,
        dim: int,
        *,
        collection: str = "products",
        options: MilvusOptions | None = None,
    ) -> None:
        try:
            from pymilvus import DataType, Function, FunctionType, MilvusClient
            from pymilvus.exceptions import MilvusException
        except ImportError as exc:
            raise ConfigurationError(_INSTALL_HINT) from exc
        self._uri = uri
        self._dim = dim
        self._collection = collection
        self._options = options or MilvusOptions()
        self._platforms: list[str] | None = None
        self._platforms_at = 0.0
        self._platforms_lock = threading.Lock()
        self.full_text = False
        """True when the collection has the BM25 `lexical` field (see the module doc)."""
        self._typed = False
        """True when the collection has the `product_type` field (see the module doc)."""
        self._errors: tuple[type[BaseException], ...] = (MilvusException, ConnectionError, OSError)
        try:
            self._client: Any = MilvusClient(uri, **self._options.client_arguments())
            if not self._client.has_collection(collection):
                self._create(DataType, Function(
                    name="lexical_bm25",
                    function_type=FunctionType.BM25,
                    input_field_names=["lexical"],
                    output_field_names=["lexical_sparse"],
                ))  # fmt: skip
            else:
                self._check_dim()
            fields = self._client.describe_collection(collection).get("fields", [])
            names = {field.get("name") for field in fields}
            self.full_text = "lexical" in names
            self._typed = "product_type" in names
            self._client.load_collection(collection)
        except self._errors as exc:
            raise StoreUnavailable(uri, str(exc)) from exc

    def _create(self, data_type: Any, bm25: Any) -> None:
        schema = self._client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("key", data_type.VARCHAR, is_primary=True, max_length=512)
        schema.add_field("vector", data_type.FLOAT_VECTOR, dim=self._dim)
        schema.add_field("platform", data_type.VARCHAR, max_length=64)
        schema.add_field("price_base", data_type.DOUBLE)
        schema.add_field("brand_cf", data_type.VARCHAR, max_length=512)
        schema.add_field("domain", data_type.VARCHAR, max_length=64)
        schema.add_field("product_type", data_type.VARCHAR, max_length=128)
        schema.add_field("in_stock", data_type.BOOL)
        schema.add_field("product", data_type.VARCHAR, max_length=65535)
        schema.add_field(
            "lexical",
            data_type.VARCHAR,
            max_length=65535,
            enable_analyzer=True,
            analyzer_params={"tokenizer": "standard"},
        )
        schema.add_field("lexical_sparse", data_type.SPARSE_FLOAT_VECTOR)
        schema.add_function(bm25)
        params = self._client.prepare_index_params()
        params.add_index(
            field_name="lexical_sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25"
        )
        params.add_index(
            field_name="vector",
            index_type=self._options.index_type,
            metric_type="IP",
            params=self._options.index_params(),
        )
        self._client.create_collection(self._collection, schema=schema, index_params=params)

    def _check_dim(self) -> None:
        described = self._client.describe_collection(self._collection)
        for field in described.get("fields", []):
            if field.get("name") == "vector":
                stored = int(field.get("params", {}).get("dim", self._dim))
                if stored != self._dim:
                    raise ConfigurationError(
                        f"Milvus collection {self._collection} holds {stored}-d vectors, "
                        f"the embedder makes {self._dim}-d ones"
                    )

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(self._client, method)(*args, **kwargs)
        except self._errors as exc:
            raise StoreUnavailable(self._uri, str(exc)) from exc

    @property
    def dim(self) -> int:
        return self._dim

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape != (len(products), self._dim):
            raise InvalidInput(
                f"expected {len(products)} vectors of dimension {self._dim}, got shape {matrix.shape}"
            )
        if not np.isfinite(matrix).all():
            raise InvalidInput("vectors contain NaN or infinite values")
        latest = {p.key: i for i, p in enumerate(products)}  # last one wins within a batch
        rows = [
            {
                "key": key,
                "vector": matrix[i].tolist(),
                "platform": products[i].platform,
                "price_base": float(products[i].price_base),
                "brand_cf": products[i].brand.casefold(),
                "domain": products[i].domain.value,
                "in_stock": products[i].in_stock,
                **({"product_type": products[i].product_type} if self._typed else {}),
                "product": _product_json(products[i]),
                **({"lexical": _lexical_field(products[i])} if self.full_text else {}),
            }
            for key, i in latest.items()
        ]
        for start in range(0, len(rows), _BATCH):
            self._call("upsert", self._collection, rows[start : start + _BATCH])
        self._forget_platforms()

    def delete(self, keys: Sequence[str]) -> int:
        unique = list(dict.fromkeys(keys))
        if not unique:
            return 0
        existing = self._call("query", self._collection, ids=unique, output_fields=["key"])
        if not existing:
            return 0
        self._call("delete", self._collection, ids=[row["key"] for row in existing])
        self._forget_platforms()
        return len(existing)

    def count(self) -> int:
        rows = self._call("query", self._collection, filter="", output_fields=["count(*)"])
        return int(rows[0]["count(*)"]) if rows else 0

    def get(self, key: str) -> Product | None:
        rows = self._call("query", self._collection, ids=[key], output_fields=["product"])
        return Product.model_validate_json(rows[0]["product"]) if rows else None

    def platforms(self) -> list[str]:
        with self._platforms_lock:
            fresh = time.monotonic() - self._platforms_at < self._options.platform_cache_seconds
            if self._platforms is not None and fresh:
                return list(self._platforms)
        found: set[str] = set()
        for batch in self._iterate(["platform"]):
            found.update(row["platform"] for row in batch)
        with self._platforms_lock:
            self._platforms, self._platforms_at = sorted(found), time.monotonic()
            return list(self._platforms)

    def reload(self) -> None:
        # Vectors and products are read from the server on every call; only the platform
        # list is held here.
        self._forget_platforms()

    def _forget_platforms(self) -> None:
        with self._platforms_lock:
            self._platforms = None

    def iter_products(self) -> Iterator[Product]:
        for batch in self._iterate(["product"]):
            for row in batch:
                yield Product.model_validate_json(row["product"])

    def _iterate(self, fields: list[str]) -> Iterator[list[dict[str, Any]]]:
        iterator = self._call(
            "query_iterator", self._collection, batch_size=_BATCH, filter="", output_fields=fields
        )
        try:
            while True:
                try:
                    batch = iterator.next()
                except self._errors as exc:
                    raise StoreUnavailable(self._uri, str(exc)) from exc
                if not batch:
                    return
                yield list(batch)
        finally:
            iterator.close()

    def vectors(self, keys: Sequence[str]) -> Matrix:
        out = np.zeros((len(keys), self._dim), dtype=np.float32)
        if not keys:
            return out
        rows = self._call(
            "query", self._collection, ids=list(dict.fromkeys(keys)), output_fields=["vector"]
        )
        found = {row["key"]: row["vector"] for row in rows}
        for i, key in enumerate(keys):
            if key in found:
                out[i] = np.asarray(found[key], dtype=np.float32)
        return out

    def search(
        self, vector: Vector, k: int, filters: SearchFilters | None = None
    ) -> list[IndexHit]:
        if k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).ravel().tolist()

        def scan(limit: int) -> list[tuple[Product, float]]:
            results = self._call(
                "search",
                self._collection,
                data=[query],
                limit=limit,
                filter=filter_expression(filters, typed=self._typed),
                output_fields=["product"],
                anns_field="vector",
                search_params={"metric_type": "IP", "params": self._options.search_params(limit)},
            )
            return [
                (Product.model_validate_json(hit["entity"]["product"]), float(hit["distance"]))
                for hit in results[0]
            ]

        hits = _post_filtered(scan, k, filters, typed=self._typed)
        return [IndexHit(product=p, score=s) for p, s in hits]

    def search_text(
        self, query: str, k: int, filters: SearchFilters | None = None
    ) -> list[tuple[Product, float]]:
        """Top-k (product, BM25 score > 0) by Milvus' BM25 over the products' tokens."""
        terms = lexical_terms(query)
        if k <= 0 or not terms:
            return []

        def scan(limit: int) -> list[tuple[Product, float]]:
            results = self._call(
                "search",
                self._collection,
                data=[terms],
                limit=limit,
                filter=filter_expression(filters, typed=self._typed),
                output_fields=["product"],
                anns_field="lexical_sparse",
                search_params={"metric_type": "BM25"},
            )
            hits = [
                (Product.model_validate_json(hit["entity"]["product"]), abs(float(hit["distance"])))
                for hit in results[0]
            ]
            return [(product, score) for product, score in hits if score > 0]

        return _post_filtered(scan, k, filters, typed=self._typed)

    def close(self) -> None:
        try:
            self._client.close()
        except self._errors as exc:
            logger.debug("closing Milvus client failed: %s", exc)


def _post_filtered(
    scan: Callable[[int], list[tuple[Product, float]]],
    k: int,
    filters: SearchFilters | None,
    *,
    typed: bool,
) -> list[tuple[Product, float]]:
    """The top-k of `scan` that pass what the expression could not say (specs, and the
    product type on a collection without that field): scan deeper until k pass or the scan
    comes back short (nothing more to find) or hits Milvus' ceiling."""
    by_type = filters is not None and bool(filters.product_types) and not typed
    if filters is None or not (filters.has_specs or by_type):
        return scan(min(k, _MAX_LIMIT))
    wanted = filters

    def passes(product: Product) -> bool:
        return wanted.accepts_specs(product) and wanted.accepts_product_type(product)

    limit = min(k * _SPEC_OVERFETCH, _MAX_LIMIT)
    while True:
        rows = scan(limit)
        kept = [(p, s) for p, s in rows if passes(p)]
        if len(kept) >= k or len(rows) < limit or limit == _MAX_LIMIT:
            return kept[:k]
        limit = min(limit * _SPEC_OVERFETCH, _MAX_LIMIT)
