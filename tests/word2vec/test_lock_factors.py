"""gensim's ``vectors_lockf`` on Word2Vec: a per-row learning-rate factor of the input vectors
(0.0 locks a row), set on ``model.wv`` before ``train`` as gensim's users do, indexed modulo
its length as gensim indexes it.  The kernels' steps with factors are held to the reference
in ``test_kernels.py``; here, the model's use of them."""

import numpy as np
import pytest

from wordvec.errors import WordvecError
from wordvec.kernels import word2vec as kernels
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.keyed import KeyedVectors

TEXTS = [["the", "king", "rules", "the", "land"], ["a", "queen", "rules", "a", "land"],
         ["the", "queen", "and", "the", "king"]] * 30


def built(**options):
    settings = dict(vector_size=8, min_count=1, window=2, epochs=2, workers=1, seed=5, sample=0, progress=False)
    model = Word2Vec(**{**settings, **options})
    return model.build_vocab(TEXTS)


@pytest.mark.parametrize("options", [dict(sg=1, hs=1, negative=5), dict(sg=0, hs=1, negative=5),
                                     dict(sg=1, batched=True), dict(sg=1, workers=2, deterministic=True)],
                         ids=["sg-ns+hs", "cbow-ns+hs", "sg-batched", "sg-deterministic-2-workers"])
def test_a_locked_row_does_not_move_and_the_others_train(options):
    model = built(**options)
    before = model.wv.vectors.copy()
    assert model.wv.vectors_lockf.tolist() == [1.0]  # gensim's default: one factor for every row
    model.wv.vectors_lockf = np.ones(len(model.wv), dtype=np.float32)
    model.wv.vectors_lockf[0] = 0.0  # edited in place, as gensim's test_locking does
    model.train(TEXTS, total_examples=len(TEXTS), epochs=2)
    after = model.wv.vectors  # a new wv after training: the model kept the factors
    np.testing.assert_array_equal(after[0], before[0])
    assert not np.array_equal(after[1:], before[1:])
    assert model.wv.vectors_lockf[0] == 0.0


def test_factors_repeat_over_the_rows_as_gensim_indexes_them():
    model = built()
    model.wv.vectors_lockf = np.array([1.0, 0.0], dtype=np.float32)  # row i takes entry i mod 2
    factors = model.input_lock_factors()
    assert factors.shape == (len(model.vocab),) and factors.dtype == np.float32
    assert factors[::2].tolist() == [1.0] * len(factors[::2]) and not factors[1::2].any()
    before = model.wv.vectors.copy()
    model.train(TEXTS, total_examples=len(TEXTS), epochs=1)
    np.testing.assert_array_equal(model.wv.vectors[1::2], before[1::2])
    assert not np.array_equal(model.wv.vectors[::2], before[::2])


def test_one_zero_factor_locks_every_row_and_ones_are_no_factors():
    model = built()
    assert model.input_lock_factors() is kernels.NO_LOCKS  # the kernels skip the factors
    model.wv.vectors_lockf = np.ones(5)
    assert model.input_lock_factors() is kernels.NO_LOCKS
    model.wv.vectors_lockf = [0.0]
    before = model.wv.vectors.copy()
    model.train(TEXTS, total_examples=len(TEXTS), epochs=1)
    np.testing.assert_array_equal(model.wv.vectors, before)
    assert model.syn1neg.any()  # the output layer still trained


def test_half_factors_take_half_the_step():
    """One two-word sentence, skip-gram, window 1: each input row takes one step, from the same
    output rows whatever its factor (the output rows' steps do not depend on it), so factor
    0.5 halves the plain run's change of both rows (the output rows start non-zero, else the
    first step of an input row is zero)."""
    changes = []
    for factor in (1.0, 0.5):
        model = Word2Vec(vector_size=4, min_count=1, window=1, epochs=1, workers=1, seed=2, sample=0, sg=1,
                         progress=False).build_vocab([["x", "y"]])
        model.wv.vectors_lockf = [factor]
        model.syn1neg[...] = np.random.default_rng(0).normal(0.0, 0.5, model.syn1neg.shape)  # not word2vec's zeros
        before = model.wv.vectors.copy()
        model.train([["x", "y"]], total_examples=1, epochs=1)
        changes.append(model.wv.vectors - before)
    assert np.abs(changes[0]).min() > 1e-5  # both rows trained
    np.testing.assert_allclose(changes[1], 0.5 * changes[0], rtol=1e-4, atol=1e-7)


@pytest.mark.parametrize("factors", [np.ones((2, 2)), np.array([]), [1.0, np.nan], "ones"],
                         ids=["2-D", "empty", "NaN", "text"])
def test_malformed_factors_are_refused_in_one_sentence(factors):
    model = built()
    with pytest.raises(WordvecError, match="vectors_lockf"):
        model.wv.vectors_lockf = factors


def test_a_subword_model_refuses_factors_other_than_one():
    model = built(subwords=True, bucket=50, min_n=2, max_n=3)
    model.wv.vectors_lockf = [1.0]
    model.train(TEXTS, total_examples=len(TEXTS), epochs=1)  # all ones: trains
    model.wv.vectors_lockf = [0.0]
    with pytest.raises(WordvecError, match="subwords"):
        model.train(TEXTS, total_examples=len(TEXTS), epochs=1)


def test_keyed_vectors_carry_their_factors_into_a_model():
    kv = KeyedVectors(["a", "b", "c"], np.eye(3, dtype=np.float32))
    assert kv.vectors_lockf.tolist() == [1.0]
    kv.vectors_lockf = [0.0, 1.0, 1.0]
    model = Word2Vec(vector_size=3, min_count=1, progress=False)
    model.wv = kv
    assert model.wv.vectors_lockf.tolist() == [0.0, 1.0, 1.0]


def test_factors_are_saved_with_the_model_where_not_all_one(tmp_path):
    model = built()
    model.save(tmp_path / "plain")
    assert not (tmp_path / "plain" / "vectors_lockf.npy").exists()  # the default: files as before
    assert Word2Vec.load(tmp_path / "plain").wv.vectors_lockf.tolist() == [1.0]
    model.wv.vectors_lockf = [0.0, 0.5, 1.0]
    model.save(tmp_path / "locked")
    loaded = Word2Vec.load(tmp_path / "locked")
    assert loaded.wv.vectors_lockf.tolist() == [0.0, 0.5, 1.0]
    np.testing.assert_array_equal(loaded.input_lock_factors(), model.input_lock_factors())
