"""One request's specs, whole: its own ("longer than 3 m", "最大容量") and those a product
reference brings ("compatible with this board"), and the text left to search with."""

from __future__ import annotations

from pydantic import BaseModel, Field

from cartwise.catalog.specs import RequestSpecs, parse_request_specs
from cartwise.recall.references import ReferencePlan, resolve_references
from cartwise.recall.service import RecallService


class SpecRequest(BaseModel):
    query: str
    specs: RequestSpecs = Field(default_factory=RequestSpecs)
    reference: ReferencePlan | None = None


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
    return SpecRequest(
        query=reference.query, specs=specs, reference=reference if has_reference else None
    )
