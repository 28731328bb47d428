"""`cartwise eval natural`: natural conversation sets through the agent, judged key by key.

Each conversation gets a fresh user; its `turns` run in one thread and `new_thread_then` in a
second thread of the same user. Every check object is judged on its turn's output and the
previous output of the sequence (`natural_checks`). A conversation passes only when every key
of every check object holds.
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from cartwise.eval.natural_checks import KeyResult, Output, TurnOutputs, judge
from cartwise.eval.natural_set import NaturalConversation

RunTurn = Callable[[str, str, str], Awaitable[Output]]
"""`(user, thread, message) -> the turn's ask --json object`."""


class Rate(BaseModel):
    passed: int = 0
    total: int = 0

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def add(self, ok: bool) -> None:
        self.passed += ok
        self.total += 1

    def text(self) -> str:
        return f"{self.passed}/{self.total} ({self.rate:.1%})" if self.total else "–"


class FailedCheck(BaseModel):
    conversation: str
    turn: int
    key: str
    message: str
    detail: str


class ConversationResult(BaseModel):
    id: str
    kind: str
    lang: str
    passed: bool
    seconds: float
    failed: list[FailedCheck] = Field(default_factory=list)


class NaturalReport(BaseModel):
    """One set's results: conversations, check objects, turns and keys, by kind and language."""

    set: str
    conversations: Rate = Field(default_factory=Rate)
    check_objects: Rate = Field(default_factory=Rate)
    turns: Rate = Field(default_factory=Rate)
    """Checked turns whose every check object holds."""
    keys: dict[str, Rate] = Field(default_factory=dict)
    by_kind: dict[str, Rate] = Field(default_factory=dict)
    by_lang: dict[str, Rate] = Field(default_factory=dict)
    checks_by_kind: dict[str, Rate] = Field(default_factory=dict)
    checks_by_lang: dict[str, Rate] = Field(default_factory=dict)
    messages: int = 0
    seconds: float = 0.0
    results: list[ConversationResult] = Field(default_factory=list)

    @property
    def failures(self) -> list[FailedCheck]:
        return [f for r in self.results for f in r.failed]


async def run_conversation(
    run_turn: RunTurn, conversation: NaturalConversation, *, user_prefix: str
) -> list[Output | None]:
    """The output of every message of the sequence; None where the turn raised."""
    user = f"{user_prefix}-{conversation.id}-{uuid.uuid4().hex[:6]}"
    first, second = f"{user}-a", f"{user}-b"
    outputs: list[Output | None] = []
    for index, message in enumerate(conversation.messages):
        thread = first if index < len(conversation.turns) else second
        try:
            outputs.append(await run_turn(user, thread, message))
        except Exception as exc:
            outputs.append({"error": f"{type(exc).__name__}: {exc}"})
    return outputs


def judge_conversation(
    conversation: NaturalConversation, outputs: Sequence[Output | None]
) -> list[tuple[int, int, KeyResult]]:
    """`(turn, check object index, result)` for every key of every check object."""
    judged: list[tuple[int, int, KeyResult]] = []
    for number, check in enumerate(conversation.checks):
        turn = conversation.turn_index(check)
        current = outputs[turn] or {}
        if "error" in current:
            judged.append((turn, number, KeyResult("error", False, str(current["error"]))))
            continue
        previous = outputs[turn - 1] if turn > 0 else None
        outputs_pair = TurnOutputs(current=current, previous=previous)
        judged.extend((turn, number, result) for result in judge(check, outputs_pair))
    return judged


def _rate(table: dict[str, Rate], name: str) -> Rate:
    return table.setdefault(name, Rate())


def add_conversation(
    report: NaturalReport,
    conversation: NaturalConversation,
    judged: Sequence[tuple[int, int, KeyResult]],
    *,
    seconds: float,
) -> None:
    by_object: dict[int, bool] = {n: True for n in range(len(conversation.checks))}
    by_turn: dict[int, bool] = defaultdict(lambda: True)
    failed: list[FailedCheck] = []
    for turn, number, result in judged:
        _rate(report.keys, result.key).add(result.passed)
        by_object[number] = by_object[number] and result.passed
        by_turn[turn] = by_turn[turn] and result.passed
        if not result.passed:
            failed.append(
                FailedCheck(
                    conversation=conversation.id,
                    turn=turn,
                    key=result.key,
                    message=conversation.messages[turn],
                    detail=result.detail,
                )
            )
    for number, check in enumerate(conversation.checks):
        by_turn.setdefault(conversation.turn_index(check), True)
        report.check_objects.add(by_object[number])
        _rate(report.checks_by_kind, conversation.kind).add(by_object[number])
        _rate(report.checks_by_lang, conversation.lang).add(by_object[number])
    for ok in by_turn.values():
        report.turns.add(ok)
    passed = all(by_object.values())
    report.conversations.add(passed)
    _rate(report.by_kind, conversation.kind).add(passed)
    _rate(report.by_lang, conversation.lang).add(passed)
    report.messages += len(conversation.messages)
    report.seconds += seconds
    report.results.append(
        ConversationResult(
            id=conversation.id,
            kind=conversation.kind,
            lang=conversation.lang,
            passed=passed,
            seconds=round(seconds, 2),
            failed=failed,
        )
    )


async def evaluate_natural(
    run_turn: RunTurn,
    conversations: Sequence[NaturalConversation],
    *,
    name: str,
    advance: Callable[[], None] = lambda: None,
) -> NaturalReport:
    """Run and judge every conversation of one set; `advance` is called after each."""
    report = NaturalReport(set=name)
    for conversation in conversations:
        started = time.perf_counter()
        outputs = await run_conversation(run_turn, conversation, user_prefix=f"nd-{name}")
        judged = judge_conversation(conversation, outputs)
        add_conversation(report, conversation, judged, seconds=time.perf_counter() - started)
        advance()
    return report


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def render_markdown(reports: Sequence[NaturalReport], *, failures: int | None = None) -> str:
    """The headline table, the breakdowns by kind, language and key, then the failed checks
    of each set (the first `failures` of each, or all)."""
    lines = ["## Headline", ""]
    lines += _table(
        ["set", "conversations passed", "check objects passed", "checked turns passed",
         "messages", "seconds / message"],
        [
            [r.set, r.conversations.text(), r.check_objects.text(), r.turns.text(), r.messages,
             f"{r.seconds / r.messages:.2f}" if r.messages else "–"]
            for r in reports
        ],
    )  # fmt: skip
    for title, attribute, checks in (
        ("By language", "by_lang", "checks_by_lang"),
        ("By kind", "by_kind", "checks_by_kind"),
    ):
        names = sorted({n for r in reports for n in getattr(r, attribute)})
        lines += ["", f"## {title} (conversations passed · check objects passed)", ""]
        lines += _table(
            [title.split()[1], *[r.set for r in reports]],
            [
                [n, *[
                    f"{getattr(r, attribute).get(n, Rate()).text()} · "
                    f"{getattr(r, checks).get(n, Rate()).text()}"
                    for r in reports
                ]]
                for n in names
            ],
        )  # fmt: skip
    keys = sorted({k for r in reports for k in r.keys})
    lines += ["", "## By check key (keys that held)", ""]
    lines += _table(
        ["key", *[r.set for r in reports]],
        [[k, *[r.keys.get(k, Rate()).text() for r in reports]] for k in keys],
    )
    for report in reports:
        shown = report.failures if failures is None else report.failures[:failures]
        lines += ["", f"## Failed checks: {report.set} ({len(report.failures)})", ""]
        lines += [
            f"- {f.conversation}#{f.turn} `{f.key}` — {f.message!r}: {f.detail}" for f in shown
        ]
        if len(shown) < len(report.failures):
            lines.append(f"- … {len(report.failures) - len(shown)} more in the JSON report")
    return "\n".join(lines) + "\n"
