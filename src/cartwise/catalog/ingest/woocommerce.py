"""WooCommerce "Export products" CSV: one row per product, `ID` is the item id.

WooCommerce exports name no currency (it is a shop setting), so it comes from the caller;
the default is GBP because the WebMall shops it was built for list UK offers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from cartwise.catalog.ingest.base import ReaderOptions, RowError, build_product, split_values
from cartwise.catalog.ingest.files import csv_records
from cartwise.catalog.normalize import RowProblem
from cartwise.catalog.product import Product
from cartwise.errors import IngestError

DEFAULT_CURRENCY = "GBP"
REQUIRED_COLUMNS = ("ID", "Name", "Regular price")
_ATTRIBUTE_NAMES = {"color": "color", "colour": "color", "size": "sizes", "material": "material"}


def looks_like_woocommerce(header: list[str]) -> bool:
    return all(column in header for column in REQUIRED_COLUMNS)


def read_woocommerce(path: Path, options: ReaderOptions) -> Iterator[Product | RowError]:
    header, records = csv_records(path)
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        raise IngestError(str(path), f"not a WooCommerce export: no column {', '.join(missing)}")
    options = replace(options, currency=options.currency or DEFAULT_CURRENCY)
    for line, record in records:
        item_id = record.get("ID", "")
        try:
            if "__width__" in record:
                raise RowProblem(f"broken row: {record['__width__']}")
            yield _product(record, options)
        except RowProblem as problem:
            yield RowError(line=line, message=str(problem), item_id=item_id)


def _product(record: dict[str, str], options: ReaderOptions) -> Product:
    sale, regular = record.get("Sale price", "").strip(), record.get("Regular price", "").strip()
    if not (sale or regular):
        raise RowProblem("no price: both Regular price and Sale price are empty")
    description = " ".join(
        part
        for part in (record.get("Short description", ""), record.get("Description", ""))
        if part
    )
    fields: dict[str, Any] = {
        "item_id": record["ID"],
        "title": record["Name"],
        "brand": record.get("Brands", ""),
        "category_raw": record.get("Categories", ""),
        # The price a shopper pays is the sale price while one is set.
        "price": sale or regular,
        "description": description,
        "image_url": next(iter(split_values(record.get("Images", ""))), ""),
        "url": record.get("External URL", ""),
        "in_stock": record.get("In stock?", ""),
    }
    return build_product(fields, _attributes(record, regular if sale else ""), options)


def _attributes(record: dict[str, str], list_price: str) -> dict[str, list[str]]:
    attributes: dict[str, list[str]] = {}
    number = 1
    while f"Attribute {number} name" in record:
        name = record[f"Attribute {number} name"].strip()
        values = split_values(record.get(f"Attribute {number} value(s)", ""))
        if name and values:
            attributes[_ATTRIBUTE_NAMES.get(name.casefold(), name.casefold())] = values
        number += 1
    for column, key in (("Meta: webmall_id", "webmall_id"), ("SKU", "sku"), ("Tags", "tags")):
        if record.get(column, "").strip():
            attributes[key] = split_values(record[column])
    if list_price:
        attributes["list_price"] = [list_price]
    return attributes
