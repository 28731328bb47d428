"""The product types a general store carries, with their domain and their names.

The vocabulary's taxonomy (`cartwise.vocabulary`, `data/taxonomy.yml`) says what the store
carries: 21 domains and every product type in them, each with Chinese and English names (the
first is the display name, the rest are synonyms shoppers use); this module gives them the
catalog's `Domain`. The demo catalog is generated from it, `docs/catalog.md`
publishes it, and the dialogue layer asks it whether a requested type is carried at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from cartwise.catalog.product import Domain
from cartwise.errors import ConfigurationError
from cartwise.vocabulary.taxonomy import taxonomy


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
    data = taxonomy()
    try:
        infos = tuple(DomainInfo(Domain(d.slug), d.zh, d.en) for d in data.domains)
        types = tuple(
            ProductType(
                slug=t.slug,
                domain=Domain(t.domain),
                zh_names=t.zh_names,
                en_names=t.en_names,
                icon=t.icon,
            )
            for t in data.types
        )
    except ValueError as exc:
        raise ConfigurationError(f"the taxonomy names a domain the catalog lacks: {exc}") from exc
    by_slug = {t.slug: t for t in types}
    groups: dict[str, tuple[ProductType, ...]] = {}
    for group in data.groups:
        kinds = tuple(by_slug[slug] for slug in group.members)
        for name in group.names:
            groups[name.casefold()] = kinds
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
