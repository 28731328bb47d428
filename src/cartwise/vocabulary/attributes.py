"""Attribute terms a shopper likes or refuses, as data (`data/attributes.yml`): materials,
styles and other terms (food, ingredients, safety-relevant substances), each a canonical slug
with its surface forms in both languages. Colours have their own table (`colours`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.vocabulary.files import data_file, words

CATEGORIES = ("material", "style", "other")
"""The sections of `data/attributes.yml`, each a preference category."""


@dataclass(frozen=True)
class AttributeTerm:
    """One attribute: its category, slug and surface forms."""

    category: str
    slug: str
    forms: tuple[str, ...]


@cache
def attribute_terms() -> tuple[AttributeTerm, ...]:
    """Every attribute term, in file order."""
    data = data_file("attributes")
    return tuple(
        AttributeTerm(category, str(slug), words(forms, f"attributes {category}.{slug}"))
        for category in CATEGORIES
        for slug, forms in dict(data.get(category) or {}).items()
    )
