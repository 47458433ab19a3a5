"""Finite-difference checks of the hand-written attention gradients (seed 002,
"Attention variants" and "Self-Attention"), and the look-ahead mask: no gradient, and
no influence, flows from future positions."""

import numpy as np
import pytest

from wordvec.math.gradcheck import check_gradient
from wordvec.math.attention import (
    BLOCK_PARAMS,
    SCORES,
    attention_backward,
    attention_forward,
    attention_softmax_backward,
    attention_softmax_forward,
    causal_mask,
    causal_self_attention_backward,
    causal_self_attention_forward,
    feed_forward_backward,
    feed_forward_forward,
    init_block_params,
    init_score_params,
    layer_norm_backward,
    layer_norm_forward,
    position_backward,
    position_forward,
    transformer_block_backward,
    transformer_block_forward,
    weighted_sum_backward,
    weighted_sum_forward,
)

B, N, T, D, F = 3, 5, 4, 6, 7


def zero_grads(params):
    return {k: np.zeros_like(v) for k, v in params.items()}


@pytest.mark.parametrize("kind", sorted(SCORES))
def test_scores_match_the_seed_formulas(kind):
    rng = np.random.default_rng(0)
    d, M = 4, 2
    params = init_score_params(kind, d, d, 3, rng)
    s, H = rng.normal(size=(B, M, d)), rng.normal(size=(B, N, d))
    e, _ = SCORES[kind][0](s, H, params)
    for b in range(B):
        for m in range(M):
            for i in range(N):
                if kind == "dot":
                    expected = s[b, m] @ H[b, i]
                elif kind == "multiplicative":
                    expected = s[b, m] @ params["W"] @ H[b, i]
                else:
                    expected = params["v"] @ np.tanh(params["W1"] @ H[b, i] + params["W2"] @ s[b, m])
                assert e[b, m, i] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kind", sorted(SCORES))
@pytest.mark.parametrize("M", [1, 3])
def test_attention_step_gradients_match_finite_differences(kind, M):
    rng = np.random.default_rng(1)
    d1 = 4
    d2 = d1 if kind == "dot" else 3  # dot-product attention needs d1 = d2 (seed 002)
    params = init_score_params(kind, d1, d2, 5, rng)
    s, H = rng.normal(size=(B, M, d2)), rng.normal(size=(B, N, d1))
    allowed = np.arange(N)[None, :] <= np.arange(M)[:, None] + 1  # query m sees states 0..m+1
    R = rng.normal(size=(B, M, d1))  # loss = sum(a * R)
    a, alpha, cache = attention_forward(s, H, params, kind, allowed)
    np.testing.assert_allclose(alpha.sum(axis=2), 1.0)
    assert np.all(alpha[:, ~allowed] == 0.0)
    np.testing.assert_allclose(a, np.einsum("bmn,bnd->bmd", alpha, H))
    grads = zero_grads(params)
    ds, dH = attention_backward(R, params, grads, cache)
    loss = lambda: float(np.sum(attention_forward(s, H, params, kind, allowed)[0] * R))  # noqa: E731
    error = check_gradient(loss, dict(params, s=s, H=H), dict(grads, s=ds, H=dH))
    print(f"{kind}, {M} queries: max relative error {error:.2e}")
    assert error < 1e-6


def test_softmax_and_weighted_sum_gradients_with_a_mask():
    rng = np.random.default_rng(2)
    e, values = rng.normal(size=(B, T, T)), rng.normal(size=(B, T, D))
    R = rng.normal(size=(B, T, D))
    allowed = causal_mask(T)

    def loss():
        return float(np.sum(weighted_sum_forward(attention_softmax_forward(e, allowed), values) * R))

    alpha = attention_softmax_forward(e, allowed)
    assert np.all(alpha[:, ~allowed] == 0.0)
    dalpha, dvalues = weighted_sum_backward(R, alpha, values)
    de = attention_softmax_backward(dalpha, alpha)
    assert np.all(de[:, ~allowed] == 0.0)  # masked scores get exactly no gradient
    assert check_gradient(loss, {"e": e, "values": values}, {"e": de, "values": dvalues}) < 1e-6


def test_causal_self_attention_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    params = {k: rng.normal(0, 0.5, (D, D)) for k in ("W_q", "W_k", "W_v")}
    X, R = rng.normal(size=(B, T, D)), rng.normal(size=(B, T, D))
    out, cache = causal_self_attention_forward(X, params)
    grads = zero_grads(params)
    dX = causal_self_attention_backward(R, params, grads, cache)
    loss = lambda: float(np.sum(causal_self_attention_forward(X, params)[0] * R))  # noqa: E731
    error = check_gradient(loss, dict(params, X=X), dict(grads, X=dX))
    print(f"self-attention: max relative error {error:.2e}")
    assert error < 1e-6


def test_self_attention_matches_the_seed_equations_one_query_at_a_time():
    rng = np.random.default_rng(4)
    params = {k: rng.normal(0, 0.5, (D, D)) for k in ("W_q", "W_k", "W_v")}
    X = rng.normal(size=(1, T, D))
    out, _ = causal_self_attention_forward(X, params)
    x = X[0]
    for i in range(T):  # only keys 0..i exist for query i: the mask done the slow way
        q = params["W_q"] @ x[i]
        e = np.array([q @ (params["W_k"] @ x[j]) for j in range(i + 1)]) / np.sqrt(D)
        alpha = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
        expected = sum(alpha[j] * (params["W_v"] @ x[j]) for j in range(i + 1))
        np.testing.assert_allclose(out[0, i], expected, rtol=1e-12, atol=1e-12)


def test_no_gradient_and_no_influence_flows_from_future_positions():
    """Loss on position t only: the gradient into every input x_j with j > t is exactly
    zero, and changing those inputs leaves outputs 0..t unchanged, through a whole block."""
    rng = np.random.default_rng(5)
    params = init_block_params(D, F, rng)
    X = rng.normal(size=(B, T, D))
    for t in range(T):
        R = np.zeros((B, T, D))
        R[:, t] = rng.normal(size=(B, D))
        Y, cache = transformer_block_forward(X, params)
        dX = transformer_block_backward(R, params, zero_grads(params), cache)
        assert np.all(dX[:, t + 1 :] == 0.0)
        assert np.all(np.abs(dX[:, : t + 1]).sum(axis=2) > 0.0)
        changed = X.copy()
        changed[:, t + 1 :] += rng.normal(size=changed[:, t + 1 :].shape)
        np.testing.assert_array_equal(transformer_block_forward(changed, params)[0][:, : t + 1], Y[:, : t + 1])


def test_feed_forward_gradients_match_finite_differences():
    rng = np.random.default_rng(6)
    params = {"W_1": rng.normal(size=(F, D)), "b_1": rng.normal(size=F),
              "W_2": rng.normal(size=(D, F)), "b_2": rng.normal(size=D)}
    X, R = rng.normal(size=(B * T, D)), rng.normal(size=(B * T, D))
    Y, cache = feed_forward_forward(X, params)
    grads = zero_grads(params)
    dX = feed_forward_backward(R, params, grads, cache)
    loss = lambda: float(np.sum(feed_forward_forward(X, params)[0] * R))  # noqa: E731
    assert check_gradient(loss, dict(params, X=X), dict(grads, X=dX)) < 1e-6


def test_layer_norm_gradients_match_finite_differences_and_output_is_normalised():
    rng = np.random.default_rng(7)
    X, R = rng.normal(1.0, 2.0, size=(B, T, D)), rng.normal(size=(B, T, D))
    g, b = rng.normal(size=D), rng.normal(size=D)
    Y, cache = layer_norm_forward(X, np.ones(D), np.zeros(D))
    np.testing.assert_allclose(Y.mean(axis=-1), 0.0, atol=1e-12)
    np.testing.assert_allclose(Y.var(axis=-1), 1.0, rtol=1e-4)  # eps = 1e-5 against variance ~4
    Y, cache = layer_norm_forward(X, g, b)
    dg, db = np.zeros(D), np.zeros(D)
    dX = layer_norm_backward(R, g, dg, db, cache)
    loss = lambda: float(np.sum(layer_norm_forward(X, g, b)[0] * R))  # noqa: E731
    assert check_gradient(loss, {"X": X, "g": g, "b": b}, {"X": dX, "g": dg, "b": db}) < 1e-6


def test_position_vectors_gradient():
    rng = np.random.default_rng(8)
    X, P, R = rng.normal(size=(B, T, D)), rng.normal(size=(T + 2, D)), rng.normal(size=(B, T, D))
    dP = np.zeros_like(P)
    position_backward(dP, R)
    loss = lambda: float(np.sum(position_forward(X, P) * R))  # noqa: E731
    assert check_gradient(loss, {"P": P}, {"P": dP}) < 1e-6
    assert np.all(dP[T:] == 0.0)  # positions beyond the sequence are not used


def test_transformer_block_gradients_match_finite_differences():
    rng = np.random.default_rng(9)
    params = init_block_params(D, F, rng, n_blocks=2)
    assert set(params) == set(BLOCK_PARAMS)
    for name in params:  # move gains and biases away from 1 and 0
        params[name] += rng.normal(0, 0.2, params[name].shape)
    X, R = rng.normal(size=(B, T, D)), rng.normal(size=(B, T, D))
    Y, cache = transformer_block_forward(X, params)
    grads = zero_grads(params)
    dX = transformer_block_backward(R, params, grads, cache)
    loss = lambda: float(np.sum(transformer_block_forward(X, params)[0] * R))  # noqa: E731
    error = check_gradient(loss, dict(params, X=X), dict(grads, X=dX))
    print(f"transformer block: max relative error {error:.2e}")
    assert error < 1e-6
