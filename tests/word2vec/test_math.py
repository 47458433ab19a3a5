"""Reference word2vec gradients against central finite differences (float64)."""

import numpy as np
import pytest

from wordvec.math.gradcheck import check_gradient
from wordvec.math import word2vec as w2v

V, D = 7, 5
TOLERANCE = 1e-6


def _params(seed, inner=False):
    rng = np.random.default_rng(seed)
    W_in = rng.normal(scale=0.7, size=(V, D))
    W_out = rng.normal(scale=0.7, size=(V - 1 if inner else V, D))
    return W_in, W_out


def _check(fn, W_in, W_out, *args, **kwargs):
    loss, dW_in, dW_out = fn(W_in, W_out, *args, **kwargs)
    assert np.isfinite(loss) and loss > 0
    error = check_gradient(
        lambda: fn(W_in, W_out, *args, **kwargs)[0],
        {"W_in": W_in, "W_out": W_out},
        {"W_in": dW_in, "W_out": dW_out},
    )
    assert error < TOLERANCE, error
    return loss, dW_in, dW_out


PATH_POINTS = np.array([5, 2, 0, 3])
PATH_CODES = np.array([1, 0, 0, 1], dtype=np.uint8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_skipgram_softmax(seed):
    _check(w2v.skipgram_softmax, *_params(seed), 3, 4)


@pytest.mark.parametrize(
    "negatives",
    [[1, 5, 6], [4, 2, 0], [2, 2, 5], [4, 4, 4]],  # plain, target drawn, repeated, both
)
def test_skipgram_negative_sampling(negatives):
    _check(w2v.skipgram_negative_sampling, *_params(3), 3, 4, np.array(negatives))


def test_skipgram_hierarchical_softmax():
    _check(w2v.skipgram_hierarchical_softmax, *_params(4, inner=True), 1, PATH_POINTS, PATH_CODES)


@pytest.mark.parametrize("mean", [True, False])
@pytest.mark.parametrize("context", [[0, 2, 5, 6], [1, 1, 3, 1]])  # distinct, repeated
def test_cbow_all_outputs(mean, context):
    context = np.array(context)
    _check(w2v.cbow_softmax, *_params(5), context, 4, mean=mean)
    _check(w2v.cbow_negative_sampling, *_params(6), context, 4, np.array([4, 0, 0]), mean=mean)
    _check(w2v.cbow_hierarchical_softmax, *_params(7, inner=True), context, PATH_POINTS, PATH_CODES, mean=mean)


def test_losses_match_direct_formulas():
    W_in, W_out = _params(8)
    h = W_in[2]
    p = np.exp(W_out @ h) / np.exp(W_out @ h).sum()
    assert w2v.skipgram_softmax(W_in, W_out, 2, 5)[0] == pytest.approx(-np.log(p[5]), rel=1e-12)
    s = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    expected = -np.log(s(W_out[5] @ h)) - np.log(s(-W_out[1] @ h)) - np.log(s(-W_out[5] @ h))
    assert w2v.skipgram_negative_sampling(W_in, W_out, 2, 5, [1, 5])[0] == pytest.approx(expected, rel=1e-12)
    # mean vs sum of context: the mean's input gradient is the sum's divided by C
    ctx = np.array([0, 3, 3])
    _, g_mean, _ = w2v.cbow_negative_sampling(W_in, W_out / 3.0, ctx, 1, [2], mean=True)
    _, g_sum, _ = w2v.cbow_negative_sampling(W_in / 1.0, W_out / 9.0, ctx, 1, [2], mean=False)
    assert np.all(np.isfinite(g_mean)) and np.all(np.isfinite(g_sum))


def test_hierarchical_softmax_is_a_distribution():
    """Over a complete tree, the path probabilities of all leaves sum to 1."""
    # tree over 4 leaves: root 0 -> (1, 2); codes pick the branch at each node
    paths = {0: ([0, 1], [0, 0]), 1: ([0, 1], [0, 1]), 2: ([0, 2], [1, 0]), 3: ([0, 2], [1, 1])}
    rng = np.random.default_rng(9)
    W_in, W_inner = rng.normal(size=(4, 3)), rng.normal(size=(3, 3))
    total = sum(np.exp(-w2v.skipgram_hierarchical_softmax(W_in, W_inner, 0, p, c)[0]) for p, c in paths.values())
    assert total == pytest.approx(1.0, rel=1e-12)


def test_log_sigmoid_is_stable_and_exact():
    x = np.array([-800.0, -30.0, 0.0, 30.0, 800.0])
    ls = w2v.log_sigmoid(x)
    assert np.all(np.isfinite(ls))
    assert ls[0] == pytest.approx(-800.0) and ls[2] == pytest.approx(-np.log(2.0))
    assert ls[3] == pytest.approx(-np.exp(-30.0), rel=1e-10)  # saturated term kept, not 0


def test_sgd_step_is_minus_alpha_gradient():
    W_in, W_out = _params(10)
    loss, dW_in, dW_out = w2v.skipgram_negative_sampling(W_in, W_out, 1, 2, [3, 4])
    new_in, new_out = w2v.sgd_step([W_in, W_out], [dW_in, dW_out], 0.01)
    assert np.allclose(new_in, W_in - 0.01 * dW_in) and np.allclose(new_out, W_out - 0.01 * dW_out)
    assert w2v.skipgram_negative_sampling(new_in, new_out, 1, 2, [3, 4])[0] < loss  # descent


def test_cbow_step_gives_each_context_row_the_hidden_gradient():
    W_in, W_out = _params(11)
    context = np.array([0, 2, 2])
    for mean in (True, False):
        loss, dW_in, dW_out = w2v.cbow_negative_sampling(W_in, W_out, context, 4, [1, 3], mean=mean)
        new_in, new_out = w2v.cbow_step(W_in, W_out, context, (dW_in, dW_out), 0.1, mean=mean)
        h = W_in[context].mean(axis=0) if mean else W_in[context].sum(axis=0)
        _, dh, _ = w2v.negative_sampling_output(h, W_out, 4, [1, 3])
        np.testing.assert_allclose(new_in[0] - W_in[0], -0.1 * dh, rtol=1e-12)
        np.testing.assert_allclose(new_in[2] - W_in[2], -0.2 * dh, rtol=1e-12)  # twice in the context
        np.testing.assert_allclose(new_out, W_out - 0.1 * dW_out, rtol=1e-12)


# -- skip-gram, one window at a time (batched=True) -------------------------------------

WINDOW_INPUTS = [[0, 2, 5, 6], [1, 1, 3, 1]]  # distinct, a word repeated in the window


@pytest.mark.parametrize("inputs", WINDOW_INPUTS)
@pytest.mark.parametrize("negatives", [[1, 5, 6], [4, 2, 0], [4, 4, 4]])  # plain, target drawn, repeated
def test_skipgram_negative_sampling_window(inputs, negatives):
    _check(w2v.skipgram_negative_sampling_window, *_params(8), np.array(inputs), 4, np.array(negatives))


@pytest.mark.parametrize("inputs", WINDOW_INPUTS)
def test_skipgram_hierarchical_softmax_window(inputs):
    _check(w2v.skipgram_hierarchical_softmax_window, *_params(9, inner=True), np.array(inputs),
           PATH_POINTS, PATH_CODES)


@pytest.mark.parametrize("inputs", WINDOW_INPUTS)
def test_window_gradient_is_the_sum_of_its_pairs_at_fixed_parameters(inputs):
    """The batched objective is the sum of the per-pair objectives, all at the same
    parameters: its gradient is the sum of the per-pair reference gradients."""
    W_in, W_out = _params(10)
    negatives = np.array([4, 2, 2])
    window = w2v.skipgram_negative_sampling_window(W_in, W_out, np.array(inputs), 4, negatives)
    pairs = [w2v.skipgram_negative_sampling(W_in, W_out, c, 4, negatives) for c in inputs]
    assert window[0] == pytest.approx(sum(p[0] for p in pairs), rel=1e-12)
    for k in (1, 2):
        np.testing.assert_allclose(window[k], sum(p[k] for p in pairs), rtol=1e-12, atol=1e-14)
    W_inner = _params(11, inner=True)[1]
    window = w2v.skipgram_hierarchical_softmax_window(W_in, W_inner, np.array(inputs), PATH_POINTS, PATH_CODES)
    pairs = [w2v.skipgram_hierarchical_softmax(W_in, W_inner, c, PATH_POINTS, PATH_CODES) for c in inputs]
    assert window[0] == pytest.approx(sum(p[0] for p in pairs), rel=1e-12)
    for k in (1, 2):
        np.testing.assert_allclose(window[k], sum(p[k] for p in pairs), rtol=1e-12, atol=1e-14)
