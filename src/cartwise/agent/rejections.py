"""Why a candidate was set aside, as a code with parameters, and how each language says it.

item_picker records the code and what it quotes (`RejectedOption.code`, `.params`); the reply,
the CLI and the web page word it in their own language. The English sentence is also stored
as `RejectedOption.reason`, the field older readers of `ask --json` know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.memory.session_state import RejectedOption, RejectionCode

if TYPE_CHECKING:
    from cartwise.understanding.reading import Language

REASONS: dict[Language, dict[RejectionCode, str]] = {
    "en": {
        "out_of_stock": "out of stock",
        "excluded_term": "contains excluded term {term}",
        "over_budget": "over budget ({price} > {limit} {currency})",
        "under_budget_minimum": "under budget minimum ({price} < {limit} {currency})",
        "size_unavailable": "size {size} not available",
    },
    "zh": {
        "out_of_stock": "缺货",
        "excluded_term": "含有你排除的「{term}」",
        "over_budget": "超出预算（{price} > {limit} {currency}）",
        "under_budget_minimum": "低于预算下限（{price} < {limit} {currency}）",
        "size_unavailable": "没有 {size} 码",
    },
}
"""One item's reason (the web page's i18n.js holds the same sentences for the page)."""

KINDS: dict[Language, dict[RejectionCode, str]] = {
    "zh": {
        "excluded_term": "含你排除的材质/元素",
        "over_budget": "超出预算",
        "under_budget_minimum": "低于预算下限",
        "size_unavailable": "没有你的尺码",
        "out_of_stock": "缺货",
    },
    "en": {
        "excluded_term": "contain something you excluded",
        "over_budget": "over budget",
        "under_budget_minimum": "below your minimum price",
        "size_unavailable": "not in your size",
        "out_of_stock": "out of stock",
    },
}
"""A reason kind as the reply counts it ("超出预算 3 件", "3 over budget")."""


def _amount(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def rejection_params(
    code: RejectionCode,
    *,
    term: str = "",
    price: float | None = None,
    limit: float | None = None,
    currency: str = "",
    size: str = "",
) -> dict[str, str]:
    """The parameters `code`'s sentence quotes, as strings."""
    if code == "excluded_term":
        return {"term": term}
    if code in ("over_budget", "under_budget_minimum"):
        assert price is not None and limit is not None
        return {"price": _amount(price), "limit": _amount(limit), "currency": currency}
    if code == "size_unavailable":
        return {"size": size}
    return {}


def reason_text(code: RejectionCode, params: dict[str, str], language: Language) -> str:
    """The sentence for one set-aside item."""
    return REASONS[language][code].format(**params)


def describe(option: RejectedOption, language: Language) -> str:
    """How `language` says why `option` was set aside (its stored English reason when it
    carries no code)."""
    if option.code is None:
        return option.reason
    return reason_text(option.code, option.params, language)
