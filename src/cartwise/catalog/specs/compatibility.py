"""Compatibility: from a product the shopper refers to (the source) to the specs what they
ask for (the target) must meet, by the small table in `data/compatibility.yml`.

"compatible CPUs for this motherboard" → socket of the board; "an external SSD I can back
this 4TB drive up to" → storage ≥ 4000 GB; "keyboards the same colour as this case" →
color_family of the case. A source that does not state an attribute the rule needs gives
no spec for it (and the caller says so): a guess would filter on nothing the listing says.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cartwise.catalog.specs.attributes import ATTRIBUTES
from cartwise.catalog.specs.model import LabelSpec, NumericSpec, ProductSpecs, RequestSpecs
from cartwise.errors import ConfigurationError
from cartwise.text import has_han
from cartwise.yaml_data import load_yaml

Relation = Literal["agree", "at_least", "same"]


class CompatibilityRule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str
    target: str
    agree: list[str] = Field(default_factory=list)
    at_least: list[str] = Field(default_factory=list)
    same: list[str] = Field(default_factory=list)

    def relations(self) -> list[tuple[str, Relation]]:
        return [
            *((a, "agree") for a in self.agree),
            *((a, "at_least") for a in self.at_least),
            *((a, "same") for a in self.same),
        ]


class CompatibilityTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: dict[str, list[str]]
    rules: list[CompatibilityRule]
    cues: dict[str, list[str]] = Field(default_factory=dict)

    def check_names(self) -> None:
        """Every attribute is in the vocabulary, every rule's kinds are declared."""
        for rule in self.rules:
            for name, _ in rule.relations():
                if name not in ATTRIBUTES:
                    raise ConfigurationError(f"compatibility.yml: unknown attribute {name!r}")
            for kind in (rule.source, rule.target):
                if kind not in self.kinds:
                    raise ConfigurationError(f"compatibility.yml: unknown kind {kind!r}")
        for name in self.cues:
            if name not in ATTRIBUTES:
                raise ConfigurationError(f"compatibility.yml: unknown cue attribute {name!r}")


@cache
def compatibility_table() -> CompatibilityTable:
    text = resources.files("cartwise.catalog").joinpath("data/compatibility.yml").read_text("utf-8")
    try:
        table = CompatibilityTable.model_validate(load_yaml(text))
    except ValidationError as exc:
        raise ConfigurationError(f"compatibility.yml is malformed: {exc}") from exc
    table.check_names()
    return table


def _word_pattern(word: str) -> str:
    if has_han(word):
        return re.escape(word)
    return rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])"


@cache
def _kind_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    table = compatibility_table()
    return tuple(
        (kind, re.compile("|".join(_word_pattern(w.casefold()) for w in words)))
        for kind, words in table.kinds.items()
    )


def kinds_named(text: str) -> list[str]:
    """Kinds named in `text`, in the order they first appear."""
    folded = text.casefold()
    found: list[tuple[int, str]] = []
    for kind, pattern in _kind_patterns():
        hit = pattern.search(folded)
        if hit is not None:
            found.append((hit.start(), kind))
    return [kind for _, kind in sorted(found)]


def product_kind(title: str, category: str = "") -> str:
    """A listing's kind: from its category path's leaf first (shops file a board under
    "Motherboards" even when its title never says so), else its title."""
    leaf = category.split(">")[-1] if category else ""
    for text in (leaf, title):
        named = kinds_named(text)
        if named:
            return named[0]
    return ""


def cued_attributes(text: str) -> list[str]:
    """Attributes the request asks to match whatever the kinds ("same colour as this")."""
    folded = text.casefold()
    return [
        name
        for name, patterns in compatibility_table().cues.items()
        if any(re.search(p, folded) for p in patterns)
    ]


class CompatibilityPlan(BaseModel):
    """The specs a target must meet to go with a source, and what could not be checked."""

    source_kind: str = ""
    target_kind: str = ""
    specs: RequestSpecs = Field(default_factory=RequestSpecs)
    missing: list[str] = Field(default_factory=list)
    """Attributes a rule needs that the source listing does not state."""

    @property
    def applies(self) -> bool:
        """A rule or a cue matched (the request is about going with the source)."""
        return bool(self.specs.numeric or self.specs.labels or self.missing)


def _spec_for(
    name: str, relation: Relation, source: ProductSpecs, text: str
) -> NumericSpec | LabelSpec | None:
    if ATTRIBUTES[name].kind == "label":
        labels = source.labels.get(name)
        return LabelSpec(attribute=name, values=list(labels), text=text) if labels else None
    numbers = source.numbers.get(name)
    if not numbers:
        return None
    if relation == "at_least":
        return NumericSpec(attribute=name, op="ge", value=max(numbers), text=text)
    return NumericSpec(attribute=name, op="eq", value=numbers[0], text=text)


def compatibility_specs(
    request: str,
    source: ProductSpecs,
    *,
    source_kind: str,
) -> CompatibilityPlan:
    """The specs of `request` ("compatible X", "the same colour as this") against the
    source listing's specs. The target kind is the first kind the request names that a
    rule pairs with the source kind."""
    rules = compatibility_table().rules
    named = kinds_named(request)
    rule = next(
        (r for kind in named for r in rules if r.source == source_kind and r.target == kind),
        None,
    )
    relations: list[tuple[str, Relation]] = rule.relations() if rule is not None else []
    for name in cued_attributes(request):
        relation: Relation = "agree" if ATTRIBUTES[name].kind == "label" else "same"
        if all(name != existing for existing, _ in relations):
            relations.append((name, relation))
    target = (
        rule.target
        if rule is not None
        else next((k for k in named if k != source_kind), named[0] if named else "")
    )
    numeric: list[NumericSpec] = []
    labels: list[LabelSpec] = []
    missing: list[str] = []
    for name, relation in relations:
        spec = _spec_for(name, relation, source, "as the referenced item")
        if spec is None:
            missing.append(name)
        elif isinstance(spec, NumericSpec):
            numeric.append(spec)
        else:
            labels.append(spec)
    return CompatibilityPlan(
        source_kind=source_kind,
        target_kind=target,
        specs=RequestSpecs(numeric=numeric, labels=labels),
        missing=missing,
    )
