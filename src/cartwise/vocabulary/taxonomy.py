"""The product taxonomy as data: the store's domains, its product types with their Chinese
and English names, umbrella words for several types, and generic nouns for a domain.

`data/taxonomy.yml` is the one domain vocabulary: ingest infers a listing's domain from it,
the reader finds product types in a message with it, and `cartwise.catalog.taxonomy` builds
its `ProductType`s from it (with the `Domain` enum, which lives on the catalog floor).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words


@dataclass(frozen=True)
class DomainNames:
    """A top-level domain and its display names."""

    slug: str
    zh: str
    en: str


@dataclass(frozen=True)
class TypeNames:
    """One product type: its domain, pictogram and names (display name first, then the
    synonyms shoppers use)."""

    slug: str
    domain: str
    icon: str
    zh_names: tuple[str, ...]
    en_names: tuple[str, ...]


@dataclass(frozen=True)
class TypeGroup:
    """An umbrella word for several types ("零食" → nuts, chips, candy…)."""

    slug: str
    names: tuple[str, ...]
    members: tuple[str, ...]
    """Type slugs."""


@dataclass(frozen=True)
class Taxonomy:
    """Everything `data/taxonomy.yml` says."""

    domains: tuple[DomainNames, ...]
    types: tuple[TypeNames, ...]
    groups: tuple[TypeGroup, ...]
    nouns: dict[str, tuple[str, ...]]
    """Domain → generic nouns for it that name no single type ("鞋", "clothes")."""
    domain_words: dict[str, tuple[str, ...]]
    """Domain → words that file a listing under it ("apparel", "母婴"), beside its names."""

    def group_domain(self, group: TypeGroup) -> str:
        """The domain all of a group's types are in, or "" when they span several."""
        domains = {t.domain for t in self.types if t.slug in group.members}
        return domains.pop() if len(domains) == 1 else ""


@cache
def taxonomy() -> Taxonomy:
    """The taxonomy, read once per process."""
    data = data_file("taxonomy")
    try:
        domains = tuple(DomainNames(slug, zh, en) for slug, (zh, en) in data["domains"].items())
        types = tuple(
            TypeNames(slug, domain, icon, tuple(zh.split("|")), tuple(en.split("|")))
            for slug, (domain, icon, zh, en) in data["types"].items()
        )
        groups = tuple(
            TypeGroup(slug, (*zh.split("|"), *en.split("|")), tuple(members))
            for slug, (zh, en, members) in data.get("groups", {}).items()
        )
        nouns = {d: words(forms, f"taxonomy nouns.{d}") for d, forms in data["nouns"].items()}
        domain_words = {
            d: words(forms, f"taxonomy domain_words.{d}")
            for d, forms in data["domain_words"].items()
        }
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary/data/taxonomy.yml is malformed: {exc}") from exc
    known = {d.slug for d in domains}
    type_slugs = {t.slug for t in types}
    for kind in types:
        if kind.domain not in known:
            raise ConfigurationError(f"taxonomy: type {kind.slug} has unknown domain {kind.domain}")
    for group in groups:
        if not set(group.members) <= type_slugs:
            raise ConfigurationError(f"taxonomy: group {group.slug} names unknown types")
    for section in (nouns, domain_words):
        if not set(section) <= known:
            raise ConfigurationError(f"taxonomy names unknown domains {set(section) - known}")
    return Taxonomy(domains, types, groups, nouns, domain_words)
