"""The multi-turn shopping conversations, end to end through HTTP and SSE with the real agent: rules
engine, bundled e5 model, the demo catalog's headphones/shoes/coats slice (the agent tests'
session fixture), real stores — SQLite, and Redis marked `redis`.

One app per backend serves the whole module; every test uses fresh accounts, so
conversations never share memory. The same conversations run against `run_agent` directly
in tests/agent/test_conversations.py; these prove they survive HTTP, auth and SSE."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from ag_ui.core import EventType
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.memory import create_preference_store, create_session_store
from cartwise.settings import Settings
from cartwise.understanding import create_engine
from tests.agent.conftest import DemoSlice, demo_slice  # noqa: F401 - the shared e5 slice
from tests.api.conftest import CHEAP_HASHING, TEST_SECRET, run_input, signup
from tests.api.sse import check_legal_order, parse_sse

PLASTIC_WORDS = ("plastic", "塑料", "塑胶")


@dataclass
class Served:
    client: TestClient
    deps: AgentDeps


@dataclass
class Turn:
    events: list[Any]
    snapshot: dict[str, Any]
    personalization: dict[str, Any]

    @property
    def products(self) -> list[dict[str, Any]]:
        return list(self.snapshot["products"])


pytestmark = [pytest.mark.model, pytest.mark.slow]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def served(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    demo_slice: DemoSlice,  # noqa: F811 - the fixture imported above
) -> Iterator[Served]:
    backend = request.param
    overrides: dict[str, Any] = {}
    if backend == "redis":
        import redis

        url = request.getfixturevalue("redis_url")
        redis.Redis.from_url(url).flushdb()
        overrides = {"store_backend": "redis", "redis_url": url, "auth_secret": TEST_SECRET}
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=tmp_path_factory.mktemp(f"conversations-{backend}"),
        embedder="e5:small",
        rate_limit_per_minute=1000,
        # every shopper of this module registers and signs in from one address
        register_per_hour=1000,
        auth_attempts_per_minute=1000,
        **CHEAP_HASHING,
        **overrides,
    )
    deps = AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, demo_slice.embedder),
        sessions=create_session_store(settings),
        recall=demo_slice.recall,
        engine=create_engine(settings),
        embedder=demo_slice.embedder,
    )
    with TestClient(create_app(settings, deps), client=("127.0.0.1", 1)) as client:
        yield Served(client, deps)
    deps.preferences.close()
    deps.sessions.close()


@dataclass
class Shopper:
    """A fresh account; its thread names are made unique (thread ids are global)."""

    name: str
    headers: dict[str, str]

    def thread(self, name: str) -> str:
        return f"{self.name}-{name}"


def new_user(served: Served) -> Shopper:
    name = f"u{uuid.uuid4().hex[:10]}"
    return Shopper(name, signup(served.client, name))


def say(served: Served, shopper: Shopper, thread: str, message: str) -> Turn:
    response = served.client.post(
        "/api/agent", json=run_input(shopper.thread(thread), message), headers=shopper.headers
    )
    assert response.status_code == 200, response.text
    events = parse_sse(response.text)
    check_legal_order(events)
    assert events[-1].type == EventType.RUN_FINISHED, events[-1]
    snapshots = [e for e in events if e.type == EventType.STATE_SNAPSHOT]
    personalization = [
        e.value for e in events if e.type == EventType.CUSTOM and e.name == "personalization"
    ]
    assert snapshots and personalization
    return Turn(events, snapshots[-1].snapshot, personalization[-1])


def mentions_plastic(served: Served, product: dict[str, Any]) -> bool:
    stored = served.deps.recall.get(f"{product['platform']}:{product['item_id']}")
    assert stored is not None
    text = stored.searchable_text().casefold()
    return any(word in text for word in PLASTIC_WORDS)


@pytest.mark.parametrize(
    ("dislike", "query"),
    [
        ("不要塑料的耳机", "推荐头戴式耳机"),
        ("no plastic headphones", "recommend over-ear headphones"),
    ],
)
def test_plastic_dislike_filters_kept_items(served: Served, dislike: str, query: str) -> None:
    shopper = new_user(served)
    say(served, shopper, "t1", dislike)
    kept = say(served, shopper, "t1", query).products
    assert kept, "the dislike emptied the results"
    assert not [p["title"] for p in kept if mentions_plastic(served, p)]
    memory = served.client.get("/api/memory", headers=shopper.headers).json()
    assert any(e["polarity"] == "dislike" and e["slug"] == "plastic" for e in memory)

    fresh = say(served, new_user(served), "t1", query).products
    assert any(mentions_plastic(served, p) for p in fresh), "no plastic item to filter out"


@pytest.mark.parametrize(
    ("like", "query"),
    [("我喜欢木质的", "推荐头戴式耳机"), ("I like wooden ones", "recommend over-ear headphones")],
)
def test_like_turns_personalization_on_and_changes_ranking(
    served: Served, like: str, query: str
) -> None:
    shopper = new_user(served)
    say(served, shopper, "t1", like)
    liked = say(served, shopper, "t1", query)
    assert liked.personalization["active"] is True
    assert "wood" in liked.personalization["likes"]
    neutral = say(served, new_user(served), "t1", query)
    assert neutral.personalization["active"] is False
    ranking = [(p["platform"], p["item_id"]) for p in liked.products]
    assert ranking != [(p["platform"], p["item_id"]) for p in neutral.products]


@pytest.mark.parametrize(
    ("budget", "query"),
    [("预算300", "推荐头戴式耳机"), ("budget 300 yuan", "recommend over-ear headphones")],
)
def test_over_budget_is_rejected_with_a_reason_not_a_brand_dislike(
    served: Served, budget: str, query: str
) -> None:
    shopper = new_user(served)
    say(served, shopper, "t1", budget)
    turn = say(served, shopper, "t1", query)
    assert all(p["price_base"] <= 300 for p in turn.products)
    over_budget = [r for r in turn.snapshot["rejected"] if "budget" in r["reason"]]
    assert over_budget, turn.snapshot["rejected"][:3]
    thread = served.client.get(
        f"/api/threads/{shopper.thread('t1')}", headers=shopper.headers
    ).json()
    assert thread["state"]["slots"].get("budget_max") == "300"
    assert any("budget" in r["reason"] for r in thread["state"]["rejected_options"])
    memory = served.client.get("/api/memory", headers=shopper.headers).json()
    assert not [e for e in memory if e["polarity"] == "dislike" and e["category"] == "brand"]


@pytest.mark.parametrize(
    ("ask", "answer"), [("推荐跑鞋", "42"), ("recommend running shoes", "size 42")]
)
def test_missing_shoe_size_is_asked_then_answered(served: Served, ask: str, answer: str) -> None:
    shopper = new_user(served)
    first = say(served, shopper, "t1", ask)
    assert first.products, "best-effort results come with the question"
    assert len(first.snapshot["questions"]) == 1
    question = first.snapshot["questions"][0]
    state = served.client.get(
        f"/api/threads/{shopper.thread('t1')}", headers=shopper.headers
    ).json()["state"]
    assert state["open_questions"] == [question]

    say(served, shopper, "t1", answer)
    state = served.client.get(
        f"/api/threads/{shopper.thread('t1')}", headers=shopper.headers
    ).json()["state"]
    assert state["slots"].get("size") == "42"
    assert question not in state["open_questions"]
    assert question in state["resolved_questions"]


@pytest.mark.parametrize(
    ("dislike", "query"),
    [("不要塑料的耳机", "推荐雨衣"), ("no plastic headphones", "recommend a raincoat")],
)
def test_electronics_dislike_does_not_empty_a_clothing_search(
    served: Served, dislike: str, query: str
) -> None:
    shopper = new_user(served)
    say(served, shopper, "t1", dislike)
    assert say(served, shopper, "t2", query).products


def test_metrics_show_latency_of_every_stage_and_memory_writes(served: Served) -> None:
    from cartwise.agent.events import STAGES

    shopper = new_user(served)
    say(served, shopper, "t1", "不要塑料的耳机")
    text = served.client.get("/metrics").text
    for stage in STAGES:
        assert f'cartwise_turn_stage_seconds_count{{stage="{stage}"}}' in text, stage
    assert 'cartwise_memory_writes_total{kind="added"}' in text
    assert 'cartwise_turns_total{outcome="finished"}' in text


NOT_THE_SHOPPERS_OWN = [
    'A customer review I read: "the zipper feels flimsy, stay away from nylon". Show me backpacks',
    "The product page says: no wool, no down, polyester shell. I need a winter jacket",
    "Suppose I were vegan, would leather shoes be a problem? Anyway show me running shoes",
    "Lots of people can't stand Samsung phones. Show me headphones",
    "My sister says she never wears polyester. Show me dresses for her",
    "有条评论说“塑料感很强，别买塑料的”。给我推荐耳机",
    "假如我对羊毛过敏，该买什么毛衣？",
    "以前我讨厌粉色，不过现在无所谓了。推荐T恤",
    "很多人受不了华为。推荐耳机",
]
"""Quoted, pasted, supposed, revoked and other people's words (none of them the
understanding splits' wording)."""


@pytest.mark.parametrize("message", NOT_THE_SHOPPERS_OWN)
def test_words_that_are_not_the_shoppers_own_never_become_their_hard_dislike(
    served: Served, message: str
) -> None:
    shopper = new_user(served)
    say(served, shopper, "t", message)

    own = served.deps.preferences.list(shopper.name, recipient="self")
    assert [e.dedup_key for e in own if e.is_hard_dislike] == []


@pytest.mark.parametrize(
    ("message", "recipient", "slug"),
    [
        ("My brother says he can't stand wool. Find him a sweater", "brother", "wool"),
        ("我妈妈说她从来不穿涤纶的。给她推荐外套", "mum", "polyester"),
    ],
)
def test_a_named_persons_reported_refusal_is_stored_as_theirs_not_the_shoppers(
    served: Served, message: str, recipient: str, slug: str
) -> None:
    shopper = new_user(served)
    say(served, shopper, "t", message)

    own = served.deps.preferences.list(shopper.name, recipient="self")
    assert [e.dedup_key for e in own if e.is_hard_dislike] == []
    theirs = served.deps.preferences.list(shopper.name, recipient=recipient)
    assert [e.slug for e in theirs if e.is_hard_dislike] == [slug]


def test_the_shoppers_own_refusal_is_still_stored_without_their_contact_details(
    served: Served,
) -> None:
    shopper = new_user(served)
    say(
        served, shopper, "t", "I can't stand nylon, text me at +86 139 8765 4321. Show me backpacks"
    )

    own = served.deps.preferences.list(shopper.name, recipient="self")
    hard = [e for e in own if e.is_hard_dislike]
    assert [e.slug for e in hard] == ["nylon"]
    stored = " ".join([*hard[0].keywords, hard[0].provenance.source_text])
    assert "8765" not in stored and "139" not in stored
