"""The learning math of the act classifier, in numpy: one-vs-rest logistic regression,
Platt calibration of its scores, and the threshold policy's F1-best cut.

Each act is an independent binary decision (a message may perform several), so the model
is one logistic regression per act, fitted together as one matrix. The loss is convex; it
is minimised by Nesterov-accelerated full-batch gradient descent with the step set from
the gradient's Lipschitz bound, which needs no tuning and gives the same weights on every
run. Raw logistic scores of a regularised model are not probabilities of being right, so
each act's score is mapped through a sigmoid fitted on held-out (cross-validated) scores
(Platt scaling); the thresholds are then read on the calibrated scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

POWER_ITERATIONS = 30
"""Iterations of the power method that bounds the loss curvature (the step size)."""


def sigmoid(z: npt.NDArray[np.floating]) -> Floats:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, np.float64))))


class Design(Protocol):
    """Training rows (n, d) through the two products gradient descent needs."""

    @property
    def shape(self) -> tuple[int, int]: ...

    def dot(self, weights: Floats) -> Floats:
        """rows @ weights, (n, k)."""
        ...

    def tdot(self, residual: Floats) -> Floats:
        """rows.T @ residual, (d, k)."""
        ...


class DenseRows:
    """A dense matrix as a `Design` (sentence vectors)."""

    def __init__(self, rows: npt.NDArray[np.floating]) -> None:
        self._rows = np.asarray(rows, np.float64)
        self.shape: tuple[int, int] = (self._rows.shape[0], self._rows.shape[1])

    def dot(self, weights: Floats) -> Floats:
        return np.asarray(self._rows @ weights)

    def tdot(self, residual: Floats) -> Floats:
        return np.asarray(self._rows.T @ residual)


class SparseRows:
    """Feature rows in compressed-row form, with the two products training needs. A message
    has ~150 of ~10,000 n-grams: dense rows would make each gradient step 60 times slower."""

    def __init__(
        self,
        pointers: npt.NDArray[np.intp],
        columns: npt.NDArray[np.intp],
        values: npt.NDArray[np.float32],
        *,
        width: int,
    ) -> None:
        self.shape = (len(pointers) - 1, width)
        self._row_of = np.repeat(np.arange(self.shape[0]), np.diff(pointers))
        self._columns = columns
        self._values = values.astype(np.float64)
        self._by_column = np.argsort(columns, kind="stable")

    def dot(self, weights: Floats) -> Floats:
        """rows @ weights, (n, k)."""
        out = np.zeros((self.shape[0], weights.shape[1]))
        contributions = self._values[:, None] * weights[self._columns]
        _segment_sum(out, self._row_of, contributions)
        return out

    def tdot(self, residual: Floats) -> Floats:
        """rows.T @ residual, (width, k)."""
        out = np.zeros((self.shape[1], residual.shape[1]))
        order = self._by_column
        contributions = self._values[order, None] * residual[self._row_of[order]]
        _segment_sum(out, self._columns[order], contributions)
        return out


def _segment_sum(out: Floats, keys: npt.NDArray[np.intp], values: Floats) -> None:
    """out[key] += the values of that key; `keys` sorted. np.add.at is ~20 times slower."""
    if len(keys) == 0:
        return
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    out[keys[starts]] += np.add.reduceat(values, starts, axis=0)


class Columns:
    """Designs side by side: the columns of the first, then of the next."""

    def __init__(self, parts: Sequence[Design]) -> None:
        self._parts = list(parts)
        self._edges = np.cumsum([0] + [part.shape[1] for part in self._parts])
        self.shape: tuple[int, int] = (self._parts[0].shape[0], int(self._edges[-1]))

    def dot(self, weights: Floats) -> Floats:
        return np.asarray(
            sum(
                part.dot(weights[start:end])
                for part, start, end in zip(self._parts, self._edges, self._edges[1:], strict=False)
            )
        )

    def tdot(self, residual: Floats) -> Floats:
        return np.vstack([part.tdot(residual) for part in self._parts])


@dataclass(frozen=True)
class LinearModel:
    """Weights `(features, acts)` and biases `(acts,)`: logits = x @ weights + bias."""

    weights: npt.NDArray[np.float32]
    bias: npt.NDArray[np.float32]

    def logits(self, rows: Design) -> Floats:
        return rows.dot(self.weights.astype(np.float64)) + self.bias


def _largest_singular_value_squared(rows: Design) -> float:
    """|X|₂² of X with a column of ones appended (the bias), by the power method."""
    rng = np.random.default_rng(0)
    v = rng.standard_normal((rows.shape[1] + 1, 1))
    norm = 1.0
    for _ in range(POWER_ITERATIONS):
        image = rows.dot(v[:-1]) + v[-1]
        v = np.vstack([rows.tdot(image), image.sum(keepdims=True)])
        norm = float(np.linalg.norm(v))
        v /= norm
    return norm


def fit_logistic(
    rows: Design,
    labels: npt.NDArray[np.floating],
    *,
    l2: float,
    iterations: int = 400,
) -> LinearModel:
    """One logistic regression per label column, minimising mean log loss + l2/2·|W|²
    (the bias is not regularised). `rows` (n, d), `labels` (n, k) of 0/1."""
    y = np.asarray(labels, np.float64)
    n, d = rows.shape
    step = 1.0 / (_largest_singular_value_squared(rows) / (4.0 * n) + l2)
    weights = previous_weights = np.zeros((d, y.shape[1]))
    bias = previous_bias = np.zeros(y.shape[1])
    for t in range(1, iterations + 1):
        momentum = (t - 1) / (t + 2)
        look_weights = weights + momentum * (weights - previous_weights)
        look_bias = bias + momentum * (bias - previous_bias)
        residual = (sigmoid(rows.dot(look_weights) + look_bias) - y) / n
        previous_weights, previous_bias = weights, bias
        weights = look_weights - step * (rows.tdot(residual) + l2 * look_weights)
        bias = look_bias - step * residual.sum(axis=0)
    return LinearModel(weights=weights.astype(np.float32), bias=bias.astype(np.float32))


@dataclass(frozen=True)
class Calibration:
    """Per-act Platt scaling: probability = sigmoid(scale · logit + shift)."""

    scale: npt.NDArray[np.float32]
    shift: npt.NDArray[np.float32]

    def probabilities(self, logits: npt.NDArray[np.floating]) -> Floats:
        return sigmoid(np.asarray(logits) * self.scale + self.shift)

    @classmethod
    def identity(cls, acts: int) -> Calibration:
        return cls(scale=np.ones(acts, np.float32), shift=np.zeros(acts, np.float32))


def fit_platt(logits: npt.NDArray[np.floating], labels: npt.NDArray[np.floating]) -> Calibration:
    """Platt's fit per column on held-out logits, with his smoothed targets (a label seen
    N times counts as (N+1)/(N+2)) so a perfectly separated column does not get an infinite
    scale. Newton's method on the two parameters."""
    z_all = np.asarray(logits, np.float64)
    y_all = np.asarray(labels, np.float64)
    scales, shifts = [], []
    for column in range(z_all.shape[1]):
        z, y = z_all[:, column], y_all[:, column]
        positives = y.sum()
        negatives = len(y) - positives
        target = np.where(y > 0, (positives + 1) / (positives + 2), 1 / (negatives + 2))
        params = np.zeros(2)
        for _ in range(100):
            p = sigmoid(params[0] * z + params[1])
            r = p - target
            w = p * (1 - p) + 1e-12
            gradient = np.array([r @ z, r.sum()])
            hessian = np.array([[w @ (z * z), w @ z], [w @ z, w.sum()]]) + 1e-9 * np.eye(2)
            delta = np.linalg.solve(hessian, gradient)
            # Newton's step can overshoot on a logistic loss: halve it until the loss drops.
            step = 1.0
            while step > 1e-6 and _log_loss(params - step * delta, z, target) > _log_loss(
                params, z, target
            ):
                step /= 2
            params = params - step * delta
            if np.abs(step * delta).max() < 1e-9:
                break
        a, b = float(params[0]), float(params[1])
        scales.append(a)
        shifts.append(b)
    return Calibration(scale=np.array(scales, np.float32), shift=np.array(shifts, np.float32))


def _log_loss(params: Floats, z: Floats, target: Floats) -> float:
    logits = params[0] * z + params[1]
    # log(1 + e^x) - t·x, computed without overflow
    return float(np.sum(np.logaddexp(0.0, logits) - target * logits))


def f1_best_thresholds(
    probabilities: npt.NDArray[np.floating],
    labels: npt.NDArray[np.floating],
    *,
    candidates: npt.NDArray[np.floating] | None = None,
) -> npt.NDArray[np.float32]:
    """Per column, the cut on held-out probabilities with the best F1 (the lowest such
    cut on ties, so a rare act is not lost to a cautious threshold)."""
    grid = np.arange(0.05, 0.951, 0.05) if candidates is None else np.asarray(candidates)
    p_all = np.asarray(probabilities)
    y_all = np.asarray(labels) > 0
    best = []
    for column in range(p_all.shape[1]):
        p, y = p_all[:, column], y_all[:, column]
        scores = [f1(p >= cut, y) for cut in grid]
        best.append(grid[int(np.argmax(scores))])
    return np.array(best, np.float32)


def f1(predicted: npt.NDArray[np.bool_], actual: npt.NDArray[np.bool_]) -> float:
    """F1 of one binary decision (1.0 when neither side has a positive)."""
    true_positive = float(np.sum(predicted & actual))
    denominator = float(np.sum(predicted) + np.sum(actual))
    return 1.0 if denominator == 0 else 2.0 * true_positive / denominator
