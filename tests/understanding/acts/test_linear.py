"""The act classifier's learning math on tiny synthetic data: a fit that recovers what the
data says, sparse products equal to dense ones, calibration that matches frequencies."""

from __future__ import annotations

import numpy as np

from cartwise.understanding.acts.linear import (
    Columns,
    DenseRows,
    SparseRows,
    f1,
    f1_best_thresholds,
    fit_logistic,
    fit_platt,
    sigmoid,
)


def _sparse(dense: np.ndarray) -> SparseRows:
    rows, columns = np.nonzero(dense)
    pointers = np.searchsorted(rows, np.arange(dense.shape[0] + 1))
    return SparseRows(
        pointers, columns, dense[rows, columns].astype(np.float32), width=dense.shape[1]
    )


def test_sparse_rows_multiply_like_the_dense_matrix() -> None:
    rng = np.random.default_rng(1)
    dense = rng.random((7, 5)) * (rng.random((7, 5)) < 0.4)
    dense[3] = 0.0  # an empty row
    weights, residual = rng.random((5, 3)), rng.random((7, 3))
    rows = _sparse(dense)
    assert np.allclose(rows.dot(weights), dense @ weights, atol=1e-6)
    assert np.allclose(rows.tdot(residual), dense.T @ residual, atol=1e-6)
    both = Columns([DenseRows(dense), rows])
    assert both.shape == (7, 10)
    assert np.allclose(both.dot(np.vstack([weights, weights])), 2 * dense @ weights, atol=1e-6)
    assert np.allclose(both.tdot(residual), np.vstack([dense.T @ residual] * 2), atol=1e-6)


def test_each_label_is_learned_from_its_own_feature() -> None:
    # Label 0 follows feature 0, label 1 follows feature 1; feature 2 is noise.
    rng = np.random.default_rng(2)
    x = rng.standard_normal((400, 3))
    y = np.stack([x[:, 0] > 0, x[:, 1] < 0], axis=1).astype(float)
    model = fit_logistic(DenseRows(x), y, l2=1e-3, iterations=500)
    assert model.weights[0, 0] > 1.0 and model.weights[1, 1] < -1.0
    assert abs(model.weights[2, 0]) < 0.3 * abs(model.weights[0, 0])
    accuracy = ((model.logits(DenseRows(x)) > 0) == (y > 0)).mean()
    assert accuracy > 0.95


def test_the_fit_reaches_the_regularised_optimum() -> None:
    # At the optimum the gradient of mean log loss + l2/2·|W|² is zero.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((200, 4))
    y = (x @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.standard_normal(200) > 0)[:, None].astype(float)
    l2 = 0.01
    model = fit_logistic(DenseRows(x), y, l2=l2, iterations=2000)
    residual = sigmoid(model.logits(DenseRows(x))) - y
    gradient = x.T @ residual / len(x) + l2 * model.weights
    assert np.abs(gradient).max() < 1e-4
    assert abs(residual.mean()) < 1e-4  # the bias's gradient


def test_platt_scaling_turns_overconfident_scores_into_frequencies() -> None:
    # Scores three times too large: the fitted scale undoes it.
    rng = np.random.default_rng(4)
    true_logits = rng.standard_normal(5000) * 2
    y = (rng.random(5000) < sigmoid(true_logits)).astype(float)[:, None]
    calibration = fit_platt(3 * true_logits[:, None], y)
    assert abs(float(calibration.scale[0]) - 1 / 3) < 0.05
    assert abs(float(calibration.shift[0])) < 0.1


def test_thresholds_are_the_f1_best_cut_per_label() -> None:
    p = np.array([[0.9, 0.3], [0.8, 0.35], [0.2, 0.1], [0.1, 0.32]])
    y = np.array([[1, 1], [1, 1], [0, 0], [0, 1]])
    cuts = f1_best_thresholds(p, y, candidates=np.array([0.25, 0.5, 0.85]))
    assert list(cuts) == [0.25, 0.25]


def test_f1_counts_both_kinds_of_error() -> None:
    assert f1(np.array([True, True, False]), np.array([True, False, True])) == 0.5
    assert f1(np.array([False]), np.array([False])) == 1.0
