"""One request's specs, whole: its own ("longer than 3 m", "最大容量") and those a product
reference brings ("compatible with this board"), and the text left to search with."""

from __future__ import annotations

from pydantic import BaseModel, Field

from cartwise.catalog.specs import RequestSpecs, parse_request_specs
from cartwise.catalog.specs.compatibility import kinds_named, product_kind
from cartwise.recall.references import ReferencePlan, resolve_references
from cartwise.recall.service import RecallService, SearchHit
from cartwise.text import has_han


class SpecRequest(BaseModel):
    query: str
    specs: RequestSpecs = Field(default_factory=RequestSpecs)
    reference: ReferencePlan | None = None
    kind: str = ""
    """The kind of product asked for (`compatibility.yml` kinds): what goes with the
    referenced product, else the kind the request names ("" when none)."""

    def prefer(self, hits: list[SearchHit]) -> list[SearchHit]:
        """Listings of the asked kind before the rest (a "keyboard the colour of this case"
        is a keyboard, whatever else is white), and never the referenced listing itself nor
        its other offers when asking for something that goes with it."""
        reference = self.reference
        if reference is not None and reference.source is not None and reference.compatibility:
            source = reference.source.title
            hits = [h for h in hits if h.product.title != source]
        return prefer_kind(hits, self.kind)


def prefer_kind(hits: list[SearchHit], kind: str) -> list[SearchHit]:
    """Listings of `kind` first, each group in its given order ("" leaves the order)."""
    if not kind:
        return hits
    return sorted(hits, key=lambda h: product_kind(h.product.title, h.product.category_raw) != kind)


def asked_kind(text: str) -> str:
    """The kind a request asks for: the first named in English ("a cable for this GPU"),
    the last in Chinese, where the head noun ends the phrase ("适合这个CPU的主板")."""
    named = kinds_named(text)
    if not named:
        return ""
    return named[-1] if has_han(text) else named[0]


def merge_specs(first: RequestSpecs, second: RequestSpecs) -> RequestSpecs:
    """Both sets of specs: every filter of each; the first's order wins."""
    return RequestSpecs(
        numeric=[*first.numeric, *second.numeric],
        labels=[*first.labels, *second.labels],
        sort=first.sort or second.sort,
        cheapest=first.cheapest or second.cheapest,
        unchecked=list(dict.fromkeys([*first.unchecked, *second.unchecked])),
    )


def read_spec_request(service: RecallService, text: str) -> SpecRequest:
    """`text`'s specs, with a referenced product's compatibility specs added; the query is
    the text without its URL (and with the product's title when it asks for that product)."""
    reference = resolve_references(service, text)
    specs = parse_request_specs(reference.query)
    if reference.compatibility is not None:
        specs = merge_specs(specs, reference.compatibility.specs)
    has_reference = reference.source is not None or bool(reference.unresolved)
    compatibility = reference.compatibility
    return SpecRequest(
        query=reference.query,
        specs=specs,
        reference=reference if has_reference else None,
        kind=compatibility.target_kind if compatibility is not None else asked_kind(text),
    )
