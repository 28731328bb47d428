"""Long-term preferences and per-thread session state, with one factory per store.

The backend (`sqlite` default, `redis` for a fleet) is chosen by `settings.store_backend`;
backend modules are imported only when selected, the other names on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.embedding.base import Embedder
    from cartwise.memory.session_state import SessionPatch, SessionPrefState, SessionStore
    from cartwise.memory.store import PreferenceEntry, PreferenceStore, ScoredPreference
    from cartwise.settings import Settings

__all__ = [
    "PreferenceEntry",
    "PreferenceStore",
    "ScoredPreference",
    "SessionPatch",
    "SessionPrefState",
    "SessionStore",
    "create_preference_store",
    "create_session_store",
]

__getattr__ = lazy_face(
    __name__,
    {
        "PreferenceEntry": "cartwise.memory.store",
        "PreferenceStore": "cartwise.memory.store",
        "ScoredPreference": "cartwise.memory.store",
        "SessionPatch": "cartwise.memory.session_state",
        "SessionPrefState": "cartwise.memory.session_state",
        "SessionStore": "cartwise.memory.session_state",
    },
)


def create_preference_store(settings: Settings, embedder: Embedder) -> PreferenceStore:
    """The configured preference store; `embedder` makes the vectors stored with entries.
    Every writer through it (the API, a turn's curator, `memory import`) keeps to
    MAX_PREFERENCES_PER_USER, checked inside each write."""
    if settings.store_backend == "redis":
        from cartwise.memory.backends.redis import RedisPreferenceStore

        return RedisPreferenceStore(
            settings.redis_url,
            embedder,
            timeout=settings.redis_timeout_seconds,
            max_connections=settings.redis_max_connections,
            max_entries=settings.max_preferences_per_user,
        )
    from cartwise.memory.backends.sqlite import SqlitePreferenceStore

    return SqlitePreferenceStore(
        settings.home / "preferences.sqlite3",
        embedder,
        max_entries=settings.max_preferences_per_user,
    )


def create_session_store(settings: Settings) -> SessionStore:
    """The configured session store, expiring threads after `session_ttl_hours` and keeping
    each user to MAX_THREADS_PER_USER live threads."""
    if settings.store_backend == "redis":
        from cartwise.memory.backends.redis import RedisSessionStore

        return RedisSessionStore(
            settings.redis_url,
            ttl_seconds=settings.session_ttl_seconds,
            max_messages=settings.session_max_messages,
            max_rejected=settings.session_max_rejected,
            max_threads=settings.max_threads_per_user,
            timeout=settings.redis_timeout_seconds,
            max_connections=settings.redis_max_connections,
        )
    from cartwise.memory.backends.sqlite import SqliteSessionStore

    return SqliteSessionStore(
        settings.home / "sessions.sqlite3",
        ttl_seconds=settings.session_ttl_seconds,
        max_messages=settings.session_max_messages,
        max_rejected=settings.session_max_rejected,
        max_threads=settings.max_threads_per_user,
    )
