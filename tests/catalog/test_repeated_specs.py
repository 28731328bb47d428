"""A request's specs hold each condition once and at most `MAX_SPECS` of a kind: every spec
is checked against every listing of every platform searched, under the index's lock, and a
pasted message repeating one sentence made 40 copies of one colour spec."""

from __future__ import annotations

from cartwise.catalog.specs import LabelSpec, NumericSpec, parse_request_specs
from cartwise.catalog.specs.model import MAX_SPECS
from cartwise.recall.indexes.base import SearchFilters


def test_a_repeated_sentence_is_one_spec() -> None:
    message = ("a 27 inch monitor, black or white, " * 50)[:2000]
    specs = parse_request_specs(message)
    assert len(specs.labels) == 1 and len(specs.numeric) == 1


def test_filters_keep_each_condition_once_first_words_kept() -> None:
    first = LabelSpec(attribute="color_family", values=["black"], text="black")
    again = LabelSpec(attribute="color_family", values=["black"], text="in black")
    other = LabelSpec(attribute="color_family", values=["black"], negated=True, text="not black")
    filters = SearchFilters(label_specs=[first, again, other])
    assert filters.label_specs == [first, other]


def test_at_most_max_specs_of_a_kind() -> None:
    numeric = [NumericSpec(attribute="length_m", op="ge", value=float(n)) for n in range(40)]
    filters = SearchFilters(numeric_specs=numeric)
    assert filters.numeric_specs == numeric[:MAX_SPECS]
