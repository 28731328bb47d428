"""Factories for test data (shared: append, do not rewrite)."""

from __future__ import annotations

from typing import Any

from cartwise.catalog.product import Product
from cartwise.memory.store import PreferenceEntry


def make_product(item_id: str = "1", *, platform: str = "jd", **fields: Any) -> Product:
    """A valid product; any field can be overridden. price_base defaults to price."""
    fields.setdefault("title", f"product {item_id}")
    fields.setdefault("price", 100.0)
    fields.setdefault("price_base", fields["price"])
    return Product(platform=platform, item_id=item_id, **fields)


def make_preference(
    slug: str = "plastic",
    *,
    polarity: str = "dislike",
    category: str = "material",
    domain: str = "",
    strength: str = "hard",
    keywords: list[str] | None = None,
    recipient: str = "self",
) -> PreferenceEntry:
    """A valid long-term preference; keywords default to the slug's words."""
    return PreferenceEntry.model_validate(
        {
            "recipient": recipient,
            "polarity": polarity,
            "category": category,
            "domain": domain,
            "slug": slug,
            "strength": strength,
            "keywords": [slug.replace("-", " ")] if keywords is None else keywords,
        }
    )
