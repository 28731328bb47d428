"""A Redis that cannot be reached is a `StoreUnavailable` naming the URL, never a traceback."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from redis.exceptions import AuthenticationError, BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from typer.testing import CliRunner

from cartwise.commands import memory, session
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.errors import StoreUnavailable
from cartwise.memory.backends.redis import RedisPreferenceStore, RedisSessionStore
from cartwise.memory.session_state import SessionPatch
from cartwise.redis_connection import RedisConnection, redact_url
from cartwise.settings import get_settings
from tests.factories import make_preference


def _dead_url() -> str:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


@pytest.mark.parametrize(
    "error",
    [
        RedisConnectionError("Connection refused"),
        RedisTimeoutError("Timeout reading from socket"),
        BusyLoadingError("loading"),
        AuthenticationError("invalid password"),
    ],
    ids=type,
)
def test_each_redis_failure_is_mapped(error: Exception) -> None:
    connection = RedisConnection("redis://:hunter2@10.0.0.9:6379/0")

    with pytest.raises(StoreUnavailable) as info, connection.guard():
        raise error

    assert info.value.url == "redis://:***@10.0.0.9:6379/0"
    assert info.value.__cause__ is error
    assert "hunter2" not in str(info.value)


def test_redact_url_leaves_passwordless_urls_alone() -> None:
    assert redact_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert redact_url("rediss://app:pw@cache:6380/1") == "rediss://app:***@cache:6380/1"


PREFERENCE_CALLS: list[Callable[[RedisPreferenceStore], object]] = [
    lambda s: s.upsert("alice", make_preference("plastic")),
    lambda s: s.list("alice"),
    lambda s: s.get("alice", "dislike:material::plastic"),
    lambda s: s.rank_relevant("alice", "plastic", k=3),
    lambda s: s.supersede("alice", ["dislike:material::plastic"]),
]
SESSION_CALLS: list[Callable[[RedisSessionStore], object]] = [
    lambda s: s.get("alice", "t"),
    lambda s: s.patch("alice", "t", SessionPatch(current_intent="x")),
    lambda s: s.messages("alice", "t"),
    lambda s: s.clear("alice", "t"),
    lambda s: s.exists("u", "t"),
]


@pytest.mark.parametrize("call", PREFERENCE_CALLS)
def test_dead_redis_preference_store_names_the_url(
    call: Callable[[RedisPreferenceStore], object],
) -> None:
    url = _dead_url()
    store = RedisPreferenceStore(url, HashingEmbedder())

    with pytest.raises(StoreUnavailable, match=f"store unavailable at {url}"):
        call(store)


@pytest.mark.parametrize("call", SESSION_CALLS)
def test_dead_redis_session_store_names_the_url(
    call: Callable[[RedisSessionStore], object],
) -> None:
    url = _dead_url()
    store = RedisSessionStore(url, ttl_seconds=60, max_messages=5, max_rejected=5)

    with pytest.raises(StoreUnavailable, match=f"store unavailable at {url}"):
        call(store)


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "list", "--user", "alice"],
        ["session", "show", "--thread", "t", "--user", "alice"],
    ],
)
def test_cli_prints_a_clear_message_when_redis_is_down(
    args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = _dead_url()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARTWISE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("STORE_BACKEND", "redis")
    monkeypatch.setenv("REDIS_URL", url)
    monkeypatch.setenv("EMBEDDER", "hashing:256")
    get_settings.cache_clear()
    app = typer.Typer()
    memory.register(app)
    session.register(app)
    try:
        result = CliRunner().invoke(app, args)
    finally:
        get_settings.cache_clear()

    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: store unavailable at {url}")
    assert "Traceback" not in result.output
