"""Specifications: listing specs parsed at ingest, request specs parsed by the planner."""

from cartwise.catalog.specs.attributes import ATTRIBUTES, AttributeInfo
from cartwise.catalog.specs.check import Verdict, check, numeric_holds
from cartwise.catalog.specs.listing import extract_listing_specs
from cartwise.catalog.specs.model import (
    LabelSpec,
    NumericSpec,
    ProductSpecs,
    RequestSpecs,
    SpecOp,
    SpecSort,
)
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
