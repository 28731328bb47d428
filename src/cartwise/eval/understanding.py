"""`cartwise eval understanding`: the engine's quality on the dev set and on real text.

- The labelled dev set (`eval/data/understanding_dev.jsonl`, scored by
  `understanding_dataset.score`): per-field precision/recall, exact `dedup_key` F1,
  polarity-error rate, slot accuracy.
- Coverage on real text from `../shared/data` (skipped cleanly when it is absent): budget
  ceilings parsed exactly from WebShop instructions that state a price, dislikes found in
  PrefEval explicit statements.
- With the llm engine: its counters (fallbacks by reason, guard corrections).

The Markdown report goes to `CARTWISE_HOME/reports/understanding.md`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress, TaskID

from cartwise.eval.statement_labels import PrefEvalScores, prefeval_correctness
from cartwise.eval.understanding_coverage import Coverage, webshop_budget_coverage
from cartwise.eval.understanding_dataset import (
    DevCase,
    UnderstandingScores,
    load_dev_set,
    score,
)
from cartwise.understanding.base import CuratorOutput, CuratorTurn, Engine, ReplyFacts
from cartwise.understanding.reading import Conversation, Reading

WEBSHOP_GOALS = Path("nlu") / "webshop" / "human_goals.json"
PREFEVAL_DIR = Path("memory") / "prefeval_explicit"

# The "must show" bars.
POLARITY_ACCURACY_BAR = 0.98
DEDUP_KEY_F1_BAR = 0.90
SLOT_ACCURACY_BAR = 0.95
COVERAGE_BARS = {"webshop price ceiling": 0.95}
MISSES_SHOWN = 8


class ProgressEngine:
    """Delegates to an engine and advances a progress bar once per planned message."""

    def __init__(self, engine: Engine, progress: Progress, task: TaskID) -> None:
        self._engine = engine
        self._progress = progress
        self._task = task

    @property
    def name(self) -> str:
        return self._engine.name

    def read(self, message: str, conversation: Conversation) -> Reading:
        planner = self._engine.read(message, conversation)
        self._progress.advance(self._task)
        return planner

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        return self._engine.curate(turn)

    def write_reply(self, facts: ReplyFacts) -> str:
        return self._engine.write_reply(facts)


@dataclass
class UnderstandingReport:
    """Everything `cartwise eval understanding` measured."""

    scores: UnderstandingScores
    coverage: list[Coverage] = field(default_factory=list)
    prefeval: PrefEvalScores | None = None
    """Curator correctness on the hand-labelled PrefEval statements (None when absent)."""
    skipped: list[str] = field(default_factory=list)
    """Why a coverage figure is absent (e.g. the shared data is not there)."""
    counters: dict[str, Any] | None = None
    """The llm engine's counters after the run (None for the rules engine)."""
    generated_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def to_markdown(self) -> str:
        scores = self.scores
        bars = [
            ("polarity accuracy", scores.polarity_accuracy, POLARITY_ACCURACY_BAR),
            ("dedup_key F1", scores.dedup_key_f1, DEDUP_KEY_F1_BAR),
            ("slot accuracy", scores.slot_accuracy, SLOT_ACCURACY_BAR),
        ]
        bars += [
            (c.name, c.share, COVERAGE_BARS[c.name])
            for c in self.coverage
            if c.name in COVERAGE_BARS and c.eligible
        ]
        lines = [
            "# Understanding evaluation",
            "",
            f"Engine `{scores.engine}`, {scores.cases} labelled cases; "
            f"generated {self.generated_at:%Y-%m-%d %H:%M} UTC by `cartwise eval understanding`.",
            "",
            "## Bars",
            "",
            "| measure | value | bar | |",
            "|---|---|---|---|",
        ]
        for name, value, bar in bars:
            verdict = "pass" if value >= bar else "FAIL"
            lines.append(f"| {name} | {value:.3f} | ≥ {bar:.2f} | {verdict} |")
        for item in self.coverage:
            if item.name in COVERAGE_BARS and not item.eligible:
                bar = COVERAGE_BARS[item.name]
                lines.append(
                    f"| {item.name} | n/a | ≥ {bar:.2f} | not measurable: no eligible text |"
                )
        lines += ["", "## Dev set", "", scores.to_markdown().rstrip()]
        lines += ["", "## Coverage on real text", ""]
        for item in self.coverage:
            if not item.eligible:
                lines.append(f"- {item.name}: no eligible text in the data (nothing to measure)")
                continue
            lines.append(f"- {item.name}: {item.covered}/{item.eligible} = {item.share:.3f}")
            lines.extend(f"  - missed: {example}" for example in item.misses[:MISSES_SHOWN])
        lines.extend(f"- skipped: {reason}" for reason in self.skipped)
        if self.prefeval is not None:
            lines += ["", "## PrefEval: what the curator stores", "", self.prefeval.to_markdown()]
        if self.counters is not None:
            lines += ["", "## LLM engine counters", ""]
            lines.extend(f"- {name}: {value}" for name, value in self.counters.items())
        if scores.failures:
            lines += ["", f"## Dev-set cases that differ ({len(scores.failures)})", ""]
            lines.extend(f"- {failure}" for failure in scores.failures)
        return "\n".join(lines) + "\n"


def score_dev_set(engine: Engine, cases: Sequence[DevCase]) -> UnderstandingScores:
    """Score with a progress bar (an llm engine takes seconds per turn)."""
    turns = sum(len(case.turns) for case in cases)
    with _progress() as progress:
        task = progress.add_task(f"dev set ({engine.name})", total=turns)
        return score(ProgressEngine(engine, progress, task), cases)


def evaluate_understanding(
    engine: Engine, *, data_dir: Path, cases: Sequence[DevCase] | None = None
) -> UnderstandingReport:
    """Run the dev set and the coverage checks that the shared data allows."""
    report = UnderstandingReport(scores=score_dev_set(engine, cases or load_dev_set()))
    report.coverage, report.skipped = real_text_coverage(engine, data_dir)
    prefeval_dir = data_dir / PREFEVAL_DIR
    if prefeval_dir.is_dir():
        with _progress() as progress:
            task = progress.add_task("PrefEval correctness", total=None)
            report.prefeval = prefeval_correctness(
                prefeval_dir, ProgressEngine(engine, progress, task)
            )
    else:
        report.skipped.append(f"PrefEval: {prefeval_dir} is absent")
    counters = getattr(engine, "counters", None)
    snapshot = getattr(counters, "snapshot", None)
    report.counters = snapshot() if callable(snapshot) else None
    return report


def real_text_coverage(engine: Engine, data_dir: Path) -> tuple[list[Coverage], list[str]]:
    """WebShop coverage, skipped (with the reason) when its data is absent."""
    checks: list[tuple[Path, Callable[[Path, Engine], Coverage], str]] = [
        (data_dir / WEBSHOP_GOALS, webshop_budget_coverage, "WebShop"),
    ]
    coverage: list[Coverage] = []
    skipped: list[str] = []
    for path, measure, label in checks:
        if not path.exists():
            skipped.append(f"{label}: {path} is absent")
            continue
        with _progress() as progress:
            task = progress.add_task(f"{label} coverage", total=None)
            coverage.append(measure(path, ProgressEngine(engine, progress, task)))
    return coverage, skipped


def _progress() -> Progress:
    """Progress on stderr, so stdout carries only the results."""
    return Progress(console=Console(stderr=True), transient=True)


def write_report(report: UnderstandingReport, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report.to_markdown(), encoding="utf-8")
    return path
