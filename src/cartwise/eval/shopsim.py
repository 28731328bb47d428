"""`cartwise eval shopsim`: real Taobao shopping tasks through the agent, against a bare search.

Every task is judged on what the shopper sees: the products of the turn (each with the other
offers grouped under it), at most `depth` of them. Two questions per task and per system:
is the target listing among them, and does every shown product respect the budget — the one
the instruction states (`shopsim_tasks.stated_budget`) and, separately, the upstream
benchmark's own price bound (`price_upper`). The bare search is the raw text through the
catalog's hybrid search at the same depth, with no reading of the message at all: what the
assistant adds (or costs) over a search box.

Single-turn: the full `instruction_text` as one message. Multi-turn (the tasks that have
one): the vague `instruction_simple` first, then a scripted shopper (`ScriptedShopper`)
answers from the task's attributes until the target is shown or it has nothing left to say.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from cartwise.eval.shopsim_tasks import ShopSimTask, Split, stated_budget

Mode = Literal["single", "multi"]
MAX_SHOPPER_REPLIES = 3
"""Answers the scripted shopper gives after its opening message, at most."""
ATTRIBUTES_PER_REPLY = 2
REPLY_CHARS = 160


@dataclass(frozen=True)
class Shown:
    """One product as the shopper sees it: its listing id, the ids of the other offers of
    the same model grouped under it, and its price in CNY."""

    item_id: str
    price: float
    offers: tuple[str, ...] = ()

    @property
    def ids(self) -> set[str]:
        return {self.item_id, *self.offers}


@dataclass(frozen=True)
class ShopSimAgent:
    """The agent and the bare search as the evaluation uses them."""

    run_turn: Callable[[str, str, str], Awaitable[dict[str, Any]]]
    """(user, thread, message) → the turn's result as JSON (the `ask --json` object)."""
    bare_search: Callable[[str, int], list[Shown]]
    """(raw text, k) → the top-k products of a plain catalog search."""
    depth: int
    """Most products one reply shows."""


def shown_of(turn: dict[str, Any], depth: int) -> list[Shown]:
    """The products a turn's JSON shows, at most `depth` of them."""
    shown = []
    for product in turn.get("products", [])[:depth]:
        offers = tuple(str(o.get("item_id", "")) for o in product.get("offers", []))
        shown.append(Shown(str(product["item_id"]), float(product["price_base"]), offers))
    return shown


class Judgement(BaseModel):
    """What one system showed for one task, judged."""

    shown: int
    target_rank: int | None
    """1-based position of the product holding the target listing; None when not shown."""
    within_stated: bool | None
    """Every shown product within the stated budget; None without products or budget."""
    within_upper: bool | None
    """Every shown product within the upstream price bound; None without products."""


def judge(task: ShopSimTask, shown: Sequence[Shown]) -> Judgement:
    rank = next((i for i, s in enumerate(shown, start=1) if task.asin in s.ids), None)
    budget = stated_budget(task.instruction_text)
    return Judgement(
        shown=len(shown),
        target_rank=rank,
        within_stated=(all(s.price <= budget.ceiling for s in shown) if shown and budget else None),
        within_upper=all(s.price <= task.price_upper for s in shown) if shown else None,
    )


Outcome = Literal["products", "question", "not carried", "nothing found", "error"]


def outcome_of(turn: dict[str, Any]) -> Outcome:
    """What the reply did: showed products, asked a question, said the catalog lacks the
    thing, or found nothing (a filter emptied the list)."""
    if turn.get("products"):
        return "products"
    if turn.get("questions"):
        return "question"
    return "not carried" if turn.get("catalog_gap") else "nothing found"


class ShopperTurn(BaseModel):
    said: str
    shown: int
    asked: bool
    target_rank: int | None


class TaskResult(BaseModel):
    task_id: int
    split: Split
    agent: Judgement
    bare: Judgement
    bare_opening: Judgement | None = None
    """Multi-turn: the bare search of the opening message alone."""
    turns: list[ShopperTurn] = Field(default_factory=list)
    outcome: Outcome
    """What the agent's (last) reply did."""
    reply: str = ""
    """The start of the agent's (last) reply, to read a failure by."""
    seconds: float
    error: str = ""


class ScriptedShopper:
    """The shopper of the multi-turn mode, answering from the task alone.

    It opens with `instruction_simple`. After each reply that does not show the target, it
    says the next `ATTRIBUTES_PER_REPLY` of the task's attributes it has not said yet (an
    attribute already in the opening counts as said), as "要A，B的"; once the attributes are
    used up it names the variant (`goal_options`, "要X的"); then it stops. It answers a
    question and a list of wrong products the same way — it never reads the reply — and
    never states a budget beyond the opening's (the opening usually holds it). At most
    `MAX_SHOPPER_REPLIES` answers.
    """

    def __init__(self, task: ShopSimTask) -> None:
        opening = task.instruction_simple or task.instruction_text
        self.opening = opening
        self._pending = [a for a in task.attributes if a and a not in opening]
        self._variant = [o for o in task.goal_options if o and o not in opening][:1]
        self.replies = 0

    def next_message(self) -> str | None:
        if self.replies >= MAX_SHOPPER_REPLIES:
            return None
        if self._pending:
            said, self._pending = (
                self._pending[:ATTRIBUTES_PER_REPLY],
                self._pending[ATTRIBUTES_PER_REPLY:],
            )
            message = "要" + "，".join(said) + "的"
        elif self._variant:
            message = f"要{self._variant.pop()}的"
        else:
            return None
        self.replies += 1
        return message


def full_script(task: ShopSimTask) -> list[str]:
    """Every message the scripted shopper has for the task, opening first."""
    shopper = ScriptedShopper(task)
    script = [shopper.opening]
    while (message := shopper.next_message()) is not None:
        script.append(message)
    return script


async def run_single(agent: ShopSimAgent, task: ShopSimTask, split: Split) -> TaskResult:
    started = time.perf_counter()
    user = f"shopsim-{task.task_id}-{uuid.uuid4().hex[:6]}"
    error, turn = "", dict[str, Any]()
    try:
        turn = await agent.run_turn(user, f"{user}-t", task.instruction_text)
    except Exception as exc:  # one broken turn is a failed task, not a failed run
        error = f"{type(exc).__name__}: {exc}"
    bare = agent.bare_search(task.instruction_text, agent.depth)
    return TaskResult(
        task_id=task.task_id,
        split=split,
        agent=judge(task, shown_of(turn, agent.depth)),
        bare=judge(task, bare),
        outcome="error" if error else outcome_of(turn),
        reply=str(turn.get("reply", ""))[:REPLY_CHARS],
        seconds=time.perf_counter() - started,
        error=error,
    )


async def run_multi(agent: ShopSimAgent, task: ShopSimTask, split: Split) -> TaskResult:
    """The scripted conversation; the agent is judged on its last reply (the target shown
    at any turn ends the conversation there), the bare search on the whole script joined
    (everything the shopper would say, whatever the agent did) and on the opening alone."""
    started = time.perf_counter()
    user = f"shopsim-{task.task_id}-{uuid.uuid4().hex[:6]}"
    shopper = ScriptedShopper(task)
    message: str | None = shopper.opening
    turns: list[ShopperTurn] = []
    shown: list[Shown] = []
    error, turn = "", dict[str, Any]()
    while message is not None:
        try:
            turn = await agent.run_turn(user, f"{user}-t", message)
        except Exception as exc:
            error, shown, turn = f"{type(exc).__name__}: {exc}", [], {}
            break
        shown = shown_of(turn, agent.depth)
        judged = judge(task, shown)
        turns.append(
            ShopperTurn(
                said=message,
                shown=len(shown),
                asked=bool(turn.get("questions")),
                target_rank=judged.target_rank,
            )
        )
        if judged.target_rank is not None:
            break
        message = shopper.next_message()
    return TaskResult(
        task_id=task.task_id,
        split=split,
        agent=judge(task, shown),
        bare=judge(task, agent.bare_search("，".join(full_script(task)), agent.depth)),
        bare_opening=judge(task, agent.bare_search(shopper.opening, agent.depth)),
        turns=turns,
        outcome="error" if error else outcome_of(turn),
        reply=str(turn.get("reply", ""))[:REPLY_CHARS],
        seconds=time.perf_counter() - started,
        error=error,
    )


class Rate(BaseModel):
    hits: int = 0
    total: int = 0

    def add(self, ok: bool | None) -> None:
        if ok is None:
            return
        self.hits += ok
        self.total += 1

    @property
    def rate(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def text(self) -> str:
        return f"{self.hits}/{self.total} ({self.rate:.1%})" if self.total else "–"


class SystemScore(BaseModel):
    target_shown: Rate = Field(default_factory=Rate)
    target_first: Rate = Field(default_factory=Rate)
    within_stated: Rate = Field(default_factory=Rate)
    within_upper: Rate = Field(default_factory=Rate)
    nothing_shown: int = 0

    def add(self, judged: Judgement) -> None:
        self.target_shown.add(judged.target_rank is not None)
        self.target_first.add(judged.target_rank == 1)
        self.within_stated.add(judged.within_stated)
        self.within_upper.add(judged.within_upper)
        self.nothing_shown += judged.shown == 0


class ShopSimReport(BaseModel):
    mode: Mode
    split: Split
    tasks: int = 0
    seconds: float = 0.0
    errors: int = 0
    agent: SystemScore = Field(default_factory=SystemScore)
    bare: SystemScore = Field(default_factory=SystemScore)
    bare_opening: SystemScore = Field(default_factory=SystemScore)
    turns_to_target: dict[int, int] = Field(default_factory=dict)
    """Multi-turn: how many conversations showed the target first at turn n."""
    asked: int = 0
    """Multi-turn: agent turns that asked a question."""
    agent_turns: int = 0
    outcomes: dict[str, int] = Field(default_factory=dict)
    """What the agent's (last) reply did, per task."""
    agent_only: int = 0
    """Tasks whose target the agent shows and the bare search does not."""
    bare_only: int = 0
    """Tasks whose target the bare search shows and the agent does not."""
    results: list[TaskResult] = Field(default_factory=list)

    def public_json(self) -> str:
        """The report as JSON with ids and judgements only: no task text and no reply
        (which echoes it), so it can be committed while the shared data is not."""
        quoted: Any = {"results": {"__all__": {"reply": True, "turns": {"__all__": {"said"}}}}}
        return self.model_dump_json(indent=1, exclude=quoted)

    def add(self, result: TaskResult) -> None:
        self.tasks += 1
        self.seconds += result.seconds
        self.errors += bool(result.error)
        self.outcomes[result.outcome] = self.outcomes.get(result.outcome, 0) + 1
        agent_found = result.agent.target_rank is not None
        bare_found = result.bare.target_rank is not None
        self.agent_only += agent_found and not bare_found
        self.bare_only += bare_found and not agent_found
        self.agent.add(result.agent)
        self.bare.add(result.bare)
        if result.bare_opening is not None:
            self.bare_opening.add(result.bare_opening)
        for number, turn in enumerate(result.turns, start=1):
            self.agent_turns += 1
            self.asked += turn.asked
            if turn.target_rank is not None:
                self.turns_to_target[number] = self.turns_to_target.get(number, 0) + 1
        self.results.append(result)


async def evaluate_shopsim(
    agent: ShopSimAgent,
    tasks: Sequence[ShopSimTask],
    *,
    mode: Mode,
    split: Split,
    advance: Callable[[], None] = lambda: None,
) -> ShopSimReport:
    report = ShopSimReport(mode=mode, split=split)
    run = run_single if mode == "single" else run_multi
    for task in tasks:
        report.add(await run(agent, task, split))
        advance()
    return report


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def render_markdown(reports: Sequence[ShopSimReport], *, depth: int) -> str:
    """One table per mode: agent against the bare search, per split."""
    lines: list[str] = []
    for mode in ("single", "multi"):
        chosen = [r for r in reports if r.mode == mode]
        if not chosen:
            continue
        title = (
            "Single turn: `instruction_text` as one message"
            if mode == "single"
            else "Multi-turn: `instruction_simple`, then the scripted shopper"
        )
        lines += [f"## {title}", ""]
        rows = []
        for report in chosen:
            systems = [("agent", report.agent), ("bare search", report.bare)]
            if mode == "multi":
                systems = [
                    ("agent (last reply)", report.agent),
                    ("bare search, whole script", report.bare),
                    ("bare search, opening", report.bare_opening),
                ]
            for name, score in systems:
                rows.append(
                    [
                        report.split,
                        name,
                        score.target_shown.text(),
                        score.target_first.text(),
                        score.within_stated.text(),
                        score.within_upper.text(),
                        f"{score.nothing_shown}/{report.tasks}",
                    ]
                )
        lines += _table(
            [
                "split",
                "system",
                f"target shown (top {depth})",
                "target first",
                "all shown within stated budget",
                "all shown within upstream bound",
                "nothing shown",
            ],
            rows,
        )
        lines += [""]
        for report in chosen:
            per_task = report.seconds / report.tasks if report.tasks else 0.0
            did = ", ".join(f"{name} {count}" for name, count in sorted(report.outcomes.items()))
            extra = (
                f"{report.tasks} tasks, {per_task:.2f} s/task; the agent's reply: {did}; "
                f"target shown by the agent only {report.agent_only}, "
                f"by the bare search only {report.bare_only}"
            )
            if mode == "multi":
                by_turn = ", ".join(
                    f"turn {n}: {c}" for n, c in sorted(report.turns_to_target.items())
                )
                extra += (
                    f"; {report.agent_turns} agent turns, {report.asked} asked a question; "
                    f"target first shown at {by_turn or 'no turn'}"
                )
            lines.append(f"- {report.split}: {extra}")
        lines.append("")
    return "\n".join(lines)
