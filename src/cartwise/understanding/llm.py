"""The llm engine: planner, curator and reply through any OpenAI-compatible chat endpoint.

Every call can fail — HTTP error, timeout, malformed JSON, a value that does not validate
(wrong enum, bad slug, a supplied key). Each failure falls back to the rules engine's answer
for that one call and is counted by reason; nothing invalid is ever returned. After a
successful answer the guards in `llm_guard` cross-check it against the rules engine's
reading of the same message (polarity, query, safety, scope, grounding). `counters` holds
what happened, for /metrics and the eval report.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter, OrderedDict
from typing import Any, Literal, TypeVar

import openai
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, SecretStr, ValidationError

from cartwise.catalog.taxonomy import types_named_in
from cartwise.errors import CartwiseError, InvalidPreference
from cartwise.log import logger
from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import PreferenceEntry
from cartwise.settings import Settings
from cartwise.understanding.base import CuratorOutput, CuratorTurn, Engine, ReplyFacts
from cartwise.understanding.llm_guard import GuardReport, RulesReading, guard_curator, guard_planner
from cartwise.understanding.llm_schema import KEY_FIELD_NAMES, CuratorAnswer, ReadingAnswer
from cartwise.understanding.prompts import get_prompt
from cartwise.understanding.reading import Conversation, Reading

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
JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
READING_CACHE_SIZE = 64
LOGGABLE_LOCATION = re.compile(r"[a-z_]{1,32}|\d{1,4}")
AnswerT = TypeVar("AnswerT", bound=BaseModel)


class LLMFailure(CartwiseError):
    """One failed LLM call, classified; the engine answers with the rules engine instead."""

    def __init__(self, reason: FallbackReason, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}")


class EngineCounters:
    """Thread-safe counters of the llm engine, for metrics and the eval report."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        """LLM calls attempted, by operation."""
        self.fallbacks: Counter[str] = Counter()
        """Calls answered by the rules engine instead, by reason."""
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

    def count_guards(self, report: GuardReport) -> None:
        with self._lock:
            self.polarity_corrections += report.polarity_corrections
            self.safety_corrections += report.safety_corrections
            self.dropped_entries += report.dropped_ungrounded
            self.scope_corrections += report.scope_corrections
            self.query_corrections += report.query_corrections
            self.recipient_corrections += report.recipient_corrections

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


def build_chat_model(settings: Settings) -> ChatOpenAI:
    """The chat client. langchain-openai sends the bound as `max_completion_tokens`, which
    several local OpenAI-compatible servers ignore, so `max_tokens` is sent as well."""
    return ChatOpenAI(
        base_url=settings.llm_base_url,
        api_key=SecretStr(settings.llm_api_key),
        model=settings.llm_model,
        timeout=settings.llm_timeout_seconds,
        max_retries=0,
        temperature=0,
        max_tokens=settings.llm_max_tokens,
        extra_body={"max_tokens": settings.llm_max_tokens},
    )


class LLMEngine:
    """Planner, curator and reply via an LLM, with the rules engine as fallback and guard."""

    def __init__(self, settings: Settings, fallback: Engine) -> None:
        self._settings = settings
        self._fallback = fallback
        self._chat = build_chat_model(settings)
        self._planner = self._structured(ReadingAnswer, "planner_output", settings)
        self._curator = self._structured(CuratorAnswer, "curator_output", settings)
        self._readings: OrderedDict[str, RulesReading] = OrderedDict()
        self._readings_lock = threading.Lock()
        self.counters = EngineCounters()

    @property
    def name(self) -> str:
        return "llm"

    @property
    def fallback(self) -> Engine:
        """The engine that answers when the LLM cannot, and guards what it says."""
        return self._fallback

    def read(self, message: str, conversation: Conversation) -> Reading:
        session, memory = conversation.session, conversation.memory
        fallback_plan = self._fallback.read(message, conversation)
        reading = self._remember_reading(message, fallback_plan)
        payload = {
            "message": message,
            "session": _session_view(session),
            "memory": [_entry_view(entry) for entry in memory],
        }
        try:
            answer = self._ask("plan", self._planner, ReadingAnswer, "reader_prompt", payload)
        except LLMFailure as failure:
            self._count_failure("plan", failure)
            return fallback_plan
        report = GuardReport()
        planner = guard_planner(
            answer.to_output(session.open_questions),
            reading,
            message,
            report,
        )
        self._count_guards("plan", report)
        # Specs, URLs, budget validity and a bare answer to our own question come from the
        # deterministic readers, as the rules engine read them: units, tolerances and the
        # attribute vocabulary are the catalog's, not a model's guess.
        return planner.model_copy(
            update={
                "specs": fallback_plan.specs,
                "types": [
                    kind.slug
                    for kind in types_named_in(planner.query)
                    or types_named_in(planner.product_type)
                ],
                "urls": fallback_plan.urls,
                "compatible": fallback_plan.compatible,
                "unusable_budget": fallback_plan.unusable_budget,
                "slots": {**planner.slots, **_deterministic_slots(fallback_plan)},
            }
        )

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        payload = {
            "message": turn.user_message,
            "reading": turn.reading.model_dump(mode="json"),
            "session": _session_view(turn.session),
            "memory": [_entry_view(entry) for entry in turn.memory],
            "asked_questions": turn.asked_questions,
        }
        try:
            answer = self._ask(
                "curate", self._curator, CuratorAnswer, "memory_curator_prompt", payload
            )
            output = answer.to_output(turn)
        except LLMFailure as failure:
            self._count_failure("curate", failure)
            return self._fallback.curate(turn)
        except (ValidationError, InvalidPreference) as exc:
            self._count_failure("curate", LLMFailure("invalid", type(exc).__name__))
            return self._fallback.curate(turn)
        report = GuardReport()
        reading = self._reading(turn)
        try:
            guarded = guard_curator(
                output, reading, turn.user_message, report, planner_slots=turn.reading.slots
            )
        except (ValidationError, InvalidPreference) as exc:
            self._count_failure("curate", LLMFailure("invalid", type(exc).__name__))
            return self._fallback.curate(turn)
        self._count_guards("curate", report)
        return guarded

    def write_reply(self, facts: ReplyFacts) -> str:
        self.counters.count_call("reply")
        messages = [
            SystemMessage(get_prompt("reply_prompt")),
            HumanMessage(facts.model_dump_json()),
        ]
        try:
            message = self._chat.invoke(messages)
        except Exception as exc:  # any failure of the client stack means: answer with rules
            self._count_failure("reply", _classify_client_error(exc))
            return self._fallback.write_reply(facts)
        text = _content_text(message).strip()
        if not text:
            self._count_failure("reply", LLMFailure("malformed_json", "empty reply"))
            return self._fallback.write_reply(facts)
        return text

    def _structured(
        self, schema: type[BaseModel], name: str, settings: Settings
    ) -> Runnable[Any, Any]:
        # Non-strict on purpose: OpenAI's strict mode forbids open dicts such as `slots`, and
        # code validates every field anyway.
        spec: dict[str, Any]
        if settings.llm_structured_method == "function_calling":
            spec = {
                "name": name,
                "description": schema.__doc__ or name,
                "parameters": schema.model_json_schema(),
            }
        else:
            spec = {"name": name, "schema": schema.model_json_schema(), "strict": False}
        return self._chat.with_structured_output(
            spec, method=settings.llm_structured_method, include_raw=True
        )

    def _ask(
        self,
        operation: Operation,
        runnable: Runnable[Any, Any],
        schema: type[AnswerT],
        prompt_name: Literal["reader_prompt", "memory_curator_prompt"],
        payload: dict[str, Any],
    ) -> AnswerT:
        self.counters.count_call(operation)
        system = (
            get_prompt(prompt_name)
            + "\n\nJSON schema of your answer:\n"
            + json.dumps(schema.model_json_schema(), ensure_ascii=False)
        )
        messages = [SystemMessage(system), HumanMessage(json.dumps(payload, ensure_ascii=False))]
        try:
            result = runnable.invoke(messages)
        except Exception as exc:  # any failure of the client stack means: answer with rules
            raise _classify_client_error(exc) from exc
        # Parsed here, strictly, not by langchain's lenient partial-JSON parser (which turns
        # "{oops" into {}): an answer that is not one whole JSON object is malformed.
        parsed = _answer_object(result.get("raw"))
        try:
            return schema.model_validate(parsed)
        except (ValidationError, InvalidPreference) as exc:
            raise _classify_validation_error(exc) from exc

    def _remember_reading(self, message: str, fallback_plan: Reading) -> RulesReading:
        reading = RulesReading.from_planner(fallback_plan)
        # The rules engine can name every slug inside a negation scope, even ones that did
        # not become a stated preference; an engine without that hook still guards via its plan.
        negated_slugs = getattr(self._fallback, "negated_slugs", None)
        if callable(negated_slugs):
            reading = reading.with_negated(negated_slugs(message))
        with self._readings_lock:
            self._readings[message] = reading
            self._readings.move_to_end(message)
            while len(self._readings) > READING_CACHE_SIZE:
                self._readings.popitem(last=False)
        return reading

    def _reading(self, turn: CuratorTurn) -> RulesReading:
        """The rules reading of this turn's message (computed by `plan`, or now)."""
        with self._readings_lock:
            cached = self._readings.get(turn.user_message)
        if cached is not None:
            return cached
        fallback_plan = self._fallback.read(
            turn.user_message, Conversation(session=turn.session, memory=turn.memory)
        )
        return self._remember_reading(turn.user_message, fallback_plan)

    def _count_failure(self, operation: Operation, failure: LLMFailure) -> None:
        self.counters.count_fallback(operation, failure.reason)
        # The detail names exception types and field locations only, never user text.
        logger.warning(
            "llm %s fell back to rules (%s): %s", operation, failure.reason, failure.detail
        )

    def _count_guards(self, operation: Operation, report: GuardReport) -> None:
        self.counters.count_guards(report)
        if report.polarity_corrections:
            slugs = ", ".join(report.corrected_slugs)
            logger.warning(
                "llm %s: %d like(s) inside a negation corrected to dislike (slugs: %s)",
                operation,
                report.polarity_corrections,
                slugs if self._settings.log_personal_data else f"<{len(report.corrected_slugs)}>",
            )
        if (
            report.safety_corrections
            or report.dropped_ungrounded
            or report.scope_corrections
            or report.query_corrections
            or report.recipient_corrections
        ):
            logger.info(
                "llm %s: %d safety, %d scope, %d query, %d recipient correction(s); "
                "%d ungrounded entr(ies) dropped",
                operation,
                report.safety_corrections,
                report.scope_corrections,
                report.query_corrections,
                report.recipient_corrections,
                report.dropped_ungrounded,
            )


def _classify_client_error(exc: Exception) -> LLMFailure:
    if not isinstance(exc, openai.OpenAIError):
        # e.g. a 200 response whose body is not a chat completion at all
        return LLMFailure("bad_response", type(exc).__name__)
    if isinstance(exc, openai.APITimeoutError):
        return LLMFailure("timeout", type(exc).__name__)
    if isinstance(exc, openai.APIStatusError):
        return LLMFailure("http_error", f"HTTP {exc.status_code}")
    if isinstance(exc, openai.APIConnectionError):
        return LLMFailure("connection_error", type(exc).__name__)
    return LLMFailure("http_error", type(exc).__name__)


def _classify_validation_error(exc: ValidationError | InvalidPreference) -> LLMFailure:
    if isinstance(exc, InvalidPreference):
        return LLMFailure("invalid", f"field {exc.field}")
    locations = [".".join(_loggable(part) for part in error["loc"]) for error in exc.errors()]
    supplied_key = any(
        error["type"] == "extra_forbidden" and error["loc"] and error["loc"][-1] in KEY_FIELD_NAMES
        for error in exc.errors()
    )
    reason: FallbackReason = "supplied_key" if supplied_key else "invalid"
    return LLMFailure(reason, "fields " + ", ".join(locations[:8]))


def _loggable(part: str | int) -> str:
    """A location part, unless it is a key the model invented (which may echo user text)."""
    text = str(part)
    return text if LOGGABLE_LOCATION.fullmatch(text) else "<key>"


def _answer_object(raw: object) -> dict[str, Any]:
    """The JSON object of an answer: a forced tool call's arguments, or the content. Servers
    that ignore response_format still tend to answer JSON, sometimes wrapped in prose or a
    markdown fence: then the outermost object counts."""
    if not isinstance(raw, AIMessage):
        raise LLMFailure("malformed_json", "no message")
    if raw.tool_calls:
        return dict(raw.tool_calls[0]["args"])
    if raw.invalid_tool_calls:
        raise LLMFailure("malformed_json", "tool call arguments are not JSON")
    text = _content_text(raw).strip()
    match = JSON_OBJECT.search(text)
    if match is None:
        raise LLMFailure("malformed_json", f"no JSON object in {len(text)} chars")
    try:
        value = json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        raise LLMFailure("malformed_json", f"{exc.msg} at {exc.pos}") from exc
    if not isinstance(value, dict):
        raise LLMFailure("malformed_json", "not an object")
    return value


def _content_text(message: object) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str | dict)
        )
    return ""


def _session_view(session: SessionPrefState) -> dict[str, Any]:
    return {
        "category": session.category,
        "current_intent": session.current_intent,
        "slots": session.slots,
        "constraints": [c.model_dump(mode="json", exclude={"key"}) for c in session.constraints],
        "open_questions": session.open_questions,
        "active_search": (
            session.active_search.model_dump(include={"product_type", "phrase", "sort", "page"})
            if session.active_search is not None
            else None
        ),
        "shortlist": [
            {"n": n, "title": item.title, "price_base": item.price_base}
            for n, item in enumerate(session.shortlist, start=1)
        ],
    }


def _entry_view(entry: PreferenceEntry) -> dict[str, Any]:
    return entry.model_dump(
        mode="json", include={"polarity", "category", "domain", "slug", "strength"}
    )


def _deterministic_slots(reading: Reading) -> dict[str, str]:
    """A size the rules read as a bare answer to our size question."""
    return {"size": reading.slots["size"]} if "size" in reading.slots else {}
