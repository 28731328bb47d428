"""The bilingual lexicon: canonical slugs with their Chinese and English surface forms.

Data lives in `data/lexicon.yml` (materials, colors, styles, food/safety terms, size words,
platforms, product nouns → domain) and `data/brands.yml` (brands with a domain hint). One
scanner finds every surface form in a message, leftmost-longest and non-overlapping, so
"羽绒服" is a clothing noun rather than the material "羽绒", and "咖啡色" a color rather than
coffee. ASCII forms match on word boundaries only; Chinese forms match as substrings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from cartwise.catalog.brands import CatalogBrand
from cartwise.memory.store import Category
from cartwise.yaml_data import load_yaml

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


def _variants(surface: str) -> set[str]:
    """ "noise cancelling" also matches "noise-cancelling" and "noisecancelling"."""
    if " " not in surface:
        return {surface}
    return {surface, surface.replace(" ", "-"), surface.replace(" ", "")}


def _single_cjk_noun(surface: str, terms: list[Term]) -> bool:
    return len(surface) == 1 and not surface.isascii() and any(t.kind == "domain" for t in terms)


def _modifier_only(text: str, position: int) -> bool:
    """A one-character noun that starts a longer word only modifies it: Chinese compounds
    are head-final, so 灯 in 灯芯绒 (corduroy) is no lamp, while 台灯 is one."""
    import jieba  # loaded only when a one-character noun needs checking

    jieba.setLogLevel(logging.WARNING)
    for _word, start, end in jieba.tokenize(text):
        first: int = start
        last: int = end
        if first <= position < last:
            return last - first > 1 and position != last - 1
    return False


class Lexicon:
    """All surface forms, a longest-match scanner, and the reverse map slug → surface forms.

    The scanner indexes forms by first character and tries the longest first at each
    position: linear in the message, unlike one regex alternation of ~1,300 forms."""

    def __init__(
        self, entries: dict[str, list[Term]], case_sensitive: dict[str, set[str]] | None = None
    ) -> None:
        self._by_surface = entries
        self._case_sensitive = case_sensitive or {}
        """Lowercased surface → the only spellings it matches as (catalog-mined brands)."""
        self._variant_of: dict[str, str] = {}
        for surface in entries:
            for variant in _variants(surface):
                self._variant_of.setdefault(variant, surface)
        self._by_first: dict[str, list[str]] = {}
        for variant in sorted(self._variant_of, key=len, reverse=True):
            self._by_first.setdefault(variant[0], []).append(variant)
        # English product nouns come in plurals ("sweaters", "mattresses").
        self._pluralizable = {
            s
            for s, terms in entries.items()
            if s[-1].isascii() and s[-1].isalpha() and any(t.kind == "domain" for t in terms)
        }
        self._forms: dict[tuple[str, str], list[str]] = {}
        for surface, terms in entries.items():
            for term in terms:
                self._forms.setdefault((term.kind, term.slug), []).append(surface)

    def _match_at(self, text: str, start: int) -> tuple[int, str] | None:
        candidates = self._by_first.get(text[start], ())
        inside_word = start > 0 and _is_ascii_word_char(text[start - 1])
        if candidates and inside_word and _is_ascii_word_char(text[start]):
            return None  # never start inside an English word
        for variant in candidates:
            if not text.startswith(variant, start):
                continue
            end = start + len(variant)
            surface = self._variant_of[variant]
            if surface in self._pluralizable:
                # "es" only after a sibilant or o ("boxes", "tomatoes"): "hates" is no "hat".
                sibilant = surface.endswith(("s", "x", "z", "ch", "sh", "o"))
                for suffix in ("es", "s") if sibilant else ("s",):
                    after = end + len(suffix)
                    if text.startswith(suffix, end) and not (
                        after < len(text) and _is_ascii_word_char(text[after])
                    ):
                        end = after
                        break
            ends_inside_word = end < len(text) and _is_ascii_word_char(text[end])
            if ends_inside_word and _is_ascii_word_char(variant[-1]):
                continue
            return end, surface
        return None

    def scan(self, text: str) -> list[Match]:
        """Every surface form in `text` (lowercased), leftmost-longest, non-overlapping."""
        lowered = text.lower()
        found: list[Match] = []
        position = 0
        while position < len(lowered):
            hit = self._match_at(lowered, position)
            if hit is None:
                position += 1
                continue
            end, surface = hit
            spellings = self._case_sensitive.get(surface)
            if spellings is not None and text[position : position + len(surface)] not in spellings:
                position += 1
                continue
            if _single_cjk_noun(surface, self._by_surface[surface]) and _modifier_only(
                lowered, position
            ):
                position += 1
                continue
            found.append(Match(position, end, surface, tuple(self._by_surface[surface])))
            position = end
        return found

    def keywords(self, kind: TermKind, slug: str) -> list[str]:
        """Every surface form of a slug, both languages (the hard filter's keywords)."""
        return list(self._forms.get((kind, slug), []))

    def preference_slugs(self) -> set[str]:
        return {slug for (kind, slug) in self._forms if kind == "preference"}

    def with_brands(self, brands: Iterable[CatalogBrand]) -> Lexicon:
        """This lexicon plus brands mined from catalogs (`mine_brands`). A brand the
        curated list knows keeps its slug and gains new aliases; an English form new to the
        lexicon matches only as the catalog spells it."""
        entries = {surface: list(terms) for surface, terms in self._by_surface.items()}
        case_sensitive = {k: set(v) for k, v in self._case_sensitive.items()}
        for brand in brands:
            known = next(
                (
                    t
                    for form in brand.forms
                    for t in entries.get(form.lower(), [])
                    if t.category is Category.BRAND
                ),
                None,
            )
            term = known or Term("preference", brand.slug, Category.BRAND, brand.domain)
            for form in brand.forms:
                key = form.strip().lower()
                if not key or key in entries:
                    continue  # a known form keeps its meaning (noun, material, brand)
                entries.setdefault(key, []).append(term)
                if form.isascii():
                    case_sensitive.setdefault(key, set()).add(form.strip())
        return Lexicon(entries, case_sensitive)


def _load_yaml(name: str) -> dict[str, object]:
    text = resources.files("cartwise.understanding.rules").joinpath("data", name).read_text("utf-8")
    loaded = load_yaml(text)
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
