"""The language-model trainer's fast paths give the same numbers, bit for bit, as the
readable versions: the compiled Adam update vs its NumPy expressions, the row-blocked
softmax vs one whole-array pass, reused gradient and logits buffers vs fresh ones."""

import numpy as np
import pytest

from wordvec.data.lm_data import LMVocab
from wordvec.math import softmax_ce
from wordvec.models.lm.training import Adam
from wordvec.models.lm.rnn import RNNLM


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_adam_equals_the_numpy_update_bitwise(dtype):
    rng = np.random.default_rng(0)
    shapes = {"W": (50, 8), "b": (7,)}
    reference = {k: rng.normal(size=s).astype(dtype) for k, s in shapes.items()}
    compiled = {k: v.copy() for k, v in reference.items()}
    adam_ref, adam_fast = Adam(reference, 5e-3), Adam(compiled, 5e-3)
    for _ in range(30):  # gradients from 1e-7 to 10: every rounding path of the update
        grads = {k: (rng.normal(size=s) * 10.0 ** rng.integers(-7, 2)).astype(dtype) for k, s in shapes.items()}
        grads["b"][0] = 0.0
        adam_ref.step_reference(reference, grads)
        adam_fast.step(compiled, grads)
    for name in shapes:
        np.testing.assert_array_equal(compiled[name], reference[name])
        np.testing.assert_array_equal(adam_fast.m[name], adam_ref.m[name])
        np.testing.assert_array_equal(adam_fast.v[name], adam_ref.v[name])
    assert adam_fast.t == adam_ref.t == 30


@pytest.mark.parametrize("V", [5, 1000])
def test_row_blocked_softmax_equals_one_pass_bitwise(V, monkeypatch):
    rng = np.random.default_rng(1)
    logits = (rng.normal(size=(300, V)) * 4).astype(np.float32)
    targets = rng.integers(0, V, 300)
    targets[3] = softmax_ce.IGNORE
    monkeypatch.setattr(softmax_ce, "BLOCK_ELEMENTS", 10**9)  # one block: the plain formula
    loss_one, probs_one, _ = softmax_ce.softmax_cross_entropy_forward(logits.copy(), targets)
    monkeypatch.setattr(softmax_ce, "BLOCK_ELEMENTS", 7 * V)  # blocks of 7 rows, a short last one
    loss_blocked, probs_blocked, _ = softmax_ce.softmax_cross_entropy_forward(logits.copy(), targets)
    assert loss_blocked == loss_one
    np.testing.assert_array_equal(probs_blocked, probs_one)


def test_reused_buffers_give_the_gradients_of_fresh_ones():
    vocab = LMVocab("char", ["\n"] + list("abcdef"))
    model = RNNLM(vocab, cell="lstm", hidden_size=6, embedding_size=4, tie_embeddings=True, seed=2)
    rng = np.random.default_rng(3)
    first = rng.integers(0, 7, (3, 5)), rng.integers(0, 7, (3, 5))
    second = rng.integers(0, 7, (3, 5)), rng.integers(0, 7, (3, 5))
    _, _, reused, _ = model.loss_and_grads(*first, model.initial_state(3))
    loss, _, reused, _ = model.loss_and_grads(*second, model.initial_state(3), grads=reused)
    fresh_model = RNNLM(vocab, cell="lstm", hidden_size=6, embedding_size=4, tie_embeddings=True, seed=2)
    fresh_loss, _, fresh, _ = fresh_model.loss_and_grads(*second, fresh_model.initial_state(3))
    assert loss == fresh_loss
    for name in fresh:
        np.testing.assert_array_equal(reused[name], fresh[name])
