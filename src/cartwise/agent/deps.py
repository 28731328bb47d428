"""`AgentDeps`: everything a turn reads but never changes — stores, recall, engine, embedder,
settings — opened once per process and shared by every run."""

from __future__ import annotations

from dataclasses import dataclass

from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.recall.embedders.base import Embedder
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


def create_deps(settings: Settings, *, embedder: Embedder | None = None) -> AgentDeps:
    """Open the configured backends. Raises StoreUnavailable when Redis cannot be reached."""
    from cartwise.memory import create_preference_store, create_session_store
    from cartwise.recall.embedders import create_embedder
    from cartwise.understanding import create_engine

    embedder = embedder or create_embedder(settings.embedder, settings)
    sessions = create_session_store(settings)
    try:
        preferences = create_preference_store(settings, embedder)
        recall = RecallService.open(settings, embedder)
    except BaseException:
        sessions.close()
        raise
    return AgentDeps(
        settings=settings,
        preferences=preferences,
        sessions=sessions,
        recall=recall,
        engine=create_engine(settings),
        embedder=embedder,
    )
