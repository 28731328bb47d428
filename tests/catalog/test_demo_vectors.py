"""Shipped demo vectors: a first start with the default model embeds nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cartwise.catalog.demo import (
    DEMO_PLATFORMS,
    demo_catalog_path,
    ensure_catalog,
    seed_demo_vectors,
)
from cartwise.catalog.ingest import ReaderOptions, read_catalog
from cartwise.catalog.product import Product
from cartwise.embedding.cache import CachedEmbedder
from cartwise.embedding.e5 import E5Embedder
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.vocabulary import fx_to_base
from tests.doubles import CountingEmbedder


def test_vectors_for_another_model_are_not_used(tmp_path: Path) -> None:
    cache = CachedEmbedder(HashingEmbedder(384), tmp_path / "cache.sqlite")
    assert seed_demo_vectors(cache) == 0
    cache.close()


class _SameNameAsE5(HashingEmbedder):
    """Cache keys depend on the model name only: this checks coverage without the model."""

    @property
    def name(self) -> str:
        return "e5:small"


@pytest.mark.slow
def test_shipped_vectors_cover_every_demo_text(tmp_path: Path) -> None:
    texts = [
        p.embedding_text()
        for p in read_catalog(demo_catalog_path(), "jsonl", ReaderOptions(fx_to_base=fx_to_base()))
        if isinstance(p, Product)
    ]
    model = CountingEmbedder(_SameNameAsE5(384))
    cache = CachedEmbedder(model, tmp_path / "cache.sqlite")
    assert seed_demo_vectors(cache) == len(set(texts))
    cache.embed_documents(texts)
    assert model.documents_embedded == 0, "stale demo vectors: run scripts/export_demo_vectors.py"
    cache.close()


@pytest.mark.model
def test_shipped_vectors_match_the_model_and_spare_the_first_start(settings: Settings) -> None:
    model = CountingEmbedder(E5Embedder())
    e5_settings = settings.model_copy(update={"embedder": "e5:small"})
    service = RecallService.open(e5_settings, model)
    try:
        report = ensure_catalog(e5_settings, service, model, progress=False)
        assert report is not None and report.ingested >= 15_000
        assert (report.embedded, model.documents_embedded) == (0, 0)
        assert report.cached == report.ingested
        dense = service.search("Sony WH-1000XM5 头戴式耳机", k=6, mode="dense").results
        assert sum("WH-1000XM5" in h.product.title for h in dense) >= 3
        # Price comparison: the same model from all six platforms comes first.
        hybrid = service.search("Sony WH-1000XM5", k=6).results
        assert {h.product.platform for h in hybrid if "WH-1000XM5" in h.product.title} == set(
            DEMO_PLATFORMS
        )
    finally:
        service.close()
    products = [
        p
        for p in read_catalog(demo_catalog_path(), "jsonl", ReaderOptions(fx_to_base=fx_to_base()))
        if isinstance(p, Product)
    ]
    sample = [products[i].embedding_text() for i in (0, 1234, len(products) - 1)]
    shipped = CachedEmbedder(model, settings.home / "embedding_cache.sqlite").embed_documents(
        sample
    )
    fresh = E5Embedder().embed_documents(sample)
    assert np.all(np.sum(shipped * fresh, axis=1) > 0.999)
