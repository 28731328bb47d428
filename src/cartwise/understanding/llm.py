"""The llm engine: reader, curator and reply through any OpenAI-compatible chat endpoint.

Every call can fail — HTTP error, timeout, malformed JSON, a value that does not validate
(wrong enum, bad slug, a supplied key). Each failure raises `LLMFailure`, classified by
reason; nothing invalid is ever returned. The engine is used wrapped: `GuardedEngine`
cross-checks its answers against the rules engine, `FallbackEngine` answers a failed call
with the rules engine (see `create_engine`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypeVar

import openai
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, SecretStr, ValidationError

from cartwise.errors import InvalidPreference
from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import PreferenceEntry
from cartwise.settings import Settings
from cartwise.understanding.base import CuratorOutput, CuratorTurn, EngineFailure, ReplyFacts
from cartwise.understanding.counters import FallbackReason
from cartwise.understanding.llm_schema import KEY_FIELD_NAMES, CuratorAnswer, ReadingAnswer
from cartwise.understanding.prompts import get_prompt
from cartwise.understanding.reading import Conversation, Reading

JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
LOGGABLE_LOCATION = re.compile(r"[a-z_]{1,32}|\d{1,4}")
AnswerT = TypeVar("AnswerT", bound=BaseModel)


class LLMFailure(EngineFailure):
    """One failed LLM call, classified by reason."""


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
    """Reader, curator and reply via an LLM; a failed call raises `LLMFailure`."""

    def __init__(self, settings: Settings) -> None:
        self._chat = build_chat_model(settings)
        self._reader = self._structured(ReadingAnswer, "planner_output", settings)
        self._curator = self._structured(CuratorAnswer, "curator_output", settings)

    @property
    def name(self) -> str:
        return "llm"

    def read(self, message: str, conversation: Conversation) -> Reading:
        session = conversation.session
        payload = {
            "message": message,
            "session": _session_view(session),
            "memory": [_entry_view(entry) for entry in conversation.memory],
        }
        answer = self._ask(self._reader, ReadingAnswer, "reader_prompt", payload)
        return answer.to_output(session.open_questions)

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        payload = {
            "message": turn.user_message,
            "reading": turn.reading.model_dump(mode="json"),
            "session": _session_view(turn.session),
            "memory": [_entry_view(entry) for entry in turn.memory],
            "asked_questions": turn.asked_questions,
        }
        answer = self._ask(self._curator, CuratorAnswer, "memory_curator_prompt", payload)
        try:
            return answer.to_output(turn)
        except (ValidationError, InvalidPreference) as exc:
            raise LLMFailure("invalid", type(exc).__name__) from exc

    def write_reply(self, facts: ReplyFacts) -> str:
        messages = [
            SystemMessage(get_prompt("reply_prompt")),
            HumanMessage(facts.model_dump_json()),
        ]
        try:
            message = self._chat.invoke(messages)
        except Exception as exc:  # any failure of the client stack is one failed call
            raise _classify_client_error(exc) from exc
        text = _content_text(message).strip()
        if not text:
            raise LLMFailure("malformed_json", "empty reply")
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
        runnable: Runnable[Any, Any],
        schema: type[AnswerT],
        prompt_name: Literal["reader_prompt", "memory_curator_prompt"],
        payload: dict[str, Any],
    ) -> AnswerT:
        system = (
            get_prompt(prompt_name)
            + "\n\nJSON schema of your answer:\n"
            + json.dumps(schema.model_json_schema(), ensure_ascii=False)
        )
        messages = [SystemMessage(system), HumanMessage(json.dumps(payload, ensure_ascii=False))]
        try:
            result = runnable.invoke(messages)
        except Exception as exc:  # any failure of the client stack is one failed call
            raise _classify_client_error(exc) from exc
        # Parsed here, strictly, not by langchain's lenient partial-JSON parser (which turns
        # "{oops" into {}): an answer that is not one whole JSON object is malformed.
        parsed = _answer_object(result.get("raw"))
        try:
            return schema.model_validate(parsed)
        except (ValidationError, InvalidPreference) as exc:
            raise _classify_validation_error(exc) from exc


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
