"""`extract_listing_specs`: the specs one listing states, parsed once at ingest.

Title and attribute values are read first; the description only fills attributes they leave
unstated, because descriptions talk about more than the item ("supports up to 128GB",
"pairs with any 1000W PSU").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from cartwise.catalog.specs.model import ProductSpecs
from cartwise.catalog.specs.scan import Scan, normalize, scan_quantities
from cartwise.catalog.specs.vocabulary import (
    inferred_sockets,
    label_hits,
    zh_colour_families,
)

_TAG = re.compile(r"<[^>]+>")
_COLOUR_KEY = re.compile(r"colou?r|颜色", re.IGNORECASE)
_KEY_WORDS = re.compile(r"[_\s]+")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_SIGNIFICANT = 6


def _segment(key: str, values: Iterable[str]) -> str:
    """An attribute as text the scanner reads with its key as context ("内存: 16GB")."""
    return f"{_KEY_WORDS.sub(' ', key)}: {', '.join(values)}"


def _collect(
    scan: Scan, labels_text: str, numbers: dict[str, list[float]], labels: dict[str, list[str]]
) -> None:
    for quantity in scan.quantities:
        value = float(f"{quantity.value:.{_SIGNIFICANT}g}")
        bucket = numbers.setdefault(quantity.attribute, [])
        if value not in bucket:
            bucket.append(value)
    hits = [(hit.attribute, hit.value) for hit in label_hits(labels_text)]
    for attribute, label in scan.labels + hits:
        bucket_labels = labels.setdefault(attribute, [])
        if label not in bucket_labels:
            bucket_labels.append(label)


def _colour_values(attributes: Mapping[str, list[str]]) -> list[str]:
    families: list[str] = []
    for key, values in attributes.items():
        if not _COLOUR_KEY.search(key):
            continue
        for value in values:
            text = normalize(value)
            found = zh_colour_families(text) if _HAN.search(text) else []
            found += [h.value for h in label_hits(text.lower(), ("color_family",))]
            families += [f for f in found if f not in families]
    return families


def extract_listing_specs(
    title: str,
    attributes: Mapping[str, list[str]],
    description: str = "",
    brand: str = "",
) -> ProductSpecs:
    """Numbers in canonical units and categorical labels stated by one listing.

    Never raises on odd text: what it cannot read it leaves out."""
    if brand.strip():
        # A brand is no spec: "Green Cell" or "Red Dragon" must not colour the listing.
        title = re.sub(re.escape(brand.strip()), " ", title, flags=re.IGNORECASE)
    colour_keys = {k for k in attributes if _COLOUR_KEY.search(k)}
    segments = [normalize(title)] + [
        normalize(_segment(key, values))
        for key, values in attributes.items()
        if key not in colour_keys and values
    ]
    context = " | ".join(segments)
    numbers: dict[str, list[float]] = {}
    labels: dict[str, list[str]] = {}
    for segment in segments:
        _collect(scan_quantities(segment, context=context), segment, numbers, labels)
    colours = _colour_values(attributes)
    if colours:
        labels["color_family"] = colours
    if description:
        text = normalize(_TAG.sub(" ", description))
        extra_numbers: dict[str, list[float]] = {}
        extra_labels: dict[str, list[str]] = {}
        _collect(
            scan_quantities(text, context=context + " | " + text), text, extra_numbers, extra_labels
        )
        for attribute, values in extra_numbers.items():
            numbers.setdefault(attribute, values)
        for attribute, label_values in extra_labels.items():
            labels.setdefault(attribute, label_values)
    if "socket" not in labels:
        sockets = inferred_sockets(context)
        if sockets:
            labels["socket"] = sockets
    return ProductSpecs(numbers=numbers, labels=labels)
