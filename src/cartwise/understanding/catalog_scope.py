"""Honesty about the catalog: does it carry the kind of product the shopper asked for?

Decided once per searching turn, in this order (the first rule that fires wins):
1. the request is for something a shop does not sell as goods — a service, a ticket or a
   trip, a financial product (the vocabulary's `not_goods` words): not carried;
2. the request names a product type (`cartwise.catalog.taxonomy` names and synonyms): carried
   when the catalog holds offers of it, not carried when a fully typed catalog holds none;
   a catalog with untyped listings (a shop's own feed) cannot tell, so a named type counts
   as carried there; the catalog's own category names count as types too;
3. the request is for a kind of thing no general store carries — a vehicle, property,
   prescription medicine, a live animal, a weapon (its `never_carried` words): not carried;
4. otherwise the relevance floor: carried when the best search hit's similarity to the
   query reaches `Settings.catalog_relevance_floor` (chosen on the dev split of the
   labelled requests, docs/reports/dialogue.md); a search whose filters left no hit at all
   is no evidence either way (the reply says nothing matched).
Not carried means: say so, name the closest thing that is carried (the best hit's product
type, when it is close enough to be worth naming — never for rules 1 and 3), and show
nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

from cartwise.catalog.kinds import CatalogKinds, collect_kinds
from cartwise.catalog.product import Product
from cartwise.catalog.taxonomy import ProductType, product_type, product_types, types_named_in
from cartwise.memory.store import SELF
from cartwise.text import has_han
from cartwise.understanding.base import GapKind
from cartwise.understanding.reading import Language
from cartwise.vocabulary import Match, matcher
from cartwise.vocabulary.gaps import gap_words, goods_heads
from cartwise.vocabulary.matcher import fold_form
from cartwise.vocabulary.nouns import singular
from cartwise.vocabulary.people import pet_slugs, pets

_SEGMENTS = re.compile(r"\s*(?:›|>|/|&|、)\s*")
# Heads too general to stand for a product type on their own ("a chess set", "bath mat").
_GENERIC_HEADS = frozenset(
    {
        "set",
        "sets",
        "care",
        "men",
        "women",
        "pack",
        "box",
        "mat",
        "mats",
        "accessories",
        "supplies",
        "products",
        "tools",
        "standard",
    }
)


def _words(text: str) -> list[str]:
    return [singular(w) for w in re.findall(r"[a-z][a-z'-]*", text.casefold())]


@dataclass(frozen=True)
class CatalogTypes:
    """What product types a catalog holds: taxonomy slugs with offers, and the category
    names of listings that carry no product type."""

    present: frozenset[str]
    untyped: bool = False
    """Some listings carry no product type: a type the taxonomy names but no typed listing
    has may still be among them."""
    chinese: frozenset[str] = frozenset()
    english: frozenset[str] = frozenset()
    """Category names of untyped listings: singular lowercase words and phrases."""

    @classmethod
    def of_products(cls, products: Iterable[Product]) -> CatalogTypes:
        return cls.of_kinds(collect_kinds(products))

    @classmethod
    def of_kinds(cls, kinds: CatalogKinds) -> CatalogTypes:
        """From what ingest collected (`RecallService.catalog_kinds`), no listing read."""
        present, untyped = set(kinds.types), kinds.untyped
        leaves = {_leaf(category) for category in kinds.categories}
        chinese: set[str] = set()
        english: set[str] = set()
        for leaf in leaves:
            for part in _SEGMENTS.split(leaf):
                if has_han(part):
                    if len(part) >= 2:
                        chinese.add(part)
                    continue
                words = _words(part)
                if not words:
                    continue
                english.add(" ".join(words))
                if len(words[-1]) >= 4 and words[-1] not in _GENERIC_HEADS:
                    english.add(words[-1])
        return cls(frozenset(present), untyped, frozenset(chinese), frozenset(english))

    def carries_domain(self, domain: str) -> bool:
        """Whether any type with offers belongs to `domain`."""
        return any(
            (kind := product_type(slug)) is not None and kind.domain == domain
            for slug in self.present
        )

    def named_by_category(self, request: str) -> bool:
        text = request.casefold()
        if any(name in text for name in self.chinese):
            return True
        joined = f" {' '.join(_words(text))} "
        return any(f" {name} " in joined for name in self.english)


def _leaf(category: str) -> str:
    """The last step of a category path ("Baby › Feeding › Bottles", "Clothing/Men/Jeans")."""
    if _PATH_MARK.search(category):
        return _PATH_MARK.split(category)[-1].strip()
    return category.rsplit("/", 1)[-1].strip()


_PATH_MARK = re.compile(r"\s*(?:›|>)\s*")


def names_gap(text: str, *, for_pets: bool = False) -> bool:
    """Whether `text` names something shops do not sell as goods, or no general store
    carries (a service, a ticket, a vehicle, a live animal…). `for_pets`: the talk is about
    pet goods already, so a pet named ("老年猫专用的") says whom they are for."""
    hits = _gap_hits(text.casefold())
    never = _first_kind("never_carried", hits)
    if for_pets and never == "animal":
        never = ""
    return bool(_first_kind("not_goods", hits) or never)


@cache
def _pet_forms() -> frozenset[str]:
    return frozenset(fold_form(form) for pet in pets() for form in pet.forms)


def _gap_hits(text: str) -> list[Match]:
    """The gap words `text` holds, any occurrence that heads its words (so a word of another
    group around one hides nothing: 飞机票 is a ticket) — but none inside a longer name of
    goods: "car wash kit", 洗车套装 and 按摩椅 are products, "car wash" and 按摩 alone are
    services."""
    type_spans = [
        (m.start, m.end) for m in matcher("product_type", "product_noun").candidates(text)
    ]
    return [
        m
        for m in matcher("gap").candidates(text)
        if _heads_its_words(text, m)
        and not any(
            start <= m.start and m.end <= end and end - start > m.end - m.start
            for start, end in type_spans
        )
    ]


def _heads_its_words(text: str, match: Match) -> bool:
    """A Chinese gap word followed by a head of goods only modifies it (洗车机 is a machine,
    按摩枕 a pillow, 兔子图案 a pattern): Chinese compounds are head-final."""
    if match.surface.isascii():
        return True
    return not text.startswith(goods_heads(), match.end)


def _asks_for_the_animal(hits: Sequence[Match]) -> bool:
    """Whether an animal word other than a pet's own name is said (活体, 领养, live): then
    the animal itself is asked for, even where a pet is whom the talk is about."""
    return any(
        entry.category == "never_carried"
        and entry.slug == "animal"
        and m.surface not in _pet_forms()
        for m in hits
        for entry in m.entries
    )


def _first_kind(group: str, hits: Sequence[Match]) -> GapKind:
    """The first gap kind of `group` (the vocabulary's order) the hits name."""
    named = {e.slug for m in hits for e in m.entries if e.category == group}
    kinds = gap_words()[group]
    return cast(GapKind, next((kind for kind in kinds if kind in named), ""))


@dataclass(frozen=True)
class ScopeVerdict:
    carried: bool
    kind: GapKind = ""
    rule: str = ""
    """Which rule decided (not_goods, catalog_type, named_type, missing_type, never_carried,
    pet_goods, relevance, no_hits)."""
    named: tuple[ProductType, ...] = ()
    """The taxonomy types the request names."""


def judge_request(
    request: str,
    *,
    types: CatalogTypes,
    best_similarity: float | None,
    floor: float,
    recipient: str = SELF,
) -> ScopeVerdict:
    """Whether the catalog carries what `request` (the understood search phrase) asks for.
    A request for a pet (`recipient`, "something for my dog") is for pet goods: the pet's
    name in it is no live animal asked for."""
    text = request.casefold()
    hits = _gap_hits(text)
    if kind := _first_kind("not_goods", hits):
        return ScopeVerdict(False, kind, "not_goods")
    named = tuple(types_named_in(text)) or types_by_head(text)
    if any(t.slug in types.present for t in named):
        return ScopeVerdict(True, rule="catalog_type", named=named)
    if types.named_by_category(text):
        return ScopeVerdict(True, rule="catalog_type")
    if named:
        # A typed catalog without offers of a named type does not carry it; an untyped one
        # (a shop's own feed) cannot say, and a type the taxonomy knows is a shop's goods.
        if types.untyped:
            return ScopeVerdict(True, rule="named_type", named=named)
        return ScopeVerdict(False, rule="missing_type", named=named)
    for_pet = recipient in pet_slugs()
    kind = _first_kind("never_carried", hits)
    live = _asks_for_the_animal(hits)
    if kind and not (kind == "animal" and for_pet and not live):
        return ScopeVerdict(False, kind, "never_carried")
    if for_pet and not live and types.carries_domain("pets"):
        return ScopeVerdict(True, rule="pet_goods")
    if best_similarity is None:
        # The search's filters (a brand, a budget, a refusal) left nothing to compare: that
        # says nothing of what the catalog carries, and the reply says nothing matched.
        return ScopeVerdict(True, rule="no_hits")
    return ScopeVerdict(best_similarity >= floor, rule="relevance")


@cache
def _heads() -> tuple[dict[str, tuple[ProductType, ...]], dict[str, tuple[ProductType, ...]]]:
    """Chinese name endings (2+ characters: 耳机 of 蓝牙耳机) and English head nouns
    (headphone of over-ear headphones) → the types they end."""
    chinese: dict[str, list[ProductType]] = {}
    english: dict[str, list[ProductType]] = {}
    for kind in product_types():
        # Latin names in the Chinese list ("Kindle") would end in "le" and match "motorcycle".
        for name in filter(has_han, kind.zh_names):
            for start in range(1, len(name) - 1):
                chinese.setdefault(name[start:], []).append(kind)
        for name in kind.en_names:
            words = _words(name)
            if words and len(words[-1]) >= 4 and words[-1] not in _GENERIC_HEADS:
                english.setdefault(words[-1], []).append(kind)
    return (
        {k: tuple(dict.fromkeys(v)) for k, v in chinese.items()},
        {k: tuple(dict.fromkeys(v)) for k, v in english.items()},
    )


def types_by_head(text: str) -> tuple[ProductType, ...]:
    """The types a generic product noun stands for ("耳机", "headphones", "shoes"): every type
    whose name ends with it."""
    chinese, english = _heads()
    found: list[ProductType] = []
    for ending, kinds in chinese.items():
        if ending in text:
            found.extend(kinds)
    for word in _words(text):
        found.extend(english.get(word, ()))
    return tuple(dict.fromkeys(found))


def type_name(product: Product, language: Language) -> str:
    """The product's type in the shopper's language: the taxonomy's name, else the last step
    of its category path, else ""."""
    kind = product_type(product.product_type) if product.product_type else None
    if kind is not None:
        return kind.name(language)
    leaf = _leaf(product.category_raw) if product.category_raw else ""
    return leaf if leaf and has_han(leaf) == (language == "zh") else ""


def closest_type(
    verdict: ScopeVerdict,
    ranked: Sequence[tuple[Product, float]],
    types: CatalogTypes,
    language: Language,
    *,
    floor: float,
) -> str:
    """The closest carried kind worth suggesting, or "" (then the reply asks instead):
    for a named type the catalog lacks, a carried type of the same domain that the search
    found; otherwise the best hit's type when it is close enough."""
    if verdict.kind:
        return ""
    domains = {t.domain for t in verdict.named}
    for product, similarity in ranked:
        if domains and product.domain not in domains:
            continue
        if not domains and similarity < floor:
            break
        name = type_name(product, language)
        if name:
            return name
    return ""


MEASURE_PREFIX = re.compile(r"^(?:[一两几]?[辆只匹套张份位个台件条双把])+")


def requested_phrase(query: str) -> str:
    """The search phrase as the shopper would say it back ("辆二手车" → "二手车")."""
    return MEASURE_PREFIX.sub("", query.strip()).strip() or query.strip()
