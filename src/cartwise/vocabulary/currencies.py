"""The one currency table (`data/currencies.yml`): ISO codes, the symbols and words prices
and budgets are written with (¥ 元 块 $ US$ S$ RM HK$ NT$ € £ ₩ ₹ …), how a reply writes an
amount, and the dated default rate into the base currency (settings may override a rate)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.entries import Entry
from cartwise.vocabulary.files import data_file, words
from cartwise.vocabulary.matcher import Matcher, fold_form


@dataclass(frozen=True)
class Currency:
    """One currency: its ISO code, the symbol a reply writes (may be ""), its default rate
    (units of the base currency per unit, as of `rates_date`), and the forms written before
    and after an amount."""

    code: str
    symbol: str
    rate: float
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class CurrencyTable:
    """The base currency, the date of the default rates, and every currency by code."""

    base: str
    rates_date: str
    currencies: dict[str, Currency]


@cache
def currency_table() -> CurrencyTable:
    """The currency table, read once per process."""
    data = data_file("currencies")
    try:
        currencies = {
            str(code): Currency(
                code=str(code),
                symbol=str(row.get("symbol") or ""),
                rate=float(row["rate"]),
                before=words(row.get("before", []), f"currency {code} before"),
                after=words(row.get("after", []), f"currency {code} after"),
            )
            for code, row in data["currencies"].items()
        }
        table = CurrencyTable(str(data["base"]), str(data["rates_date"]), currencies)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary/data/currencies.yml is malformed: {exc}") from exc
    if table.base not in currencies or currencies[table.base].rate != 1.0:
        raise ConfigurationError("currencies.yml: the base currency must have rate 1.0")
    return table


def fx_to_base(overrides: Mapping[str, float] | None = None) -> dict[str, float]:
    """Units of the base currency per unit of each currency: the table's dated defaults,
    with `overrides` (from settings) taking precedence and adding currencies."""
    rates = {code: c.rate for code, c in currency_table().currencies.items()}
    rates.update({code.upper(): rate for code, rate in (overrides or {}).items()})
    return rates


@cache
def _by_form() -> dict[str, str]:
    out: dict[str, str] = {}
    for code, currency in currency_table().currencies.items():
        for form in (code, *currency.before, *currency.after):
            out.setdefault(fold_form(form), code)
    return out


def currency_of(form: str) -> str | None:
    """The ISO code a symbol, code or word stands for ("S$" → SGD, "块" → CNY), else None."""
    return _by_form().get(fold_form(form))


def _forms(place: Literal["before", "after"]) -> list[str]:
    """The forms as written (lowercased) and folded: a pattern over unfolded text must see
    "￥" as well as "¥"."""
    forms: set[str] = set()
    for currency in currency_table().currencies.values():
        for form in (currency.code, *(currency.before if place == "before" else currency.after)):
            forms |= {form.lower(), fold_form(form)}
    return sorted(forms, key=lambda f: (-len(f), f))


@cache
def currency_alternation(place: Literal["before", "after"]) -> str:
    """A regex alternation (no group) of every form written `place` an amount, ISO codes
    included, folded and longest first; a form that starts (before) or ends (after) with a
    Latin letter may not touch another letter ("rm" is not in "form 100")."""
    parts = []
    for form in _forms(place):
        escaped = re.escape(form)
        if place == "before" and form[0].isascii() and form[0].isalpha():
            escaped = f"(?<![a-z]){escaped}"
        if place == "after" and form[-1].isascii() and form[-1].isalpha():
            escaped = f"{escaped}(?![a-z])"
        parts.append(escaped)
    return "|".join(parts)


@cache
def currency_matcher() -> Matcher:
    """Every currency form, as it sits against digits ("RM100", "100元", "12.00 MYR")."""
    forms: dict[str, list[Entry]] = {}
    for code, currency in currency_table().currencies.items():
        for form in (code, *currency.before, *currency.after):
            entry = Entry("currency", code)
            if entry not in forms.setdefault(form, []):
                forms[form].append(entry)
    return Matcher(forms, boundary="alpha")


def format_money(amount: float, currency: str) -> str:
    """An amount as a shopper reads it: "¥199", "S$38.50", "12.00 XYZ" for a currency the
    table has no symbol for; whole amounts without decimals."""
    number = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
    known = currency_table().currencies.get(currency.upper())
    return f"{known.symbol}{number}" if known and known.symbol else f"{number} {currency.upper()}"
