"""`AgentDeps`: everything a turn reads but never changes — stores, recall, engine, embedder,
settings — opened once per process and shared by every run."""

from __future__ import annotations

import uuid
from contextlib import ExitStack
from dataclasses import dataclass

from cartwise.embedding.base import Embedder
from cartwise.embedding.memo import QueryMemo
from cartwise.log import logger
from cartwise.memory.prices import PriceHistory, WatchStore
from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.base import Engine
from cartwise.understanding.offload import OffloadEngine


@dataclass(frozen=True)
class AgentDeps:
    """Read-only dependencies of the agent."""

    settings: Settings
    preferences: PreferenceStore
    sessions: SessionStore
    recall: RecallService
    engine: Engine
    embedder: Embedder
    prices: PriceHistory | None = None
    """The offers' price history (None: PRICE_HISTORY is off; no deals, no charts)."""
    watches: WatchStore | None = None
    """Shoppers' price and stock watches and their alerts (None with the history off)."""

    def close(self) -> None:
        if isinstance(self.engine, OffloadEngine):
            self.engine.close()
        self.preferences.close()
        self.sessions.close()
        self.recall.close()
        if self.prices is not None:
            self.prices.close()
        if self.watches is not None:
            self.watches.close()

    def warm_up(self) -> None:
        """Pay now what the first turn would pay: the model, the index's search structures,
        the lexical index, the reader's tables, the turn graph. With the rules engine one
        throwaway turn per language runs under a user no shopper can have (usernames hold
        no ":") and is forgotten again; an LLM engine is not called (a paid, maybe slow
        request at every start), only what surrounds it is warmed."""
        import asyncio

        from cartwise.agent.graph import turn_graph
        from cartwise.agent.run import run_agent

        turn_graph()
        for query in WARM_UP_MESSAGES:
            self.recall.search(query, k=1, profile="")
        if self.engine.name != "rules":
            return
        user, thread = WARM_UP_USER, f"warm-up-{uuid.uuid4().hex[:12]}"
        try:
            for message in WARM_UP_MESSAGES:
                asyncio.run(run_agent(self, user=user, thread=thread, message=message))
        finally:
            self.sessions.clear(user, thread)
            for entry in self.preferences.list(user):
                self.preferences.delete(user, entry.dedup_key, recipient=entry.recipient)
        # The reader's worker started with the engine and has usually built its reader by
        # now; until it has, long messages are read in this process (never waited for).
        if isinstance(self.engine, OffloadEngine) and not self.engine.wait_ready(
            READER_WORKER_START_S
        ):
            logger.warning("the reader's worker is not ready: long messages read in-process")


READINESS_PROBE_THREAD = "cartwise-readiness-probe"
WARM_UP_USER = "cartwise:warm-up"
WARM_UP_MESSAGES = ("推荐一款空气进化器", "runnign shoes under 300")
"""A plain request in each language: every stage of a turn runs, nothing is remembered. Each
has a typo, so the reader's respelling tables load too."""
READER_WORKER_START_S = 60.0
"""How long the warm-up waits for the reader's worker process (~1–3 s on the 2-core machine)."""


def create_deps(
    settings: Settings, *, embedder: Embedder | None = None, offload_reads: bool = False
) -> AgentDeps:
    """Open the configured backends and touch each store once, so a dead Redis is a
    StoreUnavailable now rather than in the middle of someone's turn. `offload_reads` (a
    server): long messages are read in a worker process (`create_engine`)."""
    from cartwise.embedding import create_embedder
    from cartwise.memory import (
        create_preference_store,
        create_price_history,
        create_session_store,
        create_watch_store,
    )
    from cartwise.understanding import create_engine

    memo = QueryMemo(embedder or create_embedder(settings.embedder, settings))
    with ExitStack() as cleanup:
        sessions = create_session_store(settings)
        cleanup.callback(sessions.close)
        preferences = create_preference_store(settings, memo)
        cleanup.callback(preferences.close)
        recall = RecallService.open(settings, memo)
        cleanup.callback(recall.close)
        # The rules engine learns every brand the catalog carries (not only its list).
        engine = create_engine(
            settings, recall.catalog_brands(), embedder=memo, offload_reads=offload_reads
        )
        if isinstance(engine, OffloadEngine):
            cleanup.callback(engine.close)
        prices = watches = None
        if settings.price_history:
            prices = create_price_history(settings)
            cleanup.callback(prices.close)
            watches = create_watch_store(settings)
            cleanup.callback(watches.close)
        sessions.exists(READINESS_PROBE_THREAD, READINESS_PROBE_THREAD)
        preferences.get(READINESS_PROBE_THREAD, "like:other::probe")
        cleanup.pop_all()
    return AgentDeps(
        settings=settings,
        preferences=preferences,
        sessions=sessions,
        recall=recall,
        engine=engine,
        embedder=memo,
        prices=prices,
        watches=watches,
    )
