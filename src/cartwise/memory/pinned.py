"""Stores pinned to one user's generation: every write of a piece of work (a turn, an API
request) carries the generation the user was at when the work began, so an erase (an account
deleted meanwhile) makes the rest of its writes fail with `AccountErased` instead of landing
after the deletion. Reads pass straight through."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence

from cartwise.memory.prices import Alert, Trigger, Watch, WatchStore
from cartwise.memory.session_state import ChatMessage, SessionPatch, SessionPrefState, SessionStore
from cartwise.memory.store import (
    SELF,
    PreferenceEntry,
    PreferenceStore,
    ScoredNamespace,
    ScoredPreference,
)


class PinnedPreferences:
    """A `PreferenceStore` whose writes for `user` carry `generation`."""

    def __init__(self, store: PreferenceStore, user: str, generation: str) -> None:
        self._store = store
        self._user = user
        self._generation = generation

    def _pin(self, user: str, generation: str | None) -> str | None:
        return self._generation if user == self._user and generation is None else generation

    def upsert(
        self,
        user: str,
        entry: PreferenceEntry,
        *,
        supersede: Sequence[str] = (),
        generation: str | None = None,
    ) -> PreferenceEntry:
        return self._store.upsert(
            user, entry, supersede=supersede, generation=self._pin(user, generation)
        )

    def supersede(
        self,
        user: str,
        keys: Sequence[str],
        *,
        recipient: str = SELF,
        generation: str | None = None,
    ) -> int:
        return self._store.supersede(
            user, keys, recipient=recipient, generation=self._pin(user, generation)
        )

    def delete(
        self, user: str, key: str, *, recipient: str = SELF, generation: str | None = None
    ) -> bool:
        return self._store.delete(
            user, key, recipient=recipient, generation=self._pin(user, generation)
        )

    # Reads, and the erase itself, are never pinned.

    def get(self, user: str, key: str, *, recipient: str = SELF) -> PreferenceEntry | None:
        return self._store.get(user, key, recipient=recipient)

    def list(self, user: str, *, recipient: str | None = None) -> builtins.list[PreferenceEntry]:
        return self._store.list(user, recipient=recipient)

    def generation(self, user: str) -> str:
        return self._store.generation(user)

    def erase(self, user: str) -> None:
        self._store.erase(user)

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

    def named_in(
        self, user: str, text: str, *, slugs: Sequence[str] = (), limit: int = 32
    ) -> builtins.list[PreferenceEntry]:
        return self._store.named_in(user, text, slugs=slugs, limit=limit)

    def close(self) -> None:
        self._store.close()


class PinnedSessions:
    """A `SessionStore` whose writes for `user` carry `generation`."""

    def __init__(self, store: SessionStore, user: str, generation: str) -> None:
        self._store = store
        self._user = user
        self._generation = generation

    def _pin(self, user: str, generation: str | None) -> str | None:
        return self._generation if user == self._user and generation is None else generation

    def start(self, user: str, thread: str, *, generation: str | None = None) -> None:
        self._store.start(user, thread, generation=self._pin(user, generation))

    def patch(
        self, user: str, thread: str, patch: SessionPatch, *, generation: str | None = None
    ) -> SessionPrefState:
        return self._store.patch(user, thread, patch, generation=self._pin(user, generation))

    def append_messages(
        self,
        user: str,
        thread: str,
        messages: Sequence[ChatMessage],
        *,
        generation: str | None = None,
    ) -> None:
        self._store.append_messages(user, thread, messages, generation=self._pin(user, generation))

    def get(self, user: str, thread: str) -> SessionPrefState:
        return self._store.get(user, thread)

    def clear(self, user: str, thread: str) -> bool:
        return self._store.clear(user, thread)

    def messages(self, user: str, thread: str) -> list[ChatMessage]:
        return self._store.messages(user, thread)

    def threads(self, user: str) -> list[str]:
        return self._store.threads(user)

    def exists(self, user: str, thread: str) -> bool:
        return self._store.exists(user, thread)

    def generation(self, user: str) -> str:
        return self._store.generation(user)

    def erase(self, user: str) -> None:
        self._store.erase(user)

    def close(self) -> None:
        self._store.close()


class PinnedWatches:
    """A `WatchStore` whose writes that create data for `user` (a watch, a webhook) carry
    `generation`; changes to existing watches find none after an erase (`NotFound`)."""

    def __init__(self, store: WatchStore, user: str, generation: str) -> None:
        self._store = store
        self._user = user
        self._generation = generation

    def _pin(self, user: str, generation: str | None) -> str | None:
        return self._generation if user == self._user and generation is None else generation

    def add(self, watch: Watch, *, generation: str | None = None) -> Watch:
        return self._store.add(watch, generation=self._pin(watch.user, generation))

    def set_webhook(self, user: str, url: str, *, generation: str | None = None) -> None:
        self._store.set_webhook(user, url, generation=self._pin(user, generation))

    def list(self, user: str, *, include_closed: bool = False) -> builtins.list[Watch]:
        return self._store.list(user, include_closed=include_closed)

    def get(self, user: str, watch_id: str) -> Watch:
        return self._store.get(user, watch_id)

    def update(
        self,
        user: str,
        watch_id: str,
        *,
        target: float | None = None,
        days: float | None = None,
        rearm: bool = False,
        now: float | None = None,
    ) -> Watch:
        return self._store.update(user, watch_id, target=target, days=days, rearm=rearm, now=now)

    def cancel(self, user: str, watch_id: str) -> Watch:
        return self._store.cancel(user, watch_id)

    def fire(
        self, triggers: Sequence[Trigger], fx_to_base: Mapping[str, float], *, now: float
    ) -> builtins.list[Alert]:
        return self._store.fire(triggers, fx_to_base, now=now)

    def alerts(self, user: str, *, unseen_only: bool = False) -> builtins.list[Alert]:
        return self._store.alerts(user, unseen_only=unseen_only)

    def mark_seen(self, user: str, alert_ids: Sequence[str]) -> int:
        return self._store.mark_seen(user, alert_ids)

    def webhook(self, user: str) -> str:
        return self._store.webhook(user)

    def generation(self, user: str) -> str:
        return self._store.generation(user)

    def erase(self, user: str) -> None:
        self._store.erase(user)

    def close(self) -> None:
        self._store.close()
