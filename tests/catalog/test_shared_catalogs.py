"""The real catalogs in ../shared/data, read in place (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cartwise.catalog.ingest import ReaderOptions, RowError, read_catalog
from cartwise.catalog.pipeline import ingest_file
from cartwise.catalog.product import Domain, Product
from cartwise.commands.ingest import resolve_mapping
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.vocabulary import fx_to_base
from tests.doubles import CountingEmbedder

pytestmark = pytest.mark.shared_data


def _read(path: Path, *, mapping: str | None = None) -> tuple[list[Product], list[RowError]]:
    options = ReaderOptions(
        fx_to_base=fx_to_base(), mapping=resolve_mapping(mapping) if mapping else None
    )
    items = list(read_catalog(path, None, options))
    return [i for i in items if isinstance(i, Product)], [
        i for i in items if isinstance(i, RowError)
    ]


@pytest.mark.parametrize(
    ("shop", "offers", "bad_lines"), [(1, 323, []), (2, 258, []), (3, 342, []), (4, 184, [158])]
)
def test_webmall_shops_ingest_as_their_own_platforms(
    shared_data: Path, shop: int, offers: int, bad_lines: list[int]
) -> None:
    products, errors = _read(shared_data / "catalogs" / "webmall" / f"webmall_{shop}.csv")
    assert len(products) == offers
    assert {p.platform for p in products} == {f"webmall_{shop}"}
    assert [e.line for e in errors] == bad_lines
    assert all(p.price > 0 and p.currency == "GBP" for p in products)
    assert not any("<p>" in p.description or "&amp;" in p.title for p in products)
    assert sum(p.domain is Domain.ELECTRONICS for p in products) > offers / 2


def test_webmall_gold_offers_keep_their_csv_id_and_both_decimal_styles(shared_data: Path) -> None:
    shop_1, _ = _read(shared_data / "catalogs" / "webmall" / "webmall_1.csv")
    shop_2, _ = _read(shared_data / "catalogs" / "webmall" / "webmall_2.csv")
    # The same Ryzen 9 5900X offer listed as "251,26" in shop 1 and "251.26" in shop 2.
    ryzen_1 = next(p for p in shop_1 if p.item_id == "1954")
    ryzen_2 = next(p for p in shop_2 if p.item_id == "3518")
    assert "5900X" in ryzen_1.title and "5900X" in ryzen_2.title
    assert ryzen_1.price == ryzen_2.price == 251.26


def test_bigbasket_ingests_through_its_bundled_mapping(shared_data: Path) -> None:
    products, errors = _read(
        shared_data / "catalogs" / "bigbasket" / "bigbasket_products.csv", mapping="bigbasket"
    )
    assert (len(products), errors) == (8208, [])
    onion = products[0]
    assert (onion.platform, onion.item_id, onion.currency) == ("bigbasket", "40075537", "INR")
    assert onion.price == 52.0  # DiscountPrice, not the MRP
    assert onion.price_base == pytest.approx(52.0 * fx_to_base()["INR"], abs=0.01)
    assert onion.category_raw == "Fruits & Vegetables > Potato, Onion & Tomato"
    assert onion.domain is Domain.FOOD
    assert len({p.item_id for p in products}) == 8208


def test_homedepot_ingests_through_its_bundled_mapping(shared_data: Path) -> None:
    products, errors = _read(
        shared_data / "catalogs" / "homedepot" / "homedepot_products.jsonl", mapping="homedepot"
    )
    assert len(products) == 2994
    assert [e.line for e in errors] == [341, 685, 777, 1011, 1012, 1399, 2999]
    assert all(e.message == "price is empty" for e in errors)
    drill = products[0]
    assert (drill.platform, drill.item_id, drill.brand, drill.price) == (
        "homedepot",
        "100000548",
        "Milwaukee",
        349.0,
    )
    assert drill.rating == pytest.approx(4.2183)
    assert drill.domain is Domain.TOOLS


def test_webmall_reingest_hits_the_embedding_cache(
    shared_data: Path, settings: Settings, service: RecallService, embedder: CountingEmbedder
) -> None:
    path = shared_data / "catalogs" / "webmall" / "webmall_3.csv"
    first = ingest_file(path, settings=settings, service=service, embedder=embedder, progress=False)
    second = ingest_file(
        path, settings=settings, service=service, embedder=embedder, progress=False
    )
    assert first.ingested == second.ingested == service.count() == 342
    assert first.embedded + first.cached == 342 and first.embedded > 300
    assert (second.embedded, second.cached) == (0, 342)
