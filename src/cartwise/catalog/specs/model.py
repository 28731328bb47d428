"""What a listing states and what a request asks, as specifications the index can check.

A listing's specs are parsed once, at ingest, into canonical units (`ProductSpecs`); a
request's specs are parsed by the planner into `RequestSpecs`. Both speak the attribute
vocabulary of `ATTRIBUTES`, so "17寸以上" and "at least 17 inch" are the same filter and a
listing's "43.9 cm (17.3")" satisfies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

SpecOp = Literal["lt", "le", "eq", "ge", "gt"]
MAX_SPECS = 12
"""Distinct specs of one kind a request carries; more are dropped. Every spec is checked
against every listing of every platform searched, under the index's lock: a pasted 2,000-
character message repeating one sentence 40 times made 40 copies of one colour spec, and
each platform's search held the index for 160 ms instead of 4."""


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

    def condition(self) -> tuple[object, ...]:
        """What the spec asks, whatever words it was parsed from."""
        return (self.attribute, self.op, self.value)


class LabelSpec(BaseModel):
    """A categorical spec: socket AM5, DDR5, HDMI, "not black, white or metallic"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attribute: str
    values: list[str]
    """Any of these (canonical lowercase)."""
    negated: bool = False
    """None of these."""
    text: str = ""

    def condition(self) -> tuple[object, ...]:
        """What the spec asks, whatever words it was parsed from."""
        return (self.attribute, tuple(sorted(self.values)), self.negated)


Spec = TypeVar("Spec", "NumericSpec", "LabelSpec")


def distinct_specs(specs: Sequence[Spec]) -> list[Spec]:
    """`specs` without repeats of one condition (the words it came from aside), first seen
    first, at most `MAX_SPECS`: every spec must hold, so a repeat changes nothing."""
    seen: set[tuple[object, ...]] = set()
    kept: list[Spec] = []
    for spec in specs:
        condition = spec.condition()
        if condition not in seen and len(kept) < MAX_SPECS:
            seen.add(condition)
            kept.append(spec)
    return kept


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

    _numeric = field_validator("numeric")(distinct_specs)
    _labels = field_validator("labels")(distinct_specs)

    @field_validator("unchecked")
    @classmethod
    def _distinct_unchecked(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))[:MAX_SPECS]

    def is_empty(self) -> bool:
        return not (self.numeric or self.labels or self.sort or self.cheapest or self.unchecked)
