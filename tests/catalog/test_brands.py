"""Catalog brands are mined once and kept as a file: the bundled demo catalog's ship with
it, an ingested catalog's are written at ingest and read back by the next process."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from cartwise.catalog.brands import (
    DEMO_BRANDS,
    brands_json,
    demo_catalog_brands,
    mine_brands,
    read_brands,
    write_brands,
)
from cartwise.catalog.demo import demo_catalog_path
from cartwise.catalog.pipeline import ingest_file
from cartwise.embedding import create_embedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.factories import make_product

ROWS = [
    ("Fotile", "方太（Fotile）JZT-HC29 燃气灶", "appliances"),
    ("Fotile", "方太（Fotile）EMD20T 洗碗机", "appliances"),
    ("Lavazza", "Lavazza Qualità Oro coffee beans 1kg", "food"),
]


@pytest.mark.slow
def test_the_shipped_demo_brands_are_those_of_the_shipped_demo_catalog() -> None:
    with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    mined = mine_brands((r.get("brand", ""), r.get("title", ""), r.get("domain", "")) for r in rows)
    shipped = Path(demo_catalog_path()).parent / Path(DEMO_BRANDS).name
    assert shipped.read_text(encoding="utf-8") == brands_json(mined, products=len(rows))


def test_the_demo_brands_load_with_their_aliases_and_domains() -> None:
    by_slug = {b.slug: b for b in demo_catalog_brands()}
    assert {"Fotile", "方太"} <= by_slug["fotile"].forms
    assert by_slug["lavazza"].domain == "food"


def test_a_brands_file_is_read_back_only_for_the_catalog_it_was_mined_from(tmp_path: Path) -> None:
    path = tmp_path / "brands.json"
    write_brands(path, mine_brands(ROWS), products=3)
    (fotile, lavazza) = read_brands(path, products=3) or ()
    assert (fotile.slug, fotile.domain, fotile.forms) == (
        "fotile",
        "appliances",
        {"Fotile", "方太"},
    )
    assert lavazza.slug == "lavazza"
    assert read_brands(path, products=4) is None  # the catalog grew: mine again
    assert read_brands(tmp_path / "missing.json", products=3) is None
    path.write_text("{not json", encoding="utf-8")
    assert read_brands(path, products=3) is None


def _service(settings: Settings) -> RecallService:
    return RecallService.open(settings, create_embedder(settings.embedder))


def test_ingest_writes_the_catalogs_brands_and_the_next_process_reads_them(
    settings: Settings, tmp_path: Path
) -> None:
    source = tmp_path / "catalog.jsonl"
    rows = [
        {
            "platform": "jd",
            "item_id": str(i),
            "title": title,
            "brand": brand,
            "price": 100,
            "currency": "CNY",
        }
        for i, (brand, title, _) in enumerate(ROWS)
    ]
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    service = _service(settings)
    ingest_file(
        source, settings=settings, service=service, embedder=service.embedder, progress=False
    )
    service.close()
    (written,) = (settings.home / "index").glob("*/brands.json")
    assert "方太" in written.read_text(encoding="utf-8")

    reopened = _service(settings)
    try:
        # Read, not mined: a file that says so is what the next process believes.
        written.write_text(
            written.read_text(encoding="utf-8").replace("Lavazza", "Lavazzo"), encoding="utf-8"
        )
        assert "Lavazzo" in {f for b in reopened.catalog_brands() for f in b.forms}
    finally:
        reopened.close()


def test_a_catalog_change_forgets_the_old_brands(settings: Settings) -> None:
    service = _service(settings)
    try:
        dim = service.embedder.dim
        service.upsert([make_product("1", brand="Zojirushi")], np.eye(1, dim, dtype=np.float32))
        assert [b.slug for b in service.catalog_brands()] == ["zojirushi"]
        service.upsert([make_product("2", brand="Bloom")], np.eye(1, dim, dtype=np.float32))
        assert [b.slug for b in service.catalog_brands()] == ["bloom", "zojirushi"]
        service.delete(["jd:1"])
        assert [b.slug for b in service.catalog_brands()] == ["bloom"]
    finally:
        service.close()
