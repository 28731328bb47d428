"""Accounts and bearer tokens.

Accounts live in `<CARTWISE_HOME>/accounts.db` (one `users` table: username, argon2 hash —
argon2 salts every hash itself). Tokens are HS256 JWTs signed with `settings.auth_secret`
carrying `sub` (the username) and `exp`; pyjwt rejects expired or tampered ones.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from cartwise.errors import CartwiseError, StoreUnavailable

TOKEN_ALGORITHM = "HS256"


class UsernameTaken(CartwiseError):
    """Registration with a username that already exists."""

    def __init__(self, username: str) -> None:
        self.username = username
        super().__init__(f"username {username!r} is already taken")


class InvalidCredentials(CartwiseError):
    """A wrong username/password pair, or a bearer token that is expired or not ours."""


class AccountStore:
    """Username → password hash, in SQLite. Safe across threads and processes (SQLite
    serializes writers; the PRIMARY KEY makes a duplicate registration fail atomically)."""

    def __init__(self, path: Path, *, hasher: PasswordHasher | None = None) -> None:
        self._path = path
        self._hasher = hasher or PasswordHasher()
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, timeout=10.0)
            with self._db:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS users ("
                    " username TEXT PRIMARY KEY, password_hash TEXT NOT NULL,"
                    " created_at TEXT NOT NULL)"
                )
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(path), str(exc)) from exc

    def register(self, username: str, password: str) -> None:
        """Create an account; `UsernameTaken` when the name exists."""
        password_hash = self._hasher.hash(password)
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?)",
                    (username, password_hash, datetime.now(UTC).isoformat()),
                )
        except sqlite3.IntegrityError as exc:
            raise UsernameTaken(username) from exc
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(self._path), str(exc)) from exc

    def authenticate(self, username: str, password: str) -> None:
        """Return when the password matches; `InvalidCredentials` otherwise."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT password_hash FROM users WHERE username = ?", (username,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(self._path), str(exc)) from exc
        if row is None:
            # Hash anyway so an unknown username costs as long as a wrong password.
            self._hasher.hash(password)
            raise InvalidCredentials("incorrect username or password")
        try:
            self._hasher.verify(row[0], password)
        except (VerifyMismatchError, VerificationError, InvalidHashError) as exc:
            raise InvalidCredentials("incorrect username or password") from exc

    def exists(self, username: str) -> bool:
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT 1 FROM users WHERE username = ?", (username,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise StoreUnavailable(str(self._path), str(exc)) from exc
        return row is not None

    def close(self) -> None:
        with self._lock:
            self._db.close()


def issue_token(username: str, *, secret: str, minutes: int, now: datetime | None = None) -> str:
    """A signed token for `username`, valid for `minutes`."""
    issued = now or datetime.now(UTC)
    claims = {"sub": username, "iat": issued, "exp": issued + timedelta(minutes=minutes)}
    return jwt.encode(claims, secret, algorithm=TOKEN_ALGORITHM)


def verify_token(token: str, *, secret: str) -> str:
    """The username a valid token was issued to; `InvalidCredentials` otherwise."""
    try:
        claims = jwt.decode(
            token, secret, algorithms=[TOKEN_ALGORITHM], options={"require": ["sub", "exp"]}
        )
    except jwt.ExpiredSignatureError as exc:
        raise InvalidCredentials("token expired; sign in again") from exc
    except jwt.InvalidTokenError as exc:
        raise InvalidCredentials("invalid token") from exc
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        raise InvalidCredentials("invalid token")
    return subject
