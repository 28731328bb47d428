"""Which budget amounts can be budgets: a slip of the keyboard or a probe (10^32, 1e308, a
negative amount) is read as no budget at all, and the assistant asks for a real one."""

from __future__ import annotations

import math
from collections.abc import Mapping


def _number(value: str) -> float | None:
    try:
        return float(value.replace(",", "").strip())
    except ValueError:
        return None


MAX_BUDGET = 1e9
"""Larger than any price in any currency: a budget past it (10^32, 1e308) is a slip of the
keyboard or a probe, never an amount to filter by."""
BUDGET_SLOTS = ("budget_max", "budget_min")


def budget_amount(value: str) -> float | None:
    """A budget slot's value as an amount, when it can be one: a finite number above zero
    and at most `MAX_BUDGET` (a negative, zero, absurd or unreadable budget is None)."""
    amount = _number(value) if value else None
    if amount is None or not math.isfinite(amount) or not 0 < amount <= MAX_BUDGET:
        return None
    return amount


def without_unusable_budget(slots: Mapping[str, str]) -> tuple[dict[str, str], bool]:
    """`slots` without budget amounts that cannot be a budget, and whether any was dropped
    (the turn then asks for a real one). The currency goes with the last amount."""
    kept = {
        name: value
        for name, value in slots.items()
        if name not in BUDGET_SLOTS or budget_amount(value) is not None
    }
    dropped = len(kept) < len(slots)
    if dropped and not any(name in kept for name in BUDGET_SLOTS):
        kept.pop("budget_currency", None)
    return kept, dropped
