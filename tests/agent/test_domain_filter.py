"""The request's domain filters a search, yet a listing whose domain ingest could not tell
(`other`) is not known to be elsewhere: it stays in; one filed in another domain does not."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain
from cartwise.settings import Settings
from tests.agent.conftest import rules_agent_over
from tests.factories import make_product


@pytest.fixture
def deps(settings: Settings) -> Iterator[AgentDeps]:
    catalog = [
        make_product("filed", title="凉感速干 跑步T恤 男款", domain=Domain.CLOTHING, price=89.0),
        # A keyword title naming no kind of product ingest knows: its domain is unknown.
        make_product(
            "unknown", title="冰丝速干跑步T恤 马拉松 夏季", domain=Domain.OTHER, price=59.0
        ),
        make_product("elsewhere", title="速干跑步T恤 印花 抱枕", domain=Domain.HOME, price=39.0),
    ]
    with rules_agent_over(settings, catalog, max_picks=5) as built:
        yield built


async def test_a_listing_of_unknown_domain_is_searched_and_one_filed_elsewhere_is_not(
    deps: AgentDeps,
) -> None:
    user = f"u{uuid.uuid4().hex[:8]}"
    result = await run_agent(deps, user=user, thread=f"{user}-t", message="想买件速干T恤")
    shown = {p.item_id for p in result.products}
    assert shown == {"filed", "unknown"}
