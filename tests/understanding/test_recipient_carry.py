"""A recipient named in an earlier turn carries to the next (the session's `recipient`):
the rules planner reads it when a message names nobody, and a message naming the shopper or
someone else replaces it."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import SessionPatch, SessionPrefState, apply_patch
from cartwise.understanding.reading import Conversation
from cartwise.understanding.rules.engine import RulesEngine

FOR_MUM = SessionPrefState(thread="t", recipient="mum")


@pytest.mark.parametrize("message", ["要羊毛的，别太贵", "wool please, not too expensive"])
def test_a_turn_naming_nobody_is_still_for_the_active_recipient(message: str) -> None:
    assert RulesEngine().read(message, Conversation(session=FOR_MUM)).recipient == "mum"


@pytest.mark.parametrize("message", ["她不喜欢紫色", "she hates purple"])
def test_a_pronoun_means_the_active_recipient(message: str) -> None:
    plan = RulesEngine().read(message, Conversation(session=FOR_MUM))
    [stated] = plan.stated
    assert (stated.recipient, stated.slug, stated.polarity.value) == ("mum", "purple", "dislike")


@pytest.mark.parametrize(
    ("message", "recipient"),
    [
        ("给我自己买条围巾", "self"),
        ("this one is for me", "self"),
        ("再给我爸买双鞋", "dad"),
        ("a gift for my husband", "husband"),
    ],
)
def test_naming_the_shopper_or_someone_else_replaces_it(message: str, recipient: str) -> None:
    assert RulesEngine().read(message, Conversation(session=FOR_MUM)).recipient == recipient


@pytest.mark.parametrize("message", ["她不喜欢紫色", "she hates purple"])
def test_without_an_active_recipient_a_pronoun_is_nobody_named(message: str) -> None:
    plan = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert plan.recipient == "self"
    assert all(s.recipient == "self" for s in plan.stated)


def test_the_session_keeps_the_recipient_until_a_patch_replaces_it() -> None:
    state = apply_patch(SessionPrefState(thread="t"), SessionPatch(recipient="mum"), max_rejected=5)
    state = apply_patch(state, SessionPatch(current_intent="买围巾"), max_rejected=5)
    assert state.recipient == "mum" and not state.is_empty
    assert apply_patch(state, SessionPatch(recipient="self"), max_rejected=5).recipient == "self"
