"""The hand-labelled spec sets, and the listing text they point to.

Listings are labelled by reference only: the real catalogs stay in `../shared/data/catalogs`
(never copied into the repository) and our own demo catalog is read from the package.
`eval/data/specs/listings_{dev,test}.jsonl`, one listing per line:

    {"source": "webmall/webmall_2.csv", "row": "3534",     # file under catalogs/ (or "demo")
     "numbers": {"storage": [1000], "read_speed": [560]},  # every value, canonical unit
     "labels": {"interface": ["sata"]}}                    # every categorical value

Labelling rules (the same for both splits, written before the parser was tuned):
- a label lists every value of every vocabulary attribute the title and attribute values state
  about the item (descriptions are not read); a listing with nothing to say has empty maps;
- length is any stated linear dimension (cable, radiator 360mm, fan 12cm, thickness 7mm,
  inch dimensions of non-screens, fractions "3/8 in."), not an audio jack size;
- a range in an attribute value ("1kg(含)-1.5kg(不含)") states both ends;
- values a human reads without a unit count ("Galaxy Tab A9+ 11" is an 11-inch screen), so
  the parser is charged for missing them.

Requests (`requests_{dev,test}.jsonl`) are our own sentences, one per line:

    {"text": "...", "lang": "en", "numeric": [["length", "gt", 2]],
     "labels": [["color_family", ["black", "white"], true]], "sort": ["price", false],
     "cheapest": true, "unchecked": ["25 dB"]}
"""

from __future__ import annotations

import csv
import gzip
import html
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from cartwise.catalog.demo import demo_catalog_path
from cartwise.errors import InvalidInput

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")
DEMO = "demo"


class LabelledListing(BaseModel):
    source: str
    row: str
    numbers: dict[str, list[float]] = Field(default_factory=dict)
    labels: dict[str, list[str]] = Field(default_factory=dict)


class LabelledRequest(BaseModel):
    text: str
    lang: Literal["en", "zh"]
    numeric: list[tuple[str, str, float]] = Field(default_factory=list)
    labels: list[tuple[str, list[str], bool]] = Field(default_factory=list)
    sort: tuple[str, bool] | None = None
    cheapest: bool = False
    unchecked: list[str] = Field(default_factory=list)


class ListingText(BaseModel):
    title: str
    attributes: dict[str, list[str]] = Field(default_factory=dict)
    brand: str = ""


def _lines(name: str) -> list[tuple[int, dict[str, object]]]:
    text = resources.files("cartwise.eval").joinpath("data", "specs", name).read_text("utf-8")
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                rows.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{name}:{number}: not JSON: {exc}") from exc
    return rows


def load_listing_labels(split: Split) -> list[LabelledListing]:
    name = f"listings_{split}.jsonl"
    try:
        return [LabelledListing.model_validate(row) for _, row in _lines(name)]
    except ValueError as exc:
        raise InvalidInput(f"{name}: not a listing label: {exc}") from exc


def load_request_labels(split: Split) -> list[LabelledRequest]:
    name = f"requests_{split}.jsonl"
    try:
        return [LabelledRequest.model_validate(row) for _, row in _lines(name)]
    except ValueError as exc:
        raise InvalidInput(f"{name}: not a request label: {exc}") from exc


def _webmall(path: Path) -> dict[str, ListingText]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return {
            row["ID"]: ListingText(title=html.unescape(html.unescape(row["Name"])))
            for row in csv.DictReader(handle)
        }


def _jsonl(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _openbg(path: Path) -> dict[str, ListingText]:
    texts = {}
    for index, row in enumerate(_jsonl(path)):
        attributes: dict[str, list[str]] = {}
        for pair in row.get("attributes") or []:  # type: ignore[attr-defined]
            key, value = str(pair[0]), str(pair[1])
            attributes.setdefault(key, []).append(value)
        brand = attributes.pop("品牌", [""])[0]
        texts[str(index)] = ListingText(title=str(row["title"]), attributes=attributes, brand=brand)
    return texts


def _keyed(path: Path, key: str) -> dict[str, ListingText]:
    return {
        str(row[key]): ListingText(title=str(row["title"]), brand=str(row.get("brand") or ""))
        for row in _jsonl(path)
    }


def demo_listings() -> dict[str, ListingText]:
    """Our own demo catalog, by item id."""
    with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return {
        str(row["item_id"]): ListingText(
            title=str(row["title"]),
            attributes={k: [str(v) for v in vs] for k, vs in row.get("attributes", {}).items()},
            brand=str(row.get("brand") or ""),
        )
        for row in rows
    }


def _read_source(catalogs: Path, source: str) -> dict[str, ListingText]:
    if source == DEMO:
        return demo_listings()
    path = catalogs / source
    if source.startswith("webmall/"):
        return _webmall(path)
    if source.startswith("openbg_zh/"):
        return _openbg(path)
    if source.startswith("homedepot/"):
        return _keyed(path, "product_id")
    if source.startswith("zh_titles"):
        return _keyed(path, "id")
    raise InvalidInput(f"unknown listing source {source!r}")


def needs_shared_data(labels: Sequence[LabelledListing]) -> bool:
    return any(label.source != DEMO for label in labels)


def load_listing_texts(catalogs: Path, labels: Sequence[LabelledListing]) -> list[ListingText]:
    """The text each label points to, read in place; a missing row is a clear error."""
    cache: dict[str, dict[str, ListingText]] = {}
    texts = []
    for label in labels:
        if label.source not in cache:
            try:
                cache[label.source] = _read_source(catalogs, label.source)
            except (OSError, ValueError, KeyError) as exc:
                raise InvalidInput(f"cannot read {label.source}: {exc}") from exc
        text = cache[label.source].get(label.row)
        if text is None:
            raise InvalidInput(f"{label.source}: no row {label.row}")
        texts.append(text)
    return texts
