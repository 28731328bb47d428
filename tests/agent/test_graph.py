"""The turn graph wired end to end with scripted understanding: events in a legal order,
the profile computed once and visible in every parallel search, memory written whole."""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import pytest
from ag_ui.core import BaseEvent, EventType

from cartwise.agent.events import STAGES
from cartwise.agent.run import run_agent
from cartwise.errors import InvalidInput
from cartwise.memory.store import PreferenceEntry
from cartwise.recall.item_search import user_profile
from cartwise.recall.service import RecallService, SearchResponse
from cartwise.understanding.base import CuratorOutput, CuratorTurn
from tests.agent.conftest import PLATFORMS, DepsFactory
from tests.doubles import CountingEmbedder, ScriptedEngine

PLASTIC_DISLIKE = {
    "language": "en",
    "query": "headphones",
    "domain": "electronics",
    "stated": [
        {
            "polarity": "dislike",
            "category": "material",
            "slug": "plastic",
            "strength": "hard",
            "keywords": ["plastic", "塑料"],
        }
    ],
}
WOOD_LIKE = {
    "language": "en",
    "intent": "preference",
    "stated": [{"polarity": "like", "category": "material", "slug": "wood", "keywords": ["wood"]}],
}


class Recorder:
    def __init__(self) -> None:
        self.events: list[BaseEvent] = []

    async def __call__(self, event: BaseEvent) -> None:
        self.events.append(event)

    def of(self, kind: EventType) -> list[Any]:
        return [e for e in self.events if e.type == kind]


async def test_events_come_in_a_legal_order(make_deps: DepsFactory) -> None:
    deps = make_deps(ScriptedEngine({"no plastic headphones": PLASTIC_DISLIKE}))
    recorder = Recorder()
    result = await run_agent(
        deps, user="ann", thread="t1", message="no plastic headphones", emit=recorder
    )

    steps = [(e.type, e.step_name) for e in recorder.events if e.type.name.startswith("STEP_")]
    expected = [
        (kind, stage)
        for stage in STAGES
        for kind in (EventType.STEP_STARTED, EventType.STEP_FINISHED)
    ]
    assert steps == expected

    starts = {e.tool_call_id: e.tool_call_name for e in recorder.of(EventType.TOOL_CALL_START)}
    assert sorted(starts.values()) == sorted(
        ["reader", "item_picker", *(f"item_search:{p}" for p in PLATFORMS)]
    )
    for kind in (EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END, EventType.TOOL_CALL_RESULT):
        assert Counter(e.tool_call_id for e in recorder.of(kind)) == Counter(starts.keys())
    for call_id in starts:
        kinds = [e.type for e in recorder.events if getattr(e, "tool_call_id", None) == call_id]
        assert kinds == [
            EventType.TOOL_CALL_START,
            EventType.TOOL_CALL_ARGS,
            EventType.TOOL_CALL_END,
            EventType.TOOL_CALL_RESULT,
        ]

    text = [e for e in recorder.events if e.type.name.startswith("TEXT_MESSAGE")]
    assert text[0].type == EventType.TEXT_MESSAGE_START and text[0].role == "assistant"
    assert text[-1].type == EventType.TEXT_MESSAGE_END
    assert "".join(e.delta for e in text[1:-1]) == result.reply
    assert len(text) > 3  # streamed in several deltas

    customs = [e.name for e in recorder.of(EventType.CUSTOM)]
    assert customs == ["personalization", "memory_updated"]
    assert recorder.events[-1].type == EventType.STATE_SNAPSHOT
    assert recorder.events[-1].snapshot == result.snapshot()
    assert "reply" not in recorder.events[-1].snapshot
    assert set(result.timings) == {*STAGES, "total"}


async def test_search_tool_results_carry_ids_and_scores_not_products(
    make_deps: DepsFactory,
) -> None:
    """AG-UI clients resend every tool result with each later run: keep them small."""
    deps = make_deps(ScriptedEngine({"no plastic headphones": PLASTIC_DISLIKE}))
    recorder = Recorder()
    await run_agent(deps, user="ann", thread="t1", message="no plastic headphones", emit=recorder)
    names = {e.tool_call_id: e.tool_call_name for e in recorder.of(EventType.TOOL_CALL_START)}
    searches = [
        json.loads(e.content)
        for e in recorder.of(EventType.TOOL_CALL_RESULT)
        if names[e.tool_call_id].startswith("item_search:")
    ]
    assert searches and all(s["results"] for s in searches)
    for search in searches:
        assert all(set(hit) == {"item_id", "score"} for hit in search["results"])


async def test_this_turns_dislike_filters_at_once_and_is_remembered(make_deps: DepsFactory) -> None:
    deps = make_deps(ScriptedEngine({"no plastic headphones": PLASTIC_DISLIKE}))
    result = await run_agent(deps, user="ann", thread="t1", message="no plastic headphones")
    assert result.products and all("plastic" not in p.title for p in result.products)
    assert {r.reason for r in result.rejected} == {"contains excluded term plastic"}
    assert [e.dedup_key for e in result.memory.long_term] == ["dislike:material::plastic"]
    # The rejected options are folded into P_t at the end of the run.
    session = deps.sessions.get("ann", "t1")
    assert {r.item_id for r in session.rejected_options} == {f"{p}-plastic" for p in PLATFORMS}
    assert [m.role for m in deps.sessions.messages("ann", "t1")] == ["user", "assistant"]


class ProfileSpy(RecallService):
    """The real service, recording the ContextVar profile each search saw, and where."""

    def __init__(self, inner: RecallService) -> None:
        super().__init__(inner.index, inner.embedder, beta=inner.beta, lexical=inner.lexical)
        self.seen: list[tuple[str | None, str | None, int]] = []
        self._lock = threading.Lock()

    def search(self, query: str, **kwargs: Any) -> SearchResponse:  # type: ignore[override]
        with self._lock:
            self.seen.append((user_profile.get(), kwargs.get("profile"), threading.get_ident()))
        return super().search(query, **kwargs)


async def test_profile_is_computed_once_and_seen_by_every_parallel_search(
    make_deps: DepsFactory,
) -> None:
    deps = make_deps(ScriptedEngine({"I like wood": WOOD_LIKE}))
    await run_agent(deps, user="ann", thread="t1", message="I like wood")
    spy = ProfileSpy(deps.recall)
    ranked = Counter[str]()
    store = deps.preferences
    original = store.score_namespace

    def counting(user: str, query: str, *, recipient: str = "self") -> Any:
        ranked[query] += 1
        return original(user, query, recipient=recipient)

    store.score_namespace = counting  # type: ignore[method-assign]
    deps = type(deps)(**{**deps.__dict__, "recall": spy})
    result = await run_agent(deps, user="ann", thread="t2", message="headphones")

    assert sum(ranked.values()) == 1  # one preference read for profile, excludes and block
    assert len(spy.seen) == len(PLATFORMS)
    profiles = {var for var, _, _ in spy.seen}
    assert len(profiles) == 1 and "wood" in (profiles.pop() or "")
    assert threading.get_ident() not in {ident for _, _, ident in spy.seen}
    assert user_profile.get() is None  # nothing leaks out of the turn
    assert result.personalization.active and result.personalization.likes == ["wood"]


async def test_a_turn_with_stored_likes_embeds_no_profile_text(make_deps: DepsFactory) -> None:
    deps = make_deps(ScriptedEngine({"I like wood": WOOD_LIKE}))
    await run_agent(deps, user="ann", thread="t1", message="I like wood")
    counting = CountingEmbedder(deps.recall.embedder)
    deps.recall.embedder = counting
    result = await run_agent(deps, user="ann", thread="t2", message="headphones")

    # The user tower is the stored like's vector: only the query reaches the model.
    assert counting.queries and all("wood" not in text for text in counting.queries)
    assert result.personalization.active and result.personalization.likes == ["wood"]
    assert any(p.score_user != 0 for p in result.products)


async def test_no_like_means_no_personalization(make_deps: DepsFactory) -> None:
    deps = make_deps(ScriptedEngine())
    result = await run_agent(deps, user="bob", thread="t1", message="headphones")
    assert not result.personalization.active
    assert all(p.score_user == 0 for p in result.products)


async def test_price_rejection_never_becomes_a_dislike(make_deps: DepsFactory) -> None:
    engine = ScriptedEngine(
        {
            "headphones under 300": {
                "language": "en",
                "query": "headphones",
                "slots": {"budget_max": "300"},
            }
        }
    )
    deps = make_deps(engine)
    result = await run_agent(deps, user="ann", thread="t1", message="headphones under 300")
    assert {r.reason for r in result.rejected} >= {"over budget (629 > 300 CNY)"}
    assert result.memory.long_term == []
    # The curator never sees tool output: only the user's words and memory.
    turn: CuratorTurn = engine.curated[0]
    seen = turn.model_dump_json()
    assert "over budget" not in seen and "walnut" not in seen
    assert deps.sessions.get("ann", "t1").slots["budget_max"] == "300"


async def test_missing_size_asks_once_and_the_answer_resolves_it(make_deps: DepsFactory) -> None:
    deps = make_deps(
        ScriptedEngine(
            {
                "running shoes": {"language": "en", "query": "running shoes", "domain": "shoes"},
                "42": {"language": "en", "intent": "answer", "slots": {"size": "42"}},
            }
        )
    )
    first = await run_agent(deps, user="ann", thread="t1", message="running shoes")
    assert first.products, "best-effort results are shown while asking"
    [question] = first.questions
    assert first.memory.session.open_questions == [question]

    second = await run_agent(deps, user="ann", thread="t1", message="42")
    assert second.questions == []
    assert second.memory.session.slots["size"] == "42"
    assert second.memory.session.open_questions == []
    assert second.memory.session.resolved_questions == [question]


class BadCurator(ScriptedEngine):
    def curate(self, turn: Any) -> Any:
        good = PreferenceEntry(polarity="like", category="material", slug="wood")
        return CuratorOutput.model_construct(long_term=[good], supersede=["not-a-key"])


async def test_invalid_curator_output_writes_no_long_term_memory(make_deps: DepsFactory) -> None:
    deps = make_deps(
        BadCurator(
            {"headphones under 300": {"query": "headphones", "slots": {"budget_max": "300"}}}
        )
    )
    result = await run_agent(deps, user="ann", thread="t1", message="headphones under 300")
    assert deps.preferences.list("ann") == [] and result.memory.long_term == []
    assert deps.sessions.get("ann", "t1").rejected_options  # mechanical facts still kept


@pytest.mark.parametrize(("message", "needle"), [("   ", "empty"), ("x" * 2001, "limit is 2000")])
async def test_bad_messages_are_refused_before_anything_is_written(
    make_deps: DepsFactory, message: str, needle: str
) -> None:
    deps = make_deps(ScriptedEngine())
    with pytest.raises(InvalidInput, match=needle):
        await run_agent(deps, user="ann", thread="t1", message=message)
    assert deps.sessions.threads("ann") == []


async def test_thread_ids_belong_to_their_user(make_deps: DepsFactory) -> None:
    deps = make_deps(ScriptedEngine())
    await run_agent(deps, user="ann", thread="t1", message="headphones")
    await run_agent(deps, user="eve", thread="t1", message="headphones")
    await run_agent(deps, user="eve", thread="t1", message="headphones")
    assert len(deps.sessions.messages("ann", "t1")) == 2
    assert len(deps.sessions.messages("eve", "t1")) == 4


async def test_the_request_domain_is_an_exact_filter(make_deps: DepsFactory) -> None:
    deps = make_deps(
        ScriptedEngine(
            {"mesh things": {"language": "en", "query": "mesh", "domain": "electronics"}}
        )
    )
    result = await run_agent(deps, user="ann", thread="t1", message="mesh things")
    assert result.products and all("headphones" in p.title for p in result.products)


async def test_a_wrong_domain_falls_back_to_an_unfiltered_search(make_deps: DepsFactory) -> None:
    deps = make_deps(
        ScriptedEngine(
            {"running shoes": {"language": "en", "query": "running shoes", "domain": "baby"}}
        )
    )
    result = await run_agent(deps, user="ann", thread="t1", message="running shoes")
    assert any("shoes" in p.title for p in result.products)


async def test_the_reply_names_what_was_excluded_once_in_the_users_language(
    make_deps: DepsFactory,
) -> None:
    engine = ScriptedEngine({"不要塑料的耳机": {**PLASTIC_DISLIKE, "language": "zh"}})
    deps = make_deps(engine)
    await run_agent(deps, user="ann", thread="t1", message="不要塑料的耳机")
    await run_agent(deps, user="ann", thread="t2", message="headphones")
    assert engine.replied[0].excluded_terms == ["塑料"]
    assert engine.replied[1].excluded_terms == ["plastic"]
    assert engine.replied[1].filtered_out == {"contain something you excluded": len(PLATFORMS)}


async def test_a_bare_preference_in_a_new_thread_asks_what_to_find(make_deps: DepsFactory) -> None:
    engine = ScriptedEngine({"I like wood": WOOD_LIKE})
    deps = make_deps(engine)
    result = await run_agent(deps, user="ann", thread="t1", message="I like wood")
    assert result.products == [] and result.questions == []
    assert engine.replied[0].question.startswith("Noted. What are you looking for?")
    assert result.memory.session.open_questions == []
    assert [e.slug for e in result.memory.long_term] == ["wood"]
