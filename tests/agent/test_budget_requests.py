"""A budget a real shop meets is met here: cheap running shoes in a size, a power bank around
¥99, a T-shirt around ¥50 — the rules engine, the bundled e5 model and the demo catalog's
offers of those types."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.run import run_agent
from cartwise.memory import create_preference_store, create_session_store
from cartwise.settings import Settings
from cartwise.understanding import create_engine
from tests.agent.conftest import DemoSlice, index_demo_slice

pytestmark = [pytest.mark.model, pytest.mark.slow]

TYPES = {"running_shoes", "power_bank", "tshirt"}


@pytest.fixture(scope="module")
def cheap_slice(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSlice]:
    def keep(row: dict[str, Any]) -> bool:
        return row.get("product_type") in TYPES

    indexed = index_demo_slice(tmp_path_factory.mktemp("budget-e5"), keep)
    yield indexed
    indexed.recall.close()


@pytest.fixture
def agent(cheap_slice: DemoSlice, tmp_path: Path) -> Iterator[AgentDeps]:
    settings = Settings(_env_file=None, cartwise_home=tmp_path / "home", embedder="e5:small")  # type: ignore[call-arg]
    deps = AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, cheap_slice.embedder),
        sessions=create_session_store(settings),
        recall=cheap_slice.recall,
        engine=create_engine(settings),
        embedder=cheap_slice.embedder,
    )
    yield deps
    deps.preferences.close()
    deps.sessions.close()


@pytest.mark.parametrize(
    ("message", "product_type", "ceiling_cny"),
    [
        ("跑鞋，三百块钱以内的，穿42码", "running_shoes", 300.0),
        ("running shoes in size 42 for less than 300 yuan", "running_shoes", 300.0),
        ("给我找个充电宝，一百块以内就行", "power_bank", 100.0),
        ("a power bank for under $14", "power_bank", 14 * 7.12),
        ("纯棉T恤，五十以内", "tshirt", 50.0),
        ("a plain tee, no more than 50 CNY", "tshirt", 50.0),
    ],
)
async def test_a_budget_real_shops_meet_finds_offers(
    agent: AgentDeps, message: str, product_type: str, ceiling_cny: float
) -> None:
    user = f"u{uuid.uuid4().hex[:8]}"
    result = await run_agent(agent, user=user, thread=f"{user}-t", message=message)
    assert len(result.products) >= 3, result.reply
    for product in result.products:
        assert product.price_base <= ceiling_cny + 0.01, (product.title, product.price_base)
        stored = agent.recall.get(f"{product.platform}:{product.item_id}")
        assert stored is not None and stored.product_type == product_type, product.title
        if product_type == "running_shoes":
            assert "42" in stored.sizes, product.title
