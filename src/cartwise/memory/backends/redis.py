"""The fleet backend: preferences and session state in Redis.

Per user and recipient namespace, a hash of dedup_key → entry JSON and one of dedup_key →
embedder tag + float32 vector: `cw:{user}:prefs` / `cw:{user}:prefvecs` for the shopper's
own (`self`) namespace, `cw:{user}:prefs:<recipient>` / `cw:{user}:prefvecs:<recipient>` for
each recipient. `cw:{user}:prefver` maps every namespace ever written to its write version
(`epoch.seq`, see `NamespaceVersion`), which is also how `list` finds the recipients; the
sorted set `cw:{user}:prefchg[:<recipient>]` scores each key with the seq of the last write
that touched it, so a reader patches its cached namespace with what changed since. The braces are a hash
tag: all of a user's keys live in one cluster slot, so one Lua script may touch them all.

An upsert merges in Python (one merge rule for both backends) and commits through a Lua
compare-and-set: the script writes the merged entry, deletes the opposite-polarity twin and
the superseded keys only if the entry's field still holds what the merge started from;
otherwise it returns the new value and the merge is redone. Nothing is ever read, modified
and written back without that guard. Session state is patched under
WATCH/MULTI on the state key alone.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Sequence
from typing import Any

from redis.exceptions import WatchError

from cartwise.embedding.base import Embedder, Vector
from cartwise.errors import AccountErased, QuotaExceeded, StoreUnavailable
from cartwise.log import logger
from cartwise.memory.backends.common import (
    CHANGE_LOG_SLACK,
    CorruptRow,
    NamespaceChanges,
    NamespaceVersion,
    RawRow,
    VectorRanking,
    VectorRow,
    check_user,
    decode_vector,
    dump_entry,
    dump_session,
    encode_vector,
    parse_entry,
    parse_rows,
    vector_tag,
    vector_text,
)
from cartwise.memory.session_state import (
    ChatMessage,
    SessionPatch,
    SessionPrefState,
    apply_patch,
)
from cartwise.memory.store import SELF, PreferenceEntry, check_recipient
from cartwise.redis_connection import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_TIMEOUT_SECONDS,
    RedisConnection,
)

# Contention only delays a writer (each failed attempt means another writer committed), so
# the bound is there to turn a pathological storm into an error instead of a hang.
MAX_ATTEMPTS = 10_000

# Every write ends with this: the namespace's next version, the touched keys logged at its
# seq; a log grown past its slack (deleted keys) is cleared and a new epoch begun. KEYS[1..4]:
# prefs hash, vectors hash, versions hash, change log. Defined in each writing script.
_BUMP_LUA = """
local function bump(recipient, fresh_epoch, slack, touched)
  local current = redis.call('HGET', KEYS[3], recipient) or ''
  local epoch, seq = string.match(current, '^(.+)%.(%d+)$')
  if not epoch then epoch, seq = fresh_epoch, 0 end
  local logged = redis.call('ZCARD', KEYS[4])
  if logged > slack and logged > redis.call('HLEN', KEYS[1]) + slack then
    redis.call('DEL', KEYS[4])
    redis.call('HSET', KEYS[3], recipient, fresh_epoch .. '.0')
    return
  end
  seq = tonumber(seq) + 1
  for _, key in ipairs(touched) do redis.call('ZADD', KEYS[4], seq, key) end
  redis.call('HSET', KEYS[3], recipient, epoch .. '.' .. seq)
end
"""

# Every check a write makes first. KEYS[5]: the user's generation; ARGV[g]: the generation
# the write belongs to ('*': any). Returns {4} when the user was erased since.
_GENERATION_LUA = """
local function erased(expected)
  return expected ~= '*' and (redis.call('GET', KEYS[5]) or '') ~= expected
end
"""

# KEYS[6..]: the entry hash of every namespace the user has (the cap counts them all).
# ARGV: recipient, fresh epoch, key, expected payload ('' = absent), new payload, vector
# value, generation, cap (0: none), then the keys to delete (opposite twin, superseded).
# Returns {1} written, {0, current} when the field changed (redo the merge), {2} at the cap,
# {3} when a namespace appeared since the caller listed them (list again), {4} erased.
_UPSERT_LUA = (
    _BUMP_LUA
    + _GENERATION_LUA
    + f"""
if erased(ARGV[7]) then return {{4}} end
local current = redis.call('HGET', KEYS[1], ARGV[3]) or ''
if current ~= ARGV[4] then return {{0, current}} end
local cap = tonumber(ARGV[8])
if cap > 0 and current == '' then
  local listed = {{}}
  for i = 6, #KEYS do listed[string.match(KEYS[i], ':prefs:(.+)$') or 'self'] = true end
  for _, name in ipairs(redis.call('HKEYS', KEYS[3])) do
    if not listed[name] then return {{3}} end
  end
  local kept = 0
  for i = 6, #KEYS do kept = kept + redis.call('HLEN', KEYS[i]) end
  for i = 9, #ARGV do kept = kept - redis.call('HEXISTS', KEYS[1], ARGV[i]) end
  if kept >= cap then return {{2}} end
end
local touched = {{ARGV[3]}}
for i = 9, #ARGV do
  if redis.call('HDEL', KEYS[1], ARGV[i]) == 1 then touched[#touched + 1] = ARGV[i] end
  redis.call('HDEL', KEYS[2], ARGV[i])
end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[5])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[6])
bump(ARGV[1], ARGV[2], {CHANGE_LOG_SLACK}, touched)
return {{1}}
"""
)

# ARGV: recipient, fresh epoch, generation, then the keys to delete. Returns how many
# existed, or -1 when the user was erased since.
_DELETE_LUA = (
    _BUMP_LUA
    + _GENERATION_LUA
    + f"""
if erased(ARGV[3]) then return -1 end
local touched = {{}}
for i = 4, #ARGV do
  if redis.call('HDEL', KEYS[1], ARGV[i]) == 1 then touched[#touched + 1] = ARGV[i] end
  redis.call('HDEL', KEYS[2], ARGV[i])
end
if #touched > 0 then bump(ARGV[1], ARGV[2], {CHANGE_LOG_SLACK}, touched) end
return #touched
"""
)

# KEYS: prefs hash, vectors hash. ARGV: triples (key, payload the vector was made from,
# vector). Not a content write: the version stays.
_STORE_VECTORS_LUA = """
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
  end
end
return 1
"""

# KEYS: prefs hash, vectors hash, versions hash, change log. ARGV: recipient, seq. Returns
# the version, then (key, payload or nil, vector or nil) for every key changed after seq.
_CHANGES_LUA = """
local out = {redis.call('HGET', KEYS[3], ARGV[1]) or ''}
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '(' .. ARGV[2], '+inf')) do
  out[#out + 1] = key
  out[#out + 1] = redis.call('HGET', KEYS[1], key)
  out[#out + 1] = redis.call('HGET', KEYS[2], key)
end
return out
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisPreferenceStore(VectorRanking):
    """`PreferenceStore` in Redis hashes; vectors stored as float32 bytes beside entries."""

    def __init__(
        self,
        url: str,
        embedder: Embedder,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        max_entries: int | None = None,
    ) -> None:
        super().__init__(embedder)
        self._max_entries = max_entries
        self._tag = vector_tag(embedder).encode()
        self._dim = embedder.dim
        self._redis = RedisConnection(url, timeout=timeout, max_connections=max_connections)
        with self._redis.guard():
            self._upsert = self._redis.client.register_script(_UPSERT_LUA)
            self._save_vectors = self._redis.client.register_script(_STORE_VECTORS_LUA)
            self._delete = self._redis.client.register_script(_DELETE_LUA)
            self._changes = self._redis.client.register_script(_CHANGES_LUA)

    def upsert(
        self,
        user: str,
        entry: PreferenceEntry,
        *,
        supersede: Sequence[str] = (),
        generation: str | None = None,
    ) -> PreferenceEntry:
        check_user(user)
        for key in supersede:
            PreferenceEntry.parse_key(key)
        retire = {entry.opposite_key, *supersede}
        deletes = sorted(k for k in retire if k != entry.dedup_key)
        prefs, vectors = self._keys(user, entry.recipient)
        with self._redis.guard():
            # MULTI: entry and vector from one snapshot, so a reused vector matches its text.
            pipe = self._redis.client.pipeline(transaction=True)
            pipe.hget(prefs, entry.dedup_key)
            pipe.hget(vectors, entry.dedup_key)
            raw_payload, raw_vector = pipe.execute()
            expected = _text(raw_payload) if raw_payload else ""
            namespaces = self._namespace_keys(user, entry.recipient)
            for _ in range(MAX_ATTEMPTS):
                current = None if entry.dedup_key in retire else self._parse_or_none(expected)
                stored = current.merged_with(entry) if current else entry
                vector = None
                if current and vector_text(current) == vector_text(stored):
                    vector = self._decode(raw_vector)
                if vector is None:
                    vector = self.embedder.embed_documents([vector_text(stored)])[0]
                result = self._upsert(
                    keys=[*self._script_keys(user, entry.recipient), *namespaces],
                    args=[
                        entry.recipient,
                        NamespaceVersion.fresh_epoch(),
                        entry.dedup_key,
                        expected,
                        dump_entry(stored),
                        self._encode(vector),
                        "*" if generation is None else generation,
                        self._max_entries or 0,
                        *deletes,
                    ],
                )
                outcome = int(result[0])
                if outcome == 1:
                    return stored
                if outcome == 2:
                    raise QuotaExceeded(
                        "preferences", self._max_entries or 0, "delete some before adding more"
                    )
                if outcome == 3:
                    namespaces = self._namespace_keys(user, entry.recipient)
                    continue
                if outcome == 4:
                    raise AccountErased(user)
                expected, raw_vector = _text(result[1]), None
        raise StoreUnavailable(self._redis.url, f"gave up after {MAX_ATTEMPTS} contended attempts")

    def supersede(
        self,
        user: str,
        keys: Sequence[str],
        *,
        recipient: str = SELF,
        generation: str | None = None,
    ) -> int:
        if not keys:
            return 0
        check_user(user)
        check_recipient(recipient)
        with self._redis.guard():
            deleted = int(
                self._delete(
                    keys=self._script_keys(user, recipient),
                    args=[
                        recipient,
                        NamespaceVersion.fresh_epoch(),
                        "*" if generation is None else generation,
                        *dict.fromkeys(keys),
                    ],
                )
            )
        if deleted < 0:
            raise AccountErased(user)
        return deleted

    def get(self, user: str, key: str, *, recipient: str = SELF) -> PreferenceEntry | None:
        prefs, _ = self._keys(check_user(user), check_recipient(recipient))
        with self._redis.guard():
            payload = self._redis.client.hget(prefs, key)
        return self._parse_or_none(_text(payload)) if payload else None

    def list(self, user: str, *, recipient: str | None = None) -> list[PreferenceEntry]:
        return parse_rows(self.raw_rows(user, recipient=recipient))

    def delete(
        self, user: str, key: str, *, recipient: str = SELF, generation: str | None = None
    ) -> bool:
        return self.supersede(user, [key], recipient=recipient, generation=generation) > 0

    def generation(self, user: str) -> str:
        with self._redis.guard():
            value = self._redis.client.get(self._generation_key(check_user(user)))
        return _text(value) if value else ""

    def erase(self, user: str) -> None:
        check_user(user)
        versions = self._versions_key(user)
        with self._redis.guard(), self._redis.client.pipeline(transaction=True) as pipe:
            for _ in range(MAX_ATTEMPTS):
                try:
                    # Any write bumps the versions hash: one landing meanwhile aborts EXEC.
                    pipe.watch(versions)
                    names = {SELF, *(_text(n) for n in pipe.hkeys(versions))}
                    pipe.multi()
                    for name in sorted(names):
                        pipe.delete(*self._keys(user, name), self._changes_key(user, name))
                    pipe.delete(versions)
                    pipe.set(self._generation_key(user), NamespaceVersion.fresh_epoch())
                    pipe.execute()
                    return
                except WatchError:
                    continue
        raise StoreUnavailable(self._redis.url, f"gave up after {MAX_ATTEMPTS} contended attempts")

    def raw_rows(self, user: str, *, recipient: str | None = None) -> builtins.list[RawRow]:
        """Rows exactly as stored, unvalidated (doctor and import only); one namespace, or
        all of them when `recipient` is None."""
        check_user(user)
        with self._redis.guard():
            recipients = (
                self._recipients(user) if recipient is None else [check_recipient(recipient)]
            )
            pipe = self._redis.client.pipeline(transaction=True)
            for name in recipients:
                pipe.hgetall(self._keys(user, name)[0])
            hashes = pipe.execute()
        return sorted(
            (
                RawRow(key=_text(k), payload=_text(v), recipient=name)
                for name, rows in zip(recipients, hashes, strict=True)
                for k, v in rows.items()
            ),
            key=lambda r: (r.recipient, r.key),
        )

    def replace_all(self, user: str, entries: Sequence[PreferenceEntry]) -> None:
        """Atomically make `entries` the user's whole memory, every namespace (doctor --fix,
        import --replace)."""
        check_user(user)
        if self._max_entries is not None and len(entries) > self._max_entries:
            raise QuotaExceeded("preferences", self._max_entries, "import fewer entries")
        embedded = self.embedder.embed_documents([vector_text(e) for e in entries])
        with self._redis.guard():
            recipients = set(self._recipients(user)) | {e.recipient for e in entries}
            pipe = self._redis.client.pipeline(transaction=True)
            for name in sorted(recipients):
                prefs, vectors = self._keys(user, name)
                pipe.delete(prefs, vectors, self._changes_key(user, name))
                mine = [
                    (e, v) for e, v in zip(entries, embedded, strict=True) if e.recipient == name
                ]
                if mine:
                    pipe.hset(prefs, mapping={e.dedup_key: dump_entry(e) for e, _ in mine})
                    pipe.hset(vectors, mapping={e.dedup_key: self._encode(v) for e, v in mine})
                pipe.hset(
                    self._versions_key(user),
                    name,
                    str(NamespaceVersion(NamespaceVersion.fresh_epoch(), 0)),
                )
            pipe.execute()

    def close(self) -> None:
        self._redis.close()

    def _recipients(self, user: str) -> builtins.list[str]:
        """Every namespace ever written, `self` always first."""
        names = {_text(n) for n in self._redis.client.hkeys(self._versions_key(user))}
        return [SELF, *sorted(names - {SELF})]

    def _namespace_version(self, user: str, recipient: str) -> NamespaceVersion:
        with self._redis.guard():
            version = self._redis.client.hget(self._versions_key(user), recipient)
        return NamespaceVersion.parse(_text(version) if version else "")

    def _vector_rows(
        self, user: str, recipient: str
    ) -> tuple[NamespaceVersion, builtins.list[VectorRow]]:
        prefs, vectors = self._keys(user, recipient)
        with self._redis.guard():
            pipe = self._redis.client.pipeline(transaction=True)
            pipe.hget(self._versions_key(user), recipient)
            pipe.hgetall(prefs)
            pipe.hgetall(vectors)
            version, payloads, blobs = pipe.execute()
        out = [
            row
            for raw_key, raw_payload in payloads.items()
            if (row := self._vector_row(raw_key, raw_payload, blobs.get(raw_key))) is not None
        ]
        return NamespaceVersion.parse(_text(version) if version else ""), out

    def _changes_since(self, user: str, recipient: str, seq: int) -> NamespaceChanges:
        with self._redis.guard():
            reply = self._changes(keys=self._script_keys(user, recipient), args=[recipient, seq])
        written = []
        deleted = []
        for i in range(1, len(reply), 3):
            raw_key, raw_payload, raw_vector = reply[i : i + 3]
            row = self._vector_row(raw_key, raw_payload, raw_vector) if raw_payload else None
            if row is None:
                deleted.append(_text(raw_key))
            else:
                written.append(row)
        return NamespaceChanges(
            version=NamespaceVersion.parse(_text(reply[0])), written=written, deleted=deleted
        )

    def _vector_row(self, raw_key: Any, raw_payload: Any, raw_vector: Any) -> VectorRow | None:
        payload = _text(raw_payload)
        entry = self._parse_or_none(payload)
        if entry is None:
            return None
        return VectorRow(
            key=_text(raw_key), payload=payload, entry=entry, vector=self._decode(raw_vector)
        )

    def _store_vectors(
        self, user: str, recipient: str, rows: Sequence[tuple[VectorRow, Vector]]
    ) -> None:
        args: builtins.list[str | bytes] = []
        for row, vector in rows:
            args.extend([row.key, row.payload, self._encode(vector)])
        with self._redis.guard():
            self._save_vectors(keys=list(self._keys(user, recipient)), args=args)

    def _script_keys(self, user: str, recipient: str) -> builtins.list[str]:
        """KEYS of the writing and change-reading scripts (one cluster slot: `{user}`)."""
        prefs, vectors = self._keys(user, recipient)
        return [
            prefs,
            vectors,
            self._versions_key(user),
            self._changes_key(user, recipient),
            self._generation_key(user),
        ]

    def _namespace_keys(self, user: str, recipient: str) -> builtins.list[str]:
        """The entry hash of every namespace of the user (and `recipient`'s), for the cap."""
        if self._max_entries is None:
            return []
        with self._redis.guard():
            names = {SELF, recipient, *self._recipients(user)}
        return [self._keys(user, name)[0] for name in sorted(names)]

    @staticmethod
    def _generation_key(user: str) -> str:
        return f"cw:{{{user}}}:prefgen"

    @staticmethod
    def _keys(user: str, recipient: str) -> tuple[str, str]:
        """The namespace's entry and vector hashes (the shopper's own have no suffix)."""
        suffix = "" if recipient == SELF else f":{recipient}"
        return f"cw:{{{user}}}:prefs{suffix}", f"cw:{{{user}}}:prefvecs{suffix}"

    @staticmethod
    def _versions_key(user: str) -> str:
        return f"cw:{{{user}}}:prefver"

    @staticmethod
    def _changes_key(user: str, recipient: str) -> str:
        suffix = "" if recipient == SELF else f":{recipient}"
        return f"cw:{{{user}}}:prefchg{suffix}"

    def _encode(self, vector: Vector) -> bytes:
        return self._tag + b"\0" + encode_vector(vector)

    def _decode(self, value: bytes | None) -> Vector | None:
        """None when the vector is missing or was made by another embedder/recipe."""
        if not value or not value.startswith(self._tag + b"\0"):
            return None
        return decode_vector(value[len(self._tag) + 1 :], self._dim)

    @staticmethod
    def _parse_or_none(payload: str) -> PreferenceEntry | None:
        if not payload:
            return None
        try:
            return parse_entry(payload)
        except CorruptRow:
            logger.warning("ignoring a corrupt preference row; run `cartwise memory doctor`")
            return None


# KEYS: state, messages, thread index, generation. ARGV: thread, empty state, now ms, ttl ms,
# cap (0: none), generation ('*': any). Returns 1 (live), 0 (at the cap), -1 (erased).
_START_LUA = """
if ARGV[6] ~= '*' and (redis.call('GET', KEYS[4]) or '') ~= ARGV[6] then return -1 end
local now, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 1 end
local cap = tonumber(ARGV[5])
if cap > 0 and redis.call('ZCARD', KEYS[3]) >= cap then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl, 'NX')
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[3], ttl)
return 1
"""


class RedisSessionStore:
    """`SessionStore` in Redis: P_t via SET PX, messages in a capped list, both on one TTL.

    Every key of a user shares the hash tag `{user}` (state, messages, the thread index), so
    each transaction below touches one cluster slot."""

    def __init__(
        self,
        url: str,
        *,
        ttl_seconds: float,
        max_messages: int,
        max_rejected: int,
        max_threads: int | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self._ttl_ms = max(1, round(ttl_seconds * 1000))
        self._max_messages = max_messages
        self._max_rejected = max_rejected
        self._max_threads = max_threads
        self._redis = RedisConnection(url, timeout=timeout, max_connections=max_connections)
        with self._redis.guard():
            self._start = self._redis.client.register_script(_START_LUA)

    def get(self, user: str, thread: str) -> SessionPrefState:
        state_key = self._keys(user, thread)[0]
        with self._redis.guard():
            payload = self._redis.client.get(state_key)
        if payload is None:
            return SessionPrefState(thread=thread)
        return SessionPrefState.model_validate_json(payload)

    def start(self, user: str, thread: str, *, generation: str | None = None) -> None:
        state_key, messages_key, threads_key = self._keys(user, thread)
        with self._redis.guard():
            started = int(
                self._start(
                    keys=[state_key, messages_key, threads_key, self._generation_key(user)],
                    args=[
                        thread,
                        dump_session(SessionPrefState(thread=thread)),
                        int(time.time() * 1000),
                        self._ttl_ms,
                        self._max_threads or 0,
                        "*" if generation is None else generation,
                    ],
                )
            )
        if started < 0:
            raise AccountErased(user)
        if started == 0:
            raise QuotaExceeded(
                "threads", self._max_threads or 0, "delete an old conversation to start a new one"
            )

    def patch(
        self, user: str, thread: str, patch: SessionPatch, *, generation: str | None = None
    ) -> SessionPrefState:
        state_key = self._keys(user, thread)[0]
        generation_key = self._generation_key(user)
        with self._redis.guard(), self._redis.client.pipeline(transaction=True) as pipe:
            for _ in range(MAX_ATTEMPTS):
                try:
                    pipe.watch(state_key, generation_key)
                    self._check_generation(pipe, user, generation)
                    payload = pipe.get(state_key)
                    current = (
                        SessionPrefState.model_validate_json(payload)
                        if payload
                        else SessionPrefState(thread=thread)
                    )
                    state = apply_patch(current, patch, max_rejected=self._max_rejected)
                    pipe.multi()
                    pipe.set(state_key, dump_session(state), px=self._ttl_ms)
                    self._refresh(pipe, user, thread)
                    pipe.execute()
                    return state
                except WatchError:
                    continue
        raise StoreUnavailable(self._redis.url, f"gave up after {MAX_ATTEMPTS} contended attempts")

    def clear(self, user: str, thread: str) -> bool:
        state_key, messages_key, threads_key = self._keys(user, thread)
        now_ms = int(time.time() * 1000)
        with self._redis.guard():
            pipe = self._redis.client.pipeline(transaction=True)
            pipe.zscore(threads_key, thread)
            pipe.delete(state_key, messages_key)
            pipe.zrem(threads_key, thread)
            expires_ms, _, _ = pipe.execute()
        return expires_ms is not None and float(expires_ms) > now_ms

    def append_messages(
        self,
        user: str,
        thread: str,
        messages: Sequence[ChatMessage],
        *,
        generation: str | None = None,
    ) -> None:
        if not messages:
            return
        state_key, messages_key, _ = self._keys(user, thread)
        generation_key = self._generation_key(user)
        with self._redis.guard(), self._redis.client.pipeline(transaction=True) as pipe:
            for _ in range(MAX_ATTEMPTS):
                try:
                    pipe.watch(generation_key)
                    self._check_generation(pipe, user, generation)
                    pipe.multi()
                    pipe.rpush(messages_key, *(m.model_dump_json() for m in messages))
                    pipe.ltrim(messages_key, -self._max_messages, -1)
                    pipe.pexpire(state_key, self._ttl_ms)
                    self._refresh(pipe, user, thread)
                    pipe.execute()
                    return
                except WatchError:
                    continue
        raise StoreUnavailable(self._redis.url, f"gave up after {MAX_ATTEMPTS} contended attempts")

    def messages(self, user: str, thread: str) -> list[ChatMessage]:
        messages_key = self._keys(user, thread)[1]
        with self._redis.guard():
            items = self._redis.client.lrange(messages_key, 0, -1)
        return [ChatMessage.model_validate_json(item) for item in items]

    def threads(self, user: str) -> list[str]:
        """Live threads, most recently active first."""
        threads_key = self._keys(user, "")[2]
        now_ms = int(time.time() * 1000)
        with self._redis.guard():
            items = self._redis.client.zrevrangebyscore(threads_key, "+inf", f"({now_ms}")
        return [_text(item) for item in items]

    def exists(self, user: str, thread: str) -> bool:
        threads_key = self._keys(user, thread)[2]
        with self._redis.guard():
            expires_ms = self._redis.client.zscore(threads_key, thread)
        return expires_ms is not None and float(expires_ms) > time.time() * 1000

    def generation(self, user: str) -> str:
        check_user(user)
        with self._redis.guard():
            value = self._redis.client.get(self._generation_key(user))
        return _text(value) if value else ""

    def erase(self, user: str) -> None:
        threads_key = self._keys(user, "")[2]
        with self._redis.guard(), self._redis.client.pipeline(transaction=True) as pipe:
            for _ in range(MAX_ATTEMPTS):
                try:
                    # Every write of a thread touches the index: one landing meanwhile aborts.
                    pipe.watch(threads_key)
                    threads = [_text(t) for t in pipe.zrange(threads_key, 0, -1)]
                    pipe.multi()
                    for thread in threads:
                        pipe.delete(*self._keys(user, thread)[:2])
                    pipe.delete(threads_key)
                    pipe.set(self._generation_key(user), NamespaceVersion.fresh_epoch())
                    pipe.execute()
                    return
                except WatchError:
                    continue
        raise StoreUnavailable(self._redis.url, f"gave up after {MAX_ATTEMPTS} contended attempts")

    def close(self) -> None:
        self._redis.close()

    def _check_generation(self, pipe: Any, user: str, generation: str | None) -> None:
        """Under WATCH of the generation key: `AccountErased` when the user moved past it."""
        if generation is None:
            return
        current = pipe.get(self._generation_key(user))
        if (_text(current) if current else "") != generation:
            pipe.reset()
            raise AccountErased(user)

    @staticmethod
    def _generation_key(user: str) -> str:
        return f"cw:{{{check_user(user)}}}:sessgen"

    def _refresh(self, pipe: Any, user: str, thread: str) -> None:
        """Queue the writes that keep messages and the thread index on the state's TTL."""
        _, messages_key, threads_key = self._keys(user, thread)
        now_ms = int(time.time() * 1000)
        pipe.pexpire(messages_key, self._ttl_ms)
        pipe.zadd(threads_key, {thread: now_ms + self._ttl_ms})
        pipe.zremrangebyscore(threads_key, "-inf", now_ms)
        pipe.pexpire(threads_key, self._ttl_ms)

    @staticmethod
    def _keys(user: str, thread: str) -> tuple[str, str, str]:
        check_user(user)
        prefix = f"cw:{{{user}}}"
        return (
            f"{prefix}:thread:{thread}:state",
            f"{prefix}:thread:{thread}:messages",
            f"{prefix}:threads",
        )
