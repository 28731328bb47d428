"""`GuardedEngine`: an engine whose readings and curator answers are cross-checked against
the rules engine's reading of the same message (the checks are in `llm_guard`).

It wraps any engine that may mislabel polarity, scope or holder (an LLM): a like inside a
negation becomes a dislike, a safety statement is forced hard and global, a refused term
is taken out of the query, a preference of someone else moves to them. What only a
deterministic parser reads exactly — specs, URLs, budget validity, a bare answer to our
own size question — is taken from the rules reading. An answer the checks cannot repair
raises `EngineFailure`, so a `FallbackEngine` around this one answers instead.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from pydantic import ValidationError

from cartwise.catalog.taxonomy import types_named_in
from cartwise.errors import InvalidPreference
from cartwise.log import logger
from cartwise.understanding.base import (
    CuratorOutput,
    CuratorTurn,
    Engine,
    EngineFailure,
    ReplyFacts,
)
from cartwise.understanding.counters import EngineCounters, Operation
from cartwise.understanding.llm_guard import GuardReport, RulesReading, guard_curator, guard_planner
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine

READING_CACHE_SIZE = 64
"""Recent messages whose rules reading is kept for the curator call of the same turn."""


class GuardedEngine:
    """`inner`, checked against `reference` (the rules engine) on every read and curate."""

    def __init__(
        self,
        inner: Engine,
        reference: RulesEngine,
        counters: EngineCounters,
        *,
        log_personal_data: bool = False,
    ) -> None:
        self._inner = inner
        self._reference = reference
        self._log_personal_data = log_personal_data
        self._readings: OrderedDict[str, RulesReading] = OrderedDict()
        self._readings_lock = threading.Lock()
        self.counters = counters

    @property
    def name(self) -> str:
        return self._inner.name

    def read(self, message: str, conversation: Conversation) -> Reading:
        reading = self._inner.read(message, conversation)
        reference = self._reference.read(message, conversation)
        report = GuardReport()
        guarded = guard_planner(reading, self._remember(message, reference), message, report)
        guarded = guarded.model_copy(update=_price_followup(guarded, reference))
        self._count("plan", report)
        return guarded.model_copy(
            update={
                "specs": reference.specs,
                "types": [
                    kind.slug
                    for kind in types_named_in(guarded.query)
                    or types_named_in(guarded.product_type)
                ],
                "urls": reference.urls,
                "compatible": reference.compatible,
                "unusable_budget": reference.unusable_budget,
                "slots": {**guarded.slots, **_bare_size(reference)},
            }
        )

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        output = self._inner.curate(turn)
        report = GuardReport()
        try:
            guarded = guard_curator(
                output,
                self._reading_of(turn),
                turn.user_message,
                report,
                planner_slots=turn.reading.slots,
            )
        except (ValidationError, InvalidPreference) as exc:
            raise EngineFailure("invalid", type(exc).__name__) from exc
        self._count("curate", report)
        return guarded

    def write_reply(self, facts: ReplyFacts) -> str:
        return self._inner.write_reply(facts)

    def _remember(self, message: str, reference: Reading) -> RulesReading:
        # The rules engine names every slug inside a negation scope, even ones that did not
        # become a stated preference.
        reading = RulesReading.from_planner(reference).with_negated(
            self._reference.negated_slugs(message)
        )
        with self._readings_lock:
            self._readings[message] = reading
            self._readings.move_to_end(message)
            while len(self._readings) > READING_CACHE_SIZE:
                self._readings.popitem(last=False)
        return reading

    def _reading_of(self, turn: CuratorTurn) -> RulesReading:
        """The rules reading of this turn's message (kept by `read`, or read now)."""
        with self._readings_lock:
            cached = self._readings.get(turn.user_message)
        if cached is not None:
            return cached
        reference = self._reference.read(
            turn.user_message, Conversation(session=turn.session, memory=turn.memory)
        )
        return self._remember(turn.user_message, reference)

    def _count(self, operation: Operation, report: GuardReport) -> None:
        self.counters.count_corrections(
            polarity=report.polarity_corrections,
            safety=report.safety_corrections,
            dropped=report.dropped_ungrounded,
            scope=report.scope_corrections,
            query=report.query_corrections,
            recipient=report.recipient_corrections,
        )
        if report.polarity_corrections:
            slugs = ", ".join(report.corrected_slugs)
            logger.warning(
                "%s %s: %d like(s) inside a negation corrected to dislike (slugs: %s)",
                self.name,
                operation,
                report.polarity_corrections,
                slugs if self._log_personal_data else f"<{len(report.corrected_slugs)}>",
            )
        if (
            report.safety_corrections
            or report.dropped_ungrounded
            or report.scope_corrections
            or report.query_corrections
            or report.recipient_corrections
        ):
            logger.info(
                "%s %s: %d safety, %d scope, %d query, %d recipient correction(s); "
                "%d ungrounded entr(ies) dropped",
                self.name,
                operation,
                report.safety_corrections,
                report.scope_corrections,
                report.query_corrections,
                report.recipient_corrections,
                report.dropped_ungrounded,
            )


def _bare_size(reading: Reading) -> dict[str, str]:
    """A size the rules read as a bare answer to our size question."""
    return {"size": reading.slots["size"]} if "size" in reading.slots else {}


def _price_followup(reading: Reading, reference: Reading) -> dict[str, object]:
    """A price question or watch the rules read (their cues are exact words: 历史最低,
    提醒我, "good price") where the model read none; and a watch's amount as its target,
    never a budget to search with, as the rules reader files it ("降到2000以下提醒我")."""
    followup = reading.followup
    if (followup is None or followup.price_ask is None) and (
        reference.followup is not None and reference.followup.price_ask is not None
    ):
        followup = reference.followup
    ask = followup.price_ask if followup is not None else None
    update: dict[str, object] = {} if followup is reading.followup else {"followup": followup}
    if followup is None or ask is None or ask.kind != "watch_price":
        return update
    slots = dict(reading.slots)
    try:
        budget = float(slots["budget_max"]) if "budget_max" in slots else None
    except ValueError:
        budget = None
    if budget is None or (ask.target is not None and abs(ask.target - budget) > 0.005):
        return update
    currency = slots.pop("budget_currency", "")
    del slots["budget_max"]
    if ask.target is None:
        ask = ask.model_copy(update={"target": budget, "currency": ask.currency or currency})
    return {"followup": followup.model_copy(update={"price_ask": ask}), "slots": slots}
