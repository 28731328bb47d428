"""Whom a shopper buys for: recipients (妈妈 / mum, 老公 / husband…) and pets, as data
(`data/recipients.yml`). Recipient slugs are storage keys: memory keeps a namespace per
recipient."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words


@dataclass(frozen=True)
class RecipientWords:
    """Recipient slug → forms, and which English forms need "my" or may stand bare."""

    forms: dict[str, tuple[str, ...]]
    needs_possessive: frozenset[str]
    bare: frozenset[str]


@dataclass(frozen=True)
class Pet:
    """An animal a shopper buys for: its slug, the domain of its products, its forms."""

    slug: str
    domain: str
    forms: tuple[str, ...]


@cache
def recipient_words() -> RecipientWords:
    """The recipient forms, read once per process."""
    data = data_file("recipients")
    try:
        return RecipientWords(
            {slug: words(forms, f"recipient {slug}") for slug, forms in data["recipients"].items()},
            frozenset(words(data["needs_possessive"], "recipients needs_possessive")),
            frozenset(words(data["bare"], "recipients bare")),
        )
    except (KeyError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary/data/recipients.yml is malformed: {exc}") from exc


@cache
def pets() -> tuple[Pet, ...]:
    """Every pet, in file order."""
    try:
        return tuple(
            Pet(slug, str(row["domain"]), words(row["forms"], f"pet {slug}"))
            for slug, row in data_file("recipients")["pets"].items()
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ConfigurationError(
            f"vocabulary/data/recipients.yml pets are malformed: {exc}"
        ) from exc


@cache
def pet_slugs() -> frozenset[str]:
    """The slugs of every pet: the recipients whose goods are pet products."""
    return frozenset(pet.slug for pet in pets())
