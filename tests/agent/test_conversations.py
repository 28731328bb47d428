"""The multi-turn shopping conversations (refusals, size answers, retractions) through `run_agent` with the real pieces: rules engine, bundled
e5 model, a slice of the demo catalog, real stores (SQLite; Redis marked `redis`).

Each test uses fresh users, so conversations never share memory."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.result import ProductOut, TurnResult
from cartwise.agent.run import run_agent
from cartwise.memory import create_preference_store, create_session_store
from cartwise.memory.store import Category, Polarity
from cartwise.settings import Settings
from cartwise.text import fold
from cartwise.understanding import create_engine
from cartwise.understanding.questions import question_for
from tests.agent.conftest import DemoSlice

pytestmark = [pytest.mark.model, pytest.mark.slow]

PLASTIC = re.compile(r"(?<![a-z])plastics?(?![a-z])|塑料|塑胶")
WOOD = re.compile(r"(?<![a-z])wood(?:en)?(?![a-z])|木")


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def agent(
    request: pytest.FixtureRequest, demo_slice: DemoSlice, tmp_path: Any
) -> Iterator[AgentDeps]:
    overrides: dict[str, Any] = {}
    if request.param == "redis":
        overrides = {"store_backend": "redis", "redis_url": request.getfixturevalue("clean_redis")}
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, cartwise_home=tmp_path / "home", embedder="e5:small", **overrides
    )
    deps = AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, demo_slice.embedder),
        sessions=create_session_store(settings),
        recall=demo_slice.recall,
        engine=create_engine(settings),
        embedder=demo_slice.embedder,
    )
    yield deps
    deps.preferences.close()
    deps.sessions.close()


def fresh() -> str:
    return f"u{uuid.uuid4().hex[:10]}"


async def say(deps: AgentDeps, user: str, thread: str, message: str) -> TurnResult:
    return await run_agent(deps, user=user, thread=thread, message=message)


def full_text(deps: AgentDeps, product: ProductOut) -> str:
    stored = deps.recall.get(f"{product.platform}:{product.item_id}")
    assert stored is not None
    return fold(stored.searchable_text())


def keys(result: TurnResult) -> list[str]:
    return [f"{p.platform}:{p.item_id}" for p in result.products]


@pytest.mark.parametrize(
    ("dislike", "search"),
    [
        ("不要塑料的耳机", "推荐头戴式耳机"),
        ("no plastic headphones, please", "over-ear headphones"),
    ],
)
async def test_a_plastic_dislike_keeps_plastic_out_of_later_searches(
    agent: AgentDeps, dislike: str, search: str
) -> None:
    user = fresh()
    await say(agent, user, "t1", dislike)
    result = await say(agent, user, "t2", search)
    assert result.products
    assert not [p.title for p in result.products if PLASTIC.search(full_text(agent, p))]
    assert any(r.reason.startswith("contains excluded term") for r in result.rejected)

    baseline = await say(agent, fresh(), "t1", search)
    assert [p.title for p in baseline.products if PLASTIC.search(full_text(agent, p))], (
        "a shopper without the dislike does see plastic headphones"
    )


@pytest.mark.parametrize(
    ("like", "search"), [("我喜欢木质的", "推荐头戴式耳机"), ("I like wooden things", "headphones")]
)
async def test_a_like_personalizes_and_changes_ranking(
    agent: AgentDeps, like: str, search: str
) -> None:
    user = fresh()
    await say(agent, user, "t1", like)
    liked = await say(agent, user, "t2", search)
    baseline = await say(agent, fresh(), "t1", search)

    assert liked.personalization.active and "wood" in liked.personalization.likes
    assert not baseline.personalization.active
    assert keys(liked) != keys(baseline)
    wooden = sum(bool(WOOD.search(full_text(agent, p))) for p in liked.products)
    assert wooden > sum(bool(WOOD.search(full_text(agent, p))) for p in baseline.products)
    assert any(p.score_user > 0 for p in liked.products)


@pytest.mark.parametrize(
    ("budget", "search", "ceiling"),
    # Over-ear headphones cost ¥300-3,500 in the demo catalog: a ceiling inside that range.
    [("预算300", "推荐耳机", 300), ("budget 1000 yuan", "headphones", 1000)],
)
async def test_over_budget_items_are_rejected_with_reason_and_no_dislike_is_stored(
    agent: AgentDeps, budget: str, search: str, ceiling: int
) -> None:
    user = fresh()
    await say(agent, user, "t1", budget)
    result = await say(agent, user, "t1", search)
    assert result.products and all(p.price_base <= ceiling for p in result.products)
    over = [r for r in result.rejected if r.reason.startswith("over budget")]
    assert over and all(
        re.fullmatch(rf"over budget \(\d+(\.\d+)? > {ceiling} CNY\)", r.reason) for r in over
    )
    # Folded into P_t at the end of the run (capped: the most recent ones are kept).
    kept = result.memory.session.rejected_options
    assert kept[-1] == result.rejected[-1]
    assert len(kept) == min(len(result.rejected), agent.settings.session_max_rejected)
    assert not [
        e
        for e in result.memory.long_term
        if e.polarity is Polarity.DISLIKE or e.category is Category.BRAND
    ]


@pytest.mark.parametrize(
    ("ask", "answer", "language"),
    [("我想买跑步鞋", "42", "zh"), ("I need running shoes", "size 42", "en")],
)
async def test_shoes_without_size_ask_once_and_the_answer_resolves_it(
    agent: AgentDeps, ask: str, answer: str, language: str
) -> None:
    user = fresh()
    first = await say(agent, user, "t1", ask)
    question = question_for("size", language)  # type: ignore[arg-type]
    assert first.products, "best-effort results come with the question"
    assert first.questions == [question]
    assert first.memory.session.open_questions == [question]

    second = await say(agent, user, "t1", answer)
    assert second.language == language
    assert second.questions == []
    session = second.memory.session
    assert session.slots["size"] == "42"
    assert session.open_questions == [] and session.resolved_questions == [question]
    assert second.products
    for product in second.products:
        stored = agent.recall.get(f"{product.platform}:{product.item_id}")
        assert stored is not None and (not stored.sizes or "42" in stored.sizes)


@pytest.mark.parametrize(
    ("dislike", "search"),
    [("不要塑料的耳机", "推荐一件外套"), ("no plastic headphones", "a warm coat")],
)
async def test_an_electronics_dislike_does_not_empty_a_clothing_search(
    agent: AgentDeps, dislike: str, search: str
) -> None:
    user = fresh()
    await say(agent, user, "t1", dislike)
    result = await say(agent, user, "t2", search)
    assert len(result.products) >= 4
    assert [e.domain for e in agent.preferences.list(user)] == ["electronics"]
