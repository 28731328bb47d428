"""The account store seam: usernames, password hashes and token revocation.

A store keeps data only; hashing, the password policy and tokens live in `cartwise.api.auth`,
so a new backend (Redis for replicas) is one more module implementing `AccountStore`.

Every account gets a random `account_id` when it is created. Tokens carry it, so a token
issued to a deleted account never works for a new account that reuses the name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from cartwise.errors import CartwiseError


class UsernameTaken(CartwiseError):
    """Registration with a username that already exists."""

    def __init__(self, username: str) -> None:
        self.username = username
        super().__init__(f"username {username!r} is already taken")


class InvalidCredentials(CartwiseError):
    """A wrong username/password pair, or a bearer token that is expired, revoked or not ours."""


DELETING_ACCOUNT_ID = "deleting"
"""The account id of an account whose deletion has begun: no token matches it and no
sign-in is accepted for it, so nothing new starts while its data is erased."""


@dataclass(frozen=True)
class AccountRecord:
    """One stored account."""

    username: str
    account_id: str
    password_hash: str

    @property
    def deleting(self) -> bool:
        return self.account_id == DELETING_ACCOUNT_ID


class AccountStore(Protocol):
    """Accounts and revoked token ids. Implementations raise `StoreUnavailable` when their
    backend cannot be reached, and are safe to call from several threads."""

    def create(self, username: str, password_hash: str) -> AccountRecord:
        """Store a new account with a fresh `account_id`; `UsernameTaken` when it exists."""
        ...

    def get(self, username: str) -> AccountRecord | None: ...

    def set_password_hash(self, username: str, password_hash: str) -> None:
        """Replace the hash (a rehash with current parameters after a successful sign-in)."""
        ...

    def rotate(self, username: str, *, account_id: str, password_hash: str | None = None) -> bool:
        """Give the account a new `account_id` — every token issued before stops working —
        and, when given, a new password hash, in one atomic step; False when there is no
        such account."""
        ...

    def delete(self, username: str) -> bool:
        """Remove the account; False when there was none."""
        ...

    def revoke_token(self, token_id: str, expires_at: datetime) -> None:
        """Refuse the token `token_id` from now on (kept until it would expire anyway)."""
        ...

    def is_revoked(self, token_id: str) -> bool: ...

    def ping(self) -> None:
        """Return when the store answers; `StoreUnavailable` otherwise."""
        ...

    def close(self) -> None: ...
