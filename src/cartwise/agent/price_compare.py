"""The same product on several platforms, cheapest first.

Two offers are "the same product" when their brands agree and either their model tokens
(`attributes["model"]`, or a model-like token in the title such as "WH-1000XM5") or their
normalized titles are equal. Prices are compared on `price_base`; each offer keeps its
listed price and currency so the shopper sees what the platform charges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.text import fold

# A model number: letters and digits mixed, at least one digit, 4+ characters ("XM5" is too
# short to be trusted on its own; "WH-1000XM5", "A2084", "RTX4070" are not).
_MODEL_TOKEN = re.compile(r"\b(?=[a-z0-9-]*\d)(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*\b")
# Quantities look like model numbers but are shared by unrelated products ("256gb", "40mm").
_QUANTITY = re.compile(r"^\d+(?:gb|tb|mb|mah|w|mm|cm|ml|l|g|kg|hz|khz|db|v|m|h|pcs|pack|x|in)$")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


class Offer(BaseModel):
    """One platform's price for a product."""

    platform: str
    item_id: str
    price: float
    """As listed, in `currency`."""
    currency: str
    price_base: float
    """In the base currency, for comparison."""
    url: str = ""

    @classmethod
    def of(cls, product: Product) -> Offer:
        return cls(
            platform=product.platform,
            item_id=product.item_id,
            price=product.price,
            currency=product.currency,
            price_base=product.price_base,
            url=product.url,
        )


class PriceComparison(BaseModel):
    """One product listed on at least two platforms; offers cheapest first."""

    title: str
    offers: list[Offer] = Field(default_factory=list)


def model_token(product: Product) -> str:
    """The product's model number, normalized (lowercase, no separators), or ""."""
    listed = product.attributes.get("model", [])
    if listed and listed[0].strip():
        return _NON_WORD.sub("", fold(listed[0]))
    tokens = [
        t
        for t in _MODEL_TOKEN.findall(fold(product.title))
        if len(t) >= 4 and not _QUANTITY.fullmatch(t)
    ]
    return _NON_WORD.sub("", max(tokens, key=len)) if tokens else ""


def _identity(product: Product) -> tuple[str, str]:
    brand = _NON_WORD.sub("", fold(product.brand))
    token = model_token(product)
    return (brand, f"model:{token}" if token else f"title:{_NON_WORD.sub('', fold(product.title))}")


def model_identity(product: Product) -> str:
    """One string per model: offers of the same model on every platform share it."""
    return "|".join(_identity(product))


def compare_prices(
    products: Sequence[Product], *, focus: Sequence[Product] = ()
) -> list[PriceComparison]:
    """Groups of the same product on 2+ platforms. With `focus`, only groups containing one
    of those products (the picks) are returned, in the order of their first focus product."""
    groups: dict[tuple[str, str], dict[str, Product]] = {}
    for product in products:
        by_platform = groups.setdefault(_identity(product), {})
        known = by_platform.get(product.platform)
        if known is None or product.price_base < known.price_base:
            by_platform[product.platform] = product

    order: list[tuple[str, str]] = []
    for product in focus or products:
        key = _identity(product)
        if key not in order and len(groups.get(key, {})) >= 2:
            order.append(key)

    comparisons: list[PriceComparison] = []
    for key in order:
        offers = sorted(groups[key].values(), key=lambda p: (p.price_base, p.platform))
        comparisons.append(
            PriceComparison(
                title=offers[0].title,
                offers=[Offer.of(p) for p in offers],
            )
        )
    return comparisons
