"""What every catalog reader shares: options in, `Product | RowError` out, one report.

A reader raises `IngestError` only when the file cannot be read at all (missing, not the
format it claims, no usable header). A bad row becomes a `RowError` with its line number
and the rest of the file is still read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field, ValidationError

from cartwise.catalog.domains import infer_domain
from cartwise.catalog.normalize import (
    RowProblem,
    clean_title,
    html_to_text,
    parse_bool,
    parse_price,
    to_base,
)
from cartwise.catalog.product import Product
from cartwise.catalog.specs import ProductSpecs, extract_listing_specs
from cartwise.errors import CartwiseError
from cartwise.log import logger


class RowError(BaseModel):
    """One skipped row: where it is in the file and why it was refused."""

    line: int
    """1-based line of the row in the file (for Shopify JSON: the product's position)."""
    message: str
    item_id: str = ""


class IngestReport(BaseModel):
    """The outcome of ingesting one file."""

    path: str
    format: str
    platforms: list[str] = Field(default_factory=list)
    """Platforms that received products from this file."""
    rows: int = 0
    """Rows (records) read, good or bad."""
    ingested: int = 0
    """Products upserted (new or replaced)."""
    skipped: int = 0
    """Rows refused; each has an entry in `errors`."""
    duplicates: int = 0
    """Rows whose (platform, item_id) appeared earlier in the same file; the last one wins."""
    embedded: int = 0
    """Texts sent to the embedding model."""
    cached: int = 0
    """Texts whose vector came from the embedding cache (unchanged since an earlier ingest)."""
    price_points: int = 0
    """Price points recorded (offers whose price or stock changed; a demo's synthesized past)."""
    alerts: int = 0
    """Shoppers' watches this ingest's price or stock changes fired."""
    seconds: float = 0.0
    errors: list[RowError] = Field(default_factory=list)


@dataclass(frozen=True)
class ReaderOptions:
    """What a reader needs besides the file."""

    fx_to_base: dict[str, float]
    platform: str | None = None
    """Platform for every row; readers fall back to the file name when a row names none."""
    currency: str | None = None
    """Currency of prices that name none (WooCommerce and Shopify exports carry none)."""
    mapping: Path | None = None
    """Column-mapping file for generic CSV / JSONL sources."""
    extra: dict[str, Any] = field(default_factory=dict)


class CatalogReader(Protocol):
    def __call__(self, path: Path, options: ReaderOptions) -> Iterator[Product | RowError]: ...


def platform_from_path(path: Path) -> str:
    """`webmall_1.csv` → `webmall_1`; used when neither option nor row names a platform."""
    stem = path.name.split(".")[0].lower()
    return re.sub(r"[^a-z0-9_-]+", "_", stem).strip("_-") or "catalog"


def build_product(
    fields: dict[str, Any], attributes: dict[str, list[str]], options: ReaderOptions
) -> Product:
    """Normalize raw fields into a Product: price parsed and converted, HTML stripped,
    domain inferred when not given. Raises `RowProblem` with a readable reason."""
    price, named_currency = parse_price(fields.get("price"))
    currency = str(fields.get("currency") or named_currency or options.currency or "").upper()
    if not currency:
        raise RowProblem("no currency: name it in the row, the mapping or --currency")
    title = clean_title(str(fields.get("title") or ""))
    category_raw = clean_title(str(fields.get("category_raw") or ""))
    data: dict[str, Any] = {
        "platform": fields.get("platform") or options.platform,
        "item_id": str(fields.get("item_id") or "").strip(),
        "title": title,
        "brand": clean_title(str(fields.get("brand") or "")),
        "category_raw": category_raw,
        "domain": fields.get("domain") or infer_domain(category_raw, title),
        "product_type": str(fields.get("product_type") or "").strip(),
        "price": price,
        "currency": currency,
        "price_base": to_base(price, currency, options.fx_to_base),
        "attributes": {k: v for k, v in attributes.items() if v},
        "description": html_to_text(str(fields.get("description") or "")),
        "url": str(fields.get("url") or ""),
        "image_url": str(fields.get("image_url") or ""),
        "rating": _optional_float(fields.get("rating"), "rating"),
        "reviews": _optional_int(fields.get("reviews"), "reviews"),
        "in_stock": parse_bool(fields.get("in_stock"), default=True),
    }
    if not data["item_id"]:
        raise RowProblem("no item id")
    if not title:
        raise RowProblem("no title")
    data["specs"] = listing_specs(data)
    try:
        return Product.model_validate(data)
    except (ValidationError, CartwiseError) as exc:
        raise RowProblem(_first_reason(exc)) from exc


def listing_specs(data: dict[str, Any]) -> ProductSpecs:
    """Specs read from the listing's own words, never taken from the row: one parser, one
    vocabulary for every catalog (a stale "specs" field cannot disagree). A listing the
    parser fails on keeps no specs — it stays searchable, its specs "unknown" to filters —
    rather than being dropped from the catalog; the failure is logged with its id."""
    try:
        return extract_listing_specs(
            data["title"], data["attributes"], data["description"], brand=data["brand"]
        )
    except Exception:  # a parser bug must cost one listing its specs, not the whole ingest
        logger.warning("spec parser failed on item %s; stored without specs", data["item_id"])
        return ProductSpecs()


def _first_reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return str(exc)


def _optional_float(raw: object, name: str) -> float | None:
    if raw is None or raw == "":
        return None
    try:
        return float(str(raw).replace(",", "."))
    except ValueError as exc:
        raise RowProblem(f"{name} {raw!r} is not a number") from exc


def _optional_int(raw: object, name: str) -> int | None:
    value = _optional_float(raw, name)
    return None if value is None else int(value)


def split_values(raw: object, separator: str = ",") -> list[str]:
    """An attribute cell (`"Red, Blue"`, a JSON list, a number) → a list of strings."""
    if raw is None:
        return []
    if isinstance(raw, list):
        return [str(v).strip() for v in raw if str(v).strip()]
    return [part.strip() for part in str(raw).split(separator) if part.strip()]
