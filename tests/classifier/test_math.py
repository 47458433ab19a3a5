"""Reference classifier gradients (softmax, hs, ova over a mean of rows) against central
finite differences in float64."""

import numpy as np
import pytest

from wordvec.data.huffman import build_huffman
from wordvec.math import classifier as C
from wordvec.math.gradcheck import check_gradient

N_WORDS, BUCKET, D, LABELS = 5, 6, 4, 4
TOLERANCE = 1e-6

# A bag as fastText builds it: word rows (0..N_WORDS-1), word n-gram and character
# n-gram rows (N_WORDS + bucket id), repeats kept.
BAGS = {
    "words": [0, 3, 4],
    "words+word-ngrams": [0, 3, 4, N_WORDS + 2, N_WORDS + 5],
    "words+char-ngrams, repeated": [1, N_WORDS + 0, N_WORDS + 3, N_WORDS + 0, 1, 2, N_WORDS + 4],
}


def _params(seed, rows_out=LABELS):
    rng = np.random.default_rng(seed)
    return rng.normal(scale=0.6, size=(N_WORDS + BUCKET, D)), rng.normal(scale=0.6, size=(rows_out, D))


def _check(W_in, W_out, rows, loss, **labels):
    value, dW_in, dW_out = C.document_loss(W_in, W_out, rows, loss, **labels)
    assert np.isfinite(value) and value > 0
    error = check_gradient(lambda: C.document_loss(W_in, W_out, rows, loss, **labels)[0],
                           {"W_in": W_in, "W_out": W_out}, {"W_in": dW_in, "W_out": dW_out})
    assert error < TOLERANCE, error
    return dW_in


@pytest.mark.parametrize("bag", BAGS)
@pytest.mark.parametrize("target", [0, 3])
def test_softmax_gradient(bag, target):
    _check(*_params(target), BAGS[bag], "softmax", target=target)


@pytest.mark.parametrize("bag", BAGS)
def test_hs_gradient(bag):
    tree = build_huffman([9, 5, 3, 1])
    for label in range(LABELS):
        n = tree.lengths[label]
        _check(*_params(10 + label, LABELS - 1), BAGS[bag], "hs",
               points=tree.points[label, :n], codes=tree.codes[label, :n])


@pytest.mark.parametrize("bag", BAGS)
@pytest.mark.parametrize("targets", [[1], [0, 2], [0, 1, 2, 3]])
def test_ova_gradient(bag, targets):
    _check(*_params(20 + len(targets)), BAGS[bag], "ova", targets=targets)


def test_repeated_row_gets_its_gradient_twice():
    W_in, W_out = _params(30)
    dW_in = _check(W_in, W_out, [1, 1, 2], "softmax", target=2)
    np.testing.assert_allclose(dW_in[1], 2 * dW_in[2], rtol=1e-12)


def test_losses_match_direct_formulas():
    W_in, W_out = _params(31)
    rows = [0, 2, N_WORDS + 1]
    h = (W_in[0] + W_in[2] + W_in[N_WORDS + 1]) / 3
    p = np.exp(W_out @ h) / np.exp(W_out @ h).sum()
    assert C.document_loss(W_in, W_out, rows, "softmax", target=1)[0] == pytest.approx(-np.log(p[1]), rel=1e-12)
    q = 1 / (1 + np.exp(-(W_out @ h)))
    expected = -np.log(q[0]) - np.log(q[3]) - np.log(1 - q[1]) - np.log(1 - q[2])
    assert C.document_loss(W_in, W_out, rows, "ova", targets=[0, 3])[0] == pytest.approx(expected, rel=1e-12)


def test_hs_probabilities_are_a_distribution_and_match_the_loss():
    tree = build_huffman([7, 7, 4, 2, 1])
    W_in, W_out = _params(32, 4)
    rows = [1, 4, N_WORDS + 2]
    p = C.hs_label_probabilities(W_in, W_out, rows, tree.points, tree.codes, tree.lengths)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    for label in range(5):
        n = tree.lengths[label]
        loss = C.document_loss(W_in, W_out, rows, "hs", points=tree.points[label, :n], codes=tree.codes[label, :n])[0]
        assert loss == pytest.approx(-np.log(p[label]), rel=1e-12)


def test_sgd_step_lowers_the_loss():
    W_in, W_out = _params(33)
    rows = BAGS["words+word-ngrams"]
    before = C.sgd_step(W_in, W_out, rows, 0.05, "softmax", target=2)
    after = C.document_loss(W_in, W_out, rows, "softmax", target=2)[0]
    assert after < before
