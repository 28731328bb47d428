"""PrefEval correctness: what the curator stores for hand-labelled PrefEval statements.

The statements stay in `../shared/data/memory/prefeval_explicit` (CC BY-NC, never copied
into the repository); `eval/data/statement_labels.jsonl` holds only references and labels,
one line per statement:

    {"file": "shop_fashion.json", "index": 0,
     "stored": [["dislike/material/leather"], ["dislike/material/wool"]],
                        # what a correct curator stores long-term: polarity/category/slug,
                        # each with alternatives ("dislike/other/floral-fragrance",
                        # "dislike/color/floral") when more than one slug is right
     "optional": [["dislike/other/animal-product"]],
                        # also right, but not required (vague or redundant objects)
     "not_shopping": true}   # a habit or a fact that is no shopping preference: store nothing

Scoring (what the curator stores, `CuratorOutput.long_term`, for the statement alone):
- precision = stored entries that match a required or optional label (same polarity and
  slug) / stored entries;
- recall = required labels matched by a stored entry / required labels;
- polarity errors: stored entries whose slug is labelled with the other polarity;
- category accuracy among matched entries; stores on "not a shopping preference" statements.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, Field

from cartwise.errors import InvalidInput
from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.base import CuratorTurn, Engine
from cartwise.understanding.reading import Conversation

LABELS = "statement_labels.jsonl"
MISSES_KEPT = 40


class LabelledStatement(BaseModel):
    """One PrefEval statement by reference, with what a correct curator stores."""

    file: str
    index: int
    stored: list[list[str]] = Field(default_factory=list)
    optional: list[list[str]] = Field(default_factory=list)
    not_shopping: bool = False


class PrefEvalScores(BaseModel):
    """Precision and recall of what the curator stores on the labelled statements."""

    engine: str
    statements: int = 0
    stored: int = 0
    stored_correct: int = 0
    required: int = 0
    required_found: int = 0
    polarity_errors: int = 0
    category_checked: int = 0
    category_correct: int = 0
    not_shopping: int = 0
    not_shopping_stored: int = 0
    """Not-a-shopping-preference statements where something was stored anyway."""
    misses: list[str] = Field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.stored_correct / self.stored if self.stored else 1.0

    @property
    def recall(self) -> float:
        return self.required_found / self.required if self.required else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_markdown(self) -> str:
        lines = [
            f"### PrefEval curator correctness — engine `{self.engine}` "
            f"({self.statements} hand-labelled statements)",
            "",
            f"- precision of stored entries: {self.precision:.3f} "
            f"({self.stored_correct}/{self.stored})",
            f"- recall of required entries: {self.recall:.3f} "
            f"({self.required_found}/{self.required})",
            f"- F1: {self.f1:.3f}",
            f"- polarity errors among stored entries: {self.polarity_errors}",
            f"- category accuracy among matched entries: "
            f"{self.category_correct}/{self.category_checked}",
            f"- not-a-shopping-preference statements that stored something: "
            f"{self.not_shopping_stored}/{self.not_shopping}",
        ]
        if self.misses:
            lines += ["", "Differences (file:index: stored → missing):", ""]
            lines.extend(f"- {miss}" for miss in self.misses)
        return "\n".join(lines) + "\n"


def load_labels(path: Path | None = None) -> list[LabelledStatement]:
    """The packaged labels (or a file in the same format)."""
    if path is None:
        text = resources.files("cartwise.eval").joinpath("data", LABELS).read_text("utf-8")
    else:
        text = path.read_text("utf-8")
    labels = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                labels.append(LabelledStatement.model_validate(json.loads(line)))
            except ValueError as exc:
                raise InvalidInput(f"{LABELS}:{number}: not a label: {exc}") from exc
    return labels


def load_statements(directory: Path, labels: Sequence[LabelledStatement]) -> list[str]:
    """The statement text of each label, read from the PrefEval files in place."""
    cache: dict[str, list[object]] = {}
    texts = []
    for label in labels:
        if label.file not in cache:
            path = directory / label.file
            try:
                rows = json.loads(path.read_text("utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise InvalidInput(f"cannot read {path}: {exc}") from exc
            cache[label.file] = rows if isinstance(rows, list) else []
        rows = cache[label.file]
        row = rows[label.index] if label.index < len(rows) else None
        if not isinstance(row, dict) or "preference" not in row:
            raise InvalidInput(f"{label.file}:{label.index}: no such PrefEval statement")
        texts.append(str(row["preference"]))
    return texts


def _parts(alternative: str) -> tuple[str, str, str]:
    polarity, category, slug = alternative.split("/")
    return polarity, category, slug


def score_prefeval(
    engine: Engine, labels: Sequence[LabelledStatement], statements: Sequence[str]
) -> PrefEvalScores:
    """Plan + curate each statement alone and compare the long-term entries to the labels."""
    scores = PrefEvalScores(engine=engine.name)
    for label, text in zip(labels, statements, strict=True):
        scores.statements += 1
        session = SessionPrefState(thread=f"prefeval-{label.file}-{label.index}")
        planner = engine.read(text, Conversation(session=session))
        curated = engine.curate(
            CuratorTurn(user_message=text, reading=planner, session=session, memory=[])
        )
        stored = [(e.polarity.value, e.category.value, e.slug) for e in curated.long_term]
        scores.stored += len(stored)
        if label.not_shopping:
            scores.not_shopping += 1
            scores.not_shopping_stored += bool(stored)
        groups = [[_parts(a) for a in group] for group in label.stored + label.optional]
        required = [[_parts(a) for a in group] for group in label.stored]
        matched_groups: set[int] = set()
        wrong: list[str] = []
        for polarity, category, slug in stored:
            hit = next(
                (
                    (i, alt)
                    for i, group in enumerate(groups)
                    for alt in group
                    if alt[0] == polarity and alt[2] == slug
                ),
                None,
            )
            if hit is None:
                flipped = any(alt[2] == slug for group in groups for alt in group)
                scores.polarity_errors += flipped
                wrong.append(f"{polarity}/{category}/{slug}")
                continue
            scores.stored_correct += 1
            matched_groups.add(hit[0])
            scores.category_checked += 1
            scores.category_correct += hit[1][1] == category
        scores.required += len(required)
        found = [i for i in range(len(required)) if i in matched_groups]
        scores.required_found += len(found)
        missing = ["/".join(required[i][0]) for i in range(len(required)) if i not in found]
        if (wrong or missing) and len(scores.misses) < MISSES_KEPT:
            scores.misses.append(
                f"{label.file}:{label.index}: stored {wrong or '-'} → missing {missing or '-'}"
            )
    return scores


def prefeval_correctness(directory: Path, engine: Engine) -> PrefEvalScores:
    """The packaged labels scored against the PrefEval files in `directory`."""
    labels = load_labels()
    return score_prefeval(engine, labels, load_statements(directory, labels))
