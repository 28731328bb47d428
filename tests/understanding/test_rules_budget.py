"""Budgets → budget_max / budget_min / budget_currency."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cartwise.understanding.rules.budget import PATTERNS, parse_budget
from cartwise.understanding.rules.numbers import parse_zh_numeral


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("500以内", {"budget_max": "500", "budget_currency": "CNY"}),
        ("不超过两百", {"budget_max": "200", "budget_currency": "CNY"}),
        ("两三百的耳机", {"budget_min": "200", "budget_max": "300", "budget_currency": "CNY"}),
        ("1k以内", {"budget_max": "1000", "budget_currency": "CNY"}),
        ("1.5万以内", {"budget_max": "15000", "budget_currency": "CNY"}),
        ("300到500", {"budget_min": "300", "budget_max": "500", "budget_currency": "CNY"}),
        ("三百块左右", {"budget_max": "360", "budget_currency": "CNY"}),
        ("预算300", {"budget_max": "300", "budget_currency": "CNY"}),
        ("预算三千五", {"budget_max": "3500", "budget_currency": "CNY"}),
        ("一万二以内", {"budget_max": "12000", "budget_currency": "CNY"}),
        ("预算100美元", {"budget_max": "100", "budget_currency": "USD"}),
        ("2000元以上", {"budget_min": "2000", "budget_currency": "CNY"}),
        ("最多花一百", {"budget_max": "100", "budget_currency": "CNY"}),
    ],
)
def test_chinese_budgets(text: str, slots: dict[str, str]) -> None:
    assert parse_budget(text).slots("CNY") == slots


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("under $50", {"budget_max": "50", "budget_currency": "USD"}),
        ("less than 40.00 dollars", {"budget_max": "40", "budget_currency": "USD"}),
        ("and price lower than 40.00 dollars", {"budget_max": "40", "budget_currency": "USD"}),
        (
            "between 100 and 200",
            {"budget_min": "100", "budget_max": "200", "budget_currency": "USD"},
        ),
        ("$60 to $90", {"budget_min": "60", "budget_max": "90", "budget_currency": "USD"}),
        ("a tent for under 150 euros", {"budget_max": "150", "budget_currency": "EUR"}),
        ("at most 25.99 dollars", {"budget_max": "25.99", "budget_currency": "USD"}),
        ("$100 max", {"budget_max": "100", "budget_currency": "USD"}),
        ("around 50 bucks", {"budget_max": "60", "budget_currency": "USD"}),
        ("under twenty dollars", {"budget_max": "20", "budget_currency": "USD"}),
        ("under 2000 yuan", {"budget_max": "2000", "budget_currency": "CNY"}),
    ],
)
def test_english_budgets(text: str, slots: dict[str, str]) -> None:
    assert parse_budget(text).slots("USD") == slots


@pytest.mark.parametrize(
    "text",
    ["42码", "size 10", "under 5 pounds", "less than 10 oz", "sony wh-1000xm5", "这件超预算了"],
)
def test_numbers_that_are_not_money_are_not_budgets(text: str) -> None:
    assert not parse_budget(text).found


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("两百", 200),
        ("三千五", 3500),
        ("一万二", 12000),
        ("十五", 15),
        ("三千零五", 3005),
        ("两百五", 250),
    ],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert parse_zh_numeral(numeral) == value


def _forms(place: str) -> list[tuple[str, str]]:
    from cartwise.vocabulary import currency_table

    return [
        (form, code)
        for code, currency in currency_table().currencies.items()
        for form in (code, *(currency.before if place == "before" else currency.after))
    ]


@pytest.mark.parametrize(("form", "code"), _forms("before"))
def test_every_currency_written_before_an_amount_gives_its_budget(form: str, code: str) -> None:
    for text in (f"headphones under {form}80", f"{form} 120以内的耳机"):
        found = parse_budget(text)
        assert found.currency == code, text
        assert found.budget_max in (80, 120), text


@pytest.mark.parametrize(("form", "code"), _forms("after"))
def test_every_currency_written_after_an_amount_gives_its_budget(form: str, code: str) -> None:
    for text in (f"a backpack under 75 {form}", f"75{form}以内的双肩包"):
        found = parse_budget(text)
        assert (found.currency, found.budget_max) == (code, 75), text


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("a desk lamp under S$45", {"budget_max": "45", "budget_currency": "SGD"}),
        ("RM150以内的电饭煲", {"budget_max": "150", "budget_currency": "MYR"}),
        ("keyboard, max RM 200", {"budget_max": "200", "budget_currency": "MYR"}),
        ("HK$300左右的香水", {"budget_max": "360", "budget_currency": "HKD"}),
        ("Rs.500 se kam, a kurta", {"budget_max": "500", "budget_currency": "INR"}),
        ("the transform 100 series", {}),  # "rm" inside a word is no ringgit
    ],
)
def test_budgets_in_the_currencies_of_other_markets(text: str, slots: dict[str, str]) -> None:
    assert parse_budget(text).slots("USD") == slots


def test_a_budget_found_early_compiles_none_of_the_later_patterns() -> None:
    probe = (
        "from cartwise.understanding.rules import budget\n"
        "before = budget._pattern.cache_info().currsize\n"
        "finding = budget.parse_budget('三百以内的跑步鞋，42码')\n"
        "print(before, budget._pattern.cache_info().currsize, finding.budget_max)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    before, compiled, budget_max = out.split()
    assert (before, budget_max) == ("0", "300.0")
    assert 0 < int(compiled) < len(PATTERNS)
