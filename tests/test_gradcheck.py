"""The gradient checker itself must catch wrong gradients and accept right ones."""

import numpy as np
import pytest

from wordvec.math.gradcheck import check_gradient, numerical_gradient, relative_error


def test_numerical_gradient_of_quadratic_and_restores_array():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(4, 4))
    x = rng.normal(size=4)
    before = x.copy()
    f = lambda: 0.5 * x @ A @ x  # noqa: E731
    g = numerical_gradient(f, x)
    np.testing.assert_allclose(g, 0.5 * (A + A.T) @ x, rtol=1e-8, atol=1e-9)
    assert np.array_equal(x, before)  # perturbations undone exactly


def test_check_gradient_accepts_correct_and_rejects_wrong():
    rng = np.random.default_rng(1)
    W = rng.normal(size=(3, 5))
    v = rng.normal(size=5)
    f = lambda: float(np.sum(np.log1p(np.exp(W @ v))))  # noqa: E731
    s = 1.0 / (1.0 + np.exp(-(W @ v)))
    right = {"W": np.outer(s, v), "v": W.T @ s}
    assert check_gradient(f, {"W": W, "v": v}, right) < 1e-6
    wrong = {"W": right["W"].copy(), "v": right["v"]}
    wrong["W"][1, 2] *= 1.01  # a 1% error in one entry
    assert check_gradient(f, {"W": W, "v": v}, wrong) > 1e-3
    dropped = {"W": right["W"], "v": np.zeros(5)}
    assert check_gradient(f, {"W": W, "v": v}, dropped) > 0.5


def test_relative_error_floor_and_zero():
    assert relative_error(np.zeros(3), np.zeros(3)) == 0.0
    # a tiny entry is judged against 0.1% of the largest one, not its own size
    assert relative_error(np.array([1.0, 1e-12]), np.array([1.0, 2e-12])) < 1e-8
    assert relative_error(np.array([1.0, 0.0]), np.array([1.0, 0.5])) > 0.5


def test_rejects_bad_inputs():
    with pytest.raises(TypeError):
        numerical_gradient(lambda: 0.0, np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError):
        check_gradient(lambda: 0.0, {"a": np.zeros(2)}, {"b": np.zeros(2)})
    with pytest.raises(ValueError):
        relative_error(np.zeros(2), np.zeros(3))
