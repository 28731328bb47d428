"""Compare the candidate act models by measurement: sentence vectors alone, character
n-grams alone, both, and k-nearest neighbours over sentence vectors — on a cross-validation
of the training file and on the dev split of the labelled utterances (never the test split).

`python scripts/compare_act_models.py` prints one markdown table (docs/reports/acts.md keeps
the figures). Takes several minutes: every candidate is fitted `FOLDS + 1` times.
"""

from __future__ import annotations

import os

# See scripts/train_acts.py: OpenBLAS threads slow small products on a busy machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import Progress

from cartwise.embedding import create_embedder
from cartwise.understanding.acts import ACTS, Act
from cartwise.understanding.acts.classifier import DECISION_THRESHOLD, SENTENCE_MODEL
from cartwise.understanding.acts.features import CharNgrams
from cartwise.understanding.acts.linear import f1, f1_best_thresholds, fit_platt
from cartwise.understanding.acts.training import (
    SENTENCE_SCALE,
    Example,
    design,
    fit_act_model,
    fold_of,
    label_matrix,
    load_examples,
    out_of_fold_logits,
    training_data_path,
)

Floats = npt.NDArray[np.float64]
NEIGHBOURS = 10
NEIGHBOUR_TEMPERATURE = 0.05


@dataclass(frozen=True)
class Candidate:
    name: str
    sentence_scale: float
    with_ngrams: bool


CANDIDATES = (
    Candidate("e5 sentence vector", 1.0, with_ngrams=False),
    Candidate("char n-grams", 0.0, with_ngrams=True),
    Candidate(f"e5 ×{SENTENCE_SCALE:g} + char n-grams", SENTENCE_SCALE, with_ngrams=True),
)


def decide(probabilities: Floats, thresholds: npt.NDArray[np.floating]) -> npt.NDArray[np.bool_]:
    """The policy: every act at its threshold, else the likeliest one."""
    taken = probabilities >= thresholds
    none = ~taken.any(axis=1)
    taken[none, probabilities[none].argmax(axis=1)] = True
    return taken


def calibration_error(probabilities: Floats, labels: Floats, bins: int = 10) -> float:
    """Expected calibration error over every (message, act) probability: the mean gap
    between the probability said and the frequency seen, per probability bin."""
    p, y = probabilities.ravel(), labels.ravel()
    which = np.minimum((p * bins).astype(int), bins - 1)
    gaps = [
        abs(p[which == b].mean() - y[which == b].mean()) * (which == b).sum()
        for b in range(bins)
        if (which == b).any()
    ]
    return float(sum(gaps) / len(p))


def summary(probabilities: Floats, thresholds: npt.NDArray[np.floating], labels: Floats) -> str:
    predicted, gold = decide(probabilities, thresholds), labels > 0
    per_act = [f1(predicted[:, j], gold[:, j]) for j in range(len(ACTS))]
    exact = float((predicted == gold).all(axis=1).mean())
    ece = calibration_error(probabilities, labels)
    return f"{exact:.3f} | {np.mean(per_act):.3f} | {ece:.3f} | " + " | ".join(
        f"{x:.2f}" for x in per_act
    )


def neighbour_votes(
    train: Floats, train_labels: Floats, queries: Floats, *, exclude_self: bool = False
) -> Floats:
    similarity = queries @ train.T
    if exclude_self:
        np.fill_diagonal(similarity, -np.inf)
    nearest = np.argsort(-similarity, axis=1)[:, :NEIGHBOURS]
    votes = np.zeros((len(queries), train_labels.shape[1]))
    for i, row in enumerate(nearest):
        s = similarity[i, row]
        w = np.exp((s - s.max()) / NEIGHBOUR_TEMPERATURE)
        votes[i] = (w / w.sum()) @ train_labels[row]
    return votes


def embed_all(texts: Sequence[str], label: str, bar: Progress) -> Floats:
    embedder = create_embedder(SENTENCE_MODEL)
    task = bar.add_task(label, total=len(texts))
    rows = []
    for text in texts:
        rows.append(embedder.embed_query(text))
        bar.advance(task)
    return np.stack(rows).astype(np.float64)


def dev_examples() -> list[Example]:
    path = resources.files("cartwise.eval").joinpath("data/acts_dev.jsonl")
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    return [Example(text=r["text"], acts=frozenset(Act(a) for a in r["acts"])) for r in rows]


def main() -> None:
    train = load_examples(training_data_path())
    dev = dev_examples()
    texts, dev_texts = [e.text for e in train], [e.text for e in dev]
    labels, dev_labels = label_matrix(train), label_matrix(dev)
    seen = {t.casefold() for t in texts}
    unseen = np.array([t.casefold() not in seen for t in dev_texts])
    lines = []
    confusion = ""
    with Progress(console=Console(stderr=True)) as bar:
        vectors = embed_all(texts, "embedding training examples", bar)
        dev_vectors = embed_all(dev_texts, "embedding dev", bar)
        fits = bar.add_task("fitting candidates", total=len(CANDIDATES) * 2)
        for candidate in CANDIDATES:
            ngrams = CharNgrams.fit(texts) if candidate.with_ngrams else None
            held_out = out_of_fold_logits(
                texts,
                vectors,
                labels,
                sentence_scale=candidate.sentence_scale,
                with_ngrams=candidate.with_ngrams,
            )
            bar.advance(fits)
            model = fit_act_model(
                texts, vectors, labels, ngrams, sentence_scale=candidate.sentence_scale
            )
            bar.advance(fits)
            calibrated = fit_platt(held_out, labels).probabilities(held_out)
            rows = design(dev_texts, dev_vectors, ngrams, sentence_scale=candidate.sentence_scale)
            dev_p = model.calibration.probabilities(model.linear.logits(rows))
            lines.append(_row(candidate.name, calibrated, labels, dev_p, dev_labels, unseen))
            if candidate is CANDIDATES[-1]:
                confusion = confusion_table(
                    dev_p, dev_labels, np.full(len(ACTS), DECISION_THRESHOLD)
                )
        fold = fold_of(len(texts))
        votes = np.zeros_like(labels)
        for k in range(fold.max() + 1):
            inside, held = fold != k, fold == k
            votes[held] = neighbour_votes(vectors[inside], labels[inside], vectors[held])
        dev_votes = neighbour_votes(vectors, labels, dev_vectors)
        lines.append(_row(f"kNN e5 (k={NEIGHBOURS})", votes, labels, dev_votes, dev_labels, unseen))
    header = " | ".join(act.value for act in ACTS)
    print(f"| model | policy | split | exact | macro F1 | ECE | {header} |")
    print("|---|---|---|---|---|---|" + "---|" * len(ACTS))
    print("\n".join(lines))
    print(f"\nacts dev, {CANDIDATES[-1].name}, the shipped policy:\n\n{confusion}")


def confusion_table(
    probabilities: Floats, labels: Floats, thresholds: npt.NDArray[np.floating]
) -> str:
    """Per gold act (row): how often it was found (the diagonal), which acts the messages
    performing it were wrongly given (off the diagonal: acts they do not perform), and how
    often it was missed."""
    predicted, gold = decide(probabilities, thresholds), labels > 0
    names = [act.value for act in ACTS]
    head = "| gold \\ predicted | " + " | ".join(names) + " | missed |"
    lines = [head, "|---|" + "---:|" * (len(names) + 1)]
    for i, name in enumerate(names):
        rows = gold[:, i]
        # Off the diagonal only wrong acts: predicted for a message that does not perform them.
        counts = [
            int((rows & predicted[:, j] & (gold[:, j] if j == i else ~gold[:, j])).sum())
            for j in range(len(names))
        ]
        missed = int((rows & ~predicted[:, i]).sum())
        lines.append(f"| {name} | " + " | ".join(map(str, counts)) + f" | {missed} |")
    return "\n".join(lines)


def _row(
    name: str,
    held_out: Floats,
    labels: Floats,
    dev: Floats,
    dev_labels: Floats,
    unseen: npt.NDArray[np.bool_],
) -> str:
    """Two policies (0.5; each act's F1-best cut on the cross-validated scores) on three
    splits: the cross-validation, dev, and the dev messages the training file lacks."""
    out = []
    for policy, cuts in (("0.5", np.full(len(ACTS), 0.5)), ("F1-best on CV", None)):
        thresholds = f1_best_thresholds(held_out, labels) if cuts is None else cuts
        for split, p, y in (
            ("CV (5-fold)", held_out, labels),
            ("acts dev", dev, dev_labels),
            (f"acts dev, {int(unseen.sum())} not in train", dev[unseen], dev_labels[unseen]),
        ):
            out.append(f"| {name} | {policy} | {split} | {summary(p, thresholds, y)} |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
