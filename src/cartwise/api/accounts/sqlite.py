"""Accounts in `<CARTWISE_HOME>/accounts.db`: a `users` table and a `revoked_tokens` table.

The file is created with mode 0600 (it holds password hashes); SQLite gives its WAL side
files the database file's mode. SQLite serializes writers
across threads and processes; the PRIMARY KEY makes a duplicate registration fail atomically.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from cartwise.api.accounts.base import AccountRecord, UsernameTaken
from cartwise.errors import StoreUnavailable

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS users ("
    " username TEXT PRIMARY KEY, password_hash TEXT NOT NULL, created_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS revoked_tokens ("
    " token_id TEXT PRIMARY KEY, expires_at REAL NOT NULL)",
)


def new_account_id() -> str:
    return secrets.token_hex(16)


def _create_private(path: Path) -> None:
    """Create `path` empty with mode 0600 unless it exists (O_EXCL: no window in which the
    file exists with the umask's wider mode)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


class SqliteAccountStore:
    """`AccountStore` over one SQLite file."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        try:
            _create_private(path)
            self._db = sqlite3.connect(path, check_same_thread=False, timeout=10.0)
            with self._db:
                self._db.execute("PRAGMA journal_mode=WAL")
                for statement in _SCHEMA:
                    self._db.execute(statement)
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(users)")}
                if "account_id" not in columns:
                    # Databases from before account ids: every existing account gets one.
                    self._db.execute("ALTER TABLE users ADD COLUMN account_id TEXT")
                    self._db.execute(
                        "UPDATE users SET account_id = lower(hex(randomblob(16)))"
                        " WHERE account_id IS NULL"
                    )
        except sqlite3.Error as exc:
            raise StoreUnavailable(path.name, str(exc)) from exc

    def create(self, username: str, password_hash: str) -> AccountRecord:
        record = AccountRecord(username, new_account_id(), password_hash)
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT INTO users (username, password_hash, created_at, account_id)"
                    " VALUES (?, ?, ?, ?)",
                    (username, password_hash, datetime.now(UTC).isoformat(), record.account_id),
                )
        except sqlite3.IntegrityError as exc:
            raise UsernameTaken(username) from exc
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc
        return record

    def get(self, username: str) -> AccountRecord | None:
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT account_id, password_hash FROM users WHERE username = ?", (username,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc
        return AccountRecord(username, row[0], row[1]) if row else None

    def set_password_hash(self, username: str, password_hash: str) -> None:
        self._write(
            "UPDATE users SET password_hash = ? WHERE username = ?", password_hash, username
        )

    def rotate(self, username: str, *, account_id: str, password_hash: str | None = None) -> bool:
        changed = self._write(
            "UPDATE users SET account_id = ?, password_hash = COALESCE(?, password_hash)"
            " WHERE username = ?",
            account_id,
            password_hash,
            username,
        )
        return changed > 0

    def delete(self, username: str) -> bool:
        return self._write("DELETE FROM users WHERE username = ?", username) > 0

    def revoke_token(self, token_id: str, expires_at: datetime) -> None:
        now = datetime.now(UTC).timestamp()
        try:
            with self._lock, self._db:
                # Entries past their token's expiry are useless: prune as we go.
                self._db.execute("DELETE FROM revoked_tokens WHERE expires_at < ?", (now,))
                self._db.execute(
                    "INSERT OR REPLACE INTO revoked_tokens (token_id, expires_at) VALUES (?, ?)",
                    (token_id, expires_at.timestamp()),
                )
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc

    def is_revoked(self, token_id: str) -> bool:
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT 1 FROM revoked_tokens WHERE token_id = ?", (token_id,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc
        return row is not None

    def ping(self) -> None:
        try:
            with self._lock:
                self._db.execute("SELECT 1 FROM users LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, *params: object) -> int:
        try:
            with self._lock, self._db:
                return self._db.execute(sql, params).rowcount
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc

    def _unavailable(self, exc: sqlite3.Error) -> StoreUnavailable:
        # The file name only: a client-facing 503 never names a path on the server.
        return StoreUnavailable(self._path.name, str(exc))
