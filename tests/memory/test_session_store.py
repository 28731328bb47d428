"""The SessionStore contract (P_t with TTL, patch semantics, recent messages), both backends."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from cartwise.memory import create_session_store
from cartwise.memory.session_state import (
    ChatMessage,
    RejectedOption,
    SessionConstraint,
    SessionPatch,
    SessionStore,
)
from cartwise.settings import Settings

USER = "alice"
THREAD = "thread-1"


@pytest.fixture
def short_lived(backend_settings: Settings) -> Iterator[SessionStore]:
    """A session store whose threads live one second (SESSION_TTL_HOURS=1/3600)."""
    opened = create_session_store(
        backend_settings.model_copy(update={"session_ttl_hours": 1 / 3600})
    )
    yield opened
    opened.close()


def _rejected(item_id: str) -> RejectedOption:
    return RejectedOption(
        platform="jd", item_id=item_id, title=f"item {item_id}", reason="over budget"
    )


def test_a_session_reads_empty_after_its_ttl(short_lived: SessionStore) -> None:
    short_lived.patch(USER, THREAD, SessionPatch(current_intent="buy running shoes"))
    short_lived.append_messages(USER, THREAD, [ChatMessage(role="user", content="running shoes")])
    written_at = time.monotonic()  # after the last write: each write restarts the TTL
    assert short_lived.get(USER, THREAD).current_intent == "buy running shoes"

    time.sleep(max(0.0, written_at + 1.1 - time.monotonic()))  # the TTL is wall-clock time

    assert short_lived.get(USER, THREAD).is_empty
    assert short_lived.messages(USER, THREAD) == []
    assert not short_lived.exists(USER, THREAD)
    assert short_lived.threads(USER) == []
    # An expired thread starts clean, not from its stale state.
    fresh = short_lived.patch(USER, THREAD, SessionPatch(slots_patch={"size": "42"}))
    assert fresh.current_intent == "" and fresh.slots == {"size": "42"}


def test_patch_semantics(sessions: SessionStore) -> None:
    sessions.patch(
        USER,
        THREAD,
        SessionPatch(
            current_intent="买一双跑步鞋 / buy running shoes",
            slots_patch={"size": "42", "budget_max": "500"},
            constraints=[SessionConstraint(polarity="dislike", category="color", slug="black")],
            new_open_questions=["Which size?", "Which colour?"],
            decisions_made=["use the default shipping address"],
            rejected_options=[_rejected("1"), _rejected("2")],
        ),
    )
    state = sessions.patch(
        USER,
        THREAD,
        SessionPatch(
            current_intent="buy trail running shoes",
            slots_patch={"size": "43", "budget_max": ""},
            constraints=[
                SessionConstraint(polarity="like", category="color", slug="black", strength="soft")
            ],
            resolved_questions=["Which size?"],
            decisions_made=["use the default shipping address"],
            rejected_options=[_rejected("2"), _rejected("3")],
        ),
    )

    assert state.current_intent == "buy trail running shoes"  # replaced
    assert state.slots == {"size": "43"}  # overwritten key by key; empty value deletes
    assert [(c.key, c.polarity.value) for c in state.constraints] == [("color:black", "like")]
    assert state.open_questions == ["Which colour?"]  # resolved by exact match
    assert state.resolved_questions == ["Which size?"]
    assert [d.text for d in state.decisions_made] == ["use the default shipping address"]
    assert [r.item_id for r in state.rejected_options] == ["1", "2", "3"]
    assert sessions.get(USER, THREAD) == state


def test_rejected_options_are_capped(backend_settings: Settings) -> None:
    store = create_session_store(backend_settings.model_copy(update={"session_max_rejected": 3}))
    try:
        for item in range(5):
            store.patch(USER, THREAD, SessionPatch(rejected_options=[_rejected(str(item))]))
        assert [r.item_id for r in store.get(USER, THREAD).rejected_options] == ["2", "3", "4"]
    finally:
        store.close()


def test_recent_messages_are_bounded(backend_settings: Settings) -> None:
    store = create_session_store(backend_settings.model_copy(update={"session_max_messages": 3}))
    try:
        for n in range(5):
            store.append_messages(USER, THREAD, [ChatMessage(role="user", content=f"m{n}")])
        assert [m.content for m in store.messages(USER, THREAD)] == ["m2", "m3", "m4"]
    finally:
        store.close()


def test_thread_ids_are_namespaced_by_user(sessions: SessionStore) -> None:
    sessions.patch(USER, THREAD, SessionPatch(current_intent="buy a phone"))
    sessions.append_messages(USER, THREAD, [ChatMessage(role="user", content="phone")])

    assert sessions.exists(USER, THREAD)
    assert sessions.threads(USER) == [THREAD]
    # Another user's thread with the same id is a different, empty thread...
    assert not sessions.exists("mallory", THREAD)
    assert sessions.get("mallory", THREAD).is_empty
    assert sessions.messages("mallory", THREAD) == []
    assert sessions.clear("mallory", THREAD) is False
    # ...which they may start and write without touching the first one.
    sessions.patch("mallory", THREAD, SessionPatch(current_intent="buy a lamp"))
    sessions.append_messages("mallory", THREAD, [ChatMessage(role="user", content="lamp")])
    assert sessions.get("mallory", THREAD).current_intent == "buy a lamp"
    assert [m.content for m in sessions.messages("mallory", THREAD)] == ["lamp"]
    assert sessions.get(USER, THREAD).current_intent == "buy a phone"
    assert [m.content for m in sessions.messages(USER, THREAD)] == ["phone"]
    assert sessions.clear("mallory", THREAD) is True
    assert sessions.exists(USER, THREAD)


def test_clear_forgets_state_and_messages(sessions: SessionStore) -> None:
    sessions.patch(USER, THREAD, SessionPatch(current_intent="buy a phone"))
    sessions.append_messages(USER, THREAD, [ChatMessage(role="user", content="phone")])

    assert sessions.clear(USER, THREAD) is True
    assert sessions.get(USER, THREAD).is_empty
    assert sessions.messages(USER, THREAD) == []
    assert not sessions.exists(USER, THREAD)
    assert sessions.clear(USER, THREAD) is False
