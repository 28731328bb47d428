"""The one contract every `ProductIndex` backend honours (faiss, numpy, Milvus Lite)."""

from __future__ import annotations

import numpy as np
import pytest

from cartwise.catalog.product import Domain
from cartwise.catalog.specs import LabelSpec, NumericSpec, ProductSpecs
from cartwise.embedding.base import normalize_rows
from cartwise.errors import InvalidInput
from cartwise.recall.indexes.base import ProductIndex, SearchFilters
from tests.factories import make_product
from tests.recall.conftest import IndexFactory

DIM = 8


def _vectors(n: int, seed: int = 0) -> np.ndarray:
    return normalize_rows(np.random.default_rng(seed).standard_normal((n, DIM)))


def _filled(factory: IndexFactory, n: int = 6) -> tuple[ProductIndex, np.ndarray]:
    index = factory(DIM)
    products = [
        make_product(
            str(i),
            platform="jd" if i % 2 else "amazon",
            title=f"item {i}",
            brand="Sony" if i < 3 else "Apple",
            price=10.0 * i,
            domain=Domain.ELECTRONICS if i < 4 else Domain.HOME,
            in_stock=i != 5,
        )
        for i in range(n)
    ]
    vectors = _vectors(n)
    index.upsert(products, vectors)
    return index, vectors


def test_index_is_a_product_index(index_factory: IndexFactory) -> None:
    assert isinstance(index_factory(DIM), ProductIndex)


def test_upsert_then_count_get_platforms_and_products(index_factory: IndexFactory) -> None:
    index, _ = _filled(index_factory)
    assert index.count() == 6
    assert index.platforms() == ["amazon", "jd"]
    found = index.get("jd:1")
    assert found is not None and found.title == "item 1"
    assert index.get("jd:404") is None
    assert sorted(p.key for p in index.iter_products()) == sorted(
        f"{'jd' if i % 2 else 'amazon'}:{i}" for i in range(6)
    )


def test_upsert_replaces_by_key(index_factory: IndexFactory) -> None:
    index, vectors = _filled(index_factory)
    replacement = make_product("1", platform="jd", title="item 1 v2", price=999.0)
    index.upsert([replacement], vectors[[4]])
    assert index.count() == 6
    found = index.get("jd:1")
    assert found is not None and found.title == "item 1 v2"
    hits = index.search(vectors[4], 2)
    assert {h.product.key for h in hits} == {"jd:1", "amazon:4"}
    assert hits[0].score == pytest.approx(1.0, abs=1e-4)


def test_last_duplicate_in_a_batch_wins(index_factory: IndexFactory) -> None:
    index = index_factory(DIM)
    first, second = make_product("7", title="old"), make_product("7", title="new")
    index.upsert([first, second], _vectors(2))
    assert index.count() == 1
    found = index.get("jd:7")
    assert found is not None and found.title == "new"


def test_delete_counts_only_existing_keys(index_factory: IndexFactory) -> None:
    index, _ = _filled(index_factory)
    assert index.delete(["jd:1", "jd:1", "jd:404"]) == 1
    assert index.count() == 5
    assert index.get("jd:1") is None
    assert index.delete([]) == 0
    assert all(h.product.key != "jd:1" for h in index.search(_vectors(1, 9)[0], 10))


def test_vectors_returns_stored_rows_and_zeros_for_unknown(index_factory: IndexFactory) -> None:
    index, vectors = _filled(index_factory)
    got = index.vectors(["jd:3", "nope:1", "amazon:0"])
    np.testing.assert_allclose(got[0], vectors[3], atol=1e-6)
    np.testing.assert_array_equal(got[1], np.zeros(DIM))
    np.testing.assert_allclose(got[2], vectors[0], atol=1e-6)


def test_search_orders_by_inner_product(index_factory: IndexFactory) -> None:
    index, vectors = _filled(index_factory)
    hits = index.search(vectors[2], 10)
    assert len(hits) == 6
    assert hits[0].product.key == "amazon:2"
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    np.testing.assert_allclose(
        sorted(scores, reverse=True), sorted(vectors @ vectors[2], reverse=True), atol=1e-4
    )


def test_filters_are_applied_before_ranking(index_factory: IndexFactory) -> None:
    index, vectors = _filled(index_factory)
    filters = SearchFilters(platforms=["jd"], brands=["APPLE"], in_stock=True)
    hits = index.search(vectors[0], 10, filters)
    assert [h.product.key for h in hits] == ["jd:3"]
    by_price = index.search(vectors[0], 10, SearchFilters(min_price_base=20, max_price_base=40))
    assert sorted(h.product.key for h in by_price) == ["amazon:2", "amazon:4", "jd:3"]
    homes = index.search(vectors[0], 10, SearchFilters(domains=["home"]))
    assert sorted(h.product.key for h in homes) == ["amazon:4", "jd:5"]
    assert index.search(vectors[0], 10, SearchFilters(platforms=["walmart"])) == []


def test_product_type_filter_is_exact_and_lets_untyped_listings_through(
    index_factory: IndexFactory,
) -> None:
    index = index_factory(DIM)
    types = ["running_shoes", "hiking_boots", "", "running_shoes", "smartwatch", ""]
    products = [make_product(str(i), product_type=t) for i, t in enumerate(types)]
    vectors = _vectors(len(products))
    index.upsert(products, vectors)

    def found(filters: SearchFilters) -> list[str]:
        return sorted(h.product.key for h in index.search(vectors[0], 10, filters))

    def of_type(*wanted: str) -> SearchFilters:
        return SearchFilters(product_types=frozenset(wanted))

    assert found(of_type("running_shoes")) == ["jd:0", "jd:2", "jd:3", "jd:5"]
    assert found(of_type("running_shoes", "smartwatch")) == [
        "jd:0", "jd:2", "jd:3", "jd:4", "jd:5"
    ]  # fmt: skip
    # A type nobody lists still leaves the untyped listings: they may be of that type.
    assert found(of_type("sofa")) == ["jd:2", "jd:5"]
    assert found(of_type()) == [f"jd:{i}" for i in range(6)]  # no types: no restriction
    combined = of_type("hiking_boots").model_copy(update={"max_price_base": 50.0})
    assert found(combined) == []  # every listing costs 100
    # A replaced listing is filtered by its new type.
    index.upsert([make_product("1", product_type="running_shoes")], vectors[[1]])
    assert found(of_type("running_shoes")) == ["jd:0", "jd:1", "jd:2", "jd:3", "jd:5"]
    assert found(of_type("hiking_boots")) == ["jd:2", "jd:5"]


def test_spec_filters_pass_meets_or_unknown_and_never_violates(
    index_factory: IndexFactory,
) -> None:
    index = index_factory(DIM)
    lengths: list[list[float]] = [[1.0], [3.0], [5.0], [1.0, 5.0], [], [2.9]]
    products = [
        make_product(
            str(i),
            specs=ProductSpecs(
                numbers={"length": values} if values else {},
                labels={"color_family": ["white" if i % 2 else "black"]},
            ),
        )
        for i, values in enumerate(lengths)
    ]
    vectors = _vectors(len(products))
    index.upsert(products, vectors)
    longer = NumericSpec(attribute="length", op="gt", value=3.0)
    strict = index.search(vectors[0], 10, SearchFilters(numeric_specs=[longer]))
    assert sorted(h.product.key for h in strict) == ["jd:2", "jd:3"]
    unknown = SearchFilters(numeric_specs=[longer], spec_verdicts=["unknown"])
    assert [h.product.key for h in index.search(vectors[0], 10, unknown)] == ["jd:4"]
    # "exactly 3 m" within the length tolerance (5 %): 2.9 m and 3 m.
    exact = SearchFilters(numeric_specs=[NumericSpec(attribute="length", op="eq", value=3.0)])
    assert sorted(h.product.key for h in index.search(vectors[0], 10, exact)) == ["jd:1", "jd:5"]
    not_white = SearchFilters(
        label_specs=[LabelSpec(attribute="color_family", values=["white"], negated=True)],
        numeric_specs=[longer],
    )
    assert [h.product.key for h in index.search(vectors[0], 10, not_white)] == ["jd:2"]


def test_empty_index_returns_nothing(index_factory: IndexFactory) -> None:
    index = index_factory(DIM)
    assert index.search(_vectors(1)[0], 5) == []
    assert index.count() == 0 and index.platforms() == []


def test_nonpositive_k_returns_nothing(index_factory: IndexFactory) -> None:
    index, vectors = _filled(index_factory)
    assert index.search(vectors[0], 0) == []


def test_wrong_dimension_is_rejected_and_nothing_written(index_factory: IndexFactory) -> None:
    index, _ = _filled(index_factory)
    with pytest.raises(InvalidInput):
        index.upsert([make_product("99")], np.ones((1, DIM + 1), dtype=np.float32))
    with pytest.raises(InvalidInput):
        index.upsert([make_product("99"), make_product("98")], _vectors(1))
    with pytest.raises(InvalidInput):
        index.upsert([make_product("99")], np.full((1, DIM), np.nan, dtype=np.float32))
    assert index.count() == 6 and index.get("jd:99") is None


def test_persistence_round_trip(index_factory: IndexFactory) -> None:
    if index_factory.backend == "numpy":  # type: ignore[attr-defined]
        pytest.skip("NumpyIndex is in-memory by design")
    index, vectors = _filled(index_factory)
    index.delete(["amazon:0"])
    index.close()
    reopened = index_factory(DIM)
    assert reopened.count() == 5
    assert reopened.get("amazon:0") is None
    found = reopened.get("jd:3")
    assert found is not None and found.brand == "Apple" and found.domain is Domain.ELECTRONICS
    hits = reopened.search(vectors[3], 1, SearchFilters(in_stock=True))
    assert hits[0].product.key == "jd:3"
    assert hits[0].score == pytest.approx(1.0, abs=1e-4)
