"""What a catalog holds: domains, product types, offers per platform, how a model's price
spreads across platforms, and whether every offer has a working link and picture.

`cartwise eval catalog` runs this on the demo catalog (or any catalog file); the numbers are
facts about the data, not scores.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from cartwise.catalog.images import product_svg
from cartwise.catalog.product import Product
from cartwise.catalog.taxonomy import product_types
from cartwise.errors import NotFound

PRODUCT_HOSTS: dict[str, str] = {
    "taobao": "item.taobao.com",
    "jd": "item.jd.com",
    "pinduoduo": "mobile.yangkeduo.com",
    "amazon": "www.amazon.com",
    "walmart": "www.walmart.com",
    "shopee": "shopee.sg",
}
"""Where each demo platform serves its product pages."""

_IMAGE_PATH = re.compile(r"^/images/([a-z0-9_]+)/([a-z]+)\.svg$")


def is_product_page(product: Product) -> bool:
    """An https link on its platform's product host naming this offer's own item id (every
    part of it: a Shopee id is shop.item), so the link opens the product, not a search."""
    parts = urlsplit(product.url)
    host = PRODUCT_HOSTS.get(product.platform)
    ids = [part for part in re.split(r"[.]", product.item_id) if part]
    address = f"{parts.path}?{parts.query}"
    return (
        host is not None
        and parts.scheme == "https"
        and parts.netloc == host
        and bool(ids)
        and all(re.search(rf"(?<![0-9A-Za-z]){re.escape(i)}(?![0-9A-Za-z])", address) for i in ids)
        and "search" not in parts.path.lower()
    )


def image_resolves(product: Product) -> bool:
    """The offer's picture is one the app draws (`/images/<type>/<color>.svg`)."""
    match = _IMAGE_PATH.fullmatch(product.image_url)
    if not match:
        return False
    try:
        product_svg(match.group(1), match.group(2))
    except NotFound:
        return False
    return True


def model_key(product: Product) -> tuple[str, str, str]:
    """Offers of one model on different platforms share type, brand and model name."""
    return (product.product_type, product.brand, product.attributes.get("model", [""])[0])


@dataclass
class CatalogReport:
    offers: int = 0
    domains: Counter[str] = field(default_factory=Counter)
    product_types: Counter[str] = field(default_factory=Counter)
    platforms: Counter[str] = field(default_factory=Counter)
    untyped: int = 0
    in_stock: int = 0
    on_sale: int = 0
    with_url: int = 0
    with_product_url: int = 0
    with_image: int = 0
    with_resolving_image: int = 0
    models: int = 0
    multi_platform_models: int = 0
    spreads: list[float] = field(default_factory=list)
    """Per model sold on ≥ 2 platforms: (max − min) / median of its base-currency prices."""
    widest: list[tuple[float, str]] = field(default_factory=list)
    missing_types: list[str] = field(default_factory=list)
    """Taxonomy types with no offer in the catalog."""

    def spread_quantile(self, q: float) -> float:
        if not self.spreads:
            return 0.0
        ordered = sorted(self.spreads)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def catalog_report(products: Iterable[Product]) -> CatalogReport:
    report = CatalogReport()
    by_model: dict[tuple[str, str, str], list[Product]] = defaultdict(list)
    for product in products:
        report.offers += 1
        report.domains[product.domain.value] += 1
        report.platforms[product.platform] += 1
        if product.product_type:
            report.product_types[product.product_type] += 1
        else:
            report.untyped += 1
        report.in_stock += product.in_stock
        report.on_sale += "list_price" in product.attributes
        report.with_url += bool(product.url)
        report.with_product_url += is_product_page(product)
        report.with_image += bool(product.image_url)
        report.with_resolving_image += image_resolves(product)
        by_model[model_key(product)].append(product)
    report.models = len(by_model)
    for key, offers in by_model.items():
        if len({o.platform for o in offers}) < 2:
            continue
        report.multi_platform_models += 1
        prices = [o.price_base for o in offers]
        median = statistics.median(prices)
        if median > 0:
            spread = (max(prices) - min(prices)) / median
            report.spreads.append(spread)
            report.widest.append((spread, " ".join(k for k in key[1:] if k)))
    report.widest = sorted(report.widest, reverse=True)[:3]
    report.missing_types = [t.slug for t in product_types() if t.slug not in report.product_types]
    return report


def _share(part: int, whole: int) -> str:
    return f"{part:,}/{whole:,} ({100 * part / whole:.1f}%)" if whole else "0/0"


def render_lines(report: CatalogReport) -> list[str]:
    """The report as plain lines (the command prints them)."""
    lines = [
        f"offers: {report.offers:,}",
        f"domains: {len(report.domains)} — "
        + ", ".join(f"{d} {n:,}" for d, n in report.domains.most_common()),
        f"product types: {len(report.product_types)} of {len(product_types())} in the taxonomy"
        + (f"; missing: {', '.join(report.missing_types)}" if report.missing_types else "")
        + (f"; {report.untyped:,} offers without a type" if report.untyped else ""),
        "offers per platform: "
        + ", ".join(f"{p} {n:,}" for p, n in sorted(report.platforms.items())),
        f"in stock: {_share(report.in_stock, report.offers)}; "
        f"on sale: {_share(report.on_sale, report.offers)}",
        f"models: {report.models:,}; sold on ≥ 2 platforms: {report.multi_platform_models:,}",
        "cross-platform price spread per model ((max − min) / median, base currency): "
        f"median {report.spread_quantile(0.5):.1%}, p90 {report.spread_quantile(0.9):.1%}, "
        f"max {report.spread_quantile(1.0):.1%}",
    ]
    lines += [f"  widest: {name} {spread:.1%}" for spread, name in report.widest]
    lines += [
        f"offers with a URL: {_share(report.with_url, report.offers)}; "
        f"https product page of their platform: {_share(report.with_product_url, report.offers)}",
        f"offers with an image: {_share(report.with_image, report.offers)}; "
        f"image drawn by the app: {_share(report.with_resolving_image, report.offers)}",
    ]
    return lines


__all__ = [
    "PRODUCT_HOSTS",
    "CatalogReport",
    "catalog_report",
    "image_resolves",
    "is_product_page",
    "model_key",
    "render_lines",
]
