"""What the engine wrappers counted: calls, fallbacks by reason, guard corrections — for
/metrics and the eval report. One object is shared by every wrapper of one engine stack."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any, Literal

Operation = Literal["plan", "curate", "reply"]
FallbackReason = Literal[
    "timeout",
    "http_error",
    "connection_error",
    "bad_response",
    "malformed_json",
    "invalid",
    "supplied_key",
]


class EngineCounters:
    """Thread-safe counters of one engine stack."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        """Calls attempted by the primary engine, by operation."""
        self.fallbacks: Counter[str] = Counter()
        """Calls answered by the fallback engine instead, by reason."""
        self.fallbacks_by_operation: Counter[str] = Counter()
        self.polarity_corrections = 0
        """Likes the rules engine saw inside a negation scope, corrected to dislikes."""
        self.safety_corrections = 0
        """Safety dislikes forced global and hard."""
        self.dropped_entries = 0
        """Long-term entries naming nothing the shopper said, dropped."""
        self.scope_corrections = 0
        """Long-term entries that were this session's slots or constraints, moved or dropped."""
        self.query_corrections = 0
        """Search queries that still held a refused term, replaced by the rules query."""
        self.recipient_corrections = 0
        """Preferences of someone else labelled the shopper's own, moved to that recipient."""

    def count_call(self, operation: Operation) -> None:
        with self._lock:
            self.calls[operation] += 1

    def count_fallback(self, operation: Operation, reason: FallbackReason) -> None:
        with self._lock:
            self.fallbacks[reason] += 1
            self.fallbacks_by_operation[operation] += 1

    def count_corrections(
        self,
        *,
        polarity: int = 0,
        safety: int = 0,
        dropped: int = 0,
        scope: int = 0,
        query: int = 0,
        recipient: int = 0,
    ) -> None:
        with self._lock:
            self.polarity_corrections += polarity
            self.safety_corrections += safety
            self.dropped_entries += dropped
            self.scope_corrections += scope
            self.query_corrections += query
            self.recipient_corrections += recipient

    def snapshot(self) -> dict[str, Any]:
        """A plain copy of every counter."""
        with self._lock:
            return {
                "calls": dict(self.calls),
                "fallbacks": dict(self.fallbacks),
                "fallbacks_by_operation": dict(self.fallbacks_by_operation),
                "polarity_corrections": self.polarity_corrections,
                "safety_corrections": self.safety_corrections,
                "dropped_entries": self.dropped_entries,
                "scope_corrections": self.scope_corrections,
                "query_corrections": self.query_corrections,
                "recipient_corrections": self.recipient_corrections,
            }
