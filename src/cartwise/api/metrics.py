"""Prometheus metrics of one app instance, served at `/metrics`.

Each app gets its own `CollectorRegistry` so several apps in one process (tests, the
benchmark) never collide on metric names. Warnings that other layers already log — the
LLM engine falling back to rules, a dislike filtered by its whole phrase because it has no
keywords — are counted by a logging handler on the `cartwise` logger, so those layers need
no dependency on the API to be observable.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from cartwise.log import logger

__all__ = ["CONTENT_TYPE_LATEST", "ApiMetrics"]

# Turn stages take milliseconds (rules engine) to tens of seconds (a slow LLM).
STAGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class _WarningCounter(logging.Handler):
    """Counts WARNING+ records of the cartwise logger by kind."""

    def __init__(self, metrics: ApiMetrics) -> None:
        super().__init__(level=logging.WARNING)
        self._metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage().casefold()
        self._metrics.warnings.labels(module=record.module).inc()
        if "fall" in message and "back" in message:
            if "keyword" in message or "whole phrase" in message:
                self._metrics.keyword_fallbacks.inc()
            elif "rules" in message or "engine" in message or "llm" in message:
                self._metrics.engine_fallbacks.inc()


class ApiMetrics:
    """The metrics the API records; `render()` is the `/metrics` body."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.stage_seconds = Histogram(
            "cartwise_turn_stage_seconds",
            "Latency of each stage of an agent turn.",
            ["stage"],
            buckets=STAGE_BUCKETS,
            registry=self.registry,
        )
        self.turn_seconds = Histogram(
            "cartwise_turn_seconds",
            "Latency of a whole agent turn as the API saw it.",
            buckets=STAGE_BUCKETS,
            registry=self.registry,
        )
        self.turns = Counter(
            "cartwise_turns",
            "Agent turns by outcome (finished, error).",
            ["outcome"],
            registry=self.registry,
        )
        self.memory_writes = Counter(
            "cartwise_memory_writes",
            "Long-term memory writes: entries added or superseded, through turns or the API.",
            ["kind"],
            registry=self.registry,
        )
        self.engine_fallbacks = Counter(
            "cartwise_engine_fallbacks",
            "Times the LLM engine failed and the rules engine answered instead.",
            registry=self.registry,
        )
        self.keyword_fallbacks = Counter(
            "cartwise_keyword_fallback_warnings",
            "Dislikes without keywords filtered by their whole phrase (a polarity/keyword smell).",
            registry=self.registry,
        )
        self.warnings = Counter(
            "cartwise_warnings",
            "Warnings logged by Cartwise, by module.",
            ["module"],
            registry=self.registry,
        )
        self.rejected_requests = Counter(
            "cartwise_rejected_requests",
            "Requests refused before any work: rate limited (429) or too large (413).",
            ["reason"],
            registry=self.registry,
        )
        self._handler = _WarningCounter(self)

    def observe_timings(self, timings_ms: Mapping[str, float]) -> None:
        """Record a TurnResult's per-stage timings (milliseconds)."""
        for stage, milliseconds in timings_ms.items():
            self.stage_seconds.labels(stage=stage).observe(max(0.0, milliseconds) / 1000.0)

    def attach(self) -> None:
        """Start counting warnings of the cartwise logger."""
        logger.addHandler(self._handler)

    def detach(self) -> None:
        logger.removeHandler(self._handler)

    def render(self) -> bytes:
        return generate_latest(self.registry)
