from __future__ import annotations

import pytest

from cartwise.catalog.normalize import (
    RowProblem,
    clean_title,
    html_to_text,
    parse_bool,
    parse_price,
    to_base,
)
from cartwise.vocabulary import fx_to_base


@pytest.mark.parametrize(
    ("raw", "value", "currency"),
    [
        ("251,26", 251.26, None),
        ("251.26", 251.26, None),
        ("1.234,56", 1234.56, None),
        ("1,234.56", 1234.56, None),
        ("1,234", 1234.0, None),
        ("1.234.567", 1234567.0, None),
        ("12.5", 12.5, None),
        ("¥99", 99.0, "CNY"),
        ("￥1,299", 1299.0, "CNY"),
        ("$12.99", 12.99, "USD"),
        ("S$ 5.90", 5.9, "SGD"),
        ("RM12,90", 12.9, "MYR"),
        ("£7", 7.0, "GBP"),
        ("€ 1.299,00", 1299.0, "EUR"),
        ("99 USD", 99.0, "USD"),
        (42, 42.0, None),
        (19.5, 19.5, None),
    ],
)
def test_prices_in_every_decimal_style_parse(
    raw: object, value: float, currency: str | None
) -> None:
    assert parse_price(raw) == (pytest.approx(value), currency)


@pytest.mark.parametrize("raw", ["", "  ", "abc", "-5", "1,23,4", None, True, -3.0, "12 34 5x"])
def test_unparseable_prices_are_row_problems(raw: object) -> None:
    with pytest.raises(RowProblem):
        parse_price(raw)


def test_fx_converts_to_base_and_refuses_unknown_currencies() -> None:
    assert to_base(100.0, "usd", fx_to_base()) == pytest.approx(712.0)
    assert to_base(100.0, "CNY", fx_to_base()) == 100.0
    with pytest.raises(RowProblem, match="unknown currency 'XYZ'"):
        to_base(1.0, "XYZ", fx_to_base())


def test_html_becomes_plain_text_with_double_escaping_undone() -> None:
    markup = "<p>Fast &amp;amp; quiet</p><ul><li>AM4</li><li>DDR4</li></ul><script>x()</script>"
    assert html_to_text(markup) == "Fast & quiet\nAM4\nDDR4"
    assert clean_title("Be Quiet! Heatsink &amp;amp; Fan") == "Be Quiet! Heatsink & Fan"
    assert html_to_text("no   markup\there") == "no markup here"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("0", False),
        ("yes", True),
        ("outofstock", False),
        ("有货", True),
        (False, False),
        ("", True),
    ],
)
def test_stock_flags_parse(raw: object, expected: bool) -> None:
    assert parse_bool(raw) is expected


def test_a_stock_flag_that_is_not_yes_or_no_is_a_row_problem() -> None:
    with pytest.raises(RowProblem):
        parse_bool("maybe")


def _currency_forms() -> list[tuple[str, str, str]]:
    from cartwise.vocabulary import currency_table

    return [
        (form, code, place)
        for code, currency in currency_table().currencies.items()
        for place, forms in (("before", (code, *currency.before)), ("after", currency.after))
        for form in forms
    ]


@pytest.mark.parametrize(("form", "code", "place"), _currency_forms())
def test_every_currency_symbol_and_word_is_read_at_ingest(form: str, code: str, place: str) -> None:
    listed = [f"{form}1,299.50", f"{form} 1299.50"] if place == "before" else []
    listed += [f"1299.50 {form}", f"1299.50{form}"]
    for raw in listed:
        assert parse_price(raw) == (1299.5, code), raw
    assert to_base(10.0, code, fx_to_base()) == round(10.0 * fx_to_base()[code], 2)


def test_a_row_in_an_unknown_currency_names_it() -> None:
    with pytest.raises(RowProblem, match="XAU"):
        value, currency = parse_price("12.00 XAU")
        to_base(value, currency or "", fx_to_base())
