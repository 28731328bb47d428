"""The brands a catalog sells, mined once when it is ingested, not every time a process starts.

`mine_brands(rows)` reads every product's brand field, with the Chinese alias seen next to it
in titles ("方太（Fotile）炒锅" → Fotile is also 方太), and the domain most of its products are
in (the domain a bare "不要方太" is about). The reader adds them to its lexicon, so
"不要Lavazza的咖啡豆" and "我讨厌方太的锅" are brand dislikes once a catalog sells those brands.

Mining 17k listings takes seconds (a regex per brand over its titles), so the result is a
file: ingest writes it beside the index (`RecallService.catalog_brands`), and the bundled
demo catalog ships its own (`demo/demo_brands.json`, written by
`scripts/generate_demo_catalog.py`); reading either takes milliseconds.

A mined English form that is also an English word matches only as the catalog writes it
("Keep", not "keep"): a brand that is an everyday word must not turn "I want to keep it
simple" into a brand request. Any other ("Tumi", "LEGO", "Herman Miller") matches in any case,
as shoppers type it ("tumi wallets"); `loose` holds them. Curated brands keep their
case-insensitive forms.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from cartwise.catalog.product import Product
from cartwise.errors import ConfigurationError
from cartwise.log import logger
from cartwise.text import HAN
from cartwise.vocabulary.english import is_english_word
from cartwise.vocabulary.slugs import slugify

DEMO_BRANDS = "demo/demo_brands.json"
MIN_ALIAS_COUNT = 2
"""A Chinese alias must be seen next to the brand in at least this many titles."""
FORMAT_VERSION = 2
"""Bumped when the mining rules change: a file of another version is mined again."""


@dataclass
class CatalogBrand:
    """One brand mined from catalogs."""

    slug: str
    domain: str
    forms: set[str] = field(default_factory=set)
    """Case-sensitive ASCII forms as listed and Chinese aliases."""
    loose: set[str] = field(default_factory=set)
    """The ASCII forms that are no English word, so match in any case."""


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
    """(brand, title, domain) of each product, what `mine_brands` reads."""
    return ((p.brand, p.title, p.domain.value) for p in products)


def mine_brands(rows: Iterable[tuple[str, str, str]]) -> list[CatalogBrand]:
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
        loose = {f for f in brand_names if f.isascii() and not _everyday_word(f)}
        mined.append(CatalogBrand(slug, "" if domain == "other" else domain, forms, loose))
    return mined


def _everyday_word(name: str) -> bool:
    """Whether a brand's name is one everyday English word a message may use for itself
    ("Keep", "Glass"); a name of several words or with digits is none ("Herman Miller",
    "3M"), nor a rare word ("Kindle", "LEGO")."""
    return name.isalpha() and is_english_word(name, everyday=True)


def brands_json(brands: Iterable[CatalogBrand], *, products: int) -> str:
    """The file form of mined brands; `products` is how many listings they were mined from
    (a reader compares it with the catalog it has)."""
    rows = [
        {"slug": b.slug, "domain": b.domain, "forms": sorted(b.forms), "loose": sorted(b.loose)}
        for b in brands
    ]
    document = {"version": FORMAT_VERSION, "products": products, "brands": rows}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_brands(path: Path, brands: Iterable[CatalogBrand], *, products: int) -> None:
    """Write the brands file atomically (temp file + `os.replace`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(brands_json(brands, products=products))
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def parse_brands(text: str, *, products: int | None = None) -> tuple[CatalogBrand, ...] | None:
    """Brands from their file form; None when the file is of another format version or was
    mined from another number of listings than `products` (it must be mined again)."""
    document = json.loads(text)
    if document.get("version") != FORMAT_VERSION:
        return None
    if products is not None and document.get("products") != products:
        return None
    return tuple(
        CatalogBrand(row["slug"], row["domain"], set(row["forms"]), set(row["loose"]))
        for row in document["brands"]
    )


def read_brands(path: Path, *, products: int) -> tuple[CatalogBrand, ...] | None:
    """The brands file at `path` when it is current for a catalog of `products` listings;
    None when it is missing, unreadable or stale."""
    try:
        return parse_brands(path.read_text(encoding="utf-8"), products=products)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.warning("ignoring unreadable brands file %s: %s", path, exc)
        return None


@lru_cache(maxsize=1)
def demo_catalog_brands() -> tuple[CatalogBrand, ...]:
    """The brands of the bundled demo catalog, as shipped beside it."""
    text = resources.files("cartwise.catalog").joinpath(DEMO_BRANDS).read_text("utf-8")
    brands = parse_brands(text)
    if brands is None:
        raise ConfigurationError(
            f"{DEMO_BRANDS} is of another format version: run `make demo-catalog`"
        )
    return brands
