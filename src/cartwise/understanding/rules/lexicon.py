"""The bilingual lexicon: canonical slugs with their Chinese and English surface forms.

Data lives in `data/lexicon.yml` (materials, colors, styles, food/safety terms, size words,
platforms, product nouns → domain) and `data/brands.yml` (brands with a domain hint). One
scanner finds every surface form in a message, leftmost-longest and non-overlapping, so
"羽绒服" is a clothing noun rather than the material "羽绒", and "咖啡色" a color rather than
coffee. ASCII forms match on word boundaries only; Chinese forms match as substrings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

import yaml

from cartwise.memory.store import Category

TermKind = Literal["preference", "domain", "platform", "size"]

PREFERENCE_SECTIONS: dict[str, Category] = {
    "material": Category.MATERIAL,
    "color": Category.COLOR,
    "style": Category.STYLE,
    "other": Category.OTHER,
}


@dataclass(frozen=True)
class Term:
    """One canonical entry of the lexicon."""

    kind: TermKind
    slug: str
    """Canonical identifier (preference slug, domain name, platform name or size value)."""
    category: Category | None = None
    """The preference category; None for domains, platforms and sizes."""
    domain_hint: str = ""
    """For brands: the domain a bare brand statement is about."""


@dataclass(frozen=True)
class Match:
    """A surface form found in a message."""

    start: int
    end: int
    surface: str
    terms: tuple[Term, ...]

    def first(self, kind: TermKind) -> Term | None:
        return next((t for t in self.terms if t.kind == kind), None)


def _is_ascii_word_char(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _surface_pattern(surface: str, *, plural: bool) -> str:
    body = re.escape(surface).replace(r"\ ", r"[\s\-]?")
    left = r"(?<![a-z0-9])" if _is_ascii_word_char(surface[0]) else ""
    right = r"(?![a-z0-9])" if _is_ascii_word_char(surface[-1]) else ""
    # English product nouns come in plurals ("sweaters", "mattresses").
    suffix = "(?:es|s)?" if plural and surface[-1].isascii() and surface[-1].isalpha() else ""
    return f"{left}{body}{suffix}{right}"


class Lexicon:
    """All surface forms, one compiled scanner, and the reverse map slug → surface forms."""

    def __init__(self, entries: dict[str, list[Term]]) -> None:
        self._by_surface = entries
        ordered = sorted(entries, key=len, reverse=True)
        self._scanner = re.compile(
            "|".join(
                f"({_surface_pattern(s, plural=any(t.kind == 'domain' for t in entries[s]))})"
                for s in ordered
            )
        )
        self._surfaces_in_order = ordered
        self._forms: dict[tuple[str, str], list[str]] = {}
        for surface, terms in entries.items():
            for term in terms:
                self._forms.setdefault((term.kind, term.slug), []).append(surface)

    def scan(self, text: str) -> list[Match]:
        """Every surface form in `text` (lowercased), leftmost-longest, non-overlapping."""
        lowered = text.lower()
        found: list[Match] = []
        for hit in self._scanner.finditer(lowered):
            surface = self._surfaces_in_order[(hit.lastindex or 1) - 1]
            found.append(Match(hit.start(), hit.end(), surface, tuple(self._by_surface[surface])))
        return found

    def keywords(self, kind: TermKind, slug: str) -> list[str]:
        """Every surface form of a slug, both languages (the hard filter's keywords)."""
        return list(self._forms.get((kind, slug), []))

    def preference_slugs(self) -> set[str]:
        return {slug for (kind, slug) in self._forms if kind == "preference"}


def _load_yaml(name: str) -> dict[str, object]:
    text = resources.files("cartwise.understanding.rules").joinpath("data", name).read_text("utf-8")
    loaded = yaml.safe_load(text)
    if not isinstance(loaded, dict):
        raise ValueError(f"lexicon file {name} must be a mapping")
    return loaded


def _add(entries: dict[str, list[Term]], surface: object, term: Term) -> None:
    key = str(surface).strip().lower()
    if key and term not in entries.setdefault(key, []):
        entries[key].append(term)


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The packaged lexicon (parsed once per process)."""
    data = _load_yaml("lexicon.yml")
    entries: dict[str, list[Term]] = {}
    for section, category in PREFERENCE_SECTIONS.items():
        for slug, forms in dict(data[section]).items():  # type: ignore[call-overload]
            for form in forms:
                _add(entries, form, Term("preference", slug, category))
    for size, forms in dict(data["size_words"]).items():  # type: ignore[call-overload]
        for form in forms:
            _add(entries, form, Term("size", str(size)))
    for platform, forms in dict(data["platforms"]).items():  # type: ignore[call-overload]
        for form in forms:
            _add(entries, form, Term("platform", platform))
    for domain, nouns in dict(data["domains"]).items():  # type: ignore[call-overload]
        for noun in nouns:
            _add(entries, noun, Term("domain", domain))
    for slug, row in _load_yaml("brands.yml").items():
        domain, *forms = list(row)  # type: ignore[call-overload]
        for form in forms:
            _add(entries, form, Term("preference", slug, Category.BRAND, str(domain)))
    return Lexicon(entries)
