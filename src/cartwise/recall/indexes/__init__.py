"""Product indexes and the one function that picks a backend from settings."""

from __future__ import annotations

from cartwise.recall.indexes.base import IndexHit, ProductIndex, SearchFilters
from cartwise.settings import Settings
from cartwise.vocabulary.slugs import slugify

__all__ = ["IndexHit", "ProductIndex", "SearchFilters", "create_index", "index_name"]


def index_name(dim: int, embedder_name: str = "") -> str:
    """A per-embedder catalog name: vectors of two models never share one index."""
    slug = slugify(embedder_name, separator="_")
    return f"{slug}_{dim}" if slug else f"d{dim}"


def create_index(settings: Settings, dim: int, *, embedder_name: str = "") -> ProductIndex:
    """The index `settings.index_backend` names: embedded FAISS (default) or Milvus. A FAISS
    catalog of `ann_min_products` or more stored products opens as the approximate index."""
    name = index_name(dim, embedder_name)
    if settings.index_backend == "milvus":
        from cartwise.recall.indexes.milvus import MilvusIndex, MilvusOptions

        uri = settings.milvus_uri or str(settings.home / "milvus.db")
        return MilvusIndex(
            uri, dim, collection=f"products_{name}", options=MilvusOptions.from_settings(settings)
        )
    from cartwise.recall.indexes.faiss import FaissIndex, stored_products

    directory = settings.home / "index" / name
    if stored_products(directory) >= settings.ann_min_products:
        from cartwise.recall.indexes.faiss_ivf import FaissIvfIndex

        return FaissIvfIndex(directory, dim)
    return FaissIndex(directory, dim)
