"""Specifications: listing specs parsed at ingest, request specs parsed by the planner."""

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
    "numeric_holds",
]
