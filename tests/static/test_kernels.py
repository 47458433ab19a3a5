"""The compiled static-model kernels against the NumPy reference (``wordvec.math.static``):
pooling, one step toward the teacher, a Hogwild epoch on one thread, the contrastive step."""

import numpy as np
import pytest

from wordvec.kernels import static as K
from wordvec.math import static as ref

V, D = 8, 6


def setup(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(V, D)).astype(dtype)
    w = rng.uniform(0.5, 1.5, size=V).astype(dtype)
    return rng, E, w


def sentences(rng, n, longest=6):
    lengths = rng.integers(0, longest + 1, size=n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return K.Sentences(rng.integers(0, V, size=offsets[-1]).astype(np.int32), offsets)


def scratch(longest=16):
    return np.zeros(D), np.zeros(D), np.zeros(longest)


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("dims", [D, 3])
def test_pool_equals_reference(normalize, dims):
    rng, E, w = setup(0, np.float32)
    batch = sentences(rng, 40)
    out = np.full((40, dims), np.nan, dtype=np.float32)
    K.pool(batch, K.Rows(E, w), dims, normalize, out)
    expected = ref.pool(batch.ids, batch.offsets, w.astype(np.float64), E.astype(np.float64))[:, :dims]
    if normalize:
        norms = np.linalg.norm(expected, axis=1, keepdims=True)
        expected = np.divide(expected, norms, out=np.zeros_like(expected), where=norms > 0)
    np.testing.assert_allclose(out, expected, atol=1e-6)


@pytest.mark.parametrize("mse", [False, True])
@pytest.mark.parametrize("train_weights", [False, True])
def test_teacher_step_equals_reference(mse, train_weights):
    rng, E, w = setup(1)
    tokens = np.array([2, 5, 5, 1, 7], dtype=np.int32)  # a repeated token
    y = rng.normal(size=D)
    E_ref, w_ref = E.copy(), w.copy()
    loss = K.teacher_sentence(tokens, 0, len(tokens), y, K.Rows(E, w), 0.1, mse, train_weights, scratch())
    expected = ref.teacher_step(tokens.astype(np.int64), y, w_ref, E_ref, 0.1, "mse" if mse else "cosine",
                                train_weights)
    assert loss == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(E, E_ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(w, w_ref, rtol=1e-12, atol=1e-14)
    assert not np.array_equal(E, setup(1)[1])


def test_empty_and_zero_sentences_take_no_step():
    _, E, w = setup(2)
    before = E.copy()
    assert K.teacher_sentence(np.zeros(0, np.int32), 0, 0, np.ones(D), K.Rows(E, w), 0.1, False, True,
                              scratch()) == 0.0
    E[3] = 0.0
    before[3] = 0.0
    assert K.teacher_sentence(np.array([3], np.int32), 0, 1, np.ones(D), K.Rows(E, w), 0.1, False, True,
                              scratch()) == 0.0
    np.testing.assert_array_equal(E, before)


def test_one_thread_epoch_is_the_reference_steps_in_order():
    rng, E, w = setup(3)
    batch = sentences(rng, 12)
    targets = rng.normal(size=(12, D))
    order = rng.permutation(12).astype(np.int64)
    run = K.TeacherRun(targets, order, 0.2, 0.02, False, True)
    E_ref, w_ref = E.copy(), w.copy()
    total = K.teacher_epoch(batch, K.Rows(E, w), run, 1, 6)
    expected = 0.0
    for position, s in enumerate(order):
        alpha = 0.2 - (0.2 - 0.02) * position / 12
        tokens = batch.ids[batch.offsets[s]:batch.offsets[s + 1]].astype(np.int64)
        expected += ref.teacher_step(tokens, targets[s], w_ref, E_ref, alpha)
    assert total == pytest.approx(expected, rel=1e-10)
    np.testing.assert_allclose(E, E_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w, w_ref, rtol=1e-10, atol=1e-12)


def test_hogwild_epoch_on_two_threads_lowers_the_loss():
    rng, E, w = setup(4, np.float32)
    batch = sentences(rng, 400)
    targets = rng.normal(size=(400, D)).astype(np.float32)
    run = K.TeacherRun(targets, np.arange(400, dtype=np.int64), 0.2, 0.01, False, True)
    first = K.teacher_epoch(batch, K.Rows(E, w), run, 2, 6)
    for _ in range(5):
        last = K.teacher_epoch(batch, K.Rows(E, w), run, 2, 6)
    assert np.isfinite(E).all() and last < first


def test_contrastive_equals_reference():
    rng = np.random.default_rng(5)
    a, p = rng.normal(size=(5, D)), rng.normal(size=(5, D))
    grad_a, grad_p = np.empty_like(a), np.empty_like(p)
    sizes = np.array([2, 4, D], dtype=np.int64)
    loss = K.contrastive(a, p, 7.0, sizes, grad_a, grad_p)
    expected, exp_a, exp_p = ref.contrastive_loss(a, p, 7.0, (2, 4, D))
    assert loss == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(grad_a, exp_a, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(grad_p, exp_p, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("train_weights", [False, True])
def test_pairs_step_equals_reference(train_weights):
    rng, E, w = setup(6)
    anchors = K.Sentences(np.array([1, 2, 2, 4, 5, 6], np.int32), np.array([0, 2, 4, 6], np.int64))
    positives = K.Sentences(np.array([2, 3, 0, 1, 6, 6], np.int32), np.array([0, 1, 3, 6], np.int64))
    E_ref, w_ref = E.copy(), w.copy()
    pooled = [np.zeros((3, D)), np.zeros((3, D))]
    for side, batch in enumerate((anchors, positives)):
        K.pool(batch, K.Rows(E, w), D, False, pooled[side])
    grads = (np.empty((3, D)), np.empty((3, D)))
    loss = K.contrastive(pooled[0], pooled[1], 5.0, np.array([2, D], np.int64), *grads)
    K.scatter_batch((anchors, positives), grads, K.Rows(E, w), 0.3, train_weights, np.zeros(V))
    batch = (anchors.ids.astype(np.int64), anchors.offsets, positives.ids.astype(np.int64), positives.offsets)
    expected = ref.pairs_step(batch, w_ref, E_ref, 0.3, 5.0, (2, D), train_weights)
    assert loss == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(E, E_ref, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(w, w_ref, rtol=1e-10, atol=1e-13)
