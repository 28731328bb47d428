"""FaissIvfIndex with its approximate defaults: filters stay exact, scores stay exact, a
selective filter never returns fewer than k hits, and recall against exact search is high on
a clustered catalog. (Exhaustive probing runs the shared contract and property suites.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cartwise.embedding.base import normalize_rows
from cartwise.recall.indexes import create_index
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.faiss_ivf import FaissIvfIndex
from cartwise.recall.indexes.numpy import NumpyIndex
from cartwise.settings import Settings
from tests.factories import make_product

DIM = 32
ROWS = 12_000
PLATFORMS = ["taobao", "jd", "amazon", "walmart", "shopee", "pinduoduo"]


def _clustered(rows: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectors around 120 centres; each centre has its own reference price."""
    rng = np.random.default_rng(seed)
    centres = normalize_rows(rng.standard_normal((120, DIM)))
    cluster = rng.integers(len(centres), size=rows)
    noise = rng.standard_normal((rows, DIM)) / np.sqrt(
        DIM
    )  # norm ~1: as far from the centre as it is long
    vectors = normalize_rows(centres[cluster] + noise)
    reference = np.exp(rng.uniform(np.log(10), np.log(5000), size=len(centres)))
    prices = np.round(reference[cluster] * np.exp(rng.normal(0, 0.3, size=rows)), 2)
    return vectors, prices, centres


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> tuple[FaissIvfIndex, NumpyIndex]:
    vectors, prices, _ = _clustered(ROWS, 1)
    products = [
        make_product(str(i), platform=PLATFORMS[i % 6], price=float(prices[i])) for i in range(ROWS)
    ]
    # exact_rows=0: the cells are probed even for filters that pass only a few rows.
    ivf = FaissIvfIndex(tmp_path_factory.mktemp("ivf"), DIM, exact_rows=0)
    exact = NumpyIndex(DIM)
    for index in (ivf, exact):
        index.upsert(products, vectors)
    ivf.build()
    return ivf, exact


def _queries(count: int) -> tuple[np.ndarray, list[SearchFilters | None]]:
    rng = np.random.default_rng(2)
    vectors, prices, _ = _clustered(count, 1)  # same centres, new points
    filters: list[SearchFilters | None] = []
    for i in range(count):
        shape = i % 4
        if shape == 0:
            filters.append(None)
        elif shape == 1:
            filters.append(SearchFilters(platforms=[PLATFORMS[i % 6]]))
        elif shape == 2:
            budget = float(prices[i] * rng.uniform(0.6, 1.4))
            filters.append(SearchFilters(platforms=[PLATFORMS[i % 6]], max_price_base=budget))
        else:  # a budget far below this kind of product: the right hits are in far cells
            filters.append(SearchFilters(max_price_base=float(prices[i] * 0.2)))
    return normalize_rows(vectors + 0.05 * rng.standard_normal(vectors.shape)), filters


@pytest.mark.slow
def test_the_structure_has_many_cells_so_search_is_approximate(
    indexes: tuple[FaissIvfIndex, NumpyIndex],
) -> None:
    ivf, _ = indexes
    assert ivf.cells > 100


def test_hits_pass_the_filter_have_exact_scores_and_fill_k(
    indexes: tuple[FaissIvfIndex, NumpyIndex],
) -> None:
    ivf, exact = indexes
    queries, filters = _queries(80)
    for query, search_filters in zip(queries, filters, strict=True):
        hits = ivf.search(query, 20, search_filters)
        expected = exact.search(query, 20, search_filters)
        assert len(hits) == len(expected)
        assert search_filters is None or all(search_filters.accepts(h.product) for h in hits)
        stored = ivf.vectors([h.product.key for h in hits])
        np.testing.assert_allclose([h.score for h in hits], stored @ query, atol=1e-5)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_recall_at_20_against_exact_search(indexes: tuple[FaissIvfIndex, NumpyIndex]) -> None:
    ivf, exact = indexes
    queries, filters = _queries(80)
    recalls = []
    for query, search_filters in zip(queries, filters, strict=True):
        found = {h.product.key for h in ivf.search(query, 20, search_filters)}
        truth = {h.product.key for h in exact.search(query, 20, search_filters)}
        if truth:
            recalls.append(len(found & truth) / len(truth))
    assert len(recalls) > 60
    assert np.mean(recalls) >= 0.95


def test_a_filter_passing_few_rows_still_returns_k_hits(
    indexes: tuple[FaissIvfIndex, NumpyIndex],
) -> None:
    ivf, exact = indexes
    query = _queries(1)[0][0]
    rare = SearchFilters(platforms=["walmart"], max_price_base=15.0)
    expected = exact.search(query, 30, rare)
    assert len(expected) > 0
    assert [h.product.key for h in ivf.search(query, 30, rare)] == [h.product.key for h in expected]


def test_appends_replacements_and_deletes_reach_the_cells(tmp_path: Path) -> None:
    vectors, prices, _ = _clustered(3000, 4)
    products = [make_product(str(i), price=float(prices[i])) for i in range(3000)]
    index = FaissIvfIndex(tmp_path, DIM, exact_rows=0)
    index.upsert(products[:2000], vectors[:2000])
    assert index.search(vectors[2500], 1)[0].product.key != "jd:2500"
    index.upsert(products[2000:], vectors[2000:])  # appended after the cells were filled
    assert index.search(vectors[2500], 1)[0].product.key == "jd:2500"
    index.upsert([products[7]], vectors[[2999]])  # jd:7 now sits where jd:2999 is
    assert {h.product.key for h in index.search(vectors[2999], 2)} == {"jd:7", "jd:2999"}
    assert index.delete(["jd:2999", "jd:5"]) == 2
    top = index.search(vectors[2999], 1)[0]
    assert top.product.key == "jd:7" and top.score == pytest.approx(1.0, abs=1e-5)
    assert index.search(vectors[6], 1)[0].product.key == "jd:6"  # positions shifted down
    index.close()


def test_the_structure_saved_at_ingest_is_read_instead_of_trained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vectors, prices, _ = _clustered(3000, 6)
    products = [
        make_product(str(i), platform=PLATFORMS[i % 6], price=float(prices[i])) for i in range(3000)
    ]
    writer = FaissIvfIndex(tmp_path, DIM, exact_rows=0)
    writer.upsert(products, vectors)
    writer.persist()
    queries, filters = _queries(40)
    expected = [
        [h.product.key for h in writer.search(q, 10, f)]
        for q, f in zip(queries, filters, strict=True)
    ]
    cells = writer.cells
    writer.close()

    def no_training(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cells were trained again")

    monkeypatch.setattr(FaissIvfIndex, "_train", no_training)
    reader = FaissIvfIndex(tmp_path, DIM, exact_rows=0)
    got = [
        [h.product.key for h in reader.search(q, 10, f)]
        for q, f in zip(queries, filters, strict=True)
    ]
    assert got == expected and reader.cells == cells
    # The read structure takes later writes like a trained one.
    reader.upsert([products[7]], vectors[[2999]])
    assert {h.product.key for h in reader.search(vectors[2999], 2)} == {"jd:7", "pinduoduo:2999"}
    reader.close()
    # Another state than the saved one (the reader wrote): trained again, not read.
    monkeypatch.undo()
    again = FaissIvfIndex(tmp_path, DIM, exact_rows=0)
    trained: list[bool] = []
    original = FaissIvfIndex._train
    monkeypatch.setattr(
        FaissIvfIndex,
        "_train",
        lambda self, progress: (trained.append(True), original(self, progress)),
    )
    again.search(vectors[3], 1)
    assert trained == [True]
    again.close()


def test_create_index_opens_a_large_store_as_the_approximate_index(settings: Settings) -> None:
    vectors, prices, _ = _clustered(40, 5)
    first = create_index(settings, DIM)
    assert type(first) is FaissIndex
    first.upsert([make_product(str(i), price=float(prices[i])) for i in range(40)], vectors)
    first.close()
    larger = settings.model_copy(update={"ann_min_products": 41})
    smaller = settings.model_copy(update={"ann_min_products": 40})
    for chosen, expected in ((larger, FaissIndex), (smaller, FaissIvfIndex)):
        index = create_index(chosen, DIM)
        assert type(index) is expected and index.count() == 40
        assert index.search(vectors[3], 1)[0].product.key == "jd:3"
        index.close()
