"""Specs at ingest: every reader's listings carry them; old rows load without; a parser
failure costs one listing its specs, never the listing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cartwise.catalog.ingest import ReaderOptions, RowError, read_catalog
from cartwise.catalog.ingest import base as ingest_base
from cartwise.catalog.product import Product
from cartwise.catalog.specs import ProductSpecs
from tests.factories import make_product

OPTIONS = ReaderOptions(fx_to_base={"CNY": 1.0, "USD": 7.2}, currency="USD")


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return path


def _read(path: Path) -> list[Product]:
    items = list(read_catalog(path, "jsonl", OPTIONS))
    assert not [i for i in items if isinstance(i, RowError)]
    return [i for i in items if isinstance(i, Product)]


def test_listing_specs_are_parsed_at_ingest(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "shop.jsonl",
        [{"item_id": "1", "title": "HDMI cable 3 m, 4K", "price": 9.5, "platform": "shop"}],
    )
    [product] = _read(path)
    assert product.specs.numbers.get("length") == [3.0]
    assert "hdmi" in product.specs.labels.get("interface", [])


def test_a_row_cannot_supply_its_own_specs(tmp_path: Path) -> None:
    row = {
        "item_id": "1",
        "title": "HDMI cable 3 m",
        "price": 9.5,
        "platform": "shop",
        "specs": {"numbers": {"length": [99.0]}, "labels": {}},
    }
    [product] = _read(_write(tmp_path / "shop.jsonl", [row]))
    assert product.specs.numbers.get("length") == [3.0]


def test_a_product_stored_before_specs_loads_with_none() -> None:
    stored = make_product("1").model_dump(mode="json")
    del stored["specs"]
    assert Product.model_validate_json(json.dumps(stored)).specs == ProductSpecs()


def test_a_parser_failure_keeps_the_listing_without_specs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: object, **_kwargs: object) -> ProductSpecs:
        raise RuntimeError("parser bug")

    monkeypatch.setattr(ingest_base, "extract_listing_specs", broken)
    path = _write(
        tmp_path / "shop.jsonl",
        [{"item_id": "7", "title": "HDMI cable 3 m", "price": 9.5, "platform": "shop"}],
    )
    [product] = _read(path)
    assert product.specs.is_empty()
    assert "spec parser failed on item 7" in caplog.text
