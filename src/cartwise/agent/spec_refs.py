"""A product the message refers to — a shop URL, a product named by its model, or a shown
item with "compatible / fits this / 兼容 / 同色" — turned into the specs the search must meet (the compatibility table)
or into the product's own title (a cheaper offer of it, a substitute)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.catalog.specs import RequestSpecs
from cartwise.catalog.specs.compatibility import compatibility_specs, product_kind
from cartwise.memory.session_state import SessionPrefState
from cartwise.recall.references import resolve_references
from cartwise.recall.service import RecallService
from cartwise.understanding.reading import Reading


class ReferenceSpecs(BaseModel):
    """What the referenced product adds to this turn's search."""

    source: Product
    query: str
    """The text to search: without the URL; the product's title when it is about itself."""
    specs: RequestSpecs = Field(default_factory=RequestSpecs)
    missing: list[str] = Field(default_factory=list)
    """Attributes a rule needs that the source listing does not state (said in the reply)."""
    kind: str = ""
    """The kind that goes with the source ("" when the reference asks for the product
    itself)."""


def _shown_source(
    recall: RecallService, session: SessionPrefState, plan: Reading
) -> Product | None:
    shortlist = session.shortlist
    if not shortlist:
        return None
    refs = plan.followup.refs if plan.followup is not None else []
    ordinal = next((r for r in refs if 1 <= r <= len(shortlist)), None)
    if ordinal is not None:
        key = shortlist[ordinal - 1].key
    else:
        key = session.focus_item or shortlist[0].key
    return recall.get(key)


def reference_specs(
    recall: RecallService, message: str, session: SessionPrefState, plan: Reading
) -> ReferenceSpecs | None:
    """The referenced product's contribution, or None when the message refers to none."""
    query = plan.query or message
    has_url = bool(plan.urls)
    cued = plan.compatible
    if not (has_url or cued):
        return None
    # a shop URL, or a product named by its model ("compatible with the Corsair 5000D")
    reference = resolve_references(recall, message)
    if reference.source is not None:
        compatibility = reference.compatibility
        return ReferenceSpecs(
            source=reference.source,
            query=reference.query,
            specs=compatibility.specs if compatibility is not None else RequestSpecs(),
            missing=compatibility.missing if compatibility is not None else [],
            kind=compatibility.target_kind if compatibility is not None else "",
        )
    if has_url:
        return None
    source = _shown_source(recall, session, plan)
    if source is None:
        return None
    plan_specs = compatibility_specs(
        message, source.specs, source_kind=product_kind(source.title, source.category_raw)
    )
    if not plan_specs.applies:
        return None
    return ReferenceSpecs(
        source=source,
        query=query,
        specs=plan_specs.specs,
        missing=plan_specs.missing,
        kind=plan_specs.target_kind,
    )
