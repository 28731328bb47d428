"""create_deps: a dead Redis is refused up front, with nothing left open."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cartwise.agent.deps import create_deps
from cartwise.embedding.memo import QueryMemo
from cartwise.errors import StoreUnavailable
from cartwise.settings import Settings


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_dead_redis_is_store_unavailable(tmp_path: Path) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=tmp_path,
        embedder="hashing:64",
        store_backend="redis",
        redis_url=f"redis://127.0.0.1:{unused_port()}/0",
    )
    with pytest.raises(StoreUnavailable, match="store unavailable"):
        create_deps(settings)


def test_embedded_defaults_open_and_share_one_query_memo(settings: Settings) -> None:
    deps = create_deps(settings)
    try:
        assert isinstance(deps.embedder, QueryMemo)
        assert deps.recall.embedder is deps.embedder
        assert deps.sessions.threads("ann") == []
    finally:
        deps.close()


def test_warming_up_runs_a_turn_and_leaves_no_memory_behind(settings: Settings) -> None:
    from cartwise.agent.deps import WARM_UP_USER
    from cartwise.agent.graph import turn_graph

    turn_graph.cache_clear()
    deps = create_deps(settings)
    try:
        deps.warm_up()
        assert turn_graph.cache_info().currsize == 1
        assert deps.sessions.threads(WARM_UP_USER) == []
        assert deps.preferences.list(WARM_UP_USER) == []
    finally:
        deps.close()
