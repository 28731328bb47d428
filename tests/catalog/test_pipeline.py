from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cartwise.catalog.demo import DEMO_PLATFORMS, ensure_catalog
from cartwise.catalog.pipeline import ingest_file
from cartwise.errors import IngestError
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.doubles import CountingEmbedder

FIXTURES = Path(__file__).parent / "fixtures"


def test_ingest_upserts_good_rows_and_reports_the_bad_ones(
    settings: Settings, service: RecallService, embedder: CountingEmbedder
) -> None:
    report = ingest_file(
        FIXTURES / "native.jsonl", settings=settings, service=service, embedder=embedder,
        progress=False,
    )  # fmt: skip
    assert (report.rows, report.ingested, report.skipped) == (6, 3, 3)
    assert [e.line for e in report.errors] == [4, 5, 6]
    assert report.platforms == ["amazon", "native", "taobao"]
    assert (report.embedded, report.cached) == (3, 0)
    assert service.count() == 3
    stored = service.get("taobao:t1")
    assert stored is not None and stored.price_base == 2299.0
    hits = service.search("WH-1000XM5", k=3).results
    assert {h.product.item_id for h in hits} >= {"t1", "B0TEST0001"}


def test_reingest_upserts_and_embeds_only_changed_texts(
    settings: Settings, service: RecallService, embedder: CountingEmbedder, tmp_path: Path
) -> None:
    source = tmp_path / "catalog.csv"
    shutil.copy(FIXTURES / "woocommerce.csv", source)
    first = ingest_file(
        source, settings=settings, service=service, embedder=embedder, progress=False
    )
    assert (first.ingested, first.embedded, first.cached) == (3, 3, 0)
    assert embedder.documents_embedded == 3

    again = ingest_file(
        source, settings=settings, service=service, embedder=embedder, progress=False
    )
    assert (again.ingested, again.embedded, again.cached) == (3, 0, 3)
    assert embedder.documents_embedded == 3  # nothing reached the model

    text = source.read_text(encoding="utf-8").replace(
        "Corsair Vengeance 32GB DDR5", "Corsair Vengeance 64GB DDR5"
    )
    source.write_text(text, encoding="utf-8")
    changed = ingest_file(
        source, settings=settings, service=service, embedder=embedder, progress=False
    )
    assert (changed.embedded, changed.cached) == (1, 2)
    assert embedder.documents_embedded == 4
    assert service.count() == 3  # replaced in place, not added
    product = service.get("catalog:102")
    assert product is not None and product.title == "Corsair Vengeance 64GB DDR5"


def test_duplicate_keys_in_one_file_keep_the_last_row(
    settings: Settings, service: RecallService, embedder: CountingEmbedder, tmp_path: Path
) -> None:
    source = tmp_path / "dupes.jsonl"
    source.write_text(
        '{"platform": "jd", "item_id": "1", "title": "old title", "price": 1, "currency": "CNY"}\n'
        '{"platform": "jd", "item_id": "1", "title": "new title", "price": 2, "currency": "CNY"}\n',
        encoding="utf-8",
    )
    report = ingest_file(
        source, settings=settings, service=service, embedder=embedder, progress=False
    )
    assert (report.rows, report.ingested, report.duplicates) == (2, 1, 1)
    product = service.get("jd:1")
    assert product is not None and product.title == "new title"


def test_an_unreadable_file_changes_nothing(
    settings: Settings, service: RecallService, embedder: CountingEmbedder, tmp_path: Path
) -> None:
    ingest_file(
        FIXTURES / "native.jsonl",
        settings=settings,
        service=service,
        embedder=embedder,
        progress=False,
    )
    broken = tmp_path / "broken.csv"
    # A good WooCommerce row, then a quote that never closes: the file is rejected whole.
    broken.write_text(
        'ID,Name,Regular price\n900,Fine row,10\n901,"Unclosed quote,20\n', encoding="utf-8"
    )
    with pytest.raises(IngestError, match="broken CSV"):
        ingest_file(broken, settings=settings, service=service, embedder=embedder, progress=False)
    assert service.count() == 3
    assert service.get("broken:900") is None


@pytest.mark.slow
def test_ensure_catalog_indexes_the_demo_once(
    settings: Settings, service: RecallService, embedder: CountingEmbedder
) -> None:
    report = ensure_catalog(settings, service, embedder, progress=False)
    assert report is not None
    assert report.skipped == 0
    assert report.platforms == sorted(DEMO_PLATFORMS)
    assert service.count() == report.ingested >= 3000
    assert ensure_catalog(settings, service, embedder, progress=False) is None


def test_only_http_urls_survive_ingest(
    settings: Settings, service: RecallService, embedder: CountingEmbedder, tmp_path: Path
) -> None:
    """A catalog's `javascript:` or `data:` link is dropped at ingest, never stored."""
    source = tmp_path / "hostile.jsonl"
    rows = [
        ("x1", "javascript:alert(document.cookie)", "https://img.example/x1.jpg"),
        ("x2", " JavaScript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>"),
        ("x3", "https://shop.example/x3", "http://img.example/x3.jpg"),
        ("x4", "/products/x4", "/images/desk_lamp/black.svg"),
        ("x5", "https://shop.example/x5", "//evil.example/x5.svg"),
    ]
    source.write_text(
        "\n".join(
            json.dumps(
                {"platform": "native", "item_id": item, "title": f"lamp {item}", "price": 10, "currency": "CNY",
                 "url": url, "image_url": image}
            )
            for item, url, image in rows
        ),
        encoding="utf-8",
    )  # fmt: skip
    report = ingest_file(
        source, settings=settings, service=service, embedder=embedder, progress=False
    )
    assert report.ingested == 5
    stored = {item: service.get(f"native:{item}") for item, _, _ in rows}
    assert (stored["x1"].url, stored["x1"].image_url) == ("", "https://img.example/x1.jpg")  # type: ignore[union-attr]
    assert (stored["x2"].url, stored["x2"].image_url) == ("", "")  # type: ignore[union-attr]
    assert stored["x3"].url == "https://shop.example/x3"  # type: ignore[union-attr]
    # A picture the app draws itself is a path on its own site; a link never is.
    assert (stored["x4"].url, stored["x4"].image_url) == ("", "/images/desk_lamp/black.svg")  # type: ignore[union-attr]
    assert stored["x5"].image_url == ""  # type: ignore[union-attr]
