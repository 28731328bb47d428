"""The curator's output turned into writes: validated whole first, supersedes attached to the
entry they concern, mechanical facts folded in."""

from __future__ import annotations

import pytest

from cartwise.agent.context import record_rejection, turn_context
from cartwise.agent.nodes.curator import plan_writes
from cartwise.agent.state import TurnState
from cartwise.errors import InvalidInput
from cartwise.memory.session_state import RejectedOption, SessionPatch, SessionPrefState
from cartwise.memory.store import PreferenceEntry
from cartwise.understanding.base import CuratorOutput, RecipientMemory
from cartwise.understanding.questions import question_for
from cartwise.understanding.reading import Reading

WOOD_DISLIKE = PreferenceEntry(polarity="dislike", category="material", slug="wood")


def state(plan: Reading | None = None, **session: object) -> TurnState:
    return {
        "session": SessionPrefState(thread="t1", **session),  # type: ignore[arg-type]
        "slots": {},
        "plan": plan or Reading(),
    }


def test_supersedes_ride_with_the_entry_of_the_same_fact() -> None:
    output = CuratorOutput(
        long_term=[WOOD_DISLIKE],
        supersede=["like:material::wood", "dislike:material::wood", "like:color::red"],
    )
    writes = plan_writes(output, state(), "")
    [(entry, supersede)] = writes.upserts
    assert entry == WOOD_DISLIKE
    assert supersede == ["like:material::wood"]  # never its own key
    assert writes.supersede_only == {"self": ["like:color::red"]}


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


def _stated(slug: str, scope: str, recipient: str = "self") -> dict[str, object]:
    return {
        "polarity": "dislike",
        "category": "brand",
        "slug": slug,
        "strength": "hard",
        "keywords": [slug],
        "scope": scope,
        "recipient": recipient,
    }


def test_session_and_request_preferences_never_reach_long_term_memory() -> None:
    """Whatever the engine hands back: the planner said "this time" / "anything but"."""
    plan = Reading(
        query="手机",
        stated=[_stated("xiaomi", "request"), _stated("puma", "session")],
    )
    leaked = [
        PreferenceEntry(polarity="dislike", category="brand", slug=slug, strength="hard")
        for slug in ("xiaomi", "puma")
    ]
    constraints = [
        {"polarity": "dislike", "category": "brand", "slug": slug} for slug in ("xiaomi", "puma")
    ]
    output = CuratorOutput(long_term=leaked, session_patch=SessionPatch(constraints=constraints))
    writes = plan_writes(output, state(plan), "")
    assert writes.upserts == []
    # The session one lives on in P_t; the request one only shaped this turn's picks.
    assert [c.slug for c in writes.session_patch.constraints] == ["puma"]


def test_a_long_term_statement_of_the_same_fact_is_still_stored() -> None:
    plan = Reading(stated=[_stated("puma", "session"), _stated("puma", "long_term")])
    entry = PreferenceEntry(polarity="dislike", category="brand", slug="puma", strength="hard")
    writes = plan_writes(CuratorOutput(long_term=[entry]), state(plan), "")
    assert [e.slug for e, _ in writes.upserts] == ["puma"]


def test_each_recipients_writes_land_in_that_recipients_namespace() -> None:
    plan = Reading(recipient="mum", stated=[_stated("xiaomi", "long_term", "mum")])
    purple = PreferenceEntry(polarity="dislike", category="color", slug="purple")
    output = CuratorOutput(
        supersede=["dislike:brand::apple"],
        recipients=[
            RecipientMemory(
                recipient="mum",
                long_term=[purple],
                supersede=["like:color::purple", "dislike:brand::puma"],
            )
        ],
    )
    writes = plan_writes(output, state(plan), "")
    [(entry, supersede)] = writes.upserts
    assert entry.recipient == "mum" and entry.slug == "purple"
    assert supersede == ["like:color::purple"]
    assert writes.supersede_only == {
        "self": ["dislike:brand::apple"],
        "mum": ["dislike:brand::puma"],
    }
