"""Does a listing meet a request's specs? The one semantics every index filter reproduces."""

from __future__ import annotations

from typing import Literal

from cartwise.catalog.specs.attributes import ATTRIBUTES
from cartwise.catalog.specs.model import LabelSpec, NumericSpec, ProductSpecs, RequestSpecs

Verdict = Literal["meets", "violates", "unknown"]


def numeric_holds(spec: NumericSpec, value: float) -> bool:
    """One listed value against one comparison; "eq" within the attribute's tolerance."""
    if spec.op == "lt":
        return value < spec.value
    if spec.op == "le":
        return value <= spec.value
    if spec.op == "gt":
        return value > spec.value
    if spec.op == "ge":
        return value >= spec.value
    info = ATTRIBUTES.get(spec.attribute)
    tolerance = info.relative_tolerance if info else 0.0
    return abs(value - spec.value) <= tolerance * abs(spec.value) + 1e-9


def _numeric_verdict(spec: NumericSpec, specs: ProductSpecs) -> Verdict:
    values = specs.numbers.get(spec.attribute)
    if not values:
        return "unknown"
    # A listing that states several values (a cable sold in 1 m and 3 m) meets the spec
    # when one of them does.
    return "meets" if any(numeric_holds(spec, v) for v in values) else "violates"


def _label_verdict(spec: LabelSpec, specs: ProductSpecs) -> Verdict:
    values = specs.labels.get(spec.attribute)
    if not values:
        return "unknown"
    hit = bool(set(values) & set(spec.values))
    return "meets" if hit != spec.negated else "violates"


def check(specs: ProductSpecs, request: RequestSpecs) -> Verdict:
    """ "violates" when any stated value breaks any spec; "unknown" when the listing does
    not state some asked attribute and breaks none; else "meets"."""
    verdicts = [_numeric_verdict(s, specs) for s in request.numeric]
    verdicts += [_label_verdict(s, specs) for s in request.labels]
    if "violates" in verdicts:
        return "violates"
    return "unknown" if "unknown" in verdicts else "meets"
