"""Paragraph-vector reference gradients against central finite differences (float64)."""

import numpy as np
import pytest

from wordvec.math import doc2vec as d2v
from wordvec.math import word2vec as w2v
from wordvec.math.gradcheck import check_gradient

N, V, D = 4, 7, 5
TOLERANCE = 1e-6
PATH_POINTS = np.array([5, 2, 0, 3])
PATH_CODES = np.array([1, 0, 0, 1], dtype=np.uint8)


def _params(seed, inner=False):
    rng = np.random.default_rng(seed)
    P = rng.normal(scale=0.7, size=(N, D))
    W_in = rng.normal(scale=0.7, size=(V, D))
    W_second = rng.normal(scale=0.7, size=(V - 1 if inner else V, D))
    return P, W_in, W_second


def _check(fn, arrays, *args, **kwargs):
    """fn(*arrays, *args) -> (loss, grad per array); finite differences on every array."""
    loss, *grads = fn(*arrays, *args, **kwargs)
    assert np.isfinite(loss) and loss > 0
    names = [f"a{i}" for i in range(len(arrays))]
    error = check_gradient(lambda: fn(*arrays, *args, **kwargs)[0], dict(zip(names, arrays)),
                           dict(zip(names, grads)))
    assert error < TOLERANCE, error
    return loss, grads


@pytest.mark.parametrize("negatives", [[1, 5, 6], [4, 2, 4], [3, 3, 3]])  # plain, target drawn, repeated
def test_pv_dbow_negative_sampling(negatives):
    P, _, W_out = _params(1)
    _, (dP, _) = _check(d2v.pv_dbow_negative_sampling, (P, W_out), 2, 4, np.array(negatives))
    assert np.count_nonzero(np.abs(dP).sum(axis=1)) == 1  # only the document's own row moves


def test_pv_dbow_hierarchical_softmax():
    P, _, W_inner = _params(2, inner=True)
    _check(d2v.pv_dbow_hierarchical_softmax, (P, W_inner), 1, PATH_POINTS, PATH_CODES)


@pytest.mark.parametrize("mean", [True, False])
@pytest.mark.parametrize("context", [[0, 2, 5, 6], [1, 1, 3], []])  # distinct, repeated, empty
def test_pv_dm_both_outputs(mean, context):
    context = np.array(context, dtype=np.int64)
    _check(d2v.pv_dm_negative_sampling, _params(3), 2, context, 4, np.array([4, 0, 6]), mean=mean)
    _check(d2v.pv_dm_hierarchical_softmax, _params(4, inner=True), 0, context, PATH_POINTS, PATH_CODES,
           mean=mean)


def test_pv_dbow_is_skipgram_with_the_document_as_input_word():
    """PV-DBOW equals word2vec's skip-gram when the document matrix stands in for W_in."""
    P, _, W_out = _params(5)
    loss, dP, dW_out = d2v.pv_dbow_negative_sampling(P, W_out, 3, 1, [2, 6])
    loss_sg, dW_in_sg, dW_out_sg = w2v.skipgram_negative_sampling(P, W_out, 3, 1, [2, 6])
    assert loss == loss_sg
    np.testing.assert_array_equal(dP, dW_in_sg)
    np.testing.assert_array_equal(dW_out, dW_out_sg)


def test_pv_dm_mean_loss_matches_direct_formula():
    P, W_in, W_out = _params(6)
    context = [0, 3]
    h = (P[1] + W_in[0] + W_in[3]) / 3.0
    s = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    expected = -np.log(s(W_out[5] @ h)) - np.log(s(-W_out[2] @ h))
    assert d2v.pv_dm_negative_sampling(P, W_in, W_out, 1, context, 5, [2])[0] == pytest.approx(expected, rel=1e-12)


def test_inference_gradient_is_the_document_row_of_the_full_gradient():
    P, W_in, W_out = _params(7)
    full = d2v.pv_dm_negative_sampling(P, W_in, W_out, 2, [1, 4], 3, [0, 5])
    loss, dP = d2v.inference_gradient(full)
    assert loss == full[0]
    # the frozen rows' gradients are dropped; the document's gradient is finite-difference checked
    error = check_gradient(lambda: d2v.pv_dm_negative_sampling(P, W_in, W_out, 2, [1, 4], 3, [0, 5])[0],
                           {"P": P}, {"P": dP})
    assert error < TOLERANCE


def test_pv_dm_step_gives_each_input_row_the_full_hidden_step_with_the_mean():
    P, W_in, W_out = _params(8)
    context = [1, 4, 6]
    grads = d2v.pv_dm_negative_sampling(P, W_in, W_out, 0, context, 2, [3], mean=True)[1:]
    new_P, new_in, _ = d2v.pv_dm_step(P, W_in, W_out, 0, context, grads, 0.1, mean=True)
    # -alpha dJ/dh for every row: the document row's and a context row's changes are equal
    np.testing.assert_allclose(new_P[0] - P[0], new_in[4] - W_in[4], rtol=1e-12)
    np.testing.assert_allclose(new_P[0] - P[0], -0.1 * 4 * grads[0][0], rtol=1e-12)


def test_inference_rate_runs_linearly_from_alpha_to_min_alpha():
    rates = [d2v.inference_rate(0.1, 0.001, e, 5) for e in range(5)]
    assert rates[0] == 0.1 and rates[-1] == pytest.approx(0.001)
    assert np.allclose(np.diff(rates), (0.001 - 0.1) / 4)


def _concat_params(seed, T, W, inner=False):
    """P, W_in and output rows (T + 2W) D wide."""
    rng = np.random.default_rng(seed)
    P = rng.normal(scale=0.7, size=(N, D))
    W_in = rng.normal(scale=0.7, size=(V, D))
    W_second = rng.normal(scale=0.4, size=(V - 1 if inner else V, (T + 2 * W) * D))
    return P, W_in, W_second


def test_concat_slots_pad_with_the_null_word_and_never_shrink():
    sentence = [4, 1, 3]
    assert d2v.concat_slots(sentence, 0, 2, 6).tolist() == [6, 6, 1, 3]
    assert d2v.concat_slots(sentence, 1, 2, 6).tolist() == [6, 4, 3, 6]
    assert d2v.concat_slots(sentence, 2, 1, 6).tolist() == [1, 6]
    assert d2v.concat_slots([5], 0, 3, 6).tolist() == [6] * 6


@pytest.mark.parametrize("tags, slots", [([2], [0, 3, 5, 6]),        # one document row, distinct words
                                         ([1, 3], [6, 6, 2, 2]),     # two rows, the null word and a word repeated
                                         ([2, 2], [1, 4])])          # a row in two blocks
def test_pv_dm_concat_both_outputs(tags, slots):
    W = len(slots) // 2
    _check(d2v.pv_dm_concat_negative_sampling, _concat_params(9, len(tags), W), tags, slots, 4, np.array([4, 0, 6]))
    _check(d2v.pv_dm_concat_hierarchical_softmax, _concat_params(10, len(tags), W, inner=True), tags, slots,
           PATH_POINTS, PATH_CODES)


def test_pv_dm_concat_loss_matches_direct_formula_and_blocks_are_the_rows_gradients():
    P, W_in, W_out = _concat_params(11, 1, 1)
    h = np.concatenate([P[3], W_in[0], W_in[5]])
    s = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    expected = -np.log(s(W_out[2] @ h)) - np.log(s(-W_out[4] @ h))
    loss, dP, dW_in, _ = d2v.pv_dm_concat_negative_sampling(P, W_in, W_out, [3], [0, 5], 2, [4])
    assert loss == pytest.approx(expected, rel=1e-12)
    dh = (s(W_out[2] @ h) - 1) * W_out[2] + s(W_out[4] @ h) * W_out[4]
    np.testing.assert_allclose(dP[3], dh[:D], rtol=1e-12)
    np.testing.assert_allclose(dW_in[0], dh[D:2 * D], rtol=1e-12)
    np.testing.assert_allclose(dW_in[5], dh[2 * D:], rtol=1e-12)


def test_pv_dm_concat_step_is_the_plain_gradient_step():
    P, W_in, W_out = _concat_params(12, 1, 2)
    grads = d2v.pv_dm_concat_negative_sampling(P, W_in, W_out, [0], [1, 4, 4, 6], 2, [3])[1:]
    new_P, new_in, new_out = d2v.pv_dm_concat_step(P, W_in, W_out, grads, 0.1)
    for new, old, grad in zip((new_P, new_in, new_out), (P, W_in, W_out), grads):
        np.testing.assert_allclose(new, old - 0.1 * grad, rtol=1e-12)
