"""What kinds of goods the ingested catalogs list, kept beside the index.

The turn asks every searching turn whether the catalog carries what was asked for
(`cartwise.understanding.catalog_scope`): it needs the product types of the typed listings
and the raw categories of the untyped ones. Read from the listings themselves that meant
parsing every product of the catalog in a fresh process (17,926 for the demo catalog: about
a second, the largest part of a one-shot `cartwise ask`). Like the catalog's brands, they are
collected once per catalog state — ingest does it — and read in milliseconds afterwards.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cartwise.catalog.product import Product
from cartwise.log import logger

FORMAT_VERSION = 1


@dataclass(frozen=True)
class CatalogKinds:
    """The product types of the typed listings, whether any listing is untyped, and the raw
    categories (`Product.category_raw`) of the untyped ones."""

    types: frozenset[str]
    untyped: bool
    categories: frozenset[str]


def collect_kinds(products: Iterable[Product]) -> CatalogKinds:
    types: set[str] = set()
    categories: set[str] = set()
    untyped = False
    for product in products:
        if product.product_type:
            types.add(product.product_type)
            continue
        untyped = True
        if product.category_raw:
            categories.add(product.category_raw)
    return CatalogKinds(frozenset(types), untyped, frozenset(categories))


def write_kinds(path: Path, kinds: CatalogKinds, *, products: int) -> None:
    """Write the kinds file atomically (temp file + `os.replace`)."""
    document = {
        "version": FORMAT_VERSION,
        "products": products,
        "types": sorted(kinds.types),
        "untyped": kinds.untyped,
        "categories": sorted(kinds.categories),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(document, handle, ensure_ascii=False)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def read_kinds(path: Path, *, products: int) -> CatalogKinds | None:
    """The kinds file at `path` when it is current for a catalog of `products` listings;
    None when it is missing, unreadable, of another format or stale."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("version") != FORMAT_VERSION or document.get("products") != products:
            return None
        return CatalogKinds(
            frozenset(document["types"]),
            bool(document["untyped"]),
            frozenset(document["categories"]),
        )
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.warning("ignoring unreadable catalog kinds file %s: %s", path, exc)
        return None
