"""The spec-check semantics every index filter reproduces."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cartwise.catalog.specs import (
    ATTRIBUTES,
    LabelSpec,
    NumericSpec,
    ProductSpecs,
    RequestSpecs,
    check,
    numeric_holds,
)


def test_a_listing_with_one_matching_length_meets_a_longer_than_request() -> None:
    cable = ProductSpecs(numbers={"length": [1.0, 5.0]})
    longer = RequestSpecs(numeric=[NumericSpec(attribute="length", op="gt", value=3.0)])
    assert check(cable, longer) == "meets"
    assert check(ProductSpecs(numbers={"length": [3.0]}), longer) == "violates"


def test_an_unstated_attribute_is_unknown_but_a_stated_violation_wins() -> None:
    request = RequestSpecs(
        numeric=[NumericSpec(attribute="power", op="gt", value=550)],
        labels=[LabelSpec(attribute="color_family", values=["black"], negated=True)],
    )
    assert check(ProductSpecs(numbers={"power": [650]}), request) == "unknown"
    assert check(ProductSpecs(labels={"color_family": ["black"]}), request) == "violates"
    both = ProductSpecs(numbers={"power": [650]}, labels={"color_family": ["white"]})
    assert check(both, request) == "meets"


def test_exact_values_match_within_the_attributes_tolerance() -> None:
    one_tb = NumericSpec(attribute="storage", op="eq", value=1000)
    tolerance = ATTRIBUTES["storage"].relative_tolerance
    assert numeric_holds(one_tb, 1000 * (1 - tolerance / 2))
    assert not numeric_holds(one_tb, 1000 * (1 + 2 * tolerance))


@given(
    op=st.sampled_from(["lt", "le", "eq", "ge", "gt"]),
    asked=st.floats(min_value=0.1, max_value=1e5),
    listed=st.lists(st.floats(min_value=0, max_value=1e5), max_size=4),
)
def test_meets_means_some_listed_value_satisfies_the_comparison(
    op: str, asked: float, listed: list[float]
) -> None:
    spec = NumericSpec(attribute="power", op=op, value=asked)  # type: ignore[arg-type]
    verdict = check(ProductSpecs(numbers={"power": listed}), RequestSpecs(numeric=[spec]))
    if not listed:
        assert verdict == "unknown"
    else:
        assert (verdict == "meets") == any(numeric_holds(spec, v) for v in listed)
