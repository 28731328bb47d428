"""Filters are exact: no hit outside the filter, ever, and the hits equal a pure-Python
brute-force reference built on `SearchFilters.accepts` (the reference semantics)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cartwise.catalog.product import Domain, Product
from cartwise.catalog.specs import LabelSpec, NumericSpec, ProductSpecs, check
from cartwise.embedding.base import normalize_rows
from cartwise.recall.indexes.base import ColumnFilteredIndex, ProductIndex, SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.milvus import MilvusIndex, filter_expression
from cartwise.recall.indexes.numpy import NumpyIndex
from tests.factories import make_product
from tests.recall.conftest import exhaustive_ivf

DIM = 16
PLATFORMS = ["taobao", "jd", "amazon", "walmart"]
BRANDS = ["Sony", "SONY", "sony", "Apple", 'Levi\'s "Red"', "", "小米", "Straße"]
PRICES = [0.0, 9.99, 10.0, 49.5, 50.0, 100.0, 100.0, 250.26, 999.0]
DOMAINS = [Domain.ELECTRONICS, Domain.CLOTHING, Domain.HOME, Domain.OTHER]
LENGTHS = [0.5, 1.0, 2.9, 3.0, 3.1, 5.0]
SOCKETS = ["am4", "am5", "lga1700"]
COLORS = ["black", "white", "red"]
TYPES = ["running_shoes", "hiking_boots", "usb_cable", "", ""]
"""Listings' product types: "" (not known) is common in real catalogs and always passes."""


def _specs(rng: np.random.Generator) -> ProductSpecs:
    """Some listings state nothing, some one value, some several (a cable in 1 m and 3 m)."""
    numbers: dict[str, list[float]] = {}
    labels: dict[str, list[str]] = {}
    if rng.random() < 0.6:
        count = int(rng.integers(1, 3))
        numbers["length"] = [LENGTHS[int(i)] for i in rng.integers(len(LENGTHS), size=count)]
    if rng.random() < 0.5:
        labels["socket"] = [SOCKETS[int(rng.integers(len(SOCKETS)))]]
    if rng.random() < 0.5:
        count = int(rng.integers(1, 3))
        labels["color_family"] = sorted({COLORS[int(i)] for i in rng.integers(3, size=count)})
    return ProductSpecs(numbers=numbers, labels=labels)


def _catalog(n: int = 400) -> tuple[list[Product], np.ndarray]:
    rng = np.random.default_rng(42)
    products = [
        make_product(
            str(i),
            platform=PLATFORMS[int(rng.integers(len(PLATFORMS)))],
            brand=BRANDS[int(rng.integers(len(BRANDS)))],
            price=PRICES[int(rng.integers(len(PRICES)))],
            domain=DOMAINS[int(rng.integers(len(DOMAINS)))],
            product_type=TYPES[int(rng.integers(len(TYPES)))],
            in_stock=bool(rng.random() < 0.7),
            specs=_specs(rng),
        )
        for i in range(n)
    ]
    # Spread over the sphere plus a few exact duplicates, so ties are exercised too.
    vectors = normalize_rows(rng.standard_normal((n, DIM)))
    vectors[n - 5 :] = vectors[:5]
    return products, vectors


CATALOG, VECTORS = _catalog()


@pytest.fixture(
    scope="module",
    params=["faiss", "faiss_ivf", "numpy", pytest.param("milvus", marks=pytest.mark.milvus)],
)
def filled_index(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ProductIndex]:
    home: Path = tmp_path_factory.mktemp(f"prop_{request.param}")
    index: ProductIndex
    if request.param == "faiss":
        index = FaissIndex(home, DIM)
    elif request.param == "faiss_ivf":
        index = exhaustive_ivf(home, DIM)
    elif request.param == "numpy":
        index = NumpyIndex(DIM)
    else:
        index = MilvusIndex(str(home / "milvus.db"), DIM, collection="property")
    index.upsert(CATALOG, VECTORS)
    yield index
    index.close()


def _reference(vector: np.ndarray, k: int, filters: SearchFilters) -> list[tuple[str, float]]:
    scored = [
        (p.key, float(VECTORS[i] @ vector)) for i, p in enumerate(CATALOG) if filters.accepts(p)
    ]
    scored.sort(key=lambda pair: -pair[1])
    return scored[:k]


prices = st.one_of(st.none(), st.sampled_from(PRICES), st.floats(-10, 1100, allow_nan=False))
filters_strategy = st.builds(
    SearchFilters,
    platforms=st.lists(st.sampled_from([*PLATFORMS, "nowhere"]), max_size=3, unique=True),
    min_price_base=prices,
    max_price_base=prices,
    brands=st.lists(
        st.sampled_from([*BRANDS, "APPLE", 'levi\'s "red"', "STRASSE", "nobody"]), max_size=3
    ),
    domains=st.lists(st.sampled_from([d.value for d in Domain]), max_size=3, unique=True),
    product_types=st.frozensets(st.sampled_from([*TYPES[:3], "sofa"]), max_size=3),
    in_stock=st.sampled_from([None, True, False]),
    numeric_specs=st.lists(
        st.builds(
            NumericSpec,
            attribute=st.sampled_from(["length", "length", "weight"]),
            op=st.sampled_from(["lt", "le", "eq", "ge", "gt"]),
            value=st.one_of(st.sampled_from(LENGTHS), st.floats(0, 6, allow_nan=False)),
        ),
        max_size=2,
    ),
    label_specs=st.lists(
        st.one_of(
            st.builds(
                LabelSpec,
                attribute=st.just("socket"),
                values=st.lists(st.sampled_from(SOCKETS), min_size=1, max_size=2),
                negated=st.booleans(),
            ),
            st.builds(
                LabelSpec,
                attribute=st.just("color_family"),
                values=st.lists(st.sampled_from(COLORS), min_size=1, max_size=2),
                negated=st.booleans(),
            ),
        ),
        max_size=2,
    ),
    spec_verdicts=st.sampled_from([["meets"], ["unknown"], ["meets", "unknown"]]),
)


@settings(max_examples=150, deadline=None)
@given(
    filters=filters_strategy,
    k=st.integers(1, 60),
    seed=st.integers(0, 2**32 - 1),
    query_row=st.one_of(st.none(), st.integers(0, len(CATALOG) - 1)),
)
@pytest.mark.slow
def test_search_equals_brute_force_reference_within_filters(
    filled_index: ProductIndex,
    filters: SearchFilters,
    k: int,
    seed: int,
    query_row: int | None,
) -> None:
    if query_row is None:
        vector = normalize_rows(np.random.default_rng(seed).standard_normal(DIM))[0]
    else:
        vector = VECTORS[query_row]
    hits = filled_index.search(vector, k, filters)
    expected = _reference(vector, k, filters)

    assert all(filters.accepts(hit.product) for hit in hits), "a hit outside the filter"
    if filters.has_specs:
        verdicts = {check(hit.product.specs, filters.request_specs()) for hit in hits}
        assert "violates" not in verdicts, "a spec filter returned a listing violating it"
        assert verdicts <= set(filters.spec_verdicts)
    assert len(hits) == len(expected)
    np.testing.assert_allclose([h.score for h in hits], [s for _, s in expected], atol=1e-4)
    # Same products, except where scores tie at the cut-off (any tied one is correct).
    if expected:
        cutoff = expected[-1][1]
        certain = {key for key, score in expected if score > cutoff + 1e-4}
        assert certain <= {hit.product.key for hit in hits}


@settings(max_examples=40, deadline=None)
@given(
    product_types=st.frozensets(st.sampled_from([*TYPES[:3], "sofa"]), max_size=3),
    k=st.integers(1, 60),
    query_row=st.integers(0, len(CATALOG) - 1),
)
def test_product_type_filter_gives_every_backend_the_reference_ids(
    filled_index: ProductIndex, product_types: frozenset[str], k: int, query_row: int
) -> None:
    """The ids themselves, not only the scores: every backend answers with the same listings
    (those of a wanted type and the untyped ones), so no backend drops an untyped listing."""
    filters = SearchFilters(product_types=product_types)
    vector = VECTORS[query_row]
    hits = {h.product.key for h in filled_index.search(vector, k, filters)}
    passing = _reference(vector, len(CATALOG), filters)
    assert hits <= {key for key, _ in passing}, "a listing of another type"
    assert len(hits) == min(k, len(passing))
    # The catalog's last rows duplicate its first: a tie at the cut-off may go either way.
    cutoff = passing[min(k, len(passing)) - 1][1]
    assert {key for key, score in passing if score > cutoff + 1e-4} <= hits
    assert hits <= {key for key, score in passing if score >= cutoff - 1e-4}


def test_milvus_expression_names_the_types_and_keeps_untyped_listings() -> None:
    filters = SearchFilters(product_types=frozenset({"usb_cable", "hiking_boots"}), in_stock=True)
    assert filter_expression(filters) == (
        '(product_type in ["hiking_boots", "usb_cable"] or product_type == "")'
        " and (in_stock == true)"
    )
    # A collection without the field: the expression leaves the type to the post-filter.
    assert filter_expression(filters, typed=False) == "(in_stock == true)"


def test_milvus_expression_escapes_quotes_and_backslashes() -> None:
    expression = filter_expression(
        SearchFilters(brands=['Levi\'s "Red" \\ x" or 1==1 or "'], platforms=["jd"])
    )
    assert expression == (
        '(platform in ["jd"]) and (brand_cf in ["levi\'s \\"red\\" \\\\ x\\" or 1==1 or \\""])'
    )
    assert filter_expression(None) == "" and filter_expression(SearchFilters()) == ""


_SHUFFLED_KEYS = [*[p.key for p in CATALOG][::-1], "jd:not-in-the-index"]
"""A key list in another order than the index's rows, with a key it does not hold."""


@settings(max_examples=60, deadline=None)
@given(filters=filters_strategy)
def test_passing_marks_exactly_the_products_the_filter_accepts(
    filled_index: ProductIndex, filters: SearchFilters
) -> None:
    """The lexical search skips documents `passing` marks False without reading them: the
    marks must be `accepts` for every key, in the order asked, and False for a key the
    index does not hold. Asked twice (the second answer from what the index remembers),
    and with the same filters on another platform, the answers stay exact."""
    if not isinstance(filled_index, ColumnFilteredIndex):
        pytest.skip("this backend filters rows, not columns")
    by_key = {p.key: p for p in CATALOG}
    for asked in (filters, filters, filters.model_copy(update={"platforms": ["walmart"]})):
        marks = filled_index.passing(asked, _SHUFFLED_KEYS)
        expected = [k in by_key and asked.accepts(by_key[k]) for k in _SHUFFLED_KEYS]
        if marks is None:  # no restriction at all, which only a filter accepting all may say
            assert all(expected[:-1])
        else:
            assert marks.tolist() == expected
    assert filled_index.passing(None, _SHUFFLED_KEYS) is None
