"""Finite-difference checks of the vanilla RNN's hand-written BPTT (seed 002) and of
gradient clipping by global norm."""

import numpy as np
import pytest

from wordvec.math.gradcheck import check_gradient
from wordvec.math.rnn import init_rnn_params, rnn_backward, rnn_cell_backward, rnn_cell_forward, rnn_forward
from wordvec.math.softmax_ce import (
    IGNORE,
    embedding_backward,
    embedding_forward,
    linear_backward,
    linear_forward,
    softmax_cross_entropy_backward,
    softmax_cross_entropy_forward,
)
from wordvec.models.lm.training import clip_by_global_norm, global_norm

T, B, D, H = 5, 3, 4, 6


def make_problem(seed, activation):
    rng = np.random.default_rng(seed)
    params = init_rnn_params(D, H, rng)
    params["b_a"] += rng.normal(0, 0.1, H)
    X = rng.normal(size=(T, B, D))
    a0 = rng.normal(0, 0.5, size=(B, H))
    if activation == "relu":
        a0 = np.abs(a0)
    R = rng.normal(size=(T, B, H))  # loss = sum(A * R): dJ/dA = R at every step
    return params, X, a0, R


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_rnn_bptt_matches_finite_differences_over_several_steps(activation):
    params, X, a0, R = make_problem(0, activation)
    loss = lambda: float(np.sum(rnn_forward(X, a0, params, activation) * R))  # noqa: E731
    grads = {k: np.zeros_like(v) for k, v in params.items()}
    A = rnn_forward(X, a0, params, activation)
    dX, da0 = rnn_backward(R, X, a0, A, params, grads, activation)
    arrays = dict(params, X=X, a0=a0)
    error = check_gradient(loss, arrays, dict(grads, X=dX, a0=da0))
    print(f"max relative error {error:.2e}")
    assert error < 1e-6


def test_rnn_backward_accumulates_into_buffers():
    """Gradients are added (+=), so two backward passes give twice the gradient."""
    params, X, a0, R = make_problem(1, "tanh")
    A = rnn_forward(X, a0, params)
    once = {k: np.zeros_like(v) for k, v in params.items()}
    rnn_backward(R, X, a0, A, params, once)
    twice = {k: np.zeros_like(v) for k, v in params.items()}
    rnn_backward(R, X, a0, A, params, twice)
    rnn_backward(R, X, a0, A, params, twice)
    for name in params:
        np.testing.assert_allclose(twice[name], 2 * once[name])


def test_rnn_cell_matches_the_seed_formula():
    """a = tanh(W_aa a_prev + W_ax x + b_a) column-wise, as written in seed 002."""
    params, X, a0, _ = make_problem(2, "tanh")
    a = rnn_cell_forward(X[0], a0, params)
    for b in range(B):
        expected = np.tanh(params["W_aa"] @ a0[b] + params["W_ax"] @ X[0][b] + params["b_a"])
        np.testing.assert_allclose(a[b], expected, rtol=1e-12)
    grads = {k: np.zeros_like(v) for k, v in params.items()}
    da = np.ones_like(a)
    rnn_cell_backward(da, X[0], a0, a, params, grads)
    dz = (1 - a * a) * da
    np.testing.assert_allclose(grads["W_aa"], sum(np.outer(dz[b], a0[b]) for b in range(B)))


def test_output_layer_and_embedding_gradients():
    """Seed 003: softmax output and input embedding, with a repeated id and an IGNORE target."""
    rng = np.random.default_rng(3)
    V, N = 7, 6
    E = rng.normal(size=(V, D))
    W = rng.normal(size=(V, D))
    b = rng.normal(size=V)
    ids = np.array([1, 4, 1, 0, 6, 4])
    targets = np.array([2, 2, 5, IGNORE, 0, 3])

    def loss():
        X = embedding_forward(E, ids)
        return softmax_cross_entropy_forward(linear_forward(X, W, b), targets)[0]

    X = embedding_forward(E, ids)
    _, probs, count = softmax_cross_entropy_forward(linear_forward(X, W, b), targets)
    assert count == N - 1
    grads = {"E": np.zeros_like(E), "W": np.zeros_like(W), "b": np.zeros_like(b)}
    dX = linear_backward(softmax_cross_entropy_backward(probs, targets, count), X, W, grads["W"], grads["b"])
    embedding_backward(grads["E"], ids, dX)
    assert check_gradient(loss, {"E": E, "W": W, "b": b}, grads) < 1e-6


def test_clipped_global_norm_equals_the_threshold():
    rng = np.random.default_rng(4)
    grads = {"a": rng.normal(size=(5, 3)) * 10, "b": rng.normal(size=7) * 10}
    direction = {k: v / global_norm(grads) for k, v in grads.items()}
    before = clip_by_global_norm(grads, 1.5)
    assert before > 1.5
    assert global_norm(grads) == pytest.approx(1.5, rel=1e-12)
    for name in grads:  # the direction is kept
        np.testing.assert_allclose(grads[name] / 1.5, direction[name], rtol=1e-10)


def test_clipping_leaves_small_gradients_and_disabled_clipping_alone():
    grads = {"a": np.array([0.3, 0.4])}
    assert clip_by_global_norm(grads, 1.0) == pytest.approx(0.5)
    np.testing.assert_array_equal(grads["a"], [0.3, 0.4])
    big = {"a": np.array([30.0, 40.0])}
    assert clip_by_global_norm(big, 0) == pytest.approx(50.0)
    np.testing.assert_array_equal(big["a"], [30.0, 40.0])
