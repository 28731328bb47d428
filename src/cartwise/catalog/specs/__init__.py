"""Specifications: listing specs parsed at ingest, request specs parsed by the planner.

The models and the check are imported with the package; the two parsers (the spec grammar:
hundreds of regular expressions compiled at import) on first use, so a session's state can
be read (`cartwise session show`) without compiling a grammar it never runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.catalog.specs.attributes import ATTRIBUTES, AttributeInfo
from cartwise.catalog.specs.check import Verdict, check, numeric_holds
from cartwise.catalog.specs.model import (
    LabelSpec,
    NumericSpec,
    ProductSpecs,
    RequestSpecs,
    SpecOp,
    SpecSort,
)
from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.catalog.specs.listing import extract_listing_specs
    from cartwise.catalog.specs.request import parse_request_specs

__all__ = [
    "ATTRIBUTES",
    "AttributeInfo",
    "LabelSpec",
    "NumericSpec",
    "ProductSpecs",
    "RequestSpecs",
    "SpecOp",
    "SpecSort",
    "Verdict",
    "check",
    "extract_listing_specs",
    "numeric_holds",
    "parse_request_specs",
]

__getattr__ = lazy_face(
    __name__,
    {
        "extract_listing_specs": "cartwise.catalog.specs.listing",
        "parse_request_specs": "cartwise.catalog.specs.request",
    },
)
