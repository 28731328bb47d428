"""Per-account caps on what a shopper may accumulate: preference entries and live threads.

The memory cap is a wrapper around the `PreferenceStore` (new keys past the cap are refused,
updates of existing keys are not), applied both to the memory routes and to the stores a
turn writes through, so neither path can grow an account without bound.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from cartwise.errors import CartwiseError
from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import (
    SELF,
    PreferenceEntry,
    PreferenceStore,
    ScoredNamespace,
    ScoredPreference,
)


class QuotaExceeded(CartwiseError):
    """A per-account cap was reached; the write did not happen."""

    def __init__(self, what: str, cap: int, remedy: str) -> None:
        self.what = what
        self.cap = cap
        super().__init__(f"you already keep {cap} {what}, the most allowed; {remedy}")


class CappedPreferences:
    """A `PreferenceStore` that refuses new entries once `user` keeps `cap` of them."""

    def __init__(self, store: PreferenceStore, cap: int) -> None:
        self._store = store
        self._cap = cap

    def upsert(
        self, user: str, entry: PreferenceEntry, *, supersede: Sequence[str] = ()
    ) -> PreferenceEntry:
        recipient = entry.recipient
        if self._store.get(user, entry.dedup_key, recipient=recipient) is None:
            # The cap counts every namespace (the shopper's and each recipient's): keys are
            # only unique within one, so they are counted as (recipient, key) pairs.
            kept = {(e.recipient, e.dedup_key) for e in self._store.list(user)}
            retired = kept & {(recipient, key) for key in (*supersede, entry.opposite_key)}
            if len(kept) - len(retired) >= self._cap:
                raise QuotaExceeded(
                    "preferences", self._cap, "delete some under Memory before adding more"
                )
        return self._store.upsert(user, entry, supersede=supersede)

    # Every other call reads or removes, which a cap never limits.

    def supersede(self, user: str, keys: Sequence[str], *, recipient: str = SELF) -> int:
        return self._store.supersede(user, keys, recipient=recipient)

    def get(self, user: str, key: str, *, recipient: str = SELF) -> PreferenceEntry | None:
        return self._store.get(user, key, recipient=recipient)

    def list(self, user: str, *, recipient: str | None = None) -> builtins.list[PreferenceEntry]:
        return self._store.list(user, recipient=recipient)

    def delete(self, user: str, key: str, *, recipient: str = SELF) -> bool:
        return self._store.delete(user, key, recipient=recipient)

    def rank_relevant(
        self, user: str, query: str, k: int, *, recipient: str = SELF
    ) -> builtins.list[ScoredPreference]:
        return self._store.rank_relevant(user, query, k, recipient=recipient)

    def score_namespace(self, user: str, query: str, *, recipient: str = SELF) -> ScoredNamespace:
        return self._store.score_namespace(user, query, recipient=recipient)

    def read_relevant(
        self,
        user: str,
        query: str,
        *,
        recipient: str = SELF,
        k: int = 8,
        threshold: float = 0.8,
    ) -> builtins.list[PreferenceEntry]:
        return self._store.read_relevant(user, query, recipient=recipient, k=k, threshold=threshold)

    def close(self) -> None:
        self._store.close()


def check_thread_quota(sessions: SessionStore, user: str, thread: str, *, cap: int) -> None:
    """`QuotaExceeded` when `thread` would be a new thread past the user's cap."""
    if sessions.exists(user, thread):
        return
    if len(sessions.threads(user)) >= cap:
        raise QuotaExceeded("threads", cap, "delete an old conversation to start a new one")
