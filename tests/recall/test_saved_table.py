"""The FAISS index's saved table: a process opens the catalog without parsing it, and never
from a copy that lags the store."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cartwise.catalog.product import Domain, Product
from cartwise.catalog.specs import NumericSpec, ProductSpecs
from cartwise.embedding.base import normalize_rows
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.numpy import NumpyIndex
from tests.factories import make_product

DIM = 8
TYPES = ["running_shoes", "", "usb_cable"]


def _catalog(n: int = 60) -> tuple[list[Product], np.ndarray]:
    products = [
        make_product(
            str(i),
            platform=("jd", "amazon", "taobao")[i % 3],
            brand=("Sony", "Apple", "")[i % 3],
            price=float(i),
            domain=(Domain.ELECTRONICS, Domain.HOME)[i % 2],
            product_type=TYPES[i % len(TYPES)],
            in_stock=i % 4 != 0,
            specs=ProductSpecs(numbers={"length": [float(i % 5)]} if i % 2 else {}),
        )
        for i in range(n)
    ]
    return products, normalize_rows(np.random.default_rng(1).standard_normal((n, DIM)))


FILTERS = [
    None,
    SearchFilters(platforms=["jd"], max_price_base=30),
    SearchFilters(brands=["sony"], in_stock=True, domains=["electronics"]),
    SearchFilters(product_types=frozenset({"running_shoes"})),
    SearchFilters(numeric_specs=[NumericSpec(attribute="length", op="gt", value=2.0)]),
    SearchFilters(
        numeric_specs=[NumericSpec(attribute="length", op="gt", value=2.0)],
        spec_verdicts=["unknown"],
    ),
]


def _answers(index: FaissIndex | NumpyIndex, vectors: np.ndarray) -> list[list[str]]:
    return [[h.product.key for h in index.search(vectors[3], 7, f)] for f in FILTERS]


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    parsed = [0]
    original = Product.model_validate_json.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Product], *args: object, **kwargs: object) -> Product:
        parsed[0] += 1
        return original(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Product, "model_validate_json", classmethod(counting))
    return parsed


def test_an_ingested_catalog_opens_without_parsing_and_answers_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    products, vectors = _catalog()
    reference = NumpyIndex(DIM)
    reference.upsert(products, vectors)
    writer = FaissIndex(tmp_path, DIM)
    writer.upsert(products, vectors)
    writer.persist()
    writer.close()

    parsed = _count_parses(monkeypatch)
    reader = FaissIndex(tmp_path, DIM)
    assert parsed[0] == 0, "opening parsed the catalog"
    assert reader.count() == len(products) and reader.platforms() == ["amazon", "jd", "taobao"]
    assert _answers(reader, vectors) == _answers(reference, vectors)
    assert parsed[0] < len(products), "a search parsed more than its hits"
    assert reader.get("jd:3") == products[3]
    np.testing.assert_array_equal(reader.vectors(["amazon:1"]), vectors[[1]])
    reader.close()


def test_writes_after_opening_a_saved_table_change_this_process_only_until_saved(
    tmp_path: Path,
) -> None:
    products, vectors = _catalog()
    writer = FaissIndex(tmp_path, DIM)
    writer.upsert(products, vectors)
    writer.persist()
    writer.close()

    first = FaissIndex(tmp_path, DIM)
    moved = products[0].model_copy(update={"product_type": "usb_cable", "price": 999.0})
    added = make_product("new", product_type="running_shoes")
    fresh = normalize_rows(np.random.default_rng(2).standard_normal((2, DIM)))
    expected = NumpyIndex(DIM)
    for index in (first, expected):
        if index is expected:
            index.upsert(products, vectors)
        index.upsert([moved], fresh[[0]])  # replaces a row of the mapped arrays in place
        index.delete(["amazon:1"])
        index.upsert([added], fresh[[1]])
    assert _answers(first, vectors) == _answers(expected, vectors)

    # Another process opening now reads the store (the saved table is an older state).
    second = FaissIndex(tmp_path, DIM)
    assert _answers(second, vectors) == _answers(expected, vectors)
    first.close()
    second.close()
    third = FaissIndex(tmp_path, DIM)  # from the table `second` saved
    assert _answers(third, vectors) == _answers(expected, vectors)
    assert len(list(tmp_path.glob("table-*"))) == 1, "older saved tables are removed"
    third.close()


def test_a_table_saved_while_another_process_wrote_is_read_again_first(tmp_path: Path) -> None:
    products, vectors = _catalog()
    one, other = FaissIndex(tmp_path, DIM), FaissIndex(tmp_path, DIM)
    one.upsert(products[:30], vectors[:30])
    other.upsert(products[30:], vectors[30:])  # `one` does not know these rows
    one.upsert(products[:1], vectors[:1])
    one.persist()  # must not save 30 rows as the state of 60
    one.close()
    other.close()
    reopened = FaissIndex(tmp_path, DIM)
    assert reopened.count() == 60
    reopened.close()


def test_a_damaged_saved_table_is_ignored(tmp_path: Path) -> None:
    products, vectors = _catalog()
    writer = FaissIndex(tmp_path, DIM)
    writer.upsert(products, vectors)
    writer.persist()
    writer.close()
    (saved,) = tmp_path.glob("table-*")
    np.save(saved / "prices.npy", np.zeros(3))  # fewer rows than the table has
    reader = FaissIndex(tmp_path, DIM)
    assert reader.count() == len(products)
    assert [h.product.key for h in reader.search(vectors[3], 1)] == ["jd:3"]
    reader.close()
