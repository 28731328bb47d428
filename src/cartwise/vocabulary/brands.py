"""Brands: the curated list (`data/brands.yml`) and the brands of the ingested catalogs,
merged through one call (`merge_brands`).

A curated brand has case-insensitive forms and a domain hint (the domain a bare "我不喜欢耐克"
is about). A brand mined from a catalog is a proper noun: its Latin forms that are English
words match only as the catalog writes them ("Keep", not "keep": a brand that is also an
everyday word must not turn "I want to keep it simple" into a brand request), the others in
any case ("tumi"); its Chinese aliases match as substrings.
A mined brand that shares a form with a curated one is that brand: it keeps the curated slug
and domain and adds its other forms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words
from cartwise.vocabulary.matcher import fold_form


@dataclass(frozen=True)
class Brand:
    """One brand: its slug, the domain a bare mention of it is about ("" when unknown), its
    case-insensitive forms, and forms that match only exactly as spelled."""

    slug: str
    domain: str
    forms: tuple[str, ...]
    exact: tuple[str, ...] = ()

    @classmethod
    def mined(
        cls, slug: str, domain: str, forms: Iterable[str], loose: Iterable[str] = ()
    ) -> Brand:
        """A brand as a catalog lists it: Latin forms exact unless `loose` (no English word:
        any case), Chinese aliases as forms."""
        spelled = sorted({f.strip() for f in forms if f.strip()})
        anycase = {f.strip() for f in loose}
        return cls(
            slug,
            domain,
            tuple(f for f in spelled if not f.isascii() or f in anycase),
            tuple(f for f in spelled if f.isascii() and f not in anycase),
        )

    def all_forms(self) -> tuple[str, ...]:
        return self.forms + self.exact


@cache
def curated_brands() -> tuple[Brand, ...]:
    """The curated brands, in file order."""
    out = []
    for slug, row in data_file("brands").items():
        forms = words(row, f"brand {slug}")
        if len(forms) < 2:
            raise ConfigurationError(f"brands.yml: {slug} needs a domain and at least one form")
        domain, *names = forms
        out.append(Brand(str(slug), domain, tuple(names)))
    return tuple(out)


def merge_brands(ingested: Iterable[Brand], curated: Iterable[Brand] | None = None) -> list[Brand]:
    """Curated brands (the packaged list unless given) and ingested ones as one list: an
    ingested brand sharing a form with a curated brand joins it (its new forms added, kept
    exact when they were), any other is added as it is."""
    merged = list(curated_brands() if curated is None else curated)
    owner = {fold_form(f): i for i, b in enumerate(merged) for f in b.all_forms()}
    for brand in ingested:
        index = next((owner[k] for f in brand.all_forms() if (k := fold_form(f)) in owner), None)
        if index is None:
            owner.update({fold_form(f): len(merged) for f in brand.all_forms()})
            merged.append(brand)
            continue
        known = merged[index]
        new_forms = [f for f in brand.forms if fold_form(f) not in owner]
        new_exact = [f for f in brand.exact if fold_form(f) not in owner]
        merged[index] = replace(
            known, forms=known.forms + tuple(new_forms), exact=known.exact + tuple(new_exact)
        )
        owner.update({fold_form(f): index for f in (*new_forms, *new_exact)})
    return merged
