"""`cartwise eval acts`: the dialogue-act classifier on our labelled splits and on shopper
utterances labelled outside the project (MG-ShopDial).

Our splits (`eval/data/acts_{dev,test}.jsonl`) carry the full set of acts of each message:
exact-set accuracy and per-act precision / recall / F1 of the policy's set of acts.

MG-ShopDial (human–human shopping dialogues, crowd-labelled intents with the number of
annotators who chose each) uses another taxonomy. Only the shopper's ("Client") utterances
are read. An utterance's intent is its top-voted one (ties kept); it is mapped onto a class
of our acts by `MG_INTENT_CLASS`; an utterance is left out — and counted, by reason — when it
has no intent, when a top intent has no counterpart among our acts, or when tied top intents
map to different classes. The classifier's answer is the class of its likeliest act.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from cartwise.errors import InvalidInput
from cartwise.understanding import Act

ActSplit = Literal["dev", "test"]

ActClass = Literal["need", "question", "social", "assistant"]
CLASS_ACTS: dict[ActClass, frozenset[Act]] = {
    "need": frozenset({Act.REQUEST, Act.PREFERENCE, Act.GIFT_CONTEXT}),
    "question": frozenset({Act.ITEM_QUESTION}),
    "social": frozenset({Act.SMALL_TALK, Act.THANKS, Act.CLOSING}),
    "assistant": frozenset({Act.ASSISTANT_QUESTION}),
}
"""Our acts grouped at the grain MG-ShopDial's intents can be compared at."""

MG_INTENT_CLASS: dict[str, ActClass] = {
    "disclose": "need",  # the shopper states a need or a preference ("i want a bigger one")
    "elicit": "need",  # the shopper asks for suggestions ("can I have another thriller?")
    "o_question": "question",  # an original question about products ("how much in total?")
    "clarify": "question",  # a follow-up question ("what about the second one?")
    "greeting": "social",  # greetings and gratitude ("hi", "thank you for your help")
    "pf": "social",  # positive feedback ("nice", "I'll go for it"): small talk or closing
}
MG_UNMAPPED: dict[str, str] = {
    "answer": "an answer to the wizard's question: a refinement, a yes, or 'ok'",
    "explain": "the shopper's situation or reasons: need, gift context or chat",
    "interaction": "keeping the conversation going ('really?', 'hmm', 'give me a minute')",
    "nf": "negative feedback on shown items ('too expensive', 'they look ugly'): our acts "
    "have no reaction-to-results act, it splits between request and preference",
    "recommend": "on the shopper's side, accepting or asking for a recommendation",
    "other": "unclassified by the annotators",
}
"""MG-ShopDial intents with no counterpart among our acts, and why."""


def class_of(act: Act) -> ActClass:
    return next(name for name, acts in CLASS_ACTS.items() if act in acts)


class LabelledUtterance(BaseModel):
    id: str
    lang: str
    text: str
    acts: list[Act]


def acts_split_path(split: ActSplit) -> Path:
    return Path(str(resources.files("cartwise.eval").joinpath(f"data/acts_{split}.jsonl")))


def load_labelled(path: Path) -> list[LabelledUtterance]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
    return [LabelledUtterance.model_validate(json.loads(line)) for line in lines if line.strip()]


class F1(BaseModel):
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0

    def add(self, predicted: bool, gold: bool) -> None:
        self.true_positive += predicted and gold
        self.false_positive += predicted and not gold
        self.false_negative += gold and not predicted

    @property
    def support(self) -> int:
        return self.true_positive + self.false_negative

    @property
    def precision(self) -> float:
        found = self.true_positive + self.false_positive
        return self.true_positive / found if found else 0.0

    @property
    def recall(self) -> float:
        return self.true_positive / self.support if self.support else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def macro_f1(scores: Iterable[F1]) -> float:
    """Mean F1 over the labels that occur in the gold."""
    present = [s.f1 for s in scores if s.support]
    return sum(present) / len(present) if present else 0.0


class SplitScore(BaseModel):
    """The policy's set of acts against the gold set, on one of our splits."""

    split: str
    utterances: int = 0
    exact: int = 0
    per_act: dict[str, F1] = Field(default_factory=dict)
    mistakes: list[str] = Field(default_factory=list)

    @property
    def exact_accuracy(self) -> float:
        return self.exact / self.utterances if self.utterances else 0.0


def score_split(
    utterances: Sequence[LabelledUtterance],
    predict: Callable[[str], frozenset[Act]],
    *,
    split: str,
) -> SplitScore:
    score = SplitScore(split=split, per_act={a.value: F1() for a in Act})
    for utterance in utterances:
        predicted, gold = predict(utterance.text), frozenset(utterance.acts)
        score.utterances += 1
        score.exact += predicted == gold
        for act in Act:
            score.per_act[act.value].add(act in predicted, act in gold)
        if predicted != gold:
            score.mistakes.append(
                f"{utterance.id} {utterance.text!r}: said {sorted(a.value for a in predicted)}, "
                f"labelled {sorted(a.value for a in gold)}"
            )
    return score


@dataclass(frozen=True)
class MgUtterance:
    dialogue: str
    text: str
    intents: tuple[str, ...]
    """The top-voted intents (several on a tie)."""


def load_mg_shopdial(path: Path) -> tuple[list[MgUtterance], int]:
    """The shopper's utterances with their top-voted intents, and how many of the
    assistant's (wizard's) utterances were skipped."""
    try:
        dialogues: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"cannot read MG-ShopDial from {path}: {exc}") from None
    utterances, wizard = [], 0
    for dialogue in dialogues:
        for turn in dialogue["utterances"]:
            if turn["participant"] != "Client":
                wizard += 1
                continue
            votes = {str(name): float(count) for name, count in turn["intents"]}
            best = max(votes.values(), default=0.0)
            top = tuple(sorted(name for name, count in votes.items() if count == best))
            utterances.append(MgUtterance(str(dialogue["id"]), str(turn["utterance"]), top))
    return utterances, wizard


def mg_target(intents: Sequence[str]) -> tuple[ActClass | None, str]:
    """The class an utterance's top intents map to, or None and why it is left out."""
    if not intents:
        return None, "no intent"
    unmapped = [i for i in intents if i not in MG_INTENT_CLASS]
    if unmapped:
        return None, f"top intent without counterpart: {'+'.join(unmapped)}"
    classes = {MG_INTENT_CLASS[i] for i in intents}
    if len(classes) > 1:
        return None, "tied top intents of different classes"
    return classes.pop(), ""


class MgScore(BaseModel):
    """The likeliest act's class against the mapped intent, on MG-ShopDial's shopper turns."""

    shopper_utterances: int = 0
    wizard_skipped: int = 0
    scored: int = 0
    correct: int = 0
    any_taken_correct: int = 0
    """Scored utterances where any act the policy takes is of the target class."""
    excluded: dict[str, int] = Field(default_factory=dict)
    per_class: dict[str, F1] = Field(default_factory=dict)
    confusion: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Top intent(s) → the classifier's likeliest act → utterances, for every utterance."""
    mistakes: list[str] = Field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.scored if self.scored else 0.0


def score_mg_shopdial(
    utterances: Sequence[MgUtterance],
    scores: Callable[[str], Mapping[Act, float]],
    decide: Callable[[Mapping[Act, float]], frozenset[Act]],
    *,
    wizard_skipped: int = 0,
) -> MgScore:
    result = MgScore(
        shopper_utterances=len(utterances),
        wizard_skipped=wizard_skipped,
        per_class={name: F1() for name in CLASS_ACTS},
    )
    excluded: Counter[str] = Counter()
    for utterance in utterances:
        probabilities = scores(utterance.text)
        likeliest = max(probabilities, key=lambda act: probabilities[act])
        row = result.confusion.setdefault("+".join(utterance.intents) or "(none)", {})
        row[likeliest.value] = row.get(likeliest.value, 0) + 1
        target, reason = mg_target(utterance.intents)
        if target is None:
            excluded[reason] += 1
            continue
        predicted = class_of(likeliest)
        result.scored += 1
        result.correct += predicted == target
        result.any_taken_correct += any(class_of(a) == target for a in decide(probabilities))
        for name in CLASS_ACTS:
            result.per_class[name].add(predicted == name, target == name)
        if predicted != target:
            result.mistakes.append(
                f"{utterance.text!r} ({'+'.join(utterance.intents)} → {target}): {likeliest.value}"
            )
    result.excluded = dict(excluded.most_common())
    return result


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def render_markdown(
    splits: Sequence[SplitScore],
    mg: MgScore | None,
    *,
    mistakes: int,
    quote_external: bool = False,
) -> str:
    """The report; MG-ShopDial's utterances are quoted only with `quote_external` (for the
    terminal: the shared data is never copied into a committed report)."""
    lines = ["## Our labelled splits (the policy's set of acts against the gold set)", ""]
    lines += _table(
        ["split", "utterances", "exact set", "macro F1"],
        [
            [s.split, s.utterances, f"{s.exact}/{s.utterances} ({s.exact_accuracy:.1%})",
             f"{macro_f1(s.per_act.values()):.3f}"]
            for s in splits
        ],
    )  # fmt: skip
    lines += ["", "Per act (precision / recall / F1, support):", ""]
    lines += _table(
        ["act", *[s.split for s in splits]],
        [
            [act.value, *[
                f"{s.per_act[act.value].precision:.2f} / {s.per_act[act.value].recall:.2f} / "
                f"**{s.per_act[act.value].f1:.2f}** ({s.per_act[act.value].support})"
                for s in splits
            ]]
            for act in Act
        ],
    )  # fmt: skip
    if mg is not None:
        lines += ["", "## MG-ShopDial shopper utterances (labelled outside the project)", ""]
        lines += [
            f"{mg.shopper_utterances} shopper utterances ({mg.wizard_skipped} of the wizard's "
            f"skipped); **{mg.scored} scored**, "
            f"{mg.shopper_utterances - mg.scored} left out:",
            "",
        ]
        prefix = "top intent without counterpart: "
        unmapped: Counter[str] = Counter()
        for reason, count in mg.excluded.items():
            if reason.startswith(prefix):
                unmapped[reason.removeprefix(prefix)] += count
            else:
                lines.append(f"- {reason}: {count}")
        if unmapped:
            detail = ", ".join(f"{name} {count}" for name, count in unmapped.most_common())
            lines.append(f"- a top intent without counterpart: {sum(unmapped.values())} ({detail})")
        lines += [
            "",
            f"**Accuracy of the likeliest act's class: {mg.correct}/{mg.scored} "
            f"({mg.accuracy:.1%})**; any act the policy takes of the right class: "
            f"{mg.any_taken_correct}/{mg.scored} "
            f"({mg.any_taken_correct / mg.scored if mg.scored else 0:.1%}); macro F1 "
            f"{macro_f1(mg.per_class.values()):.3f}.",
            "",
        ]
        lines += _table(
            ["class (our acts)", "MG-ShopDial intents", "precision", "recall", "F1", "support"],
            [
                [f"{name} ({', '.join(sorted(a.value for a in members))})",
                 ", ".join(i for i, c in MG_INTENT_CLASS.items() if c == name) or "–",
                 f"{f.precision:.2f}", f"{f.recall:.2f}", f"**{f.f1:.2f}**", f.support]
                for name, members in CLASS_ACTS.items()
                for f in [mg.per_class[name]]
            ],
        )  # fmt: skip
        lines += ["", "Intents left out (no counterpart among our acts):", ""]
        lines += [f"- `{intent}`: {why}" for intent, why in MG_UNMAPPED.items()]
        lines += ["", "Every shopper utterance: top intent(s) → the likeliest act", ""]
        acts = [a.value for a in Act]
        rows = sorted(mg.confusion.items(), key=lambda item: -sum(item[1].values()))
        lines += _table(
            ["top intent(s)", "n", *acts],
            [[name, sum(row.values()), *[row.get(a, "") for a in acts]] for name, row in rows],
        )
        if mistakes and quote_external:
            lines += ["", f"First {mistakes} mistakes on MG-ShopDial:", ""]
            lines += [f"- {m}" for m in mg.mistakes[:mistakes]]
    for split in splits:
        if mistakes and split.mistakes:
            lines += ["", f"First {mistakes} mistakes on {split.split}:", ""]
            lines += [f"- {m}" for m in split.mistakes[:mistakes]]
    return "\n".join(lines) + "\n"
