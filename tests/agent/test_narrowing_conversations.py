"""A refinement with no product noun ("要羊毛的", "something in wool please") narrows the
search the shopper is on, through `run_agent` with the rules engine, e5 and the demo slice.

Regression: it used to start a search for the attribute alone, which the catalog scope then
reported as "not carried" and the product type was lost."""

from __future__ import annotations

import re

import pytest

from cartwise.agent.deps import AgentDeps
from tests.agent.test_conversations import agent, fresh, full_text, say

pytestmark = [pytest.mark.model, pytest.mark.slow]
__all__ = ["agent"]

WOOL = re.compile(r"(?<![a-z])wool(?:len)?(?![a-z])|羊毛|毛呢")


@pytest.mark.parametrize(
    ("search", "narrowing"),
    [("推荐外套", "要羊毛的"), ("I need a coat", "something in wool please")],
)
async def test_an_attribute_alone_narrows_the_running_search(
    agent: AgentDeps, search: str, narrowing: str
) -> None:
    user = fresh()
    first = await say(agent, user, "t1", search)
    active = first.dialogue.active_search
    assert first.products and active is not None and active.product_types

    narrowed = await say(agent, user, "t1", narrowing)
    assert narrowed.catalog_gap is None
    assert narrowed.products
    kinds = {agent.recall.get(f"{p.platform}:{p.item_id}").product_type for p in narrowed.products}  # type: ignore[union-attr]
    assert kinds <= set(active.product_types)
    assert WOOL.search(full_text(agent, narrowed.products[0])), "a wool listing leads"
    # Asked of this search only: nothing is remembered as a lasting taste.
    assert [e for e in narrowed.memory.long_term if e.slug == "wool"] == []
