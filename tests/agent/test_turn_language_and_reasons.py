"""A turn speaks the page's language, says why it set items aside as codes every surface can
word, and names the one currency its reply quotes prices in."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.rejections import REASONS, describe
from cartwise.agent.result import TurnResult
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain
from cartwise.memory.session_state import RejectedOption
from cartwise.settings import Settings
from cartwise.text import has_han
from cartwise.understanding.reading import Language
from cartwise.vocabulary import fx_to_base
from tests.agent.conftest import rules_agent_over
from tests.factories import make_product

KETTLES = [
    ("jd", "k1", "Midea", 129.0, True, "stainless steel body"),
    ("taobao", "k2", "Supor", 89.0, True, "plastic lid"),
    ("amazon", "k3", "Philips", 45.0, True, "glass body"),
    ("jd", "k4", "Bear", 69.0, False, "stainless steel body"),
    ("pinduoduo", "k5", "Deerma", 399.0, True, "stainless steel body"),
]


USD_TO_CNY = fx_to_base()["USD"]


@pytest.fixture
def deps(settings: Settings) -> Iterator[AgentDeps]:
    catalog = [
        make_product(
            item_id=item_id,
            platform=platform,
            title=f"{brand} electric kettle 电热水壶 1.7L",
            brand=brand,
            domain=Domain.APPLIANCES,
            product_type="electric_kettle",
            price=price,
            currency="USD" if platform == "amazon" else "CNY",
            price_base=round(price * (USD_TO_CNY if platform == "amazon" else 1.0), 2),
            in_stock=in_stock,
            description=description,
        )
        for platform, item_id, brand, price, in_stock, description in KETTLES
    ]
    with rules_agent_over(settings, catalog, max_picks=5) as built:
        yield built


async def _turn(deps: AgentDeps, message: str, *, language: Language | None = None) -> TurnResult:
    user = f"u{uuid.uuid4().hex[:8]}"
    return await run_agent(deps, user=user, thread=f"{user}-t", message=message, language=language)


async def test_a_chinese_page_gets_a_chinese_reply_to_an_english_message(deps: AgentDeps) -> None:
    english = await _turn(deps, "I need an electric kettle")
    assert english.language == "en" and english.reply.startswith("My top pick")
    on_chinese_page = await _turn(deps, "I need an electric kettle", language="zh")
    assert on_chinese_page.language == "zh"
    first_line = on_chinese_page.reply.split("\n")[0]
    assert first_line.startswith("最推荐"), first_line
    assert all(has_han(" ".join(p.why)) for p in on_chinese_page.products)


async def test_every_set_aside_item_carries_a_code_its_english_reason_still_reads(
    deps: AgentDeps,
) -> None:
    result = await _turn(deps, "电热水壶，不要塑料的，200以内")
    by_code = {r.code: r for r in result.rejected}
    assert set(by_code) >= {"excluded_term", "over_budget", "out_of_stock"}
    assert by_code["over_budget"].params == {"price": "399", "limit": "200", "currency": "CNY"}
    assert by_code["over_budget"].reason == "over budget (399 > 200 CNY)"
    assert by_code["excluded_term"].reason == (
        f"contains excluded term {by_code['excluded_term'].params['term']}"
    )
    for option in result.rejected:
        chinese = describe(option, "zh")
        assert has_han(chinese) and "budget" not in chinese and "stock" not in chinese


def test_each_code_is_worded_in_both_languages() -> None:
    assert set(REASONS["zh"]) == set(REASONS["en"])


def test_an_option_stored_before_codes_keeps_its_reason() -> None:
    legacy = RejectedOption.model_validate(
        {"platform": "jd", "item_id": "1", "title": "t", "reason": "over budget (9 > 5 CNY)"}
    )
    assert legacy.code is None and describe(legacy, "zh") == "over budget (9 > 5 CNY)"


async def test_the_turn_names_the_currency_its_reply_quotes(deps: AgentDeps) -> None:
    result = await _turn(deps, "electric kettle under $20")
    currency = result.shopper_currency
    assert currency is not None and currency.code == "USD"
    assert currency.to_base == deps.settings.fx_to_base["USD"]
    best = result.products[0]
    shown = round(best.price_base / currency.to_base, 2)
    quoted = f"${shown:,.0f}" if shown.is_integer() else f"${shown:,.2f}"
    assert quoted in result.reply.split("\n")[0]
    chinese = await _turn(deps, "电热水壶")
    assert chinese.shopper_currency is not None and chinese.shopper_currency.code == "CNY"
