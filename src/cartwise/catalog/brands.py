"""Brands known from the ingested catalogs, not only from the curated `data/brands.yml`.

`catalog_brands(products)` mines every product's brand field, with the Chinese alias seen
next to it in titles ("方太（Fotile）炒锅" → Fotile is also 方太), and the domain most of its
products are in (the domain a bare "不要方太" is about). `RulesEngine` adds them to its
lexicon, so "不要Lavazza的咖啡豆" and "我讨厌方太的锅" are brand dislikes once a catalog
sells those brands.

A mined English form matches only as the catalog writes it ("Keep", not "keep"): a brand
that is also an everyday word must not turn "I want to keep it simple" into a brand
request, and a catalog-only brand is a proper noun. Curated brands keep their
case-insensitive forms.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from cartwise.catalog.product import Product
from cartwise.text import HAN
from cartwise.vocabulary.slugs import slugify

DEMO_CATALOG = "demo/demo_catalog.jsonl.gz"
MIN_ALIAS_COUNT = 2
"""A Chinese alias must be seen next to the brand in at least this many titles."""


@dataclass
class CatalogBrand:
    """One brand mined from catalogs."""

    slug: str
    domain: str
    forms: set[str] = field(default_factory=set)
    """Case-sensitive ASCII forms as listed and Chinese aliases."""


@lru_cache(maxsize=4096)
def _alias_pattern(brand: str) -> re.Pattern[str]:
    name = re.escape(brand)
    return re.compile(
        rf"([{HAN}]{{2,6}})\s*[（(]\s*{name}\s*[)）]|{name}\s*[（(]\s*([{HAN}]{{2,6}})\s*[)）]"
    )


def _aliases(brand: str, title: str) -> list[str]:
    """ "方太（Fotile）" / "Fotile（方太）" in a title: 方太 is Fotile's Chinese name."""
    if "（" not in title and "(" not in title:
        return []
    return [a or b for a, b in _alias_pattern(brand).findall(title)]


def product_rows(products: Iterable[Product]) -> Iterable[tuple[str, str, str]]:
    """(brand, title, domain) of each product, what `catalog_brands` reads."""
    return ((p.brand, p.title, p.domain.value) for p in products)


def catalog_brands(rows: Iterable[tuple[str, str, str]]) -> list[CatalogBrand]:
    """The brands of catalog rows (brand, title, domain) with their forms and main domain."""
    domains: dict[str, Counter[str]] = {}
    aliases: dict[str, Counter[str]] = {}
    names: dict[str, set[str]] = {}
    for raw_brand, title, product_domain in rows:
        brand = raw_brand.strip()
        if not brand:
            continue
        slug = slugify(brand)
        if not slug:
            continue
        names.setdefault(slug, set()).add(brand)
        domains.setdefault(slug, Counter())[product_domain] += 1
        counter = aliases.setdefault(slug, Counter())
        for alias in _aliases(brand, title):
            counter[alias] += 1
    mined = []
    for slug, brand_names in sorted(names.items()):
        domain = domains[slug].most_common(1)[0][0]
        forms = set(brand_names)
        forms |= {a for a, n in aliases[slug].items() if n >= MIN_ALIAS_COUNT}
        mined.append(CatalogBrand(slug, "" if domain == "other" else domain, forms))
    return mined


@lru_cache(maxsize=1)
def demo_catalog_brands() -> tuple[CatalogBrand, ...]:
    """The brands of the bundled demo catalog (read once per process)."""
    # The packaged file itself: `catalog.demo` would pull in numpy and the embedders.
    demo = resources.files("cartwise.catalog").joinpath(DEMO_CATALOG)
    with gzip.open(str(demo), "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return tuple(
        catalog_brands(
            (str(r.get("brand", "")), str(r.get("title", "")), str(r.get("domain", "")))
            for r in rows
        )
    )
