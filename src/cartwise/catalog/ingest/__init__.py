"""Catalog readers, one module per format, and the one function that picks the reader.

Formats: `jsonl` (native Product JSON Lines, or any JSON Lines with `--mapping`),
`csv` (generic CSV with `--mapping`), `woocommerce` (WooCommerce product export CSV),
`shopify` (`products.json`). `auto` decides from the suffix and the header.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from cartwise.catalog.formats import FORMATS, Format
from cartwise.catalog.ingest.base import (
    IngestReport,
    ReaderOptions,
    RowError,
    platform_from_path,
)
from cartwise.catalog.ingest.files import csv_records
from cartwise.catalog.ingest.jsonl import read_jsonl
from cartwise.catalog.ingest.mapped import read_mapped
from cartwise.catalog.ingest.shopify import read_shopify
from cartwise.catalog.ingest.woocommerce import looks_like_woocommerce, read_woocommerce
from cartwise.catalog.product import Product
from cartwise.errors import IngestError

__all__ = [
    "FORMATS",
    "Format",
    "IngestReport",
    "ReaderOptions",
    "RowError",
    "detect_format",
    "read_catalog",
]


def detect_format(path: Path, *, mapping: Path | None = None) -> Format:
    """Guess the format from the suffix and, for CSV, the header."""
    suffixes = [s.lower() for s in path.suffixes]
    if ".jsonl" in suffixes or ".ndjson" in suffixes:
        return "jsonl"
    if suffixes and suffixes[-1] == ".json":
        return "shopify"
    if ".csv" in suffixes or ".tsv" in suffixes:
        if mapping is not None:
            return "csv"
        header, _ = csv_records(path)
        if looks_like_woocommerce(header):
            return "woocommerce"
        raise IngestError(str(path), "a CSV that is not a WooCommerce export needs --mapping FILE")
    raise IngestError(
        str(path), f"cannot tell the format from {path.name!r}; pass --format {'|'.join(FORMATS)}"
    )


def read_catalog(
    path: Path, fmt: Format | None, options: ReaderOptions
) -> Iterator[Product | RowError]:
    """Products and row errors of one file, in file order. `fmt=None` means auto."""
    fmt = fmt or detect_format(path, mapping=options.mapping)
    if fmt == "csv" or (fmt == "jsonl" and options.mapping is not None):
        return read_mapped(path, options)
    if fmt == "jsonl":
        return read_jsonl(path, options)
    # Exports of one shop: the file name is the platform unless the caller names one.
    options = replace(options, platform=options.platform or platform_from_path(path))
    if fmt == "woocommerce":
        return read_woocommerce(path, options)
    return read_shopify(path, options)
