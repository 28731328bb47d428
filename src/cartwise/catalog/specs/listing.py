"""`extract_listing_specs`: the specs one listing states, parsed once at ingest.

Title and attribute values are read first; the description only fills attributes they leave
unstated, because descriptions talk about more than the item ("supports up to 128GB",
"pairs with any 1000W PSU").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from cartwise.catalog.specs.model import ProductSpecs
from cartwise.catalog.specs.scan import Scan, normalize, scan_quantities
from cartwise.catalog.specs.vocabulary import (
    COMPONENT_KEY,
    inferred_sockets,
    label_hits,
    zh_colour_families,
)

_TAG = re.compile(r"<[^>]+>")
_COLOUR_KEY = re.compile(r"colou?r|颜色", re.IGNORECASE)
_BRAND_KEY = re.compile(r"brand|manufacturer|maker|品牌|生产企业|厂家|厂商", re.IGNORECASE)
"""Keys whose values name a company ("Golden Field/金河田"), never a spec."""
_PIXEL_KEY = re.compile(r"像素|megapixel|camera", re.IGNORECASE)
_BARE_WAN = re.compile(r"(\d+(?:\.\d+)?)万(?!像素)")
_KEY_WORDS = re.compile(r"[_\s]+")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_SIGNIFICANT = 6


_KEY_UNIT = re.compile(r"_(l|ml|kg|g|w|in|gb|tb|cm|mm|m|mah|hz|mp)$", re.IGNORECASE)
_COUNT_KEY = re.compile(r"^(?:pieces|count|pack(?:_size)?|件数|数量)$", re.IGNORECASE)
_BARE = re.compile(r"^\s*\d+(?:\.\d+)?(?:\s*x\s*\d+(?:\.\d+)?)*\s*$", re.IGNORECASE)


def _with_unit(key: str, value: str) -> str:
    """A bare number under a key that names its unit ("capacity_l": "15") as "15 l";
    "dimensions_cm": "100x60x75" as "100 cm x 60 cm x 75 cm"."""
    if not _BARE.match(value):
        return value
    unit = _KEY_UNIT.search(key)
    if unit:
        return " x ".join(f"{n.strip()} {unit.group(1)}" for n in value.lower().split("x"))
    return f"{value.strip()} pcs" if _COUNT_KEY.match(key) else value


def _segment(key: str, values: Iterable[str]) -> str:
    """An attribute as text the scanner reads with its key as context ("内存: 16GB")."""
    stated = ", ".join(_with_unit(key, value) for value in values)
    if _PIXEL_KEY.search(key):
        stated = _BARE_WAN.sub(r"\1万像素", stated)  # "像素: 主摄6400万+广角800万"
    return f"{_KEY_WORDS.sub(' ', key)}: {stated}"


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


@lru_cache(maxsize=8192)
def _value_colours(value: str) -> tuple[str, ...]:
    """Colour families of one colour attribute value; cached, since catalogs repeat a few
    hundred colour names ("Black", "黑色") across thousands of offers."""
    text = normalize(value)
    found = zh_colour_families(text) if _HAN.search(text) else []
    found += [h.value for h in label_hits(text.lower(), ("color_family",))]
    return tuple(dict.fromkeys(found))


def _colour_values(attributes: Mapping[str, list[str]]) -> list[str]:
    families: list[str] = []
    for key, values in attributes.items():
        if _COLOUR_KEY.search(key) and not COMPONENT_KEY.search(key):
            for value in values:
                families += [f for f in _value_colours(value) if f not in families]
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
    # One text for the whole listing: the scanner is paid per call, and " | " keeps the
    # attribute values apart.
    text = normalize(
        " | ".join(
            [title]
            + [
                _segment(key, values)
                for key, values in attributes.items()
                if key not in colour_keys and values and not _BRAND_KEY.search(key)
            ]
        )
    )
    numbers: dict[str, list[float]] = {}
    labels: dict[str, list[str]] = {}
    _collect(scan_quantities(text), text, numbers, labels)
    colours = labels.get("color_family", [])
    colours += [c for c in _colour_values(attributes) if c not in colours]
    if colours:
        labels["color_family"] = colours
    if description:
        described = normalize(_TAG.sub(" ", description))
        extra_numbers: dict[str, list[float]] = {}
        extra_labels: dict[str, list[str]] = {}
        _collect(
            scan_quantities(described, context=text + " | " + described),
            described,
            extra_numbers,
            extra_labels,
        )
        for attribute, values in extra_numbers.items():
            numbers.setdefault(attribute, values)
        for attribute, label_values in extra_labels.items():
            labels.setdefault(attribute, label_values)
    if "socket" not in labels:
        sockets = inferred_sockets(text)
        if sockets:
            labels["socket"] = sockets
    return ProductSpecs(numbers=numbers, labels=labels)
