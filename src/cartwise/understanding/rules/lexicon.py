"""The bilingual lexicon: canonical slugs with their Chinese and English surface forms.

The words are the shared vocabulary's (`cartwise.vocabulary`: attribute terms, the colour
table, size words, platforms, the taxonomy's generic product nouns, curated and catalog
brands); this module reads them as the planner's terms. One scan finds every surface form in
a message, leftmost-longest and non-overlapping (the vocabulary's matcher), so "羽绒服" is a
clothing noun rather than the material "羽绒", and "咖啡色" a color rather than coffee. ASCII
forms match on word boundaries only; Chinese forms match as substrings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from cartwise.catalog.brands import CatalogBrand
from cartwise.memory.store import Category
from cartwise.text import word_at
from cartwise.vocabulary import Brand, Entry, Kind, Matcher, build_matcher, merge_brands
from cartwise.vocabulary.matcher import Match as VocabularyMatch
from cartwise.vocabulary.matcher import within_words

TermKind = Literal["preference", "domain", "platform", "size"]

LEXICON_KINDS: tuple[Kind, ...] = (
    "attribute",
    "colour",
    "size",
    "platform",
    "product_noun",
    "brand",
)
"""The vocabulary the planner reads a message with."""


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


def _term(entry: Entry) -> Term:
    if entry.kind == "attribute":
        return Term("preference", entry.slug, Category(entry.category))
    if entry.kind == "colour":
        return Term("preference", entry.slug, Category.COLOR)
    if entry.kind == "brand":
        return Term("preference", entry.slug, Category.BRAND, entry.domain)
    if entry.kind == "product_noun":
        return Term("domain", entry.slug)
    if entry.kind == "platform":
        return Term("platform", entry.slug)
    return Term("size", entry.slug)


@dataclass(frozen=True)
class Match:
    """A surface form found in a message."""

    start: int
    end: int
    surface: str
    terms: tuple[Term, ...]

    def first(self, kind: TermKind) -> Term | None:
        return next((t for t in self.terms if t.kind == kind), None)


def _modifier_only(text: str, position: int) -> bool:
    """A one-character noun that starts a longer word only modifies it: Chinese compounds
    are head-final, so 灯 in 灯芯绒 (corduroy) is no lamp, while 台灯 is one."""
    word = word_at(text, position)
    if word is None:
        return False
    first, last = word
    return last - first > 1 and position != last - 1


_PRODUCT_KINDS = frozenset({"product_type", "type_group", "product_noun"})


def _heads_its_word(folded: str, match: VocabularyMatch) -> bool:
    """A Chinese product name or brand only where the segmentation lets it stand (美的 is
    no brand in 精美的, 拉面 no noodle in 撕拉面膜)."""
    if match.surface.isascii():
        return True
    kinds = {e.kind for e in match.entries}
    if len(match.surface) == 1:
        return "product_noun" not in kinds or not _modifier_only(folded, match.start)
    if kinds & _PRODUCT_KINDS or "brand" in kinds:
        return within_words(folded, match)
    return True


class Lexicon:
    """The planner's view of the vocabulary: a scan of a message into terms, and the
    reverse map slug → surface forms."""

    def __init__(self, matcher: Matcher) -> None:
        self._matcher = matcher
        self._terms = {form: tuple(map(_term, entries)) for form, entries in matcher.forms()}
        self._forms: dict[tuple[str, str], list[str]] = {}
        for surface, terms in self._terms.items():
            for term in terms:
                self._forms.setdefault((term.kind, term.slug), []).append(surface)

    def scan(self, text: str) -> list[Match]:
        """Every surface form in `text`, leftmost-longest, non-overlapping."""
        return [
            Match(m.start, m.end, m.surface, self._terms[m.surface])
            for m in self._matcher.find(text, accept=_heads_its_word)
        ]

    def surfaces(self) -> list[str]:
        """Every surface form the lexicon knows (folded)."""
        return list(self._terms)

    def keywords(self, kind: TermKind, slug: str) -> list[str]:
        """Every surface form of a slug, both languages (the hard filter's keywords)."""
        return list(self._forms.get((kind, slug), []))

    def preference_slugs(self) -> set[str]:
        return {slug for (kind, slug) in self._forms if kind == "preference"}

    def with_brands(self, brands: Iterable[CatalogBrand]) -> Lexicon:
        """The packaged lexicon plus brands mined from catalogs (whatever brands this one
        was built with): `lexicon_with_brands`."""
        return lexicon_with_brands(brands)


def lexicon_with_brands(brands: Iterable[CatalogBrand]) -> Lexicon:
    """The packaged lexicon plus brands mined from catalogs (`cartwise.catalog.brands`), merged
    with the curated ones by the vocabulary (`merge_brands`): a brand the curated list
    knows keeps its slug and gains new aliases; an English form new to the lexicon
    matches only as the catalog spells it."""
    mined = [Brand.mined(b.slug, b.domain, b.forms, b.loose) for b in brands]
    return Lexicon(build_matcher(LEXICON_KINDS, merge_brands(mined)))


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The packaged lexicon (compiled once per process)."""
    return Lexicon(build_matcher(LEXICON_KINDS))
