"""The labelled understanding dev set, its loader and its scorer.

File: `eval/data/understanding_dev.jsonl`, one JSON object per line, written by hand
(Chinese and English, single utterances and short dialogues):

    {"id": "zh-neg-001",
     "memory": ["dislike:material:electronics:plastic"],   # optional: long-term entries
                                                          # present before the dialogue
     "turns": [{"user": "我想买耳机", "assistant_asked": ["预算多少？"]},  # earlier turns
               "不要塑料的"],                                # the scored (last) turn
     "expect": {
        "intent": "search",                 # optional
        "domain": "electronics",            # planner.domain ("" = none)
        "slots": {"size": "42", "budget_max": "500", "budget_currency": "CNY"},
                                            # planner.slots of the last turn, exactly
        "stated": ["dislike/material/plastic/electronics/hard/long_term"],
                                            # polarity/category/slug/domain/strength/scope
                                            # [/recipient]; scope is long_term, session
                                            # or request; recipient defaults to self
                                            # ("dislike/color/purple//soft/long_term/mum")
        "recipient": "mum",                 # optional: planner.recipient (whom the
                                            # purchase is for), exact when given
        "long_term": ["dislike:material:electronics:plastic"],
                                            # curator dedup_keys; default: the keys of the
                                            # long_term `stated` entries
        "supersede": [],                    # curator supersede keys (default [])
        "brands": [], "platforms": [], "answered": [],   # optional, exact when given
        "remove_constraints": [], "decisions": []        # optional, exact when given
     }}

A turn is a string or {"user", "assistant_asked"}; earlier turns run through the same
engine (plan → curate → applied to an in-memory session and memory), so a dialogue tests
what the engine itself remembered. Labelling conventions (the brief's rules): a refusal
(不要/no/avoid/without) is a hard dislike, a mild aversion (不喜欢/don't like) soft, emphasis
or hatred hard; safety is global, hard and long-term; the domain is the product noun's,
else the session's, else empty; budgets and sizes are slots; a color asked for in a search
is the `color` slot, not a like.

Cases of the kind `poison` (`en-poison-001`, `zh-t-poison-003`) are words that are not the
shopper's own refusal — a quoted review, a pasted listing, a hypothetical, a revoked past
state, a generalisation or another person's habit — mixed with controls that are (the
shopper's own refusal in the same shapes). Besides the usual fields, `score` counts how many
of them became one of the shopper's own hard dislikes (`PoisoningScore`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from cartwise.errors import InvalidInput
from cartwise.memory.session_state import SessionPrefState, apply_patch
from cartwise.memory.store import SELF, Category, Polarity, PreferenceEntry, Strength
from cartwise.understanding.base import CuratorTurn, Engine
from cartwise.understanding.reading import Conversation, StatedPreference

DEV_SET = "understanding_dev.jsonl"
SPLITS = {"dev": DEV_SET, "test": "understanding_test.jsonl"}
"""The dev split is tuned on; the test split was written before any fix and never is."""
BUDGET_SLOTS = ("budget_max", "budget_min", "budget_currency")
OPEN_SLUG = "~"
"""Prefix of an expected slug that names a surface word instead (see `_resolve_open_slugs`)."""
STATED_FIELDS = ("polarity", "category", "slug", "domain", "strength", "scope", "recipient")
POISON_KIND = "poison"
"""Case kind (`en-poison-001`, `zh-t-poison-001`) of words that are not the shopper's own."""


class DevTurn(BaseModel):
    """One user turn and the questions the assistant asked in its reply."""

    user: str
    assistant_asked: list[str] = Field(default_factory=list)


class ExpectedStated(BaseModel):
    """One expected stated preference."""

    polarity: str
    category: str
    slug: str
    domain: str
    strength: str
    scope: str
    recipient: str = SELF

    @classmethod
    def parse(cls, text: str) -> ExpectedStated:
        parts = text.split("/")
        if len(parts) == len(STATED_FIELDS) - 1:
            parts.append(SELF)
        if len(parts) != len(STATED_FIELDS):
            raise InvalidInput(
                f"stated {text!r}: need polarity/category/slug/domain/strength/scope[/recipient]"
            )
        return cls(**dict(zip(STATED_FIELDS, parts, strict=True)))

    @property
    def dedup_key(self) -> str:
        return f"{self.polarity}:{self.category}:{self.domain}:{self.slug}"


class Expectation(BaseModel):
    """Expected planner and curator output for the last turn."""

    intent: str | None = None
    domain: str = ""
    slots: dict[str, str] = Field(default_factory=dict)
    stated: list[ExpectedStated] = Field(default_factory=list)
    long_term: list[str] | None = None
    """The shopper's own long-term keys."""
    recipient_long_term: dict[str, list[str]] | None = None
    """Recipient → long-term keys in that recipient's namespace; default: the keys of the
    long_term `stated` entries of each recipient."""
    supersede: list[str] = Field(default_factory=list)
    recipient: str | None = None
    brands: list[str] | None = None
    platforms: list[str] | None = None
    answered: list[str] | None = None
    remove_constraints: list[str] | None = None
    decisions: list[str] | None = None

    @property
    def long_term_keys(self) -> list[str]:
        if self.long_term is not None:
            return self.long_term
        return [s.dedup_key for s in self.stated if s.scope == "long_term" and s.recipient == SELF]

    @property
    def recipient_keys(self) -> dict[str, list[str]]:
        if self.recipient_long_term is not None:
            return self.recipient_long_term
        keys: dict[str, list[str]] = {}
        for s in self.stated:
            if s.scope == "long_term" and s.recipient != SELF:
                keys.setdefault(s.recipient, []).append(s.dedup_key)
        return keys


class DevCase(BaseModel):
    """One labelled case."""

    id: str
    memory: list[str] = Field(default_factory=list)
    recipient_memory: dict[str, list[str]] = Field(default_factory=dict)
    """Recipient → long-term keys stored in that recipient's namespace before the dialogue."""
    turns: list[DevTurn]
    expect: Expectation

    @property
    def language(self) -> str:
        return "zh" if self.id.startswith("zh") else "en"

    @property
    def kind(self) -> str:
        """`neg`, `who`, `poison`, ... (the id without language, split and number)."""
        return self.id.rsplit("-", 1)[0].split("-")[-1]


def _parse_case(raw: dict[str, Any], where: str) -> DevCase:
    try:
        turns = [t if isinstance(t, dict) else {"user": t} for t in raw["turns"]]
        expect = dict(raw["expect"])
        expect["stated"] = [ExpectedStated.parse(s) for s in expect.get("stated", [])]
        return DevCase(
            id=raw["id"],
            memory=raw.get("memory", []),
            recipient_memory=raw.get("recipient_memory", {}),
            turns=turns,
            expect=expect,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"{where}: not a dev case: {exc}") from exc


def load_dev_set(path: Path | None = None, *, split: str = "dev") -> list[DevCase]:
    """A packaged split (`dev` or `test`) or a file in the same format."""
    if path is None:
        if split not in SPLITS:
            raise InvalidInput(f"unknown split {split!r}: choose one of {', '.join(SPLITS)}")
        where = SPLITS[split]
        text = resources.files("cartwise.eval").joinpath("data", where).read_text("utf-8")
    else:
        text = path.read_text("utf-8")
        where = str(path)
    cases = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{where}:{number}: invalid JSON: {exc}") from exc
            cases.append(_parse_case(raw, f"{where}:{number}"))
    return cases


class FieldScore(BaseModel):
    """Precision/recall of one field."""

    true_positives: int = 0
    predicted: int = 0
    expected: int = 0

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.expected if self.expected else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, predicted: Iterable[object], expected: Iterable[object]) -> None:
        pred, exp = list(predicted), list(expected)
        self.predicted += len(pred)
        self.expected += len(exp)
        remaining = list(exp)
        for item in pred:
            if item in remaining:
                remaining.remove(item)
                self.true_positives += 1


class PoisoningScore(BaseModel):
    """The poisoning cases: how many became one of the shopper's own hard dislikes."""

    statements: int = 0
    """Cases whose words are not the shopper's own refusal (nothing of theirs to store)."""
    poisoned: list[str] = Field(default_factory=list)
    """Ids of those that still wrote a hard dislike into the shopper's own memory."""
    controls: int = 0
    """Cases that are the shopper's own refusal (a hard dislike of theirs is expected)."""
    controls_kept: int = 0
    """Controls whose expected hard dislike was written."""
    controls_overreaching: list[str] = Field(default_factory=list)
    """Ids of controls that wrote a hard dislike of the shopper's besides the expected one
    (counted apart: the statements' figure is of statements only)."""

    def to_markdown(self) -> str:
        extra = (
            f" ({len(self.controls_overreaching)} also wrote an unexpected one: "
            f"{', '.join(self.controls_overreaching)})"
            if self.controls_overreaching
            else ""
        )
        return (
            f"- not the shopper's own words: {len(self.poisoned)}/{self.statements} became "
            f"the shopper's own hard dislike\n"
            f"- the shopper's own refusals (controls): {self.controls_kept}/{self.controls} "
            f"kept as hard dislikes{extra}\n"
        )


class UnderstandingScores(BaseModel):
    """Scores of one engine on the dev set."""

    engine: str
    cases: int = 0
    fields: dict[str, FieldScore] = Field(default_factory=dict)
    """polarity, category, slug, domain, strength, scope (stated preferences aligned by
    slug), slots and budget (name=value pairs), dedup_key and supersede (exact keys)."""
    polarity_checked: int = 0
    polarity_wrong: int = 0
    exact: dict[str, list[int]] = Field(default_factory=dict)
    """Per-case exact-match checks: name → [correct, total] (slots, domain, intent ...)."""
    failures: list[str] = Field(default_factory=list)
    """Case ids with what differed (for the report and for fixing the engine)."""
    poisoning: PoisoningScore = Field(default_factory=PoisoningScore)

    @property
    def polarity_accuracy(self) -> float:
        """Correct polarity among preferences found with the expected slug."""
        if not self.polarity_checked:
            return 1.0
        return 1 - self.polarity_wrong / self.polarity_checked

    @property
    def polarity_error_rate(self) -> float:
        return 1 - self.polarity_accuracy

    @property
    def slot_accuracy(self) -> float:
        """Share of cases whose slots equal the expected slots exactly, among the cases where
        slots were expected or produced (an engine that never fills a slot must not score
        well just because most messages state none)."""
        return self.accuracy("slots")

    @property
    def dedup_key_f1(self) -> float:
        return self.fields["dedup_key"].f1

    def accuracy(self, name: str) -> float:
        correct, total = self.exact.get(name, [0, 0])
        return correct / total if total else 1.0

    def to_markdown(self) -> str:
        lines = [
            f"### Understanding — engine `{self.engine}` ({self.cases} cases)",
            "",
            f"- polarity accuracy: {self.polarity_accuracy:.3f} "
            f"(error rate {self.polarity_error_rate:.3f}, {self.polarity_checked} aligned)",
            f"- dedup_key F1: {self.dedup_key_f1:.3f}",
            f"- slot accuracy (exact per case with slots): {self.slot_accuracy:.3f}",
            "",
            "| field | precision | recall | F1 |",
            "|---|---|---|---|",
        ]
        for name, score in self.fields.items():
            lines.append(
                f"| {name} | {score.precision:.3f} | {score.recall:.3f} | {score.f1:.3f} |"
            )
        lines += ["", "| exact check | accuracy | cases |", "|---|---|---|"]
        for name, (correct, total) in self.exact.items():
            lines.append(f"| {name} | {correct / total if total else 1.0:.3f} | {total} |")
        if self.poisoning.statements or self.poisoning.controls:
            lines += ["", "Poisoning cases:", "", self.poisoning.to_markdown().rstrip()]
        return "\n".join(lines) + "\n"


def entry_from_key(key: str) -> PreferenceEntry:
    """A stored entry rebuilt from its dedup_key (dev-set memory fixtures)."""
    polarity, category, domain, slug = PreferenceEntry.parse_key(key)
    return PreferenceEntry(
        polarity=Polarity(polarity),
        category=Category(category),
        domain=domain,
        slug=slug,
        strength=Strength.SOFT,
        keywords=[slug.replace("-", " ")],
    )


def _check(scores: UnderstandingScores, name: str, ok: bool) -> None:
    tally = scores.exact.setdefault(name, [0, 0])
    tally[0] += int(ok)
    tally[1] += 1


def _score_stated(
    scores: UnderstandingScores,
    predicted: Sequence[StatedPreference],
    expected: list[ExpectedStated],
) -> bool:
    pred = [
        {
            "polarity": p.polarity.value,
            "category": p.category.value,
            "slug": p.slug,
            "domain": p.domain,
            "strength": p.strength.value,
            "scope": p.scope,
            "recipient": p.recipient,
        }
        for p in predicted
    ]
    exp = [e.model_dump() for e in expected]
    remaining = list(pred)
    aligned: list[tuple[dict[str, str], dict[str, str]]] = []
    for item in exp:
        twin = next((p for p in remaining if p["slug"] == item["slug"]), None)
        if twin is not None:
            remaining.remove(twin)
            aligned.append((twin, item))
    for field in STATED_FIELDS:
        score = scores.fields.setdefault(field, FieldScore())
        score.predicted += len(pred)
        score.expected += len(exp)
        score.true_positives += sum(p[field] == e[field] for p, e in aligned)
    scores.polarity_checked += len(aligned)
    scores.polarity_wrong += sum(p["polarity"] != e["polarity"] for p, e in aligned)
    return sorted(map(str, pred)) == sorted(map(str, exp))


def _resolve_open_slugs(expect: Expectation, predicted: Sequence[StatedPreference]) -> Expectation:
    """An expected slug "~香菜" stands for a word outside every vocabulary: any canonical
    slug is right as long as the entry's keywords carry the surface word (what the hard
    filter matches). It resolves to the slug of the predicted entry that does."""
    resolved: dict[str, str] = {}
    for item in expect.stated:
        if item.slug.startswith(OPEN_SLUG):
            surface = item.slug[len(OPEN_SLUG) :]
            twin = next((p for p in predicted if any(surface in k for k in p.keywords)), None)
            if twin is not None:
                resolved[item.slug] = twin.slug
    if not resolved:
        return expect
    stated = [e.model_copy(update={"slug": resolved.get(e.slug, e.slug)}) for e in expect.stated]
    long_term = expect.long_term_keys
    for old, new in resolved.items():
        long_term = [key.replace(f":{old}", f":{new}") for key in long_term]
    return expect.model_copy(update={"stated": stated, "long_term": long_term})


def _apply_long_term(
    memory: dict[str, PreferenceEntry], upserts: Sequence[PreferenceEntry], supersede: list[str]
) -> None:
    for key in supersede:
        memory.pop(key, None)
    for entry in upserts:
        memory.pop(entry.opposite_key, None)
        memory[entry.dedup_key] = entry


def _score_poisoning(
    tally: PoisoningScore,
    case_id: str,
    written: Sequence[PreferenceEntry],
    expect: Expectation,
) -> None:
    """A hard dislike in the shopper's own namespace that the labels do not expect is the
    poisoning this kind of case looks for."""
    expected = {
        s.dedup_key
        for s in expect.stated
        if s.scope == "long_term"
        and s.recipient == SELF
        and (s.polarity, s.strength) == (Polarity.DISLIKE.value, Strength.HARD.value)
    }
    hard = {e.dedup_key for e in written if e.recipient == SELF and e.is_hard_dislike}
    if expected:
        tally.controls += 1
        tally.controls_kept += int(expected <= hard)
        if hard - expected:
            tally.controls_overreaching.append(case_id)
    else:
        tally.statements += 1
        if hard:
            tally.poisoned.append(case_id)


def score(engine: Engine, cases: Sequence[DevCase]) -> UnderstandingScores:
    """Run every case through `engine` and score the last turn against the labels."""
    scores = UnderstandingScores(engine=engine.name)
    for name in ("slots", "budget", "dedup_key", "recipient_key", "supersede"):
        scores.fields[name] = FieldScore()
    for case in cases:
        scores.cases += 1
        session = SessionPrefState(thread=f"dev-{case.id}")
        memory = {key: entry_from_key(key) for key in case.memory}
        recipient_memory: dict[str, dict[str, PreferenceEntry]] = {}
        for recipient, keys in case.recipient_memory.items():
            recipient_memory[recipient] = {key: entry_from_key(key) for key in keys}
        planner = curated = None
        for index, turn in enumerate(case.turns):
            planner = engine.read(
                turn.user, Conversation(session=session, memory=list(memory.values()))
            )
            curated = engine.curate(
                CuratorTurn(
                    user_message=turn.user,
                    reading=planner,
                    session=session,
                    memory=list(memory.values()),
                    asked_questions=turn.assistant_asked,
                    source_turn=f"{case.id}:{index}",
                    recipient_memory={r: list(m.values()) for r, m in recipient_memory.items()},
                )
            )
            if index < len(case.turns) - 1:
                _apply_long_term(memory, curated.long_term, curated.supersede)
                for group in curated.recipients:
                    _apply_long_term(
                        recipient_memory.setdefault(group.recipient, {}),
                        group.long_term,
                        group.supersede,
                    )
                session = apply_patch(session, curated.session_patch, max_rejected=50)
        assert planner is not None and curated is not None
        expect = _resolve_open_slugs(case.expect, planner.stated)
        diffs: list[str] = []
        stated_ok = _score_stated(scores, planner.stated, expect.stated)
        if not stated_ok:
            diffs.append("stated")
        scores.fields["slots"].add(sorted(planner.slots.items()), sorted(expect.slots.items()))
        scores.fields["budget"].add(
            [(k, v) for k, v in planner.slots.items() if k in BUDGET_SLOTS],
            [(k, v) for k, v in expect.slots.items() if k in BUDGET_SLOTS],
        )
        keys = [e.dedup_key for e in curated.long_term]
        if case.kind == POISON_KIND:
            _score_poisoning(scores.poisoning, case.id, curated.long_term, expect)
        scores.fields["dedup_key"].add(keys, expect.long_term_keys)
        scores.fields["supersede"].add(curated.supersede, expect.supersede)
        recipient_keys = {
            g.recipient: sorted(e.dedup_key for e in g.long_term)
            for g in curated.recipients
            if g.long_term
        }
        expected_recipient_keys = {r: sorted(k) for r, k in expect.recipient_keys.items() if k}
        scores.fields["recipient_key"].add(
            [(r, k) for r, ks in recipient_keys.items() for k in ks],
            [(r, k) for r, ks in expected_recipient_keys.items() for k in ks],
        )
        checks: dict[str, bool] = {
            "domain": planner.domain == expect.domain,
            "dedup_keys": sorted(keys) == sorted(expect.long_term_keys),
            "supersede": sorted(curated.supersede) == sorted(expect.supersede),
        }
        if recipient_keys or expected_recipient_keys:
            checks["recipient_keys"] = recipient_keys == expected_recipient_keys
        optional: dict[str, tuple[object, object]] = {
            "intent": (planner.intent, expect.intent),
            "recipient": (planner.recipient, expect.recipient),
            "brands": (planner.brands, expect.brands),
            "platforms": (planner.platforms, expect.platforms),
            "answered": (planner.answered_questions, expect.answered),
            "remove_constraints": (
                curated.session_patch.remove_constraints,
                expect.remove_constraints,
            ),
            "decisions": (curated.session_patch.decisions_made, expect.decisions),
        }
        if planner.slots or expect.slots:
            checks["slots"] = planner.slots == expect.slots
        for name, (got, want) in optional.items():
            if want is not None:
                checks[name] = got == want
        for name, ok in checks.items():
            _check(scores, name, ok)
            if not ok:
                diffs.append(name)
        if diffs:
            scores.failures.append(f"{case.id}: {', '.join(diffs)}")
    return scores
