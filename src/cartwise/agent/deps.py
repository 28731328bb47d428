"""`AgentDeps`: everything a turn reads but never changes — stores, recall, engine, embedder,
settings — opened once per process and shared by every run."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass

from cartwise.embedding.base import Embedder
from cartwise.embedding.memo import QueryMemo
from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.base import Engine


@dataclass(frozen=True)
class AgentDeps:
    """Read-only dependencies of the agent."""

    settings: Settings
    preferences: PreferenceStore
    sessions: SessionStore
    recall: RecallService
    engine: Engine
    embedder: Embedder

    def close(self) -> None:
        self.preferences.close()
        self.sessions.close()
        self.recall.close()


READINESS_PROBE_THREAD = "cartwise-readiness-probe"


def create_deps(settings: Settings, *, embedder: Embedder | None = None) -> AgentDeps:
    """Open the configured backends and touch each store once, so a dead Redis is a
    StoreUnavailable now rather than in the middle of someone's turn."""
    from cartwise.embedding import create_embedder
    from cartwise.memory import create_preference_store, create_session_store
    from cartwise.understanding import create_engine

    memo = QueryMemo(embedder or create_embedder(settings.embedder, settings))
    with ExitStack() as cleanup:
        sessions = create_session_store(settings)
        cleanup.callback(sessions.close)
        preferences = create_preference_store(settings, memo)
        cleanup.callback(preferences.close)
        recall = RecallService.open(settings, memo)
        cleanup.callback(recall.close)
        # The rules engine learns every brand the catalog carries (not only its list).
        engine = create_engine(settings, recall.catalog_brands())
        sessions.exists(READINESS_PROBE_THREAD, READINESS_PROBE_THREAD)
        preferences.get(READINESS_PROBE_THREAD, "like:other::probe")
        cleanup.pop_all()
    return AgentDeps(
        settings=settings,
        preferences=preferences,
        sessions=sessions,
        recall=recall,
        engine=engine,
        embedder=memo,
    )
