"""Sanctioned test doubles (shared: append, do not rewrite). Each implements the real
interface it stands in for."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from ag_ui import core as agui
from pydantic import BaseModel

from cartwise.embedding.base import Embedder, Matrix, Vector
from cartwise.errors import CartwiseError
from cartwise.memory.session_state import ChatMessage, SessionPatch
from cartwise.memory.store import PreferenceEntry

# --- API: a scripted stand-in for `cartwise.agent.run.run_agent` ---------------------------


class ScriptedTurnResult(BaseModel):
    """The part of `TurnResult` the API reads."""

    reply: str
    timings: dict[str, float]


class ScriptedAgent:
    """Speaks the `run_agent` contract without understanding anything.

    "like <slug>" / "dislike <slug>" in a message writes that long-term preference (through
    the real store); every turn patches P_t and appends both messages. The events are the
    ones the real agent emits, in a legal order. `fail_with` raises that error after the
    reply has started streaming (a mid-run failure). With `gate`, a turn waits for it
    before remembering; `finished` is set when a turn has written everything."""

    PREFERENCE = re.compile(r"\b(like|dislike) ([a-z0-9-]+)")

    def __init__(
        self, *, fail_with: Exception | None = None, gate: threading.Event | None = None
    ) -> None:
        self.fail_with = fail_with
        self.gate = gate
        self.finished = threading.Event()
        self.calls: list[tuple[str, str, str]] = []

    async def __call__(
        self,
        deps: Any,
        *,
        user: str,
        thread: str,
        message: str,
        emit: Callable[[agui.BaseEvent], Awaitable[None]] | None = None,
        language: str | None = None,
    ) -> ScriptedTurnResult:
        async def send(event: agui.BaseEvent) -> None:
            if emit is not None:
                await emit(event)

        self.calls.append((user, thread, message))
        await send(agui.StepStartedEvent(step_name="understanding"))
        call_id = f"call_{uuid.uuid4().hex[:8]}"
        await send(agui.ToolCallStartEvent(tool_call_id=call_id, tool_call_name="reader"))
        await send(agui.ToolCallArgsEvent(tool_call_id=call_id, delta='{"message": "..."}'))
        await send(agui.ToolCallEndEvent(tool_call_id=call_id))
        await send(agui.StepFinishedEvent(step_name="understanding"))

        reply = f"scripted answer to {len(message)} characters"
        message_id = f"msg_{uuid.uuid4().hex[:8]}"
        await send(agui.TextMessageStartEvent(message_id=message_id, role="assistant"))
        await send(agui.TextMessageContentEvent(message_id=message_id, delta=reply[:10]))
        if self.fail_with is not None:
            raise self.fail_with
        await send(agui.TextMessageContentEvent(message_id=message_id, delta=reply[10:]))
        await send(agui.TextMessageEndEvent(message_id=message_id))

        if self.gate is not None:
            await asyncio.to_thread(self.gate.wait, 30)
        await send(agui.StepStartedEvent(step_name="remembering"))
        added = []
        for polarity, slug in self.PREFERENCE.findall(message):
            entry = PreferenceEntry(polarity=polarity, category="other", slug=slug)
            added.append(deps.preferences.upsert(user, entry).model_dump(mode="json"))
        session = deps.sessions.patch(user, thread, SessionPatch(current_intent=message))
        deps.sessions.append_messages(
            user,
            thread,
            [
                ChatMessage(role="user", content=message),
                ChatMessage(role="assistant", content=reply),
            ],
        )
        await send(
            agui.CustomEvent(
                name="memory_updated",
                value={
                    "added": added,
                    "superseded": [],
                    "session": session.model_dump(mode="json"),
                },
            )
        )
        await send(agui.StepFinishedEvent(step_name="remembering"))
        self.finished.set()
        return ScriptedTurnResult(reply=reply, timings={"understanding": 1.0, "remembering": 2.0})


def failing(error: CartwiseError) -> ScriptedAgent:
    """A scripted agent that fails mid-reply with `error`."""
    return ScriptedAgent(fail_with=error)


# --- LLM: a scripted OpenAI-compatible chat-completions server -----------------------------


@dataclass(frozen=True)
class ScriptedAnswer:
    """One scripted reply of `ScriptedLLMServer`."""

    content: str = ""
    status: int = 200
    delay_seconds: float = 0.0
    """Wait this long before answering (released early when the server closes)."""
    tool_call: tuple[str, str] | None = None
    """(function name, arguments JSON): answer with a tool call instead of content."""
    body: dict[str, Any] | None = None
    """Send this JSON body as is (a response that is not a chat completion)."""

    @classmethod
    def json(cls, payload: object, *, delay_seconds: float = 0.0) -> ScriptedAnswer:
        return cls(content=json.dumps(payload, ensure_ascii=False), delay_seconds=delay_seconds)

    @classmethod
    def text(cls, content: str) -> ScriptedAnswer:
        return cls(content=content)

    @classmethod
    def http_error(cls, status: int = 500) -> ScriptedAnswer:
        return cls(status=status)

    @classmethod
    def tool(cls, name: str, payload: object) -> ScriptedAnswer:
        return cls(tool_call=(name, json.dumps(payload, ensure_ascii=False)))


class ScriptedLLMServer:
    """A real HTTP server on 127.0.0.1 (port 0) speaking `POST /v1/chat/completions`.

    It replays the scripted answers in order and records every request body it got
    (`requests`). A request that finds the script empty gets HTTP 500 and is counted in
    `unscripted`, so a test can tell an unexpected call from a scripted failure."""

    def __init__(self, answers: Iterable[ScriptedAnswer] = ()) -> None:
        self._answers: list[ScriptedAnswer] = list(answers)
        self._lock = threading.Lock()
        self._release = threading.Event()
        self.requests: list[dict[str, Any]] = []
        self.unscripted = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *answers: ScriptedAnswer) -> None:
        with self._lock:
            self._answers.extend(answers)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._answers)

    def start(self) -> ScriptedLLMServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedLLMServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _next(self, body: dict[str, Any]) -> ScriptedAnswer | None:
        with self._lock:
            self.requests.append(body)
            if not self._answers:
                self.unscripted += 1
                return None
            return self._answers.pop(0)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    body = {"unparsable": True}
                answer = server._next(body)
                if answer is None:
                    self._send(500, {"error": {"message": "no scripted answer left"}})
                    return
                if answer.delay_seconds:
                    server._release.wait(answer.delay_seconds)
                if answer.status != 200:
                    self._send(answer.status, {"error": {"message": "scripted failure"}})
                    return
                reply = answer.body or _completion(body.get("model", "scripted"), answer)
                self._send(200, reply)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a scripted timeout): nothing left to tell it

            def log_message(self, format: str, *args: Any) -> None:
                return  # keep test output clean

        return Handler


def _completion(model: str, answer: ScriptedAnswer) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.content}
    finish_reason = "stop"
    if answer.tool_call is not None:
        name, arguments = answer.tool_call
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{uuid.uuid4().hex[:8]}",
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            ],
        }
        finish_reason = "tool_calls"
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


# --- Agent: a scripted Engine (planner / curator / reply writer) ---------------------------


class ScriptedEngine:
    """Implements `cartwise.understanding.base.Engine` from a script: `plans` maps a message
    to its Reading (default: a search for the message itself). The curator stores the
    planner's long-term `stated` preferences and records asked questions; the reply lists
    the facts verbatim so tests can read them back."""

    def __init__(self, plans: dict[str, Any] | None = None) -> None:
        from cartwise.understanding.reading import Reading

        self.plans: dict[str, Reading] = {
            message: Reading.model_validate(plan) for message, plan in (plans or {}).items()
        }
        self.curated: list[Any] = []
        self.replied: list[Any] = []

    @property
    def name(self) -> str:
        return "scripted"

    def read(self, message: str, conversation: Any) -> Any:
        from cartwise.understanding.reading import Reading

        return self.plans.get(message) or Reading(language="en", query=message)

    def curate(self, turn: Any) -> Any:
        from cartwise.understanding.base import CuratorOutput

        self.curated.append(turn)
        entries = [
            PreferenceEntry(
                polarity=s.polarity,
                category=s.category,
                domain=s.domain,
                slug=s.slug,
                strength=s.strength,
                keywords=s.keywords,
            )
            for s in turn.reading.stated
            if s.scope == "long_term"
        ]
        patch = SessionPatch(
            current_intent=turn.reading.current_intent or None,
            slots_patch=turn.reading.slots,
            new_open_questions=turn.asked_questions,
        )
        return CuratorOutput(long_term=entries, session_patch=patch)

    def write_reply(self, facts: Any) -> str:
        self.replied.append(facts)
        lines = [f"{item.platform}: {item.title}" for item in facts.items]
        return "\n".join([f"Results for {facts.query}:", *lines, facts.question]).strip()


# --- Embedders: a wrapper that counts what reaches the model -------------------------------


class CountingEmbedder:
    """Delegates to a real embedder and counts the texts that reach it (cache tests)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.documents_embedded = 0
        self.queries_embedded = 0
        self.queries: list[str] = []
        """Every query text that reached the model, in order."""
        self.documents: list[str] = []
        """Every document text that reached the model, in order."""

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_query(self, text: str) -> Vector:
        self.queries_embedded += 1
        self.queries.append(text)
        return self.inner.embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        self.documents_embedded += len(texts)
        self.documents += texts
        return self.inner.embed_documents(texts)
