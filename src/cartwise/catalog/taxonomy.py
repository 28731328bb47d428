"""The product types a general store carries, with their domain and their names.

The vocabulary's taxonomy (`cartwise.vocabulary`, `data/taxonomy.yml`) says what the store
carries: 21 domains and every product type in them, each with Chinese and English names (the
first is the display name, the rest are synonyms shoppers use); this module gives them the
catalog's `Domain`. The demo catalog is generated from it, `docs/catalog.md`
publishes it, and the dialogue layer asks it whether a requested type is carried at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from cartwise.catalog.product import Domain
from cartwise.errors import ConfigurationError
from cartwise.vocabulary import matcher
from cartwise.vocabulary.matcher import Accept, Matcher, fold_form
from cartwise.vocabulary.nouns import plurals
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
def _owners() -> dict[str, tuple[ProductType, ...]]:
    """Folded name → the types it stands for. An umbrella word ("零食") stands for all its
    member types; a type's own name wins over an umbrella word, the first type listed wins a
    synonym two types share, and a display name always names its own type."""
    owner: dict[str, tuple[ProductType, ...]] = {fold_form(k): v for k, v in _load()[2].items()}
    for t in reversed(product_types()):
        for n in reversed(t.names):
            owner[fold_form(n)] = (t,)
    for t in product_types():
        owner[fold_form(t.zh)] = owner[fold_form(t.en)] = (t,)
    return owner


def types_named_in(text: str, *, accept: Accept | None = None) -> list[ProductType]:
    """The product types whose names or synonyms occur in `text`, in order of appearance
    (longest name first, so "running shoes" is one type, not "shoes"); an umbrella word
    ("零食", "toys") stands for all its member types. English names match whole words and a
    plain plural ("bookshelves" does not, "sofas" does): the vocabulary's matcher. `accept`
    may refuse a name where it stands (the reader refuses one that cuts across Chinese
    words: 拉面 in 撕拉面膜)."""
    owner = _owners()
    found_names = matcher("product_type", "type_group").find(text, accept=accept)
    named = [owner.get(m.surface, ()) for m in found_names]
    # An umbrella word beside one of its own members names that member ("he drinks tea":
    # tea, not every drink).
    singles = {kinds[0] for kinds in named if len(kinds) == 1}
    found: list[ProductType] = []
    for kinds in named:
        if len(kinds) > 1 and singles & set(kinds):
            continue
        for kind in kinds:
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


def pet_goods_named(text: str, pet: str = "", *, accept: Accept | None = None) -> list[ProductType]:
    """The pet goods a text about a pet names: a kind of goods named as people's ("a bed",
    "toys", 玩具, "dry food") stands for the pet goods whose name it ends ("cat bed", 狗玩具,
    "dry dog food"), as a pet shop would read it; where several do, those naming the `pet`
    ("dog": dog food, not cat food). Empty when nothing named ends a pet product's name."""
    found = goods_headed_by(text, [t for t in product_types() if t.domain == "pets"], accept=accept)
    own = [k for k in found if pet and any(pet in fold_form(n).split() for n in k.en_names)]
    return own or found


def goods_headed_by(
    text: str, kinds: Sequence[ProductType], *, accept: Accept | None = None
) -> list[ProductType]:
    """Those of `kinds` whose name ends in a kind of goods `text` names: "bed" heads "cat
    bed", 玩具 heads 狗玩具, "food" heads "dry dog food"."""
    found: list[ProductType] = []
    for match in goods_names().find(text, accept=accept):
        surface = fold_form(match.surface)
        for kind in kinds:
            if kind not in found and any(_ends_name(fold_form(n), surface) for n in kind.names):
                found.append(kind)
    return found


def goods_names() -> Matcher:
    """Every word naming goods: types, umbrella words, generic nouns and domain words."""
    return matcher("product_type", "type_group", "product_noun", "domain_word")


def _ends_name(name: str, noun: str) -> bool:
    """Whether `noun` (as typed, maybe plural) is the head that ends a longer `name`."""
    if noun.isascii():
        head, _, rest = name.rpartition(" ")
        return bool(head) and noun in (rest, *plurals(rest))
    return len(name) > len(noun) and name.endswith(noun)
