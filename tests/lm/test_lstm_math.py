"""Finite-difference checks of the LSTM cell's hand-written gradients (seed 002,
"LSTM Recursive Formulation") over several time steps, through both a and c."""

import numpy as np

from wordvec.math.gradcheck import check_gradient
from wordvec.math.lstm import init_lstm_params, lstm_backward, lstm_cell_backward, lstm_cell_forward, lstm_forward, sigmoid

T, B, D, H = 4, 3, 5, 4


def make_problem(seed):
    rng = np.random.default_rng(seed)
    params = init_lstm_params(D, H, rng)
    params["W"] *= 2.0  # gates away from 0.5 so every term matters
    params["b"] += rng.normal(0, 0.3, 4 * H)
    X = rng.normal(size=(T, B, D))
    a0, c0 = rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H))
    RA, RC = rng.normal(size=(T, B, H)), rng.normal(size=(B, H))
    return params, X, a0, c0, RA, RC


def test_lstm_bptt_matches_finite_differences_over_several_steps():
    params, X, a0, c0, RA, RC = make_problem(0)

    def loss():  # depends on every a<t> and on the final cell c<T>
        A, c, _ = lstm_forward(X, a0, c0, params)
        return float(np.sum(A * RA) + np.sum(c * RC))

    A, c, caches = lstm_forward(X, a0, c0, params)
    grads = {k: np.zeros_like(v) for k, v in params.items()}
    # the final cell's gradient enters as dc at the last step
    RA_last = RA.copy()
    da_next, dc_next = np.zeros((B, H)), RC.copy()
    dX = np.empty_like(X)
    for t in reversed(range(T)):
        da_next, dc_next, dX[t] = lstm_cell_backward(RA_last[t] + da_next, dc_next, caches[t], params, grads)
    error = check_gradient(loss, dict(params, X=X, a0=a0, c0=c0), dict(grads, X=dX, a0=da_next, c0=dc_next))
    print(f"max relative error {error:.2e}")
    assert error < 1e-6


def test_lstm_backward_sequence_equals_cell_loop():
    params, X, a0, c0, RA, _ = make_problem(1)
    A, c, caches = lstm_forward(X, a0, c0, params)
    grads = {k: np.zeros_like(v) for k, v in params.items()}
    dX, da0, dc0 = lstm_backward(RA, caches, params, grads)

    def loss():
        return float(np.sum(lstm_forward(X, a0, c0, params)[0] * RA))

    assert check_gradient(loss, dict(params, X=X, a0=a0, c0=c0), dict(grads, X=dX, a0=da0, c0=dc0)) < 1e-6


def test_lstm_cell_matches_the_seed_equations():
    params, X, a0, c0, _, _ = make_problem(2)
    a, c, _ = lstm_cell_forward(X[0], a0, c0, params)
    W, b = params["W"], params["b"]
    for k in range(B):
        s = np.concatenate([a0[k], X[0][k]])
        f = sigmoid(W[:H] @ s + b[:H])
        i = sigmoid(W[H : 2 * H] @ s + b[H : 2 * H])
        c_tilde = np.tanh(W[2 * H : 3 * H] @ s + b[2 * H : 3 * H])
        o = sigmoid(W[3 * H :] @ s + b[3 * H :])
        np.testing.assert_allclose(c[k], f * c0[k] + i * c_tilde, rtol=1e-12)
        np.testing.assert_allclose(a[k], o * np.tanh(c[k]), rtol=1e-12)


def test_forget_gate_bias_starts_at_one():
    params = init_lstm_params(D, H, np.random.default_rng(0))
    np.testing.assert_array_equal(params["b"][:H], 1.0)
    np.testing.assert_array_equal(params["b"][H:], 0.0)
