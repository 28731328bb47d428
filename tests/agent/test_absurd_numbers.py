"""Numbers no price can be (negative, zero, astronomically large, overflowing a float) are
read as what they are, refused as a budget, and answered with a question — never a crash;
the turns run on SQLite and on Redis (the session keeps no such slot on either)."""

from __future__ import annotations

from typing import Any

import pytest

from cartwise.agent.run import run_agent
from cartwise.settings import Settings
from cartwise.understanding.budgets import MAX_BUDGET, budget_amount, without_unusable_budget
from cartwise.understanding.questions import UNUSABLE_BUDGET_QUESTIONS
from tests.agent.conftest import rules_agent_over, small_catalog


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def store_settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    if request.param == "sqlite":
        return settings
    overrides: dict[str, Any] = {
        "store_backend": "redis",
        "redis_url": request.getfixturevalue("clean_redis"),
    }
    return settings.model_copy(update=overrides)


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("耳机，预算负八百也行：-800元", "zh"),
        ("headphones for at most $" + "9" * 45, "en"),
        ("耳机 预算" + "7" * 60 + "元以内", "zh"),
        ("headphones under 4" + "0" * 330 + " dollars", "en"),
        ("headphones, spend up to -$35", "en"),
        # Written in exponent or power form: read whole, not as the digits before the "e".
        ("headphones under 3e300 dollars", "en"),
        ("headphones for at most $2.5E19", "en"),
        ("耳机 预算10^40元以内", "zh"),
        ("headphones, budget 10**25 usd", "en"),
        ("耳机，最多7e400元", "zh"),
    ],
)
async def test_an_absurd_budget_is_refused_and_asked_about(
    store_settings: Settings, message: str, language: str
) -> None:
    with rules_agent_over(store_settings, small_catalog(), max_picks=4) as deps:
        result = await run_agent(deps, user="ann", thread="t", message=message)
        assert result.questions == [UNUSABLE_BUDGET_QUESTIONS[language]]  # type: ignore[index]
        assert not [r for r in result.rejected if "budget" in r.reason]
        assert result.products, "the search still runs, without the budget"
        kept = deps.sessions.get("ann", "t").slots
        assert "budget_max" not in kept and "budget_min" not in kept


async def test_a_real_budget_after_an_absurd_one_filters_again(store_settings: Settings) -> None:
    with rules_agent_over(store_settings, small_catalog(), max_picks=4) as deps:
        await run_agent(deps, user="ann", thread="t", message="headphones under $-1")
        result = await run_agent(deps, user="ann", thread="t", message="headphones under 300 元")
        assert result.questions == []
        assert all(p.price_base <= 300 for p in result.products)
        assert deps.sessions.get("ann", "t").slots["budget_max"] == "300"


@pytest.mark.parametrize(
    ("message", "ceiling"),
    [("headphones under 2.5e2 dollars", "250"), ("耳机 预算3e2元以内", "300")],
)
async def test_a_budget_in_exponent_form_that_is_a_price_filters(
    store_settings: Settings, message: str, ceiling: str
) -> None:
    with rules_agent_over(store_settings, small_catalog(), max_picks=4) as deps:
        result = await run_agent(deps, user="ann", thread="t", message=message)
        assert result.questions == []
        assert deps.sessions.get("ann", "t").slots["budget_max"] == ceiling


@pytest.mark.parametrize(
    "value", ["-1", "0", "inf", "nan", "1e+32", str(MAX_BUDGET * 10), "abc", "", " "]
)
def test_slot_values_that_cannot_be_a_budget(value: str) -> None:
    assert budget_amount(value) is None
    slots, dropped = without_unusable_budget(
        {"budget_max": value, "budget_currency": "USD", "size": "42"}
    )
    assert slots == {"size": "42"} and dropped


def test_a_usable_bound_keeps_its_currency_when_the_other_is_refused() -> None:
    slots, dropped = without_unusable_budget(
        {"budget_min": "-5", "budget_max": "120.5", "budget_currency": "EUR"}
    )
    assert slots == {"budget_max": "120.5", "budget_currency": "EUR"} and dropped
    assert budget_amount("120.5") == 120.5
