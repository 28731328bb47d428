"""The embedded backend: preferences and session state in SQLite files (WAL mode).

Every write is one `BEGIN IMMEDIATE` transaction: the write lock is taken before the row is
read, so two processes merging the same key serialize instead of losing an update, and a
writer killed mid-transaction leaves nothing behind (the journal rolls it back on open).
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from cartwise.embedding.base import Embedder
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
from cartwise.memory.store import SELF, PreferenceEntry, check_recipient

if TYPE_CHECKING:
    from cartwise.embedding.base import Vector
    from cartwise.memory.session_state import ChatMessage, SessionPatch, SessionPrefState

# The session store's models (and the spec grammar they hold) are imported by its methods:
# `cartwise memory list` opens this module for the preference store alone.

BUSY_TIMEOUT_MS = 30_000
MAX_ATTEMPTS = 1_000
"""An upsert whose row changed between its read and its commit is redone; each retry means
another writer committed, so the bound only turns a pathological storm into an error."""

# Both files keep, per user, the generation `erase` moves the user to (see PreferenceStore).
_GENERATIONS_SCHEMA = """
CREATE TABLE IF NOT EXISTS user_generations (
    user TEXT PRIMARY KEY,
    generation TEXT NOT NULL
) WITHOUT ROWID;
"""

# Each recipient is a namespace: the same dedup_key may exist once per (user, recipient).
# `namespace_versions` changes with every write to a namespace (`epoch.seq`, see
# `NamespaceVersion`) and `preference_changes` holds, per key, the seq of the last write that
# touched it (written or deleted): a reader patches its cached namespace with the keys
# changed since the seq it holds. `preferences_by_user` is for counting (the cap on every new
# key): the table's rows carry their vectors, and counting 10,000 of them through the table
# took ~20 ms of each write, against ~0.6 ms through the index.
_PREFERENCES_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS preferences (
    user TEXT NOT NULL,
    recipient TEXT NOT NULL DEFAULT 'self',
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    vector BLOB,
    vector_tag TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (user, recipient, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS preferences_by_user ON preferences (user, recipient);
CREATE TABLE IF NOT EXISTS namespace_versions (
    user TEXT NOT NULL,
    recipient TEXT NOT NULL,
    version TEXT NOT NULL,
    PRIMARY KEY (user, recipient)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS preference_changes (
    user TEXT NOT NULL,
    recipient TEXT NOT NULL,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (user, recipient, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS preference_changes_by_seq ON preference_changes (user, recipient, seq);
"""
    + _GENERATIONS_SCHEMA
)

# Files written before recipients existed key rows by (user, key): every row there is the
# shopper's own. A WITHOUT ROWID table's primary key cannot be altered, so the table is
# rebuilt, in one transaction (a concurrent opener waits, then finds nothing to do).
_RECIPIENT_MIGRATION = """
ALTER TABLE preferences RENAME TO preferences_before_recipients;
CREATE TABLE preferences (
    user TEXT NOT NULL,
    recipient TEXT NOT NULL DEFAULT 'self',
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    vector BLOB,
    vector_tag TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (user, recipient, key)
) WITHOUT ROWID;
INSERT INTO preferences (user, recipient, key, payload, vector, vector_tag)
    SELECT user, 'self', key, payload, vector, vector_tag FROM preferences_before_recipients;
DROP TABLE preferences_before_recipients;
"""

_SESSIONS_SCHEMA = (
    """
-- `threads` keyed thread ids globally (one owner per id); its rows are short-lived session
-- scratch (SESSION_TTL_HOURS), so it is dropped rather than migrated.
DROP TABLE IF EXISTS threads;
CREATE TABLE IF NOT EXISTS user_threads (
    user TEXT NOT NULL,
    thread TEXT NOT NULL,
    state TEXT NOT NULL,
    messages TEXT NOT NULL DEFAULT '[]',
    expires_at REAL NOT NULL,
    PRIMARY KEY (user, thread)
);
CREATE INDEX IF NOT EXISTS user_threads_by_user ON user_threads (user, expires_at);
CREATE INDEX IF NOT EXISTS user_threads_by_expiry ON user_threads (expires_at);
"""
    + _GENERATIONS_SCHEMA
)


class _SqliteDatabase:
    """One connection, serialized by a lock (the stores are shared across threads)."""

    def __init__(
        self,
        path: Path,
        schema: str,
        migrate: Callable[[sqlite3.Connection], None] | None = None,
    ) -> None:
        self.path = path
        self._lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            # WAL + NORMAL survives a killed process intact; only an OS crash may lose the
            # last commits, never corrupt the file.
            self._conn.execute("PRAGMA synchronous = NORMAL")
            if migrate is not None:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    migrate(self._conn)
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            self._conn.executescript(schema)
        except (sqlite3.Error, OSError) as exc:
            raise StoreUnavailable(str(path), str(exc)) from exc

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._translate():
            yield self._conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A `BEGIN IMMEDIATE` transaction: committed whole or rolled back whole."""
        with self._lock, self._translate():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                # Also after a failed COMMIT: a transaction left open would make every
                # later BEGIN fail on this connection.
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _translate(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable(str(self.path), str(exc)) from exc
        except sqlite3.DatabaseError as exc:
            raise StoreUnavailable(str(self.path), f"damaged database: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _add_recipients(conn: sqlite3.Connection) -> None:
    """Run `_RECIPIENT_MIGRATION` when the preferences table predates recipients."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(preferences)")}
    if columns and "recipient" not in columns:
        logger.info("migrating the preference store: rows become the shopper's own (self)")
        for statement in _RECIPIENT_MIGRATION.split(";"):
            if statement.strip():
                conn.execute(statement)


def _bump(conn: sqlite3.Connection, user: str, recipient: str, keys: Iterable[str]) -> None:
    """Inside a write: the namespace's next version, with `keys` recorded as changed by it.
    A change log grown past its slack (deleted keys) is cleared and a new epoch begun."""
    row = conn.execute(
        "SELECT version FROM namespace_versions WHERE user = ? AND recipient = ?",
        (user, recipient),
    ).fetchone()
    current = NamespaceVersion.parse(str(row[0]) if row else "")
    epoch = current.epoch or NamespaceVersion.fresh_epoch()
    (logged,) = conn.execute(
        "SELECT COUNT(*) FROM preference_changes WHERE user = ? AND recipient = ?",
        (user, recipient),
    ).fetchone()
    if logged > CHANGE_LOG_SLACK:
        (live,) = conn.execute(
            "SELECT COUNT(*) FROM preferences WHERE user = ? AND recipient = ?",
            (user, recipient),
        ).fetchone()
        if logged > live + CHANGE_LOG_SLACK:
            _new_epoch(conn, user, recipient)
            return
    seq = current.seq + 1
    conn.executemany(
        "INSERT OR REPLACE INTO preference_changes (user, recipient, key, seq) VALUES (?, ?, ?, ?)",
        [(user, recipient, key, seq) for key in keys],
    )
    _set_version(conn, user, recipient, NamespaceVersion(epoch, seq))


def _new_epoch(conn: sqlite3.Connection, user: str, recipient: str) -> None:
    """Inside a write: forget the namespace's change log; every cached copy is read anew."""
    conn.execute(
        "DELETE FROM preference_changes WHERE user = ? AND recipient = ?", (user, recipient)
    )
    _set_version(conn, user, recipient, NamespaceVersion(NamespaceVersion.fresh_epoch(), 0))


def _set_version(
    conn: sqlite3.Connection, user: str, recipient: str, version: NamespaceVersion
) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO namespace_versions (user, recipient, version) VALUES (?, ?, ?)",
        (user, recipient, str(version)),
    )


def _generation(conn: sqlite3.Connection, user: str) -> str:
    row = conn.execute("SELECT generation FROM user_generations WHERE user = ?", (user,)).fetchone()
    return str(row[0]) if row else ""


def _check_generation(conn: sqlite3.Connection, user: str, generation: str | None) -> None:
    """Inside a write: `AccountErased` when the user moved past `generation` (None: any)."""
    if generation is not None and _generation(conn, user) != generation:
        raise AccountErased(user)


def _new_generation(conn: sqlite3.Connection, user: str) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO user_generations (user, generation) VALUES (?, ?)",
        (user, NamespaceVersion.fresh_epoch()),
    )


def _version(conn: sqlite3.Connection, user: str, recipient: str) -> NamespaceVersion:
    row = conn.execute(
        "SELECT version FROM namespace_versions WHERE user = ? AND recipient = ?",
        (user, recipient),
    ).fetchone()
    return NamespaceVersion.parse(str(row[0]) if row else "")


class SqlitePreferenceStore(VectorRanking):
    """`PreferenceStore` in one SQLite file; vectors are stored with their entries."""

    def __init__(self, path: Path, embedder: Embedder, *, max_entries: int | None = None) -> None:
        super().__init__(embedder)
        self._tag = vector_tag(embedder)
        self._max_entries = max_entries
        self._db = _SqliteDatabase(path, _PREFERENCES_SCHEMA, migrate=_add_recipients)

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
        recipient = entry.recipient
        retire = {entry.opposite_key, *supersede}
        select = (
            "SELECT payload, vector, vector_tag FROM preferences "
            "WHERE user = ? AND recipient = ? AND key = ?"
        )
        for _ in range(MAX_ATTEMPTS):
            # The vector is made outside the write lock, so one shopper's embedding never
            # holds up another's reads; the merge commits only if the row is still what it
            # was read as (otherwise it is redone from the newer row).
            with self._db.read() as conn:
                row = conn.execute(select, (user, recipient, entry.dedup_key)).fetchone()
            current = self._parse_or_none(row[0]) if row else None
            if entry.dedup_key in retire:  # superseding its own key: replace, don't merge
                current = None
            stored = current.merged_with(entry) if current else entry
            vector = self._reusable_vector(current, stored, row)
            if vector is None:
                vector = self.embedder.embed_documents([vector_text(stored)])[0]
            with self._db.write() as conn:
                _check_generation(conn, user, generation)
                now = conn.execute(select, (user, recipient, entry.dedup_key)).fetchone()
                if (now[0] if now else None) != (row[0] if row else None):
                    continue
                deleted = [
                    key
                    for key in sorted(retire - {entry.dedup_key})
                    if conn.execute(
                        "DELETE FROM preferences WHERE user = ? AND recipient = ? AND key = ?",
                        (user, recipient, key),
                    ).rowcount
                ]
                if now is None and self._max_entries is not None:
                    (kept,) = conn.execute(
                        "SELECT COUNT(*) FROM preferences WHERE user = ?", (user,)
                    ).fetchone()
                    if kept >= self._max_entries:
                        raise QuotaExceeded(
                            "preferences", self._max_entries, "delete some before adding more"
                        )
                conn.execute(
                    "INSERT OR REPLACE INTO preferences "
                    "(user, recipient, key, payload, vector, vector_tag) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        user,
                        recipient,
                        stored.dedup_key,
                        dump_entry(stored),
                        encode_vector(vector),
                        self._tag,
                    ),
                )
                _bump(conn, user, recipient, [stored.dedup_key, *deleted])
            return stored
        raise StoreUnavailable(
            str(self._db.path), f"gave up after {MAX_ATTEMPTS} contended attempts"
        )

    def supersede(
        self,
        user: str,
        keys: Sequence[str],
        *,
        recipient: str = SELF,
        generation: str | None = None,
    ) -> int:
        check_user(user)
        check_recipient(recipient)
        with self._db.write() as conn:
            _check_generation(conn, user, generation)
            deleted = [
                key
                for key in dict.fromkeys(keys)
                if conn.execute(
                    "DELETE FROM preferences WHERE user = ? AND recipient = ? AND key = ?",
                    (user, recipient, key),
                ).rowcount
            ]
            if deleted:
                _bump(conn, user, recipient, deleted)
            return len(deleted)

    def get(self, user: str, key: str, *, recipient: str = SELF) -> PreferenceEntry | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT payload FROM preferences WHERE user = ? AND recipient = ? AND key = ?",
                (check_user(user), check_recipient(recipient), key),
            ).fetchone()
        return self._parse_or_none(row[0]) if row else None

    def list(self, user: str, *, recipient: str | None = None) -> list[PreferenceEntry]:
        return parse_rows(self.raw_rows(user, recipient=recipient))

    def delete(
        self, user: str, key: str, *, recipient: str = SELF, generation: str | None = None
    ) -> bool:
        return self.supersede(user, [key], recipient=recipient, generation=generation) > 0

    def generation(self, user: str) -> str:
        with self._db.read() as conn:
            return _generation(conn, check_user(user))

    def erase(self, user: str) -> None:
        check_user(user)
        with self._db.write() as conn:
            for table in ("preferences", "preference_changes", "namespace_versions"):
                conn.execute(f"DELETE FROM {table} WHERE user = ?", (user,))
            _new_generation(conn, user)

    def raw_rows(self, user: str, *, recipient: str | None = None) -> builtins.list[RawRow]:
        """Rows exactly as stored, unvalidated (doctor and import only); one namespace, or
        all of them when `recipient` is None."""
        check_user(user)
        with self._db.read() as conn:
            if recipient is None:
                rows = conn.execute(
                    "SELECT recipient, key, payload FROM preferences WHERE user = ? "
                    "ORDER BY recipient, key",
                    (user,),
                ).fetchall()
            else:
                rows = conn.execute(
                    "SELECT recipient, key, payload FROM preferences "
                    "WHERE user = ? AND recipient = ? ORDER BY key",
                    (user, check_recipient(recipient)),
                ).fetchall()
        return [RawRow(key=key, payload=payload, recipient=rcpt) for rcpt, key, payload in rows]

    def replace_all(self, user: str, entries: Sequence[PreferenceEntry]) -> None:
        """Atomically make `entries` the user's whole memory, every namespace (doctor --fix,
        import --replace)."""
        check_user(user)
        if self._max_entries is not None and len(entries) > self._max_entries:
            raise QuotaExceeded("preferences", self._max_entries, "import fewer entries")
        vectors = self.embedder.embed_documents([vector_text(e) for e in entries])
        with self._db.write() as conn:
            touched = {
                recipient
                for (recipient,) in conn.execute(
                    "SELECT DISTINCT recipient FROM preferences WHERE user = ?", (user,)
                )
            } | {e.recipient for e in entries}
            conn.execute("DELETE FROM preferences WHERE user = ?", (user,))
            conn.executemany(
                "INSERT OR REPLACE INTO preferences "
                "(user, recipient, key, payload, vector, vector_tag) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (user, e.recipient, e.dedup_key, dump_entry(e), encode_vector(v), self._tag)
                    for e, v in zip(entries, vectors, strict=True)
                ],
            )
            for recipient in touched:
                _new_epoch(conn, user, recipient)

    def close(self) -> None:
        self._db.close()

    def _namespace_version(self, user: str, recipient: str) -> NamespaceVersion:
        with self._db.read() as conn:
            return _version(conn, user, recipient)

    def _recipients(self, user: str) -> builtins.list[str]:
        """Every namespace ever written, `self` always first."""
        with self._db.read() as conn:
            names = {
                str(name)
                for (name,) in conn.execute(
                    "SELECT recipient FROM namespace_versions WHERE user = ?", (user,)
                )
            }
        return [SELF, *sorted(names - {SELF})]

    def _vector_rows(
        self, user: str, recipient: str
    ) -> tuple[NamespaceVersion, builtins.list[VectorRow]]:
        # One read transaction: the version belongs to exactly these rows.
        with self._db.read() as conn:
            conn.execute("BEGIN")
            try:
                version = _version(conn, user, recipient)
                rows = conn.execute(
                    "SELECT key, payload, vector, vector_tag FROM preferences "
                    "WHERE user = ? AND recipient = ?",
                    (user, recipient),
                ).fetchall()
            finally:
                conn.execute("COMMIT")
        return version, [r for r in map(self._vector_row, rows) if r is not None]

    def _changes_since(self, user: str, recipient: str, seq: int) -> NamespaceChanges:
        with self._db.read() as conn:
            conn.execute("BEGIN")
            try:
                version = _version(conn, user, recipient)
                rows = conn.execute(
                    "SELECT c.key, p.payload, p.vector, p.vector_tag FROM preference_changes c "
                    "LEFT JOIN preferences p "
                    "ON p.user = c.user AND p.recipient = c.recipient AND p.key = c.key "
                    "WHERE c.user = ? AND c.recipient = ? AND c.seq > ?",
                    (user, recipient, seq),
                ).fetchall()
            finally:
                conn.execute("COMMIT")
        written = []
        deleted = []
        for row in rows:
            parsed = self._vector_row(row) if row[1] is not None else None
            if parsed is None:
                deleted.append(str(row[0]))
            else:
                written.append(parsed)
        return NamespaceChanges(version=version, written=written, deleted=deleted)

    def _vector_row(self, row: tuple[str, str, bytes | None, str]) -> VectorRow | None:
        key, payload, blob, tag = row
        entry = self._parse_or_none(payload)
        if entry is None:
            return None
        vector = decode_vector(blob, self.embedder.dim) if tag == self._tag else None
        return VectorRow(key=key, payload=payload, entry=entry, vector=vector)

    def _store_vectors(
        self, user: str, recipient: str, rows: Sequence[tuple[VectorRow, Vector]]
    ) -> None:
        with self._db.write() as conn:
            conn.executemany(
                "UPDATE preferences SET vector = ?, vector_tag = ? "
                "WHERE user = ? AND recipient = ? AND key = ? AND payload = ?",
                [(encode_vector(v), self._tag, user, recipient, r.key, r.payload) for r, v in rows],
            )

    def _reusable_vector(
        self,
        current: PreferenceEntry | None,
        stored: PreferenceEntry,
        row: tuple[str, bytes | None, str] | None,
    ) -> Vector | None:
        """The stored vector when the merge did not change the embedded text."""
        if current is None or row is None or row[2] != self._tag:
            return None
        if vector_text(current) != vector_text(stored):
            return None
        return decode_vector(row[1], self.embedder.dim)

    @staticmethod
    def _parse_or_none(payload: str) -> PreferenceEntry | None:
        try:
            return parse_entry(payload)
        except CorruptRow:
            logger.warning("ignoring a corrupt preference row; run `cartwise memory doctor`")
            return None


class SqliteSessionStore:
    """`SessionStore` in SQLite: one row per thread (P_t JSON, recent messages, expiry)."""

    def __init__(
        self,
        path: Path,
        *,
        ttl_seconds: float,
        max_messages: int,
        max_rejected: int,
        max_threads: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._ttl = ttl_seconds
        self._max_messages = max_messages
        self._max_rejected = max_rejected
        self._max_threads = max_threads
        self._clock = clock
        self._db = _SqliteDatabase(path, _SESSIONS_SCHEMA)

    def get(self, user: str, thread: str) -> SessionPrefState:
        from cartwise.memory.session_state import SessionPrefState

        row = self._live_row(user, thread)
        if row is None:
            return SessionPrefState(thread=thread)
        return SessionPrefState.model_validate_json(row[0])

    def start(self, user: str, thread: str, *, generation: str | None = None) -> None:
        from cartwise.memory.session_state import SessionPrefState

        with self._db.write() as conn:
            _check_generation(conn, user, generation)
            state_json, _ = self._claim(conn, user, thread)
            if state_json:
                return
            if self._max_threads is not None:
                (live,) = conn.execute(
                    "SELECT COUNT(*) FROM user_threads WHERE user = ?", (user,)
                ).fetchone()
                if live >= self._max_threads:
                    raise QuotaExceeded(
                        "threads",
                        self._max_threads,
                        "delete an old conversation to start a new one",
                    )
            self._save(conn, user, thread, dump_session(SessionPrefState(thread=thread)), "[]")

    def patch(
        self, user: str, thread: str, patch: SessionPatch, *, generation: str | None = None
    ) -> SessionPrefState:
        from cartwise.memory.session_state import SessionPrefState, apply_patch

        with self._db.write() as conn:
            _check_generation(conn, user, generation)
            state_json, messages_json = self._claim(conn, user, thread)
            current = (
                SessionPrefState.model_validate_json(state_json)
                if state_json
                else SessionPrefState(thread=thread)
            )
            state = apply_patch(current, patch, max_rejected=self._max_rejected)
            self._save(conn, user, thread, dump_session(state), messages_json)
        return state

    def clear(self, user: str, thread: str) -> bool:
        with self._db.write() as conn:
            cursor = conn.execute(
                "DELETE FROM user_threads WHERE thread = ? AND user = ? AND expires_at > ?",
                (thread, check_user(user), self._clock()),
            )
            return cursor.rowcount > 0

    def append_messages(
        self,
        user: str,
        thread: str,
        messages: Sequence[ChatMessage],
        *,
        generation: str | None = None,
    ) -> None:
        from cartwise.memory.session_state import ChatMessage, SessionPrefState

        with self._db.write() as conn:
            _check_generation(conn, user, generation)
            state_json, messages_json = self._claim(conn, user, thread)
            history = [ChatMessage.model_validate(m) for m in _json_list(messages_json)]
            history = [*history, *messages][-self._max_messages :]
            payload = "[" + ",".join(m.model_dump_json() for m in history) + "]"
            state = state_json or dump_session(SessionPrefState(thread=thread))
            self._save(conn, user, thread, state, payload)

    def messages(self, user: str, thread: str) -> list[ChatMessage]:
        from cartwise.memory.session_state import ChatMessage

        row = self._live_row(user, thread)
        return [ChatMessage.model_validate(m) for m in _json_list(row[1])] if row else []

    def threads(self, user: str) -> list[str]:
        """Live threads, most recently active first."""
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT thread FROM user_threads WHERE user = ? AND expires_at > ? "
                "ORDER BY expires_at DESC",
                (check_user(user), self._clock()),
            ).fetchall()
        return [thread for (thread,) in rows]

    def exists(self, user: str, thread: str) -> bool:
        return self._live_row(user, thread) is not None

    def generation(self, user: str) -> str:
        with self._db.read() as conn:
            return _generation(conn, check_user(user))

    def erase(self, user: str) -> None:
        with self._db.write() as conn:
            conn.execute("DELETE FROM user_threads WHERE user = ?", (check_user(user),))
            _new_generation(conn, user)

    def close(self) -> None:
        self._db.close()

    def _live_row(self, user: str, thread: str) -> tuple[str, str] | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT state, messages FROM user_threads WHERE thread = ? AND user = ? AND expires_at > ?",
                (thread, check_user(user), self._clock()),
            ).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def _claim(self, conn: sqlite3.Connection, user: str, thread: str) -> tuple[str, str]:
        """Inside a write: the thread's live (state, messages), ('', '[]') when absent or
        expired."""
        check_user(user)
        now = self._clock()
        conn.execute("DELETE FROM user_threads WHERE expires_at <= ?", (now,))
        row = conn.execute(
            "SELECT state, messages FROM user_threads WHERE user = ? AND thread = ?",
            (user, thread),
        ).fetchone()
        if row is None:
            return "", "[]"
        return str(row[0]), str(row[1])

    def _save(
        self, conn: sqlite3.Connection, user: str, thread: str, state: str, messages: str
    ) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO user_threads (user, thread, state, messages, expires_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (user, thread, state, messages, self._clock() + self._ttl),
        )


def _json_list(payload: str) -> list[object]:
    data = json.loads(payload)
    return data if isinstance(data, list) else []
