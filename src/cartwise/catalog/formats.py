"""The catalog file formats `cartwise ingest` reads (their readers: `catalog/ingest/`)."""

from __future__ import annotations

from typing import Literal

Format = Literal["jsonl", "csv", "woocommerce", "shopify"]
FORMATS: tuple[Format, ...] = ("jsonl", "csv", "woocommerce", "shopify")
