"""What a listing states and what a request asks, as specifications the index can check.

A listing's specs are parsed once, at ingest, into canonical units (`ProductSpecs`); a
request's specs are parsed by the planner into `RequestSpecs`. Both speak the attribute
vocabulary of `ATTRIBUTES`, so "17寸以上" and "at least 17 inch" are the same filter and a
listing's "43.9 cm (17.3")" satisfies it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SpecOp = Literal["lt", "le", "eq", "ge", "gt"]


class ProductSpecs(BaseModel):
    """Specs parsed from one listing (title, attributes, description)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    numbers: dict[str, list[float]] = Field(default_factory=dict)
    """Attribute name → every value the listing states, in the attribute's canonical unit
    (a cable sold in 1 m and 3 m has two lengths)."""
    labels: dict[str, list[str]] = Field(default_factory=dict)
    """Attribute name → canonical lowercase values: socket `am5`, memory_type `ddr5`,
    interface `hdmi`, color_family `white`, form_factor `atx`."""

    def is_empty(self) -> bool:
        return not self.numbers and not self.labels


class NumericSpec(BaseModel):
    """A comparison on one quantity: "> 3 m", "17寸以上", "exactly 1TB"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attribute: str
    op: SpecOp
    value: float
    """In the attribute's canonical unit."""
    text: str = ""
    """The words it was parsed from, for the reply."""


class LabelSpec(BaseModel):
    """A categorical spec: socket AM5, DDR5, HDMI, "not black, white or metallic"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attribute: str
    values: list[str]
    """Any of these (canonical lowercase)."""
    negated: bool = False
    """None of these."""
    text: str = ""


class SpecSort(BaseModel):
    """A superlative: "highest read speed", "最大容量", "the lightest"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attribute: str
    """An attribute name, or "price"."""
    descending: bool
    text: str = ""


class RequestSpecs(BaseModel):
    """Every spec one request carries."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    numeric: list[NumericSpec] = Field(default_factory=list)
    labels: list[LabelSpec] = Field(default_factory=list)
    sort: SpecSort | None = None
    cheapest: bool = False
    """"the cheapest X with Y": filter, then price ascending, returning every tie."""
    unchecked: list[str] = Field(default_factory=list)
    """Spec phrases understood as specs but not checkable against the catalog: the reply
    says so instead of dropping them silently."""

    def is_empty(self) -> bool:
        return not (self.numeric or self.labels or self.sort or self.cheapest or self.unchecked)
