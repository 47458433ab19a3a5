"""Hand-derived gradients of the static models' objectives against float64 central
differences (``wordvec.math.gradcheck``)."""

import numpy as np
import pytest

from wordvec.math import static as ref
from wordvec.math.gradcheck import check_gradient

V, D = 7, 5
TOKENS = np.array([1, 3, 3, 6, 0], dtype=np.int64)  # a repeated token


def parameters(seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(V, D)), rng.uniform(0.5, 1.5, size=V), rng.normal(size=D)


@pytest.mark.parametrize("loss", ["cosine", "mse"])
def test_teacher_loss_gradients(loss):
    E, w, y = parameters(1)
    _, grad_E, grad_w = ref.teacher_example(TOKENS, y, w, E, loss)
    error = check_gradient(lambda: ref.teacher_example(TOKENS, y, w, E, loss)[0],
                           {"E": E, "w": w}, {"E": grad_E, "w": grad_w})
    assert error < 1e-6
    assert not grad_E[[2, 4, 5]].any()  # rows outside the sentence get nothing


def test_cosine_loss_is_one_minus_cosine_and_scale_free():
    E, w, y = parameters(2)
    v = ref.pool(TOKENS, np.array([0, len(TOKENS)]), w, E)[0]
    value, grad = ref.teacher_loss(v, y)
    assert value == pytest.approx(1 - v @ y / np.linalg.norm(v) / np.linalg.norm(y))
    assert abs(grad @ v) < 1e-12  # scaling v leaves the loss unchanged
    assert ref.teacher_loss(3 * v, 2 * y)[0] == pytest.approx(value)


def test_normalize_backward():
    rng = np.random.default_rng(3)
    x, g = rng.normal(size=D), rng.normal(size=D)
    analytic = ref.normalize_backward(x, g)
    assert check_gradient(lambda: g @ (x / np.linalg.norm(x)), {"x": x}, {"x": analytic}) < 1e-6


@pytest.mark.parametrize("sizes", [(D,), (2, D), (1, 3, D)])
def test_contrastive_loss_gradients(sizes):
    rng = np.random.default_rng(4)
    anchors, positives = rng.normal(size=(4, D)), rng.normal(size=(4, D))
    _, grad_a, grad_p = ref.contrastive_loss(anchors, positives, 3.0, sizes)
    error = check_gradient(lambda: ref.contrastive_loss(anchors, positives, 3.0, sizes)[0],
                           {"a": anchors, "p": positives}, {"a": grad_a, "p": grad_p})
    assert error < 1e-6


def test_contrastive_loss_is_cross_entropy_over_the_batch():
    rng = np.random.default_rng(5)
    a, p = rng.normal(size=(3, D)), rng.normal(size=(3, D))
    an = a / np.linalg.norm(a, axis=1, keepdims=True)
    pn = p / np.linalg.norm(p, axis=1, keepdims=True)
    S = 2.0 * an @ pn.T
    expected = np.mean([-np.log(np.exp(S[i, i]) / np.exp(S[i]).sum()) for i in range(3)])
    assert ref.contrastive_loss(a, p, 2.0, (D,))[0] == pytest.approx(expected)
    aligned = ref.contrastive_loss(p, p, 20.0, (D,))[0]
    assert aligned < expected


def test_pairs_gradients_through_pooling():
    E, w, _ = parameters(6)
    batch = (np.array([1, 2, 2, 4, 5, 6], np.int64), np.array([0, 2, 4, 6]),
             np.array([2, 3, 0, 1, 6, 6], np.int64), np.array([0, 1, 3, 6]))
    _, grad_E, grad_w = ref.pairs_example(*batch, w, E, 5.0, (2, D))
    error = check_gradient(lambda: ref.pairs_example(*batch, w, E, 5.0, (2, D))[0],
                           {"E": E, "w": w}, {"E": grad_E, "w": grad_w})
    assert error < 1e-6
