"""ProductTable grows its columns in place: batches appended across capacity boundaries,
replaced and deleted in between, read back exactly as written."""

from __future__ import annotations

import numpy as np

from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.indexes.table import ProductTable
from tests.factories import make_product


def test_batches_across_capacity_boundaries_replacements_and_deletes() -> None:
    rng = np.random.default_rng(0)
    table = ProductTable(4)
    expected: dict[str, tuple[np.ndarray, float, str]] = {}
    for batch in range(40):
        size = int(rng.integers(1, 30))
        ids = rng.integers(0, 400, size=size)  # some keys come back: replacements
        products = [
            make_product(str(i), platform=("jd", "amazon")[batch % 2], price=float(batch))
            for i in ids
        ]
        vectors = rng.standard_normal((size, 4)).astype(np.float32)
        table.upsert(products, vectors)
        for product, vector in zip(products, vectors, strict=True):
            expected[product.key] = (vector, product.price_base, product.platform)
        if batch % 7 == 6:
            doomed = list(expected)[::5]
            assert sorted(table.delete(doomed)) == sorted(doomed)
            for key in doomed:
                del expected[key]

    assert sorted(table.keys) == sorted(expected) and len(table) == len(expected)
    assert table.vectors.shape == (len(expected), 4)
    for key, (vector, price, platform) in expected.items():
        position = table.positions[key]
        np.testing.assert_array_equal(table.vectors[position], vector)
        assert table.products[position].price_base == price
        assert table.products[position].platform == platform
    cheap_jd = table.mask(SearchFilters(platforms=["jd"], max_price_base=20))
    assert cheap_jd is not None
    assert {table.keys[i] for i in np.flatnonzero(cheap_jd)} == {
        k for k, (_, price, platform) in expected.items() if platform == "jd" and price <= 20
    }


def test_a_remembered_mask_is_forgotten_by_the_next_write() -> None:
    """A turn's searches share the mask of their budget and brands (one per platform, dense
    and lexical); a write in between must not leave the old rows' mask in use."""
    table = ProductTable(2)
    vectors = np.eye(2, dtype=np.float32)
    table.upsert([make_product("a", price=10.0), make_product("b", price=90.0)], vectors)
    cheap = SearchFilters(max_price_base=50.0)
    assert table.mask(cheap).tolist() == [True, False]
    assert table.mask(cheap.model_copy()).tolist() == [True, False]
    table.upsert([make_product("b", price=20.0), make_product("c", price=70.0)], vectors)
    assert table.mask(cheap).tolist() == [True, True, False]
    assert table.delete(["jd:a"]) == ["jd:a"]
    assert table.mask(cheap).tolist() == [True, False]
    keys = ["jd:c", "jd:missing", "jd:b"]
    assert table.passing(cheap, keys).tolist() == [False, False, True]
    table.upsert([make_product("c", price=5.0)], vectors[:1])
    assert table.passing(cheap, keys).tolist() == [True, False, True]
