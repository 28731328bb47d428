"""Long-term preferences and per-thread session state, with one factory per store.

The backend (`sqlite` default, `redis` for a fleet) is chosen by `settings.store_backend`;
backend modules are imported only when selected, the other names on first use.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from collections.abc import Callable

    from cartwise.embedding.base import Embedder
    from cartwise.memory.price_recorder import PriceRecorder
    from cartwise.memory.prices import PriceHistory, WatchStore
    from cartwise.memory.session_state import SessionPatch, SessionPrefState, SessionStore
    from cartwise.memory.store import PreferenceEntry, PreferenceStore, ScoredPreference
    from cartwise.settings import Settings

__all__ = [
    "PreferenceEntry",
    "PreferenceStore",
    "PriceHistory",
    "ScoredPreference",
    "SessionPatch",
    "SessionPrefState",
    "SessionStore",
    "WatchStore",
    "create_preference_store",
    "create_price_history",
    "create_price_recorder",
    "create_session_store",
    "create_watch_store",
]

__getattr__ = lazy_face(
    __name__,
    {
        "PreferenceEntry": "cartwise.memory.store",
        "PriceHistory": "cartwise.memory.prices",
        "PreferenceStore": "cartwise.memory.store",
        "ScoredPreference": "cartwise.memory.store",
        "SessionPatch": "cartwise.memory.session_state",
        "SessionPrefState": "cartwise.memory.session_state",
        "SessionStore": "cartwise.memory.session_state",
        "WatchStore": "cartwise.memory.prices",
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


def create_price_history(
    settings: Settings, *, clock: Callable[[], float] = time.time
) -> PriceHistory:
    """The configured price history (SQLite `prices.sqlite3`, or Redis). `clock` dates the
    summaries an ingest keeps with the points it writes."""
    if settings.store_backend == "redis":
        from cartwise.memory.backends.prices_redis import RedisPriceHistory

        return RedisPriceHistory(
            settings.redis_url,
            timeout=settings.redis_timeout_seconds,
            max_connections=settings.redis_max_connections,
            clock=clock,
        )
    from cartwise.memory.backends.prices_sqlite import SqlitePriceHistory

    return SqlitePriceHistory(settings.home / "prices.sqlite3", clock=clock)


def create_watch_store(settings: Settings) -> WatchStore:
    """The configured store of watches and alerts, keeping each shopper to
    MAX_WATCHES_PER_USER live watches."""
    if settings.store_backend == "redis":
        from cartwise.memory.backends.prices_redis import RedisWatchStore

        return RedisWatchStore(
            settings.redis_url,
            max_watches=settings.max_watches_per_user,
            timeout=settings.redis_timeout_seconds,
            max_connections=settings.redis_max_connections,
        )
    from cartwise.memory.backends.prices_sqlite import SqliteWatchStore

    return SqliteWatchStore(
        settings.home / "prices.sqlite3", max_watches=settings.max_watches_per_user
    )


def create_price_recorder(settings: Settings, *, demo: bool = False) -> PriceRecorder | None:
    """What an ingest records prices with (None when PRICE_HISTORY is off). `demo` gives
    offers without history the demo's synthesized past. The recorder owns the stores it
    opens: `close()` it after the ingest."""
    if not settings.price_history:
        return None
    from cartwise.memory.alert_webhook import AlertWebhook
    from cartwise.memory.demo_prices import demo_history
    from cartwise.memory.price_recorder import PriceRecorder

    history = create_price_history(settings)
    watches = create_watch_store(settings)
    webhook = (
        AlertWebhook(watches.webhook, secret=settings.alert_webhook_secret)
        if settings.alert_webhook_secret
        else None
    )
    return PriceRecorder(
        history,
        watches,
        fx_to_base=settings.fx_to_base,
        backfill=(lambda product, now: demo_history(product, now=now)) if demo else None,
        webhook=webhook,
    )
