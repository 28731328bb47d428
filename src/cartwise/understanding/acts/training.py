"""Training the act classifier from its data file: read the labelled examples, fit the
models, calibrate them on cross-validated scores, choose the thresholds.

`scripts/train_acts.py` runs this at build time and writes the weights beside the data
(`model.weights_path`); a test fails when the data changed after the weights were written.

Calibration and thresholds come from out-of-fold scores: `FOLDS` models, each fitted
without one fold, score that fold; Platt scaling is fitted on those scores, and each act's
threshold is the one with the best F1 on them. The shipped linear model is then fitted on
every example. Chosen by cross-validation of the training file and measured on a dev set
(docs/reports/acts.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cartwise.errors import InvalidInput
from cartwise.understanding.acts.act import ACTS, Act
from cartwise.understanding.acts.features import CharNgrams
from cartwise.understanding.acts.linear import (
    Columns,
    DenseRows,
    Design,
    f1_best_thresholds,
    fit_logistic,
    fit_platt,
)
from cartwise.understanding.acts.model import ActModel, ActWeights

TRAINING_DATA = "data/acts_train.jsonl"
FOLDS = 5
SENTENCE_SCALE = 2.0
"""Sentence vectors are multiplied by this before joining the n-grams (both are unit
vectors): the weight of meaning against surface, chosen by cross-validation."""
L2 = 1e-5
"""Ridge penalty of the logistic regressions, chosen by cross-validation."""
ITERATIONS = 1500


@dataclass(frozen=True)
class Example:
    """One labelled message."""

    text: str
    acts: frozenset[Act]


def training_data_path() -> Path:
    return Path(str(resources.files("cartwise.understanding.acts").joinpath(TRAINING_DATA)))


def data_digest(path: Path) -> str:
    """Identifies a data file's content (the shipped weights record it)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def load_examples(path: Path) -> list[Example]:
    """The labelled messages of a JSONL file: {"text": ..., "acts": [...]} per line."""
    examples = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            acts = frozenset(Act(name) for name in row["acts"])
            text = str(row["text"])
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidInput(f"{path}:{number}: not a labelled message ({exc})") from exc
        if not acts or not text.strip():
            raise InvalidInput(f"{path}:{number}: a labelled message needs text and acts")
        examples.append(Example(text=text, acts=acts))
    return examples


def label_matrix(examples: Sequence[Example]) -> npt.NDArray[np.float64]:
    """(n, acts) of 0/1, columns in `ACTS` order."""
    return np.array([[act in e.acts for act in ACTS] for e in examples], np.float64)


def design(
    texts: Sequence[str],
    sentences: npt.NDArray[np.floating] | None,
    ngrams: CharNgrams | None,
    *,
    sentence_scale: float,
) -> Design:
    """The feature rows of a model: sentence vectors × `sentence_scale` (none when 0), then
    the n-grams of `ngrams` (none when None)."""
    parts: list[Design] = []
    if sentence_scale > 0:
        if sentences is None:
            raise ValueError("sentence features need sentence vectors")
        parts.append(DenseRows(np.asarray(sentences) * sentence_scale))
    if ngrams is not None:
        parts.append(ngrams.rows(texts))
    if not parts:
        raise ValueError("a model reads sentence vectors, n-grams or both")
    return Columns(parts)


def fold_of(count: int, folds: int = FOLDS) -> npt.NDArray[np.intp]:
    """Each example's fold: a fixed shuffle, so every run splits alike."""
    order = np.random.default_rng(0).permutation(count)
    fold = np.empty(count, np.intp)
    for k, members in enumerate(np.array_split(order, folds)):
        fold[members] = k
    return fold


def out_of_fold_logits(
    texts: Sequence[str],
    sentences: npt.NDArray[np.floating] | None,
    labels: npt.NDArray[np.float64],
    *,
    sentence_scale: float,
    with_ngrams: bool = True,
    l2: float = L2,
    iterations: int = ITERATIONS,
    folds: int = FOLDS,
    progress: Callable[[], None] = lambda: None,
) -> npt.NDArray[np.float64]:
    """Every example's logits from the model fitted without its fold (n-gram vocabulary
    included: an n-gram seen only in the held-out fold is unknown to its model)."""
    fold = fold_of(len(texts), folds)
    logits = np.zeros_like(labels)
    for k in range(folds):
        train, held = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        ngrams = CharNgrams.fit([texts[int(i)] for i in train]) if with_ngrams else None

        def rows(index: npt.NDArray[np.intp], ngrams: CharNgrams | None = ngrams) -> Design:
            vectors = None if sentences is None else np.asarray(sentences)[index]
            chosen = [texts[int(i)] for i in index]
            return design(chosen, vectors, ngrams, sentence_scale=sentence_scale)

        model = fit_logistic(rows(train), labels[train], l2=l2, iterations=iterations)
        logits[held] = model.logits(rows(held))
        progress()
    return logits


def fit_act_model(
    texts: Sequence[str],
    sentences: npt.NDArray[np.floating] | None,
    labels: npt.NDArray[np.float64],
    ngrams: CharNgrams | None,
    *,
    sentence_scale: float,
    l2: float = L2,
    iterations: int = ITERATIONS,
    folds: int = FOLDS,
    progress: Callable[[], None] = lambda: None,
) -> ActModel:
    """A model fitted on every example, calibrated and cut on out-of-fold scores; it reads
    n-grams when `ngrams` (the vocabulary of every example) is given."""
    held_out = out_of_fold_logits(
        texts,
        sentences,
        labels,
        sentence_scale=sentence_scale,
        with_ngrams=ngrams is not None,
        l2=l2,
        iterations=iterations,
        folds=folds,
        progress=progress,
    )
    calibration = fit_platt(held_out, labels)
    thresholds = f1_best_thresholds(calibration.probabilities(held_out), labels)
    rows = design(texts, sentences, ngrams, sentence_scale=sentence_scale)
    linear = fit_logistic(rows, labels, l2=l2, iterations=iterations)
    progress()
    return ActModel(
        sentence_scale=sentence_scale,
        linear=linear,
        calibration=calibration,
        thresholds=thresholds,
        reads_ngrams=ngrams is not None,
    )


def train_weights(
    examples: Sequence[Example],
    sentences: npt.NDArray[np.floating],
    *,
    model: str,
    digest: str,
    progress: Callable[[], None] = lambda: None,
) -> ActWeights:
    """Both shipped models from the examples and their sentence vectors (`model`'s query
    vectors, one row per example)."""
    texts = [e.text for e in examples]
    labels = label_matrix(examples)
    ngrams = CharNgrams.fit(texts)
    return ActWeights(
        model=model,
        digest=digest,
        ngrams=ngrams,
        sentence=fit_act_model(
            texts, sentences, labels, ngrams, sentence_scale=SENTENCE_SCALE, progress=progress
        ),
        surface=fit_act_model(texts, None, labels, ngrams, sentence_scale=0.0, progress=progress),
    )
