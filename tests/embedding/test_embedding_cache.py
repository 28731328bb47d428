from __future__ import annotations

from pathlib import Path

import numpy as np

from cartwise.embedding.cache import CachedEmbedder
from cartwise.embedding.hashing import HashingEmbedder
from tests.doubles import CountingEmbedder


def test_cache_serves_repeated_texts_without_calling_the_model(tmp_path: Path) -> None:
    model = CountingEmbedder(HashingEmbedder(64))
    cached = CachedEmbedder(model, tmp_path / "cache.sqlite")
    first = cached.embed_documents(["red shoes", "blue shirt", "red shoes"])
    assert model.documents_embedded == 2  # the repeat inside one call is embedded once
    second = cached.embed_documents(["blue shirt", "green hat"])
    assert model.documents_embedded == 3
    assert (cached.stats.embedded, cached.stats.cached) == (3, 2)
    np.testing.assert_allclose(first[1], second[0])
    np.testing.assert_allclose(first[0], HashingEmbedder(64).embed_documents(["red shoes"])[0])
    cached.close()


def test_cache_persists_across_instances_and_is_keyed_by_model(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    CachedEmbedder(HashingEmbedder(64), path).embed_documents(["wool coat"])
    same_model = CountingEmbedder(HashingEmbedder(64))
    CachedEmbedder(same_model, path).embed_documents(["wool coat"])
    assert same_model.documents_embedded == 0
    other_model = CountingEmbedder(HashingEmbedder(32))
    vectors = CachedEmbedder(other_model, path).embed_documents(["wool coat"])
    assert other_model.documents_embedded == 1  # another model never reuses these vectors
    assert vectors.shape == (1, 32)


def test_queries_are_not_cached(tmp_path: Path) -> None:
    model = CountingEmbedder(HashingEmbedder(64))
    cached = CachedEmbedder(model, tmp_path / "cache.sqlite")
    cached.embed_query("不要塑料")
    cached.embed_query("不要塑料")
    assert model.queries_embedded == 2
    assert cached.embed_documents([]).shape == (0, 64)
    assert (cached.name, cached.dim) == ("hashing:64", 64)
