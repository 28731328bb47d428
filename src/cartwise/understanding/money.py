"""Prices as a shopper reads them: "¥199", "$27.99", "S$38.50", "12.00 MYR"."""

from __future__ import annotations

SYMBOLS: dict[str, str] = {"CNY": "¥", "USD": "$", "SGD": "S$", "EUR": "€", "GBP": "£"}


def money(amount: float, currency: str) -> str:
    """Whole amounts without decimals ("¥199"), others with two ("$27.99")."""
    number = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
    symbol = SYMBOLS.get(currency.upper())
    return f"{symbol}{number}" if symbol else f"{number} {currency.upper()}"
