"""Accounts: the `AccountStore` seam (`base.py`) and its backends, one module each."""

from __future__ import annotations

from cartwise.api.accounts.base import (
    DELETING_ACCOUNT_ID,
    AccountRecord,
    AccountStore,
    InvalidCredentials,
    UsernameTaken,
)
from cartwise.api.accounts.redis import RedisAccountStore
from cartwise.api.accounts.sqlite import SqliteAccountStore
from cartwise.settings import Settings

__all__ = [
    "DELETING_ACCOUNT_ID",
    "AccountRecord",
    "AccountStore",
    "InvalidCredentials",
    "RedisAccountStore",
    "SqliteAccountStore",
    "UsernameTaken",
    "create_account_store",
]


def create_account_store(settings: Settings) -> AccountStore:
    """Accounts where the rest of the shopper's data is: Redis for replicas, else SQLite."""
    if settings.store_backend == "redis":
        return RedisAccountStore(
            settings.redis_url,
            timeout=settings.redis_timeout_seconds,
            max_connections=settings.redis_max_connections,
        )
    return SqliteAccountStore(settings.home / "accounts.db")
