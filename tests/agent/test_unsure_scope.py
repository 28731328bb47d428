"""A request that names no kind of product the catalog knows, no service and nothing no shop
sells, whose best matches are far from it: nothing says whether it is carried, so the turn
neither claims "not carried" nor shows the far matches — it asks one question."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain
from cartwise.settings import Settings
from cartwise.understanding.questions import unsure_scope_question
from tests.agent.conftest import rules_agent_over
from tests.factories import make_product


@pytest.fixture
def deps(settings: Settings) -> Iterator[AgentDeps]:
    catalog = [
        make_product("lamp", title="LED desk lamp, 5W", domain=Domain.HOME, price=30.0),
        make_product("kettle", title="electric kettle 1.7L", domain=Domain.KITCHEN, price=25.0),
    ]
    # Every match is "far" at this floor: only the words of the request can decide.
    strict = settings.model_copy(update={"catalog_relevance_floor": 0.9999})
    with rules_agent_over(strict, catalog, max_picks=5) as built:
        yield built


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("anything good for a flimsy wobbly gizmo thing", "en"),
        ("有没有能让那个咯吱响的玩意儿安静点的", "zh"),
        # A present told by what they love, when nothing sold holds a word of it.
        ("looking for a birthday present for my niece, she adores unicorns", "en"),
        ("想给外甥挑个礼物，他特别喜欢恐龙", "zh"),
    ],
)
async def test_far_matches_alone_ask_one_question_instead_of_a_verdict(
    deps: AgentDeps, message: str, language: str
) -> None:
    user = f"u{uuid.uuid4().hex[:8]}"
    result = await run_agent(deps, user=user, thread=f"{user}-t", message=message)
    assert result.catalog_gap is None
    assert result.products == []
    assert unsure_scope_question(language) in result.reply  # type: ignore[arg-type]


async def test_the_kind_named_next_is_searched(deps: AgentDeps) -> None:
    user = f"u{uuid.uuid4().hex[:8]}"
    thread = f"{user}-t"
    await run_agent(deps, user=user, thread=thread, message="anything for a wobbly gizmo")
    answered = await run_agent(deps, user=user, thread=thread, message="a desk lamp")
    assert [p.item_id for p in answered.products][:1] == ["lamp"]
