"""Accounts in Redis, so every replica sees the same accounts and revocations.

`cw:{<username>}:account` is a hash (account_id, password_hash, created_at) under the same
hash tag as that shopper's memory and threads. Revoked token ids are `cw:revoked:<jti>` keys
that expire with the token. Every operation touches one key (creation is one Lua script on
it), so nothing crosses cluster slots.
"""

from __future__ import annotations

from datetime import UTC, datetime

from cartwise.api.accounts.base import AccountRecord, UsernameTaken
from cartwise.api.accounts.sqlite import new_account_id
from cartwise.redis_connection import RedisConnection

# KEYS: the account hash. ARGV: account_id, password_hash, created_at. 0 when it exists.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'account_id', ARGV[1], 'password_hash', ARGV[2], 'created_at', ARGV[3])
return 1
"""

# KEYS: the account hash. ARGV: the new hash. Only an existing account is updated.
_SET_HASH_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'password_hash', ARGV[1])
return 1
"""


# KEYS: the account hash. ARGV: the new account_id, then the new hash ('' keeps it).
_ROTATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'account_id', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'password_hash', ARGV[2]) end
return 1
"""


class RedisAccountStore:
    """`AccountStore` in Redis (single server or cluster)."""

    def __init__(self, url: str, *, timeout: float, max_connections: int) -> None:
        self._redis = RedisConnection(url, timeout=timeout, max_connections=max_connections)
        with self._redis.guard():
            self._create = self._redis.client.register_script(_CREATE_LUA)
            self._set_hash = self._redis.client.register_script(_SET_HASH_LUA)
            self._rotate = self._redis.client.register_script(_ROTATE_LUA)

    def create(self, username: str, password_hash: str) -> AccountRecord:
        record = AccountRecord(username, new_account_id(), password_hash)
        created_at = datetime.now(UTC).isoformat()
        with self._redis.guard():
            created = self._create(
                keys=[_key(username)], args=[record.account_id, password_hash, created_at]
            )
        if int(created) != 1:
            raise UsernameTaken(username)
        return record

    def get(self, username: str) -> AccountRecord | None:
        with self._redis.guard():
            fields = self._redis.client.hmget(_key(username), ["account_id", "password_hash"])
        if fields[0] is None or fields[1] is None:
            return None
        return AccountRecord(username, _text(fields[0]), _text(fields[1]))

    def set_password_hash(self, username: str, password_hash: str) -> None:
        with self._redis.guard():
            self._set_hash(keys=[_key(username)], args=[password_hash])

    def rotate(self, username: str, *, account_id: str, password_hash: str | None = None) -> bool:
        with self._redis.guard():
            rotated = self._rotate(keys=[_key(username)], args=[account_id, password_hash or ""])
        return int(rotated) == 1

    def delete(self, username: str) -> bool:
        with self._redis.guard():
            return int(self._redis.client.delete(_key(username))) > 0

    def revoke_token(self, token_id: str, expires_at: datetime) -> None:
        remaining_ms = int((expires_at - datetime.now(UTC)).total_seconds() * 1000)
        if remaining_ms <= 0:
            return  # expired anyway
        with self._redis.guard():
            self._redis.client.set(_revoked_key(token_id), b"1", px=remaining_ms)

    def is_revoked(self, token_id: str) -> bool:
        with self._redis.guard():
            return int(self._redis.client.exists(_revoked_key(token_id))) > 0

    def ping(self) -> None:
        with self._redis.guard():
            self._redis.client.ping()

    def close(self) -> None:
        self._redis.close()


def _key(username: str) -> str:
    return f"cw:{{{username}}}:account"


def _revoked_key(token_id: str) -> str:
    return f"cw:revoked:{token_id}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
