"""The product types a general store carries, with their domain and their names.

One data file (`data/product_types.yml`) says what the store carries: 21 domains and every
product type in them, each with Chinese and English names (the first is the display name, the
rest are synonyms shoppers use). The demo catalog is generated from it, `docs/catalog.md`
publishes it, and the dialogue layer asks it whether a requested type is carried at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from cartwise.catalog.product import Domain
from cartwise.errors import ConfigurationError
from cartwise.yaml_data import load_yaml


@dataclass(frozen=True)
class DomainInfo:
    """A top-level domain and its names."""

    domain: Domain
    zh: str
    en: str


@dataclass(frozen=True)
class ProductType:
    """One kind of product (a bookshelf, a raincoat, ...) in one domain.

    `zh_names`/`en_names` start with the display name, followed by synonyms."""

    slug: str
    domain: Domain
    zh_names: tuple[str, ...]
    en_names: tuple[str, ...]
    icon: str
    """The pictogram `cartwise.catalog.images` draws for it."""

    @property
    def zh(self) -> str:
        return self.zh_names[0]

    @property
    def en(self) -> str:
        return self.en_names[0]

    @property
    def names(self) -> tuple[str, ...]:
        """Every name in both languages."""
        return self.zh_names + self.en_names

    def name(self, language: str) -> str:
        """The display name in `language` ("zh" or anything else for English)."""
        return self.zh if language == "zh" else self.en


@cache
def _load() -> tuple[
    tuple[DomainInfo, ...], tuple[ProductType, ...], dict[str, tuple[ProductType, ...]]
]:
    text = resources.files("cartwise.catalog").joinpath("data/product_types.yml").read_text("utf-8")
    data = load_yaml(text)
    try:
        infos = tuple(
            DomainInfo(Domain(slug), zh, en) for slug, (zh, en) in data["domains"].items()
        )
        types = tuple(
            ProductType(
                slug=slug,
                domain=Domain(domain),
                zh_names=tuple(zh.split("|")),
                en_names=tuple(en.split("|")),
                icon=icon,
            )
            for slug, (domain, icon, zh, en) in data["types"].items()
        )
        by_slug = {t.slug: t for t in types}
        groups: dict[str, tuple[ProductType, ...]] = {}
        for zh, en, members in data.get("groups", {}).values():
            kinds = tuple(by_slug[slug] for slug in members)
            for name in [*zh.split("|"), *en.split("|")]:
                groups[name.casefold()] = kinds
    except (KeyError, ValueError, TypeError) as exc:
        raise ConfigurationError(f"product_types.yml is malformed: {exc}") from exc
    return infos, types, groups


def domains() -> list[DomainInfo]:
    """Every domain the store carries (all of `Domain` except `other`), in catalog order."""
    return list(_load()[0])


def product_types() -> list[ProductType]:
    """Every product type, grouped by domain in catalog order."""
    return list(_load()[1])


@cache
def _by_slug() -> dict[str, ProductType]:
    return {t.slug: t for t in product_types()}


def product_type(slug: str) -> ProductType | None:
    """The product type with this slug, or None."""
    return _by_slug().get(slug)


@cache
def _name_pattern() -> tuple[re.Pattern[str], dict[str, tuple[ProductType, ...]]]:
    # An umbrella word ("零食") stands for all its member types (nuts, chips, candy…).
    owner: dict[str, tuple[ProductType, ...]] = dict(_load()[2])
    for t in reversed(product_types()):  # a type's own name wins over an umbrella word
        for n in reversed(t.names):
            owner[n.casefold()] = (t,)
    for t in product_types():  # a display name always names its own type
        owner[t.zh.casefold()] = owner[t.en.casefold()] = (t,)
    names = sorted(owner, key=len, reverse=True)
    latin = [n for n in names if n.isascii()]
    other = [n for n in names if not n.isascii()]
    pattern = rf"(?<![a-z0-9])(?:{'|'.join(map(re.escape, latin))})(?:e?s)?(?![a-z0-9])"
    return re.compile(f"{pattern}|{'|'.join(map(re.escape, other))}"), owner


def types_named_in(text: str) -> list[ProductType]:
    """The product types whose names or synonyms occur in `text`, in order of appearance
    (longest name first, so "running shoes" is one type, not "shoes"); an umbrella word
    ("零食", "toys") stands for all its member types. English names match whole words and a
    plain plural ("bookshelves" does not, "sofas" does)."""
    pattern, owner = _name_pattern()
    found: list[ProductType] = []
    for match in pattern.finditer(text.casefold()):
        name = match.group(0)
        kinds = owner.get(name) or owner.get(re.sub(r"e?s$", "", name)) or owner.get(name[:-1])
        for kind in kinds or ():
            if kind not in found:
                found.append(kind)
    return found


__all__ = [
    "DomainInfo",
    "ProductType",
    "domains",
    "product_type",
    "product_types",
    "types_named_in",
]
