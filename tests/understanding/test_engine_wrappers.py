"""The engine wrappers on their own logic: `FallbackEngine` answers a failed call with its
fallback and counts why; `GuardedEngine` repairs a reading against the rules engine's."""

from __future__ import annotations

from functools import cache

import pytest

from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import Category, Polarity
from cartwise.understanding.base import (
    CuratorOutput,
    CuratorTurn,
    EngineFailure,
    ReplyFacts,
)
from cartwise.understanding.counters import EngineCounters
from cartwise.understanding.fallback import FallbackEngine
from cartwise.understanding.guarded import GuardedEngine
from cartwise.understanding.reading import Conversation, Reading, StatedPreference
from cartwise.understanding.rules.engine import RulesEngine


@cache
def rules() -> RulesEngine:
    return RulesEngine()


class ScriptedEngine:
    """Answers every read with a fixed reading, or fails every call with one reason."""

    def __init__(self, reading: Reading | None = None, failure: str = "") -> None:
        self._reading = reading
        self._failure = failure
        self.reads = 0

    @property
    def name(self) -> str:
        return "scripted"

    def read(self, message: str, conversation: Conversation) -> Reading:
        self.reads += 1
        if self._failure or self._reading is None:
            raise EngineFailure("timeout", "scripted")
        return self._reading

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        raise EngineFailure("malformed_json", "scripted")

    def write_reply(self, facts: ReplyFacts) -> str:
        raise EngineFailure("http_error", "HTTP 500")


def conversation() -> Conversation:
    return Conversation(session=SessionPrefState(thread="t"))


def test_a_failed_read_is_answered_by_the_fallback_and_counted() -> None:
    counters = EngineCounters()
    engine = FallbackEngine(ScriptedEngine(failure="timeout"), rules(), counters)
    message = "想买一双跑步鞋，不要耐克的"

    reading = engine.read(message, conversation())

    assert reading == rules().read(message, conversation())
    snapshot = counters.snapshot()
    assert snapshot["calls"] == {"plan": 1}
    assert snapshot["fallbacks"] == {"timeout": 1}
    assert engine.name == "scripted"


def test_each_operation_falls_back_on_its_own() -> None:
    counters = EngineCounters()
    engine = FallbackEngine(ScriptedEngine(failure="x"), rules(), counters)
    facts = ReplyFacts(language="en", query="umbrella")
    message = "an umbrella please"
    reading = rules().read(message, conversation())
    turn = CuratorTurn(user_message=message, reading=reading, session=SessionPrefState(thread="t"))

    assert engine.write_reply(facts) == rules().write_reply(facts)
    assert engine.curate(turn) == rules().curate(turn)
    assert counters.snapshot()["fallbacks_by_operation"] == {"reply": 1, "curate": 1}
    assert counters.snapshot()["fallbacks"] == {"http_error": 1, "malformed_json": 1}


def test_a_like_inside_a_negation_is_corrected_by_the_guard() -> None:
    message = "I need headphones, nothing made of plastic"
    mislabelled = Reading(
        query="headphones plastic",
        stated=[
            StatedPreference(
                polarity=Polarity.LIKE,
                category=Category.MATERIAL,
                slug="plastic",
                keywords=["plastic"],
            )
        ],
    )
    counters = EngineCounters()
    engine = GuardedEngine(ScriptedEngine(mislabelled), rules(), counters)

    reading = engine.read(message, conversation())

    assert [(s.slug, s.polarity) for s in reading.stated] == [("plastic", Polarity.DISLIKE)]
    assert "plastic" not in reading.query
    assert counters.snapshot()["polarity_corrections"] == 1


def test_specs_come_from_the_deterministic_reader_whatever_the_inner_engine_says() -> None:
    message = "a 27-inch monitor under 600 euros"
    engine = GuardedEngine(ScriptedEngine(Reading(query="monitor")), rules(), EngineCounters())

    reading = engine.read(message, conversation())

    assert reading.specs == rules().read(message, conversation()).specs
    assert reading.specs, "the rules reader reads the screen size"


def test_a_guard_over_a_failing_engine_lets_the_failure_through() -> None:
    engine = GuardedEngine(ScriptedEngine(failure="x"), rules(), EngineCounters())

    with pytest.raises(EngineFailure):
        engine.read("a red scarf", conversation())
