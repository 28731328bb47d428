"""The product model every platform's listing is normalized into."""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cartwise.catalog.specs.model import ProductSpecs
from cartwise.errors import InvalidInput

PLATFORM_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
WEB_URL = re.compile(r"^https?://[^\s/?#]+[^\s]*$", re.IGNORECASE)
"""An absolute http(s) URL with a host and no whitespace or control characters."""


def safe_web_url(value: str) -> str:
    """`value` when it is an http(s) URL, else "": a catalog's `javascript:`, `data:` or
    relative link must never become a link or image on a shopper's page."""
    value = value.strip()
    return value if WEB_URL.fullmatch(value) and value.isprintable() else ""


SITE_PATH = re.compile(r"^/(?![/\\])[\w\-./]*$", re.ASCII)
"""A path on the app's own site (the pictograms under /images/): no scheme, no `//host`."""


def safe_image_url(value: str) -> str:
    """An image source: a path on the app's own site or what `safe_web_url` accepts."""
    value = value.strip()
    return value if SITE_PATH.fullmatch(value) else safe_web_url(value)


class Domain(StrEnum):
    """Normalized top-level product domains (best effort; `other` when unknown).

    The store's 21 domains; `cartwise.catalog.taxonomy` names them and lists their product
    types."""

    ELECTRONICS = "electronics"
    APPLIANCES = "appliances"
    FURNITURE = "furniture"
    HOME = "home"
    KITCHEN = "kitchen"
    TOYS = "toys"
    BABY = "baby"
    BOOKS = "books"
    STATIONERY = "stationery"
    PETS = "pets"
    OUTDOOR = "outdoor"
    SPORTS = "sports"
    SHOES = "shoes"
    CLOTHING = "clothing"
    BAGS = "bags"
    JEWELRY = "jewelry"
    BEAUTY = "beauty"
    FOOD = "food"
    AUTOMOTIVE = "automotive"
    GARDEN = "garden"
    TOOLS = "tools"
    OTHER = "other"


class Product(BaseModel):
    """One offer on one platform. `(platform, item_id)` is its identity."""

    model_config = ConfigDict(extra="forbid")

    platform: str
    """Lowercase platform id: taobao, jd, pinduoduo, amazon, walmart, shopee, webmall_1, ..."""
    item_id: str
    """The platform's own id (for CSV imports: the file's own ID column)."""
    title: str
    brand: str = ""
    category_raw: str = ""
    """The platform's own category text, kept as listed (never force-unified)."""
    domain: Domain = Domain.OTHER
    product_type: str = ""
    """Slug of the product type (`cartwise.catalog.taxonomy`), or "" when not known."""
    price: float = Field(ge=0)
    """Price as listed, in `currency`."""
    currency: str = "CNY"
    price_base: float = Field(default=0.0, ge=0)
    """Price converted to the base currency with the static FX table."""
    attributes: dict[str, list[str]] = Field(default_factory=dict)
    """material, color, sizes, style, model, ... — lists of values as listed."""
    description: str = ""
    """Plain text (HTML stripped)."""
    url: str = ""
    image_url: str = ""
    rating: float | None = Field(default=None, ge=0, le=5)
    reviews: int | None = Field(default=None, ge=0)
    in_stock: bool = True
    specs: ProductSpecs = Field(default_factory=ProductSpecs)
    """Quantities and categorical specs parsed from title, attributes and description at
    ingest (`cartwise.catalog.specs`), in canonical units: what spec filters check. Not
    part of the embedding text."""

    @field_validator("platform")
    @classmethod
    def _check_platform(cls, value: str) -> str:
        if not PLATFORM_PATTERN.fullmatch(value):
            raise InvalidInput(f"invalid platform id {value!r}: lowercase letters, digits, - or _")
        return value

    @field_validator("url")
    @classmethod
    def _web_urls_only(cls, value: str) -> str:
        return safe_web_url(value)

    @field_validator("image_url")
    @classmethod
    def _image_sources_only(cls, value: str) -> str:
        return safe_image_url(value)

    @field_validator("item_id", "title")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise InvalidInput("item_id and title must not be empty")
        return value

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.item_id}"

    @property
    def sizes(self) -> list[str]:
        return self.attributes.get("sizes", [])

    def embedding_text(self) -> str:
        """What the item tower embeds: title, brand, category and the salient attributes."""
        attrs = " ".join(
            v for k in ("material", "color", "style") for v in self.attributes.get(k, [])
        )
        parts = [self.title, self.brand, self.category_raw, attrs, self.description[:200]]
        return " ".join(p for p in parts if p)

    def searchable_text(self) -> str:
        """Everything hard filters match against: title, brand, attributes, description."""
        attrs = " ".join(v for values in self.attributes.values() for v in values)
        return " ".join(p for p in (self.title, self.brand, attrs, self.description) if p)
