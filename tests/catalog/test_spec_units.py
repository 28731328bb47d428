"""The unit factor table against pint's definitions, and the first request not paying pint."""

from __future__ import annotations

import subprocess
import sys

import pint
import pytest

from cartwise.catalog.specs.units import CANONICAL, FACTORS, UNIT_WORDS, factor


@pytest.fixture(scope="module")
def registry() -> pint.UnitRegistry[float]:
    units: pint.UnitRegistry[float] = pint.UnitRegistry()
    units.define("jin = 0.5 * kilogram = 斤")
    units.define("MP = 1e6 * count")
    units.define("wan_pixel = 1e4 * count")
    return units


def test_every_unit_word_has_a_factor() -> None:
    assert {(unit, family) for _, family, unit in UNIT_WORDS} <= set(FACTORS)


@pytest.mark.parametrize(("unit", "family"), sorted(FACTORS))
def test_factor_agrees_with_pint(
    registry: pint.UnitRegistry[float], unit: str, family: str
) -> None:
    expected = registry.Quantity(1.0, unit).to(CANONICAL[family]).magnitude  # type: ignore[index]
    assert factor(unit, family) == pytest.approx(expected, rel=1e-12)  # type: ignore[arg-type]


def test_parsing_a_request_never_imports_pint() -> None:
    code = (
        "import sys\n"
        "from cartwise.catalog.specs import extract_listing_specs, parse_request_specs\n"
        "parse_request_specs('a 6 ft HDMI cable over 2 lbs, 17寸以上')\n"
        "extract_listing_specs('Cable 1.8 m, 5 oz', {})\n"
        "print('pint' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
