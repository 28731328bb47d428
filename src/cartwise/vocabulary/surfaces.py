"""Every surface form of the vocabulary with the entries it names, and the matchers compiled
over them: `matcher()` over the whole vocabulary (cached, built once per process),
`matcher("colour", "attribute")` over some kinds, `build_matcher(kinds, brands)` with the
brands of the ingested catalogs merged in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import get_args

from cartwise.vocabulary.attributes import attribute_terms
from cartwise.vocabulary.brands import Brand, curated_brands
from cartwise.vocabulary.colours import colour_table
from cartwise.vocabulary.currencies import currency_table
from cartwise.vocabulary.entries import Entry, Kind
from cartwise.vocabulary.gaps import gap_words
from cartwise.vocabulary.matcher import Matcher, fold_form
from cartwise.vocabulary.people import pets, recipient_words
from cartwise.vocabulary.phrase_words import phrase_word_forms
from cartwise.vocabulary.platforms import platforms
from cartwise.vocabulary.safety import safety_words
from cartwise.vocabulary.sizes import size_words
from cartwise.vocabulary.taxonomy import taxonomy

KINDS: tuple[Kind, ...] = get_args(Kind)
NOUN_KINDS: frozenset[Kind] = frozenset(
    {"product_type", "type_group", "product_noun", "pet", "gap"}
)
"""Kinds whose Latin forms also match in the plural ("condos", "budgies")."""


def _pairs(kind: Kind, brands: Sequence[Brand]) -> Iterable[tuple[str, Entry]]:
    """(surface form, entry) of one kind."""
    if kind == "attribute":
        for term in attribute_terms():
            yield from ((f, Entry("attribute", term.slug, term.category)) for f in term.forms)
    elif kind in ("colour", "colour_shade"):
        for colour in colour_table().colours:
            entry = Entry(kind, colour.slug, "color", detail=colour.family)
            yield from ((f, entry) for f in (colour.names if kind == "colour" else colour.shades))
    elif kind == "product_type":
        for t in taxonomy().types:
            yield from ((n, Entry(kind, t.slug, domain=t.domain)) for n in t.zh_names + t.en_names)
    elif kind == "type_group":
        for group in taxonomy().groups:
            entry = Entry(kind, group.slug, domain=taxonomy().group_domain(group))
            yield from ((n, entry) for n in group.names)
    elif kind == "product_noun":
        for domain, nouns in taxonomy().nouns.items():
            yield from ((n, Entry(kind, domain, domain=domain)) for n in nouns)
    elif kind == "domain_word":
        for named in taxonomy().domains:
            names = (named.zh, named.en, *taxonomy().domain_words.get(named.slug, ()))
            yield from ((n, Entry(kind, named.slug, domain=named.slug)) for n in names)
    elif kind == "brand":
        for brand in brands:
            entry = Entry(kind, brand.slug, "brand", brand.domain)
            yield from ((f, entry) for f in brand.all_forms())
    elif kind == "platform":
        for platform in platforms().values():
            yield from ((f, Entry(kind, platform.id)) for f in platform.forms)
    elif kind == "size":
        for label, forms in size_words().items():
            yield from ((f, Entry(kind, label)) for f in forms)
    elif kind == "currency":
        for code, currency in currency_table().currencies.items():
            for form in dict.fromkeys((code, *currency.before, *currency.after)):
                yield form, Entry(kind, code)
    elif kind == "recipient":
        for slug, forms in recipient_words().forms.items():
            yield from ((f, Entry(kind, slug)) for f in forms)
    elif kind == "pet":
        for pet in pets():
            yield from ((f, Entry(kind, pet.slug, domain=pet.domain)) for f in pet.forms)
    elif kind == "safety":
        safety = safety_words()
        for place, forms in (("before", safety.before), ("after", safety.after)):
            yield from ((f, Entry(kind, "allergy", detail=place)) for f in forms)
        yield from ((f, Entry(kind, "allergy")) for f in safety.other)
        yield from ((f, Entry(kind, "health")) for f in safety.health)
    elif kind == "gap":
        for group_name, gaps in gap_words().items():
            for gap, forms in gaps.items():
                yield from ((f, Entry(kind, gap, group_name)) for f in forms)
    elif kind == "phrase_word":
        for phrase_group, words in phrase_word_forms().items():
            yield from ((f, Entry(kind, phrase_group)) for f in words)


def surface_forms(
    kinds: Iterable[Kind] = KINDS, brands: Sequence[Brand] | None = None
) -> dict[str, list[Entry]]:
    """Surface form (folded) → its entries of `kinds`, in vocabulary order. `brands`
    replaces the curated brands (pass `merge_brands(ingested)` for a catalog's). A form of a
    brand the curated list does not know never joins a form the vocabulary already has: a
    known form keeps its meaning (a noun, a material, a curated brand)."""
    listed = curated_brands() if brands is None else brands
    curated = {(b.slug, fold_form(f)) for b in curated_brands() for f in b.all_forms()}
    wanted = tuple(kinds)
    forms: dict[str, list[Entry]] = {}
    # Brands last: a catalog brand's form must find every other meaning already in place.
    ordered: list[Kind] = [k for k in wanted if k != "brand"]
    ordered += ["brand"] if "brand" in wanted else []
    for kind in ordered:
        for form, entry in _pairs(kind, listed):
            key = fold_form(form)
            known = forms.get(key, [])
            if not key or entry in known:
                continue
            if kind == "brand" and known and (entry.slug, key) not in curated:
                continue
            forms[key] = [*known, entry]
    return forms


def build_matcher(kinds: Iterable[Kind] = KINDS, brands: Sequence[Brand] | None = None) -> Matcher:
    """A matcher over `kinds` (every kind by default); see `surface_forms` for `brands`."""
    wanted = tuple(kinds)
    listed = curated_brands() if brands is None else brands
    forms = surface_forms(wanted, listed)
    exact: dict[str, set[str]] = {}
    if "brand" in wanted:
        loose = {fold_form(f) for b in listed for f in b.forms}
        loose |= {k for k, entries in forms.items() if any(e.kind != "brand" for e in entries)}
        for brand in listed:
            for spelling in brand.exact:
                if fold_form(spelling) not in loose:
                    exact.setdefault(fold_form(spelling), set()).add(spelling)
    return Matcher(
        forms,
        plural_kinds=NOUN_KINDS & set(wanted),
        exact=exact,
    )


@cache
def matcher(*kinds: Kind) -> Matcher:
    """The matcher over `kinds` (every kind when none is named) with the curated brands,
    compiled once per process."""
    return build_matcher(kinds or KINDS)
