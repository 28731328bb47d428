"""The budget is a filter of the index query, and what it leaves out is still told.

Searching the top-k and letting the picker drop what is over budget finds nothing when the
top-k are all dearer ("budget 600 yuan", then "headphones": the best-matching headphones cost
more, the cheaper ones ranked below k). So the index is asked only for what fits the budget.
The shopper is still shown what the budget eliminated: a small probe without the budget's
bounds, for the same query text (the query memo serves its vector: no second embedding),
brings the best few hits the budget excludes to the picker, which rejects them with their
reason (`over budget (629 > 300 CNY)`) as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.agent.picker import Budget
from cartwise.agent.state import Candidate
from cartwise.recall.indexes.base import SearchFilters

BUDGET_PROBE_K = 5
"""Hits per platform of the probe without the budget: enough to say what the budget left
out, few enough to cost a fraction of a millisecond."""


def within_budget(filters: SearchFilters, budget: Budget) -> SearchFilters:
    """`filters` with the price bounds narrowed to the budget (a "cheaper" bound already
    there stays when it is tighter)."""
    if not budget.is_set:
        return filters
    ceilings = [p for p in (filters.max_price_base, budget.max_base) if p is not None]
    floors = [p for p in (filters.min_price_base, budget.min_base) if p is not None]
    return filters.model_copy(
        update={
            "max_price_base": min(ceilings) if ceilings else None,
            "min_price_base": max(floors) if floors else None,
        }
    )


def outside_budget(probe: Sequence[Candidate], filters: SearchFilters) -> list[Candidate]:
    """The probe's hits the budgeted `filters` exclude (the probe differs only in price)."""
    return [c for c in probe if not filters.accepts(c.product)]
