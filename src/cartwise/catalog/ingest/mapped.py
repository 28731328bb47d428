"""Any CSV or JSON Lines catalog, read through a column-mapping file (YAML or JSON).

```yaml
platform: bigbasket            # optional; --platform wins, then the file name
source: csv                    # csv | jsonl; default: from the data file's suffix
constants: {currency: INR}     # a fixed value for a Product field
fields:                        # Product field -> column (or key, for JSON Lines)
  item_id: {column: Absolute_Url, pattern: '/pd/(\\d+)/'}
  title: ProductName
  price: {first_of: [DiscountPrice, Price]}
  category_raw: {join: [Category, SubCategory], sep: ' > '}
attributes:                    # attribute name -> column; values split on `split`
  quantity: Quantity
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cartwise.catalog.ingest.base import (
    ReaderOptions,
    RowError,
    build_product,
    platform_from_path,
    split_values,
)
from cartwise.catalog.ingest.files import csv_records, read_text_checked
from cartwise.catalog.ingest.jsonl import json_lines
from cartwise.catalog.normalize import RowProblem
from cartwise.catalog.product import Product
from cartwise.errors import IngestError
from cartwise.yaml_data import load_yaml

MAPPABLE_FIELDS = frozenset(
    {
        "platform", "item_id", "title", "brand", "category_raw", "domain", "product_type", "price",
        "currency", "description", "url", "image_url", "rating", "reviews", "in_stock",
    }
)  # fmt: skip
REQUIRED_FIELDS = ("item_id", "title", "price")


class ColumnSpec(BaseModel):
    """Where one value comes from. A bare string in the file means `{column: ...}`."""

    model_config = ConfigDict(extra="forbid")

    column: str | None = None
    first_of: list[str] = Field(default_factory=list)
    """The first non-empty of these columns."""
    join: list[str] = Field(default_factory=list)
    """Non-empty values of these columns joined with `sep`."""
    sep: str = " > "
    pattern: str | None = None
    """A regex with one group, applied to the value (e.g. an id inside a URL)."""
    split: str = ","
    """Attribute values only: separator between several values in one cell."""

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            groups = re.compile(value).groups
        except re.error as exc:
            raise ValueError(f"pattern is not a regular expression: {exc}") from exc
        if groups != 1:
            raise ValueError("pattern needs exactly one capturing group")
        return value

    def columns(self) -> list[str]:
        return [c for c in [self.column, *self.first_of, *self.join] if c]

    def extract(self, record: dict[str, Any]) -> Any:
        if self.join:
            value: Any = self.sep.join(
                str(record[c]).strip() for c in self.join if record.get(c) not in (None, "")
            )
        elif self.first_of:
            value = next((record[c] for c in self.first_of if record.get(c) not in (None, "")), "")
        else:
            value = record.get(self.column or "")
        if self.pattern and value not in (None, ""):
            found = re.search(self.pattern, str(value))
            if not found:
                raise RowProblem(f"{value!r} does not match {self.pattern!r}")
            value = found.group(1)
        return value


class ColumnMapping(BaseModel):
    """A mapping file: how one source's columns become Product fields."""

    model_config = ConfigDict(extra="forbid")

    platform: str | None = None
    source: Literal["csv", "jsonl"] | None = None
    delimiter: str = ","
    constants: dict[str, Any] = Field(default_factory=dict)
    fields: dict[str, ColumnSpec]
    attributes: dict[str, ColumnSpec] = Field(default_factory=dict)

    @field_validator("fields", "attributes", mode="before")
    @classmethod
    def _bare_column_names(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: {"column": v} if isinstance(v, str) else v for k, v in value.items()}
        return value


def load_mapping(path: Path) -> ColumnMapping:
    """Parse and check a mapping file; every problem is an `IngestError` naming the file."""
    try:
        document = load_yaml(read_text_checked(path))
        mapping = ColumnMapping.model_validate(document)
    except yaml.YAMLError as exc:
        raise IngestError(str(path), f"mapping is not YAML/JSON: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise IngestError(str(path), f"bad mapping at {where}: {first['msg']}") from exc
    unknown = sorted((set(mapping.fields) | set(mapping.constants)) - MAPPABLE_FIELDS)
    if unknown:
        raise IngestError(str(path), f"mapping names unknown Product field(s) {unknown}")
    missing = [f for f in REQUIRED_FIELDS if f not in mapping.fields and f not in mapping.constants]
    if missing:
        raise IngestError(str(path), f"mapping must say where {', '.join(missing)} come(s) from")
    return mapping


def read_mapped(path: Path, options: ReaderOptions) -> Iterator[Product | RowError]:
    if options.mapping is None:
        raise IngestError(
            str(path), "a generic CSV needs --mapping FILE (see docs/catalog-schema.md)"
        )
    mapping = load_mapping(options.mapping)
    source = mapping.source or (
        "jsonl" if ".jsonl" in path.suffixes or ".ndjson" in path.suffixes else "csv"
    )
    if source == "csv":
        header, csv_rows = csv_records(path, delimiter=mapping.delimiter)
        needed = {
            c
            for spec in [*mapping.fields.values(), *mapping.attributes.values()]
            for c in spec.columns()
        }
        absent = sorted(needed - set(header))
        if absent:
            raise IngestError(str(path), f"columns named by the mapping are missing: {absent}")
        records: Iterator[tuple[int, dict[str, Any] | str]] = iter(csv_rows)
    else:
        records = json_lines(path)
    for line, record in records:
        item_id = ""
        try:
            if isinstance(record, str):
                raise RowProblem(record)
            if "__width__" in record:
                raise RowProblem(f"broken row: {record['__width__']}")
            extracted = {k: spec.extract(record) for k, spec in mapping.fields.items()}
            # A constant is the fallback for an empty cell, never overwritten by one.
            fields = {
                **mapping.constants,
                **{k: v for k, v in extracted.items() if v not in (None, "")},
            }
            fields["platform"] = (
                options.platform
                or fields.get("platform")
                or mapping.platform
                or platform_from_path(path)
            )
            item_id = str(fields.get("item_id") or "")
            attributes = {
                name: split_values(spec.extract(record), spec.split)
                for name, spec in mapping.attributes.items()
            }
            yield build_product(fields, attributes, options)
        except RowProblem as problem:
            yield RowError(line=line, message=str(problem), item_id=item_id)
