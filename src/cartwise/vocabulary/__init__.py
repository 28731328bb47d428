"""The vocabulary every layer shares, as data: product types and their synonyms, attribute
terms, the one colour table, the one currency table, sizes, recipients and pets, safety
words, platforms, brands (curated and ingested), and the things shops do not sell — each
word list once, in `data/*.yml`, compiled once into multi-pattern matchers — and how an English
noun becomes singular (`nouns.singular`) and how any name becomes an ASCII slug
(`slugs.slugify`).

Importing the package loads nothing; each file is read on first use.
"""

from cartwise.vocabulary.brands import Brand, curated_brands, merge_brands
from cartwise.vocabulary.colours import colour_table, family_matcher
from cartwise.vocabulary.currencies import currency_of, currency_table, format_money, fx_to_base
from cartwise.vocabulary.entries import Entry, Kind
from cartwise.vocabulary.matcher import Match, Matcher
from cartwise.vocabulary.surfaces import build_matcher, matcher, surface_forms
from cartwise.vocabulary.taxonomy import taxonomy

__all__ = [
    "Brand",
    "Entry",
    "Kind",
    "Match",
    "Matcher",
    "build_matcher",
    "colour_table",
    "curated_brands",
    "currency_of",
    "currency_table",
    "family_matcher",
    "format_money",
    "fx_to_base",
    "matcher",
    "merge_brands",
    "surface_forms",
    "taxonomy",
]
