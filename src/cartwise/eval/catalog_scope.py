"""Precision and recall of "not carried" on the labelled requests (catalog_scope_*.jsonl).

The requests were written by hand before any threshold was chosen (scripts/
make_catalog_scope_set.py); `calibrate` picks the relevance floor on the dev split only, and
`evaluate` measures the agent as it runs (one fresh thread per request) on either split. The
agent is reached through callables the command wires (this layer does not import it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from pydantic import BaseModel

from cartwise.errors import InvalidInput


class ScopeRequest(BaseModel):
    text: str
    language: str
    carried: bool


class ScopeScore(BaseModel):
    """ "Not carried" is the positive class."""

    split: str
    requests: int = 0
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    mistakes: list[str] = []

    @property
    def precision(self) -> float:
        flagged = self.true_positive + self.false_positive
        return self.true_positive / flagged if flagged else 0.0

    @property
    def recall(self) -> float:
        actual = self.true_positive + self.false_negative
        return self.true_positive / actual if actual else 0.0

    def add(self, request: ScopeRequest, flagged_not_carried: bool) -> None:
        self.requests += 1
        positive = not request.carried
        if flagged_not_carried and positive:
            self.true_positive += 1
        elif flagged_not_carried:
            self.false_positive += 1
            self.mistakes.append(f"said not carried: {request.text}")
        elif positive:
            self.false_negative += 1
            self.mistakes.append(f"said carried: {request.text}")


def scope_path(split: str) -> Path:
    return Path(str(resources.files("cartwise.eval").joinpath(f"data/catalog_scope_{split}.jsonl")))


def load_requests(path: Path) -> list[ScopeRequest]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from exc
    return [ScopeRequest.model_validate(json.loads(line)) for line in lines if line.strip()]


def calibrate(
    requests: Sequence[ScopeRequest],
    similarity: Callable[[str], float | None],
    *,
    steps: int = 12,
) -> list[tuple[float, float, float]]:
    """(floor, precision, recall) of the relevance floor *alone* ("not carried" when the best
    hit's similarity is below it), for floors spread over the similarities observed — the
    signal the decision falls back on when no rule fires. Run on the dev split only."""
    signals = [(r, similarity(r.text)) for r in requests]
    seen = sorted(s for _, s in signals if s is not None)
    if not seen:
        return []
    low, high = seen[0], seen[-1]
    floors = [round(low + (high - low) * i / steps, 3) for i in range(steps + 1)]
    table = []
    for floor in floors:
        score = ScopeScore(split="dev")
        for request, best in signals:
            score.add(request, best is None or best < floor)
        table.append((floor, score.precision, score.recall))
    return table


def best_floor(table: Sequence[tuple[float, float, float]]) -> float | None:
    """The floor with the best F1 of "not carried" (ties: the higher precision)."""

    def f1(row: tuple[float, float, float]) -> tuple[float, float]:
        _, p, r = row
        return (2 * p * r / (p + r) if p + r else 0.0, p)

    return max(table, key=f1)[0] if table else None


def evaluate(
    requests: Sequence[ScopeRequest], not_carried: Callable[[str], bool], *, split: str
) -> ScopeScore:
    """`not_carried(text)`: the agent's verdict on the request as the first turn of a fresh
    thread."""
    score = ScopeScore(split=split)
    for request in requests:
        score.add(request, not_carried(request.text))
    return score


def render_markdown(
    scores: Sequence[ScopeScore], sweep: Sequence[tuple[float, float, float]] = ()
) -> str:
    lines = [
        '| split | requests | precision of "not carried" | recall of "not carried" |',
        "|---|---:|---:|---:|",
    ]
    for s in scores:
        lines.append(
            f"| {s.split} | {s.requests} | {s.precision:.1%} "
            f"({s.true_positive}/{s.true_positive + s.false_positive}) | {s.recall:.1%} "
            f"({s.true_positive}/{s.true_positive + s.false_negative}) |"
        )
    if sweep:
        lines += [
            "",
            f"The relevance floor alone on the dev requests (best F1: {best_floor(sweep):.3f}):",
            "",
            "| floor | precision | recall |",
            "|---:|---:|---:|",
        ]
        lines += [f"| {f:.3f} | {p:.1%} | {r:.1%} |" for f, p, r in sweep]
    return "\n".join(lines) + "\n"
