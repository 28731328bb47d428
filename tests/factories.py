"""Factories for test data (shared: append, do not rewrite)."""

from __future__ import annotations

from typing import Any

from cartwise.catalog.product import Product


def make_product(item_id: str = "1", *, platform: str = "jd", **fields: Any) -> Product:
    """A valid product; any field can be overridden. price_base defaults to price."""
    fields.setdefault("title", f"product {item_id}")
    fields.setdefault("price", 100.0)
    fields.setdefault("price_base", fields["price"])
    return Product(platform=platform, item_id=item_id, **fields)
