"""Accounts: the `AccountStore` seam (`base.py`) and its backends, one module each."""

from __future__ import annotations

from cartwise.api.accounts.base import (
    AccountRecord,
    AccountStore,
    InvalidCredentials,
    UsernameTaken,
)
from cartwise.api.accounts.sqlite import SqliteAccountStore

__all__ = [
    "AccountRecord",
    "AccountStore",
    "InvalidCredentials",
    "SqliteAccountStore",
    "UsernameTaken",
]
