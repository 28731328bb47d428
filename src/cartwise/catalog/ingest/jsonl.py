"""Native JSON Lines: one Product JSON object per line (schema: docs/catalog-schema.md).

`price_base` is always recomputed from `price`, `currency` and the FX table, so a file
written with an older table cannot smuggle in stale base prices; `domain` is inferred when
absent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cartwise.catalog.ingest.base import (
    ReaderOptions,
    RowError,
    build_product,
    platform_from_path,
    split_values,
)
from cartwise.catalog.ingest.files import read_text_checked
from cartwise.catalog.normalize import RowProblem
from cartwise.catalog.product import Product
from cartwise.errors import IngestError

_FIELDS = frozenset(Product.model_fields) - {"attributes"}


def json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line number, object) per non-blank line, or (line number, reason) for a line that
    is not a JSON object. A file whose first line is not JSON is not JSON Lines at all."""
    seen_object = False
    for number, line in enumerate(read_text_checked(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            if not seen_object:
                raise IngestError(str(path), f"line {number} is not JSON: {exc.msg}") from exc
            yield number, f"not JSON: {exc.msg}"
            continue
        if not isinstance(value, dict):
            yield number, "not a JSON object"
            continue
        seen_object = True
        yield number, value


def read_jsonl(path: Path, options: ReaderOptions) -> Iterator[Product | RowError]:
    for line, record in json_lines(path):
        if isinstance(record, str):
            yield RowError(line=line, message=record)
            continue
        try:
            yield _product(record, options, path)
        except RowProblem as problem:
            yield RowError(line=line, message=str(problem), item_id=str(record.get("item_id", "")))


def _product(record: dict[str, Any], options: ReaderOptions, path: Path) -> Product:
    unknown = sorted(set(record) - _FIELDS - {"attributes"})
    if unknown:
        raise RowProblem(f"unknown field(s) {', '.join(unknown)}")
    attributes = record.get("attributes") or {}
    if not isinstance(attributes, dict):
        raise RowProblem("attributes must be an object of lists")
    fields = {key: value for key, value in record.items() if key in _FIELDS}
    fields.pop("price_base", None)
    # A row's own platform wins: one native file may hold several platforms (the demo does).
    fields["platform"] = fields.get("platform") or options.platform or platform_from_path(path)
    return build_product(fields, {str(k): split_values(v) for k, v in attributes.items()}, options)
