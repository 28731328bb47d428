"""Clarifying questions for slots a domain needs, and recognizing their answers.

Shoes and clothing need a size when their listings come in sizes (a scarf or a belt of the
clothing domain is sold one size, so asking would be noise). When it is missing the turn still shows best-effort results
and asks exactly one question; the curator records it in `open_questions`. The next message
("42") fills the slot, and the question is resolved by exact match — the agent knows the
exact wording it asked, so resolution never depends on an engine paraphrasing it.
"""

from __future__ import annotations

from collections.abc import Iterable

from cartwise.catalog.product import Product

SLOTS_REQUIRED_BY_DOMAIN: dict[str, tuple[str, ...]] = {
    "shoes": ("size",),
    "clothing": ("size",),
}


def missing_slot(domain: str, slots: dict[str, str], *, sized: bool) -> str:
    """The first slot the domain needs that is not filled, or "". `sized`: whether the
    listings found come in sizes at all."""
    needed = [s for s in SLOTS_REQUIRED_BY_DOMAIN.get(domain, ()) if s != "size" or sized]
    return next((s for s in needed if not slots.get(s)), "")


def sold_in_sizes(products: Iterable[Product]) -> bool:
    """Whether any of these listings offers a choice of sizes."""
    return any(len(set(p.sizes)) > 1 for p in products)
