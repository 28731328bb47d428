"""The curator's output turned into writes: validated whole first, supersedes attached to the
entry they concern, mechanical facts folded in."""

from __future__ import annotations

import pytest

from cartwise.agent.clarification import question_for
from cartwise.agent.context import record_rejection, turn_context
from cartwise.agent.nodes.curator import plan_writes
from cartwise.agent.state import TurnState
from cartwise.errors import InvalidInput
from cartwise.memory.session_state import RejectedOption, SessionPatch, SessionPrefState
from cartwise.memory.store import PreferenceEntry
from cartwise.understanding.base import CuratorOutput

WOOD_DISLIKE = PreferenceEntry(polarity="dislike", category="material", slug="wood")


def state(**session: object) -> TurnState:
    return {"session": SessionPrefState(thread="t1", **session), "slots": {}}  # type: ignore[arg-type]


def test_supersedes_ride_with_the_entry_of_the_same_fact() -> None:
    output = CuratorOutput(
        long_term=[WOOD_DISLIKE],
        supersede=["like:material::wood", "dislike:material::wood", "like:color::red"],
    )
    writes = plan_writes(output, state(), "")
    [(entry, supersede)] = writes.upserts
    assert entry == WOOD_DISLIKE
    assert supersede == ["like:material::wood"]  # never its own key
    assert writes.supersede_only == ["like:color::red"]


@pytest.mark.parametrize("key", ["nonsense", "like:colour::red", "like:color::Red Wine"])
def test_an_invalid_supersede_key_rejects_the_whole_output(key: str) -> None:
    with pytest.raises(InvalidInput):
        plan_writes(CuratorOutput(long_term=[WOOD_DISLIKE], supersede=[key]), state(), "")


def test_constructed_garbage_is_rejected_before_any_write() -> None:
    garbage = CuratorOutput.model_construct(long_term=[{"polarity": "love"}], supersede=[])
    with pytest.raises(InvalidInput, match="polarity"):
        plan_writes(garbage, state(), "")


def test_rejections_questions_and_filled_slots_are_folded_into_the_patch() -> None:
    asked = question_for("size", "en")
    option = RejectedOption(platform="jd", item_id="1", title="t", reason="out of stock")
    with turn_context("ann", "t1", None):
        record_rejection(option)
        turn = {**state(open_questions=[asked]), "slots": {"size": "42"}}
        writes = plan_writes(
            CuratorOutput(session_patch=SessionPatch(current_intent="buy shoes")),
            turn,  # type: ignore[arg-type]
            question_for("size", "zh"),
        )
    patch = writes.session_patch
    assert patch.rejected_options == [option]
    assert patch.slots_patch == {"size": "42"}
    assert patch.resolved_questions == [asked]
    assert patch.new_open_questions == [question_for("size", "zh")]
    assert patch.current_intent == "buy shoes"
