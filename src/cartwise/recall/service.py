"""`RecallService`: the one recall object the rest of the app uses (three towers + hybrid).

Towers: the item tower is the index (product vectors); the query tower is `embed_query(query)`;
the user tower is `embed_query(profile)` where the profile is like-only text and is built only
when non-empty — no likes, no user vector, personalization inactive. Dislikes never reach a
vector: embedders hear "塑料" in "不要塑料" (negation collapse), so a dislike in the user tower
would pull plastic products *up*.

The request vector is r = normalize(q + β·u). Hybrid mode fuses the dense ranking over r with
BM25 over the query text (a convex combination of min-max normalized scores), then lifts products whose title contains
a model number of the query verbatim ("5900X", "XG43UQ", "WH-1000XM5") above everything else:
a shopper who types a model number wants that model, not its nearest neighbours.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from cartwise.catalog.brands import (
    CatalogBrand,
    mine_brands,
    product_rows,
    read_brands,
    write_brands,
)
from cartwise.catalog.kinds import CatalogKinds, collect_kinds, read_kinds, write_kinds
from cartwise.catalog.product import Product
from cartwise.embedding.base import Embedder, Matrix, Vector, normalize_vector, query_start
from cartwise.errors import ConfigurationError, InvalidInput, UnknownPlatform
from cartwise.recall.catalog_version import CatalogVersion, CatalogWatcher, RedisCatalogVersion
from cartwise.recall.indexes import create_index, index_name
from cartwise.recall.indexes.base import (
    ColumnFilteredIndex,
    FullTextIndex,
    PersistentIndex,
    ProductIndex,
    SearchFilters,
)
from cartwise.recall.lexical import LexicalIndex, SavedLexical, model_forms, model_tokens
from cartwise.recall.modes import SearchMode
from cartwise.settings import Settings

DENSE_WEIGHT = 0.6
"""Weight of the dense list in hybrid fusion (BM25 gets the rest), on min-max normalized
scores. Chosen on the development splits (docs/reports/retrieval.md): 0.6 beats both single
retrievers on zh MRR@10 / recall@10 and WebMall recall@20, where reciprocal-rank fusion lost
zh MRR@10 to dense-only (0.743 vs 0.756) by ignoring how far ahead a top hit is."""
CANDIDATE_DEPTH = 100
"""How deep each retriever's list goes before fusion."""
EXACT_MODEL_BOOST = 10.0
"""Added per matched model number; larger than any fused score (≤ 1) so exact models lead."""


class SearchHit(BaseModel):
    """One result with its score parts, so personalization's effect is observable."""

    product: Product
    score: float
    """Ranking score of the mode: cosine to the request vector (dense), BM25 (lexical), or
    the fused normalized score plus the exact-model boost (hybrid)."""
    score_query: float
    """Cosine of the query vector q and the item vector."""
    score_user: float = 0.0
    """Cosine of the user vector u and the item vector; 0 when personalization is inactive."""
    score_lexical: float = 0.0
    """BM25 score of the query text against the product (0 when it shares no token)."""


class SearchResponse(BaseModel):
    """The results of one search and whether the user tower took part."""

    personalization: bool
    """True when a like-only profile produced a user vector that shaped the request."""
    results: list[SearchHit] = Field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The documented shape of `cartwise search --json` and `GET /api/search`."""
        return {
            "personalization": "active" if self.personalization else "inactive",
            "results": [
                {
                    "platform": hit.product.platform,
                    "item_id": hit.product.item_id,
                    "title": hit.product.title,
                    "brand": hit.product.brand,
                    "price": hit.product.price,
                    "currency": hit.product.currency,
                    "price_base": hit.product.price_base,
                    "score": round(hit.score, 6),
                    "score_query": round(hit.score_query, 6),
                    "score_user": round(hit.score_user, 6),
                }
                for hit in self.results
            ],
        }


class RecallService:
    """Index + lexical index + embedder, behind upsert/delete/search."""

    def __init__(
        self,
        index: ProductIndex,
        embedder: Embedder,
        *,
        beta: float,
        lexical: LexicalIndex | None = None,
        version: CatalogVersion | None = None,
        version_check_seconds: float = 2.0,
        brands_path: Path | None = None,
        kinds_path: Path | None = None,
    ) -> None:
        if index.dim != embedder.dim:
            raise ConfigurationError(
                f"index is {index.dim}-d but embedder {embedder.name} is {embedder.dim}-d"
            )
        self.index = index
        self.embedder = embedder
        self.beta = beta
        self.lexical = lexical or LexicalIndex(index.iter_products)
        self._brands_path = brands_path
        self._brands: tuple[CatalogBrand, ...] | None = None
        self._brands_lock = threading.Lock()
        self._kinds_path = kinds_path
        self._kinds: CatalogKinds | None = None
        self._kinds_lock = threading.Lock()
        self._watcher = (
            CatalogWatcher(version, self._reload, interval=version_check_seconds)
            if version is not None
            else None
        )

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder) -> RecallService:
        """The configured index for this embedder, with a lexical index persisted beside it."""
        index = create_index(settings, embedder.dim, embedder_name=embedder.name)
        directory = settings.home / "index" / index_name(embedder.dim, embedder.name)
        brands = directory / "brands.json"
        cache = settings.home / "lexical_tokens.json"
        saved = (
            SavedLexical(directory, state=index.state, products=index.products)
            if isinstance(index, PersistentIndex)
            else None
        )
        lexical = LexicalIndex(index.iter_products, cache_path=cache, saved=saved)
        version = None
        if settings.store_backend == "redis":
            # Replicas: a catalog change made by any of them reaches all (catalog_version.py).
            version = RedisCatalogVersion(
                settings.redis_url,
                timeout=settings.redis_timeout_seconds,
                max_connections=settings.redis_max_connections,
            )
        try:
            return cls(
                index,
                embedder,
                beta=settings.recall_user_beta,
                lexical=lexical,
                version=version,
                version_check_seconds=settings.catalog_check_seconds,
                brands_path=brands,
                kinds_path=directory / "kinds.json",
            )
        except BaseException:
            index.close()
            if version is not None:
                version.close()
            raise

    # -- catalog -------------------------------------------------------------------------

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        """Insert or replace by `Product.key` (vectors from `embedder.embed_documents`)."""
        self.index.upsert(products, vectors)
        self._changed()

    def delete(self, keys: Sequence[str]) -> int:
        removed = self.index.delete(keys)
        if removed:
            self._changed()
        return removed

    def _changed(self) -> None:
        self.lexical.invalidate()
        self._forget_brands()
        if self._watcher is not None:
            self._watcher.announce()

    def catalog_brands(self) -> tuple[CatalogBrand, ...]:
        """The brands of the ingested catalogs, with their Chinese aliases and main domains.

        Mined once per catalog state and kept in a file beside the index: ingest writes it
        (`finish_ingest`), every later process reads it in milliseconds. A missing or stale
        file (the catalog changed elsewhere) is mined again and rewritten."""
        with self._brands_lock:
            if self._brands is not None:
                return self._brands
            count = self.count()
            path = self._brands_path
            brands = read_brands(path, products=count) if path is not None else None
            if brands is None:
                brands = tuple(mine_brands(product_rows(self.index.iter_products())))
                if path is not None:
                    write_brands(path, brands, products=count)
            self._brands = brands
            return brands

    def catalog_kinds(self) -> CatalogKinds:
        """The product types and untyped listings' categories of the ingested catalogs: kept
        in a file beside the index like the brands (written by ingest, read in milliseconds;
        collected from the listings again when it is missing or stale)."""
        count = self.count()
        with self._kinds_lock:
            if self._kinds is not None:
                return self._kinds
            path = self._kinds_path
            kinds = read_kinds(path, products=count) if path is not None else None
            if kinds is None:
                kinds = collect_kinds(self.index.iter_products())
                if path is not None:
                    write_kinds(path, kinds, products=count)
            self._kinds = kinds
            return kinds

    def finish_ingest(self) -> None:
        """Compute now what the catalog's readers would otherwise compute at start-up."""
        self.catalog_brands()
        self.catalog_kinds()
        if isinstance(self.index, PersistentIndex):
            self.index.persist()
            self.lexical.persist()

    def listed_brands(self, slugs: Sequence[str]) -> list[str]:
        """Every spelling the catalogs list each brand under ("dr-martens" → "Dr. Martens",
        "Dr Martens", "马丁靴"…), for an exact brand filter over listings; a slug no catalog
        lists stays itself."""
        forms = {brand.slug: brand.forms for brand in self.catalog_brands()}
        listed: list[str] = []
        for slug in slugs:
            listed.extend([slug, *sorted(forms.get(slug, ()))])
        return list(dict.fromkeys(listed))

    def _forget_brands(self) -> None:
        with self._brands_lock:
            self._brands = None
            if self._brands_path is not None:
                self._brands_path.unlink(missing_ok=True)
        with self._kinds_lock:
            self._kinds = None
            if self._kinds_path is not None:
                self._kinds_path.unlink(missing_ok=True)

    def count(self) -> int:
        self.sync()
        return self.index.count()

    def platforms(self) -> list[str]:
        self.sync()
        return self.index.platforms()

    def get(self, key: str) -> Product | None:
        self.sync()
        return self.index.get(key)

    def sync(self) -> None:
        """Pick up a catalog another replica changed (a cheap no-op between checks)."""
        if self._watcher is not None:
            self._watcher.sync()

    def _search_text(
        self, query: str, k: int, filters: SearchFilters | None
    ) -> list[tuple[Product, float]]:
        """BM25 in the index when it has it (Milvus), else the in-process table."""
        if isinstance(self.index, FullTextIndex) and self.index.full_text:
            return self.index.search_text(query, k, filters)
        passing = self.index.passing if isinstance(self.index, ColumnFilteredIndex) else None
        return self.lexical.search(query, k, filters, passing=passing)

    def _reload(self) -> None:
        self.index.reload()
        self.lexical.invalidate()
        with self._brands_lock:
            self._brands = None
        with self._kinds_lock:
            self._kinds = None

    def close(self) -> None:
        self.index.close()
        if self._watcher is not None:
            self._watcher.close()

    # -- search --------------------------------------------------------------------------

    def check_filters(self, filters: SearchFilters | None) -> None:
        """Unknown platforms are an error, not an empty result the shopper can't explain."""
        if filters is None or not filters.platforms:
            return
        known = self.platforms()
        for platform in filters.platforms:
            if platform not in known:
                raise UnknownPlatform(platform, known)

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        filters: SearchFilters | None = None,
        profile: str | None = None,
        profile_vector: Vector | None = None,
        mode: SearchMode = "hybrid",
    ) -> SearchResponse:
        """Top-k products for `query` within `filters`; `profile` is like-only text, and
        `profile_vector` (when given, with `profile`) its user-tower vector already made, so
        the profile is not embedded again."""
        if not query.strip():
            raise InvalidInput("the search query is empty")
        if k < 1:
            raise InvalidInput(f"k must be at least 1, got {k}")
        self.sync()
        self.check_filters(filters)
        q = self.embedder.embed_query(query_start(query))
        # No likes (or β = 0): no user vector at all, so nothing of the profile leaks in.
        u = None
        if profile and profile.strip() and self.beta > 0:
            u = profile_vector if profile_vector is not None else self.embedder.embed_query(profile)
        personalization = u is not None
        request = normalize_vector(q + self.beta * u) if u is not None else q

        depth = max(CANDIDATE_DEPTH, k)
        dense: list[tuple[Product, float]] = []
        lexical: list[tuple[Product, float]] = []
        if mode != "lexical":
            dense = [(hit.product, hit.score) for hit in self.index.search(request, depth, filters)]
        if mode != "dense":
            lexical = self._search_text(query, depth, filters)
        if mode == "dense":
            ranked = dense[:k]
        elif mode == "lexical":
            ranked = lexical[:k]
        else:
            ranked = fuse(query, dense, lexical, k)
        bm25 = {p.key: s for p, s in lexical}
        items = self.index.vectors([p.key for p, _ in ranked])
        query_scores = items @ q
        user_scores = items @ u if u is not None else np.zeros(len(ranked))
        hits = [
            SearchHit(
                product=product,
                score=score,
                score_query=float(query_scores[i]),
                score_user=float(user_scores[i]),
                score_lexical=bm25.get(product.key, 0.0),
            )
            for i, (product, score) in enumerate(ranked)
        ]
        return SearchResponse(personalization=personalization, results=hits)


def fuse(
    query: str,
    dense: list[tuple[Product, float]],
    lexical: list[tuple[Product, float]],
    k: int,
) -> list[tuple[Product, float]]:
    """Convex fusion of min-max normalized dense and BM25 scores, plus the exact-model boost."""
    products = {p.key: p for p, _ in (*dense, *lexical)}
    dense_scores, lexical_scores = _min_max(dense), _min_max(lexical)
    fused = {
        key: DENSE_WEIGHT * dense_scores.get(key, 0.0)
        + (1.0 - DENSE_WEIGHT) * lexical_scores.get(key, 0.0)
        for key in products
    }
    wanted = set(model_tokens(query))
    if wanted:
        for key, product in products.items():
            fused[key] += EXACT_MODEL_BOOST * len(wanted & model_forms(product.title))
    order = sorted(products, key=lambda key: (-fused[key], key))[:k]
    return [(products[key], fused[key]) for key in order]


def _min_max(ranking: list[tuple[Product, float]]) -> dict[str, float]:
    """Scores rescaled to [0, 1] within one list (a list of one, or of ties, is all 1)."""
    if not ranking:
        return {}
    scores = [score for _, score in ranking]
    low, high = min(scores), max(scores)
    span = high - low
    return {p.key: (s - low) / span if span > 0 else 1.0 for p, s in ranking}
