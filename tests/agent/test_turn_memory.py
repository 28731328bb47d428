"""A turn hands the reader a bounded slice of memory, not every stored entry: what the
message names, the slugs the turn states, the latest like. A shopper with many entries
still has a stated fact superseded, and the snapshot carries the slice, not the memory.
On SQLite and Redis."""

from __future__ import annotations

from typing import Any

import pytest

from cartwise.agent.nodes.picker import NAMED_IN_REPLY, named_few
from cartwise.agent.nodes.profile import APPLIED_IN_SLICE
from cartwise.agent.run import run_agent
from cartwise.agent.turn_memory import SLICE_PER_NAMESPACE
from cartwise.memory.injector import NAMED_DISLIKES
from cartwise.memory.store import PreferenceEntry
from cartwise.settings import Settings
from cartwise.understanding.reading import Conversation, Language
from tests.agent.conftest import DepsFactory
from tests.doubles import ScriptedEngine


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """Every turn here runs on SQLite and on Redis: a read's bound is each backend's own."""
    if request.param == "sqlite":
        return settings
    url = request.getfixturevalue("clean_redis")
    return settings.model_copy(update={"store_backend": "redis", "redis_url": url})


LIKE_PLASTIC = {
    "language": "en",
    "query": "headphones",
    "stated": [
        {"polarity": "like", "category": "material", "slug": "plastic", "keywords": ["plastic"]}
    ],
}


class SpyingEngine(ScriptedEngine):
    def __init__(self, plans: dict[str, Any]) -> None:
        super().__init__(plans)
        self.planner_memory: list[list[PreferenceEntry]] = []

    def read(self, message: str, conversation: Conversation) -> Any:
        self.planner_memory.append(list(conversation.memory))
        return super().read(message, conversation)


def stored(count: int) -> list[PreferenceEntry]:
    return [
        PreferenceEntry.model_validate(
            {"polarity": "like", "category": "style", "slug": f"style-{n}", "keywords": [f"s{n}"]}
        )
        for n in range(count)
    ]


async def test_the_reader_gets_a_bounded_slice_and_supersedes_still_work(
    make_deps: DepsFactory,
) -> None:
    engine = SpyingEngine({"plastic is fine now": LIKE_PLASTIC})
    deps = make_deps(engine)
    deps.preferences.replace_all("ann", stored(400))  # type: ignore[attr-defined]
    # Stored with a keyword the message does not use: found by the stated slug.
    deps.preferences.upsert(
        "ann",
        PreferenceEntry.model_validate(
            {"polarity": "dislike", "category": "material", "slug": "plastic", "strength": "hard",
             "keywords": ["塑料"]}
        ),
    )  # fmt: skip
    result = await run_agent(deps, user="ann", thread="t1", message="plastic is fine now")
    (memory,) = engine.planner_memory
    assert len(memory) <= SLICE_PER_NAMESPACE
    assert "dislike:material::plastic" in {e.dedup_key for e in memory}
    assert deps.preferences.get("ann", "dislike:material::plastic") is None
    assert deps.preferences.get("ann", "like:material::plastic") is not None
    # The snapshot carries the turn's slice, not 400 entries.
    keys = {e.dedup_key for e in result.memory.long_term}
    assert "like:material::plastic" in keys and "dislike:material::plastic" not in keys
    assert len(result.memory.long_term) <= SLICE_PER_NAMESPACE + 1


async def test_the_snapshot_and_the_curator_get_a_bounded_share_of_what_the_search_applies(
    make_deps: DepsFactory,
) -> None:
    """Every global hard dislike applies to every search: 300 of them all filter, but the
    turn's slice (the curator's input, the snapshot) takes in a bounded share."""
    engine = SpyingEngine({"headphones": {"language": "en", "query": "headphones"}})
    deps = make_deps(engine)
    refusals = [
        PreferenceEntry.model_validate(
            {"polarity": "dislike", "category": "brand", "slug": f"maker-{n}",
             "strength": "hard", "keywords": [f"maker{n}"]}
        )
        for n in range(300)
    ]  # fmt: skip
    deps.preferences.replace_all("ann", refusals)  # type: ignore[attr-defined]

    result = await run_agent(deps, user="ann", thread="t1", message="headphones")

    assert len(result.memory.long_term) <= SLICE_PER_NAMESPACE + APPLIED_IN_SLICE
    assert {e.dedup_key for e in result.memory.long_term} <= {e.dedup_key for e in refusals}


async def test_a_shopper_with_nothing_stored_costs_no_pieces_of_the_message(
    make_deps: DepsFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slice is looked up by every piece of the message (~20,000 for a pasted
    2,000-character one); with nothing stored there is nothing to look up."""
    from cartwise.memory.backends import common

    cut: list[str] = []
    real = common.text_pieces

    def counting(text: str) -> set[str]:
        cut.append(text)
        return real(text)

    monkeypatch.setattr(common, "text_pieces", counting)
    deps = make_deps(SpyingEngine({"plastic is fine now": LIKE_PLASTIC}))
    assert deps.preferences.named_in("new", "plastic is fine now " * 100) == []
    assert cut == []
    deps.preferences.replace_all("ann", stored(3))  # type: ignore[attr-defined]
    assert deps.preferences.named_in("ann", "s1 and s2") and len(cut) == 1


def dislikes(count: int, *, strength: str, prefix: str) -> list[PreferenceEntry]:
    return [
        PreferenceEntry.model_validate(
            {"polarity": "dislike", "category": "material", "slug": f"{prefix}-{n}",
             "strength": strength, "keywords": [f"{prefix}{n}"]}
        )
        for n in range(count)
    ]  # fmt: skip


async def test_a_turn_names_a_few_stored_dislikes_and_counts_the_others(
    make_deps: DepsFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """30 global hard dislikes all filter and 40 soft ones all demote, but the profile stage
    takes in a bounded number of entries and the reply names five of each with a count."""
    from cartwise.agent.nodes import profile

    handed: list[int] = []
    real = profile.collect_preferences

    def counting(**kwargs: Any) -> profile.TurnPreferences:
        handed.append(len(kwargs["memory"]))
        return real(**kwargs)

    monkeypatch.setattr(profile, "collect_preferences", counting)
    engine = SpyingEngine({"headphones": {"language": "en", "query": "headphones"}})
    deps = make_deps(engine)
    hard = dislikes(30, strength="hard", prefix="fiber")
    soft = dislikes(40, strength="soft", prefix="shade")
    deps.preferences.replace_all("ann", [*hard, *soft, *stored(300)])  # type: ignore[attr-defined]

    await run_agent(deps, user="ann", thread="t1", message="headphones")

    (facts,) = engine.replied
    assert all(name.startswith("fiber ") for name in facts.excluded_terms[:-1])
    assert len(facts.excluded_terms) == NAMED_IN_REPLY + 1
    assert facts.excluded_terms[-1] == f"and {30 - NAMED_IN_REPLY} more"
    [lower] = [fact for fact in facts.applied if fact.startswith("ranking lower: ")]
    names = lower.removeprefix("ranking lower: ").split(", ")
    assert len(names) == NAMED_IN_REPLY + 1 and names[-1] == f"and {40 - NAMED_IN_REPLY} more"
    assert all(name.startswith("shade ") for name in names[:-1])
    (count,) = handed
    assert count <= SLICE_PER_NAMESPACE + 2 * NAMED_DISLIKES + deps.settings.preference_top_k


@pytest.mark.parametrize(
    ("names", "more", "language", "shown"),
    [
        (["a", "b"], 0, "en", ["a", "b"]),
        (["a", "a", "b"], 3, "en", ["a", "b", "and 3 more"]),
        ([f"n{i}" for i in range(7)], 1, "en", ["n0", "n1", "n2", "n3", "n4", "and 3 more"]),
        ([f"n{i}" for i in range(6)], 0, "zh", ["n0", "n1", "n2", "n3", "n4", "还有1项"]),
        ([], 4, "en", ["4 things you refused"]),
        ([], 0, "zh", []),
    ],
)
def test_a_reply_list_names_a_few_and_counts_the_others(
    names: list[str], more: int, language: Language, shown: list[str]
) -> None:
    assert named_few(names, more, language) == shown
