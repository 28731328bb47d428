"""Prometheus metrics of one app instance, served at `/metrics`.

Each app gets its own `CollectorRegistry` so several apps in one process (tests, the
benchmark) never collide on metric names. Counters other layers keep themselves (the llm
engine's fallbacks, the injector's keyword fallbacks) are read at scrape time, and every
warning of the `cartwise` logger is counted by a logging handler, so those layers need no
dependency on the API to be observable.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from cartwise.log import logger
from cartwise.memory.injector import keyword_fallbacks

__all__ = ["CONTENT_TYPE_LATEST", "ApiMetrics"]

# Turn stages take milliseconds (rules engine) to tens of seconds (a slow LLM).
STAGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class _WarningCounter(logging.Handler):
    """Counts WARNING+ records of the cartwise logger by module."""

    def __init__(self, counter: Counter) -> None:
        super().__init__(level=logging.WARNING)
        self._counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        self._counter.labels(module=record.module).inc()


class _CounterSources(Collector):
    """Counters other layers keep themselves, read at scrape time: the injector's
    keyword fallbacks, the llm engine's fallbacks (absent with the rules engine) and where
    long messages were read (absent when every message is read in-process)."""

    def __init__(
        self,
        engine_counters: Callable[[], Mapping[str, Any] | None],
        long_reads: Callable[[], Mapping[str, int] | None],
    ) -> None:
        self._engine_counters = engine_counters
        self._long_reads = long_reads

    def collect(self) -> Iterator[Metric]:
        keyword = CounterMetricFamily(
            "cartwise_keyword_fallback_warnings",
            "Dislikes without keywords filtered by their whole phrase (a polarity/keyword smell).",
            labels=["category"],
        )
        for category, count in sorted(keyword_fallbacks.items()):
            keyword.add_metric([category], count)
        yield keyword
        fallbacks = CounterMetricFamily(
            "cartwise_engine_fallbacks",
            "LLM engine calls answered by the rules engine instead, by reason.",
            labels=["reason"],
        )
        snapshot = self._engine_counters() or {}
        for reason, count in sorted(dict(snapshot.get("fallbacks", {})).items()):
            fallbacks.add_metric([str(reason)], float(count))
        yield fallbacks
        # Long messages go to the reader's worker process: a worker that keeps failing shows
        # as in-process reads growing, never as failed turns.
        stats = self._long_reads() or {}
        reads = CounterMetricFamily(
            "cartwise_long_reads",
            "Messages past READ_OFFLOAD_CHARS, by where they were read (worker, in_process).",
            labels=["where"],
        )
        failures = CounterMetricFamily(
            "cartwise_reader_worker_failures",
            "Reads the reader's worker process did not answer (died, hung, raised).",
        )
        if stats:
            reads.add_metric(["worker"], float(stats["offloaded"]))
            reads.add_metric(["in_process"], float(stats["in_process"]))
            failures.add_metric([], float(stats["failures"]))
        yield reads
        yield failures


class ApiMetrics:
    """The metrics the API records; `render()` is the `/metrics` body."""

    def __init__(
        self,
        *,
        engine_counters: Callable[[], Mapping[str, Any] | None] = lambda: None,
        long_reads: Callable[[], Mapping[str, int] | None] = lambda: None,
    ) -> None:
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
        self.warnings = Counter(
            "cartwise_warnings",
            "Warnings logged by Cartwise, by module.",
            ["module"],
            registry=self.registry,
        )
        self.disconnects = Counter(
            "cartwise_stream_disconnects",
            "Clients that closed an agent stream before the run ended (the turn still finishes).",
            registry=self.registry,
        )
        self.rejected_requests = Counter(
            "cartwise_rejected_requests",
            "Requests refused before any work: rate limited (429) or too large (413).",
            ["reason"],
            registry=self.registry,
        )
        self._handler = _WarningCounter(self.warnings)
        self.registry.register(_CounterSources(engine_counters, long_reads))

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
