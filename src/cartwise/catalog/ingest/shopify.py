"""Shopify `products.json` (`/products.json` of a storefront, or the Admin API's list).

One Product per Shopify product: the cheapest variant's price, in stock when any variant is
available, and the option values (Size, Color, Material, ...) as attributes. Shopify's
public JSON names no currency, so it comes from the caller (default USD).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from cartwise.catalog.ingest.base import ReaderOptions, RowError, build_product
from cartwise.catalog.ingest.files import read_text_checked
from cartwise.catalog.normalize import RowProblem, parse_price
from cartwise.catalog.product import Product
from cartwise.errors import IngestError

DEFAULT_CURRENCY = "USD"
_OPTION_NAMES = {"color": "color", "colour": "color", "size": "sizes", "material": "material"}


def load_products_json(path: Path) -> list[Any]:
    """The `products` array; anything else is an `IngestError`."""
    try:
        document = json.loads(read_text_checked(path))
    except json.JSONDecodeError as exc:
        raise IngestError(str(path), f"not JSON: {exc.msg} (line {exc.lineno})") from exc
    products = document.get("products") if isinstance(document, dict) else document
    if not isinstance(products, list):
        raise IngestError(str(path), 'not a Shopify products.json: no "products" array')
    return products


def looks_like_shopify(path: Path) -> bool:
    try:
        load_products_json(path)
    except IngestError:
        return False
    return True


def read_shopify(path: Path, options: ReaderOptions) -> Iterator[Product | RowError]:
    options = replace(options, currency=options.currency or DEFAULT_CURRENCY)
    for position, record in enumerate(load_products_json(path), start=1):
        item_id = str(record.get("id", "")) if isinstance(record, dict) else ""
        try:
            if not isinstance(record, dict):
                raise RowProblem("not a JSON object")
            yield _product(record, options)
        except RowProblem as problem:
            yield RowError(line=position, message=str(problem), item_id=item_id)


def _product(record: dict[str, Any], options: ReaderOptions) -> Product:
    variants = [v for v in record.get("variants") or [] if isinstance(v, dict)]
    if not variants:
        raise RowProblem("no variants, so no price")
    prices = [parse_price(v.get("price"))[0] for v in variants]
    images = [i.get("src", "") for i in record.get("images") or [] if isinstance(i, dict)]
    fields: dict[str, Any] = {
        "item_id": record.get("id"),
        "title": record.get("title"),
        "brand": record.get("vendor", ""),
        "category_raw": record.get("product_type", ""),
        "price": min(prices),
        "description": record.get("body_html") or "",
        "image_url": images[0] if images else "",
        "url": f"/products/{record['handle']}" if record.get("handle") else "",
        # Storefront JSON has `available`; the Admin API has inventory counts instead.
        "in_stock": any(v.get("available", True) for v in variants),
    }
    return build_product(fields, _option_attributes(record, variants), options)


def _option_attributes(
    record: dict[str, Any], variants: list[dict[str, Any]]
) -> dict[str, list[str]]:
    attributes: dict[str, list[str]] = {}
    for position, option in enumerate(record.get("options") or [], start=1):
        if not isinstance(option, dict) or not option.get("name"):
            continue
        values = option.get("values") or [v.get(f"option{position}") for v in variants]
        unique = list(dict.fromkeys(str(v) for v in values if v not in (None, "")))
        name = str(option["name"]).casefold()
        if unique and name != "title":  # "Title: Default Title" is Shopify's no-option marker
            attributes[_OPTION_NAMES.get(name, name)] = unique
    tags = record.get("tags")
    if isinstance(tags, str) and tags.strip():
        attributes["tags"] = [t.strip() for t in tags.split(",") if t.strip()]
    elif isinstance(tags, list) and tags:
        attributes["tags"] = [str(t) for t in tags]
    return attributes
