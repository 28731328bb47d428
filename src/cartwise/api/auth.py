"""Sign-up, sign-in and bearer tokens, over an `AccountStore`.

Tokens are HS256 JWTs signed with the resolved `AUTH_SECRET` (see `cartwise.api.secret`),
carrying `sub` (the username), `aid` (the account's random id), `jti` (the token's own id),
`iat` and `exp`. A token is accepted only when the signature, `exp` and `iat` hold, its age
is within `auth_token_minutes`, the account with that name still has that id (so deleting an
account or changing its password revokes its tokens — both give the account a new id — and
a re-registered name does not inherit them), and its `jti` was not revoked by a sign-out.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import jwt

from cartwise.api.accounts import (
    DELETING_ACCOUNT_ID,
    AccountStore,
    InvalidCredentials,
    UsernameTaken,
)
from cartwise.api.accounts.sqlite import new_account_id
from cartwise.api.passwords import PasswordHasher, check_password_policy

TOKEN_ALGORITHM = "HS256"
CLOCK_SKEW = timedelta(seconds=30)
"""Leeway for `iat`/`exp` between replicas whose clocks differ slightly."""

BAD_SIGN_IN = "incorrect username or password"


@dataclass(frozen=True)
class TokenClaims:
    """What a verified token says."""

    username: str
    account_id: str
    token_id: str
    expires_at: datetime


def issue_token(
    username: str,
    account_id: str,
    *,
    secret: str,
    minutes: int,
    now: datetime | None = None,
) -> str:
    """A signed token for the account, valid for `minutes`."""
    issued = now or datetime.now(UTC)
    claims = {
        "sub": username,
        "aid": account_id,
        "jti": uuid.uuid4().hex,
        "iat": issued,
        "exp": issued + timedelta(minutes=minutes),
    }
    return jwt.encode(claims, secret, algorithm=TOKEN_ALGORITHM)


def decode_token(
    token: str, *, secret: str, max_minutes: int, now: datetime | None = None
) -> TokenClaims:
    """The claims of a correctly signed, unexpired token no older than `max_minutes`;
    `InvalidCredentials` otherwise. Revocation is checked by `Authenticator.verify`."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[TOKEN_ALGORITHM],
            options={"require": ["sub", "aid", "jti", "iat", "exp"]},
            leeway=CLOCK_SKEW,
        )
    except jwt.ExpiredSignatureError as exc:
        raise InvalidCredentials("token expired; sign in again") from exc
    except jwt.InvalidTokenError as exc:
        raise InvalidCredentials("invalid token") from exc
    fields = [claims.get(name) for name in ("sub", "aid", "jti")]
    if not all(isinstance(value, str) and value for value in fields):
        raise InvalidCredentials("invalid token")
    issued = datetime.fromtimestamp(float(claims["iat"]), UTC)
    expires = datetime.fromtimestamp(float(claims["exp"]), UTC)
    # A token minted with a longer lifetime than this server allows (an old setting, or a
    # leaked secret used to mint long-lived tokens) stops at the maximum age anyway.
    if (now or datetime.now(UTC)) - issued > timedelta(minutes=max_minutes) + CLOCK_SKEW:
        raise InvalidCredentials("token expired; sign in again")
    return TokenClaims(
        username=str(fields[0]),
        account_id=str(fields[1]),
        token_id=str(fields[2]),
        expires_at=expires,
    )


class Authenticator:
    """Accounts, passwords and tokens together: what the auth routes call."""

    def __init__(
        self,
        store: AccountStore,
        hasher: PasswordHasher,
        *,
        secret: str,
        token_minutes: int,
        password_min_length: int,
    ) -> None:
        self.store = store
        self._hasher = hasher
        self._secret = secret
        self.token_minutes = token_minutes
        self._password_min_length = password_min_length

    def register(self, username: str, password: str) -> None:
        """Create an account; `WeakPassword` (422) or `UsernameTaken` (409) otherwise (the
        caller finishes an interrupted deletion of the name first)."""
        check_password_policy(username, password, min_length=self._password_min_length)
        if self.store.get(username) is not None:
            # Checked before hashing too, so a taken name costs no hash.
            raise UsernameTaken(username)
        self.store.create(username, self._hasher.hash(password))

    def sign_in(self, username: str, password: str) -> str:
        """A new token when the password matches; `InvalidCredentials` otherwise (also for
        an account being deleted)."""
        record = self.store.get(username)
        if not self._hasher.verify(record.password_hash if record else None, password):
            raise InvalidCredentials(BAD_SIGN_IN)
        assert record is not None
        if record.deleting:
            raise InvalidCredentials(BAD_SIGN_IN)
        if self._hasher.needs_rehash(record.password_hash):
            self.store.set_password_hash(username, self._hasher.hash(password))
        return issue_token(
            username, record.account_id, secret=self._secret, minutes=self.token_minutes
        )

    def verify(self, token: str) -> TokenClaims:
        """The claims of a token that is valid now; `InvalidCredentials` otherwise."""
        claims = decode_token(token, secret=self._secret, max_minutes=self.token_minutes)
        self.confirm(claims)
        if self.store.is_revoked(claims.token_id):
            raise InvalidCredentials("token revoked; sign in again")
        return claims

    def confirm(self, claims: TokenClaims) -> None:
        """`InvalidCredentials` unless the account still has the token's id. Work that pins
        the user's generation calls it again after reading it: an account whose deletion
        began in between is refused rather than written to after its erase."""
        record = self.store.get(claims.username)
        if record is None or record.account_id != claims.account_id:
            raise InvalidCredentials("invalid token: the account no longer exists")

    def change_password(self, username: str, current: str, new: str) -> str:
        """Set a new password after checking the current one; every token issued before is
        revoked (the account gets a new id) and a fresh one is returned."""
        self.check_password(username, current)
        check_password_policy(username, new, min_length=self._password_min_length)
        account_id = new_account_id()
        if not self.store.rotate(
            username, account_id=account_id, password_hash=self._hasher.hash(new)
        ):
            raise InvalidCredentials(BAD_SIGN_IN)
        return issue_token(username, account_id, secret=self._secret, minutes=self.token_minutes)

    def begin_deletion(self, username: str) -> None:
        """Stop the account working at once: its tokens and sign-ins are refused while its
        data is erased (`complete` it with the erase, then `store.delete`)."""
        self.store.rotate(username, account_id=DELETING_ACCOUNT_ID)

    def sign_out(self, claims: TokenClaims) -> None:
        self.store.revoke_token(claims.token_id, claims.expires_at)

    def close(self) -> None:
        self.store.close()
        self._hasher.close()

    def check_password(self, username: str, password: str) -> None:
        """`InvalidCredentials` unless `password` is the account's current one."""
        record = self.store.get(username)
        if not self._hasher.verify(record.password_hash if record else None, password):
            raise InvalidCredentials(BAD_SIGN_IN)
        if record is not None and record.deleting:
            raise InvalidCredentials(BAD_SIGN_IN)
