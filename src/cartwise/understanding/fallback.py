"""`FallbackEngine`: an engine whose every call that fails is answered by another engine.

The primary signals a failed call by raising `EngineFailure` (a timeout, a malformed or
invalid answer); the fallback answers that one call, the failure is counted by reason and
logged without user text. Nothing the primary half-produced is ever returned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from cartwise.log import logger
from cartwise.understanding.base import (
    CuratorOutput,
    CuratorTurn,
    Engine,
    EngineFailure,
    ReplyFacts,
)
from cartwise.understanding.counters import EngineCounters, Operation
from cartwise.understanding.reading import Conversation, Reading

AnswerT = TypeVar("AnswerT")


class FallbackEngine:
    """`primary`, answered by `fallback` whenever it raises `EngineFailure`."""

    def __init__(self, primary: Engine, fallback: Engine, counters: EngineCounters) -> None:
        self._primary = primary
        self._fallback = fallback
        self.counters = counters

    @property
    def name(self) -> str:
        return self._primary.name

    def read(self, message: str, conversation: Conversation) -> Reading:
        return self._call(
            "plan",
            lambda: self._primary.read(message, conversation),
            lambda: self._fallback.read(message, conversation),
        )

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        return self._call(
            "curate", lambda: self._primary.curate(turn), lambda: self._fallback.curate(turn)
        )

    def write_reply(self, facts: ReplyFacts) -> str:
        return self._call(
            "reply",
            lambda: self._primary.write_reply(facts),
            lambda: self._fallback.write_reply(facts),
        )

    def _call(
        self,
        operation: Operation,
        primary: Callable[[], AnswerT],
        fallback: Callable[[], AnswerT],
    ) -> AnswerT:
        self.counters.count_call(operation)
        try:
            return primary()
        except EngineFailure as failure:
            self.counters.count_fallback(operation, failure.reason)
            logger.warning(
                "%s %s fell back to %s (%s): %s",
                self._primary.name,
                operation,
                self._fallback.name,
                failure.reason,
                failure.detail,
            )
            return fallback()
