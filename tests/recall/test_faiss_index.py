"""FaissIndex specifics: stored dimension, the subset and selector search paths agree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cartwise.embedding.base import normalize_rows
from cartwise.errors import ConfigurationError
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.numpy import NumpyIndex
from tests.factories import make_product


def test_reopening_with_another_dimension_is_refused(tmp_path: Path) -> None:
    FaissIndex(tmp_path, 8).close()
    with pytest.raises(ConfigurationError, match="8-d vectors"):
        FaissIndex(tmp_path, 16)


def test_large_filtered_sets_use_the_selector_and_match_brute_force(tmp_path: Path) -> None:
    """5,000 rows: a platform filter passing ~2,500 rows exceeds the numpy-subset threshold,
    so the faiss bitmap selector path runs; it must equal brute force."""
    rng = np.random.default_rng(3)
    products = [
        make_product(str(i), platform=("jd", "amazon")[i % 2], price=float(i)) for i in range(5000)
    ]
    vectors = normalize_rows(rng.standard_normal((5000, 32)))
    faiss_index, reference = FaissIndex(tmp_path, 32), NumpyIndex(32)
    faiss_index.upsert(products, vectors)
    reference.upsert(products, vectors)
    for filters in (SearchFilters(platforms=["jd"]), SearchFilters(min_price_base=100), None):
        query = normalize_rows(rng.standard_normal(32))[0]
        got = faiss_index.search(query, 25, filters)
        expected = reference.search(query, 25, filters)
        assert [h.product.key for h in got] == [h.product.key for h in expected]
        np.testing.assert_allclose([h.score for h in got], [h.score for h in expected], atol=1e-5)
    faiss_index.close()
