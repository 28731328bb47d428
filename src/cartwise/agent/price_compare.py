"""The same product on several platforms, cheapest first.

Two offers are "the same product" when they share `catalog.model_identity`. Prices are compared on `price_base`; each offer keeps its
listed price and currency so the shopper sees what the platform charges.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from cartwise.catalog.model_identity import model_identity, model_token
from cartwise.catalog.product import Product

__all__ = ["Offer", "PriceComparison", "compare_prices", "model_identity", "model_token"]


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


def compare_prices(
    products: Sequence[Product], *, focus: Sequence[Product] = ()
) -> list[PriceComparison]:
    """Groups of the same product on 2+ platforms. With `focus`, only groups containing one
    of those products (the picks) are returned, in the order of their first focus product."""
    groups: dict[str, dict[str, Product]] = {}
    for product in products:
        by_platform = groups.setdefault(model_identity(product), {})
        known = by_platform.get(product.platform)
        if known is None or product.price_base < known.price_base:
            by_platform[product.platform] = product

    order: list[str] = []
    for product in focus or products:
        key = model_identity(product)
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
