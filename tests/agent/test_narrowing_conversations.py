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


@pytest.mark.parametrize(
    ("gift", "interest", "kind"),
    [
        ("I'm looking for a gift for my dad", "he likes hiking", "hiking_shoes"),
        ("想给我爸买个礼物", "他平时喜欢跑步", "running_shoes"),
    ],
)
async def test_an_interest_answering_the_gift_question_is_searched(
    agent: AgentDeps, gift: str, interest: str, kind: str
) -> None:
    """Regression: "he likes hiking" was searched as the phrase itself and reported as not
    carried."""
    user = fresh()
    asked = await say(agent, user, "t1", gift)
    assert asked.questions and asked.products == []
    answered = await say(agent, user, "t1", interest)
    assert answered.catalog_gap is None and answered.products
    kinds = [agent.recall.get(f"{p.platform}:{p.item_id}").product_type for p in answered.products]  # type: ignore[union-attr]
    assert kind in kinds
    assert asked.questions[0] in answered.memory.session.resolved_questions


@pytest.mark.parametrize(
    ("search", "refuse", "relent"),
    [
        ("推荐跑步鞋", "不要耐克的", "算了，还是耐克的吧"),
        ("running shoes", "no Nike", "actually, let's go with Nike"),
    ],
)
async def test_asking_for_a_brand_refused_earlier_is_a_change_of_mind(
    agent: AgentDeps, search: str, refuse: str, relent: str
) -> None:
    """Regression: the brand stayed excluded while also required, so nothing was found, and
    the product type was lost."""
    user = fresh()
    await say(agent, user, "t1", search)
    refused = await say(agent, user, "t1", refuse)
    assert refused.products and all(p.brand.casefold() != "nike" for p in refused.products)
    relented = await say(agent, user, "t1", relent)
    assert relented.products
    assert all(p.brand.casefold() == "nike" for p in relented.products)
    kinds = {agent.recall.get(f"{p.platform}:{p.item_id}").product_type for p in relented.products}  # type: ignore[union-attr]
    assert kinds == {"running_shoes"}
