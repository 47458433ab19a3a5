"""Compiled paragraph-vector steps and inference against the NumPy reference."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.data.vocab import alias_table
from wordvec.kernels import doc2vec as K
from wordvec.kernels.word2vec import below, draw_alias, pack_alias_table, uniform
from wordvec.math import doc2vec as ref
from wordvec.math import word2vec as w2v

from tests.numerics import assert_float32_close

N, V, D = 4, 9, 6
ALPHA = 0.05
POINTS = np.array([[7, 3, 0, 0], [7, 3, 1, 0], [7, 5, 2, 4]] * 3, dtype=np.int32)
CODES = np.array([[0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1]] * 3, dtype=np.uint8)
LENGTHS = np.array([2, 3, 4] * 3, dtype=np.int32)
NOISE = pack_alias_table(*alias_table(np.arange(1, V + 1) / np.arange(1, V + 1).sum()))
NS, HS = K.NEGATIVE_SAMPLING, K.HIERARCHICAL_SOFTMAX
NEGATIVE = 3


def _matrices(seed):
    rng = np.random.default_rng(seed)
    return [rng.normal(scale=0.5, size=shape).astype(np.float32) for shape in ((N, D), (V, D), (V, D), (V - 1, D))]


def _draws(state, mode):
    """The negatives the kernel will draw from a copy of ``state``."""
    copy = state.copy()
    return np.array([draw_alias(NOISE, copy) for _ in range(NEGATIVE)]) if mode & NS else None


OUTPUTS = K.Outputs(POINTS, CODES, LENGTHS, NOISE)


def _scratch():
    return K.Scratch(np.zeros(NEGATIVE, np.int64), np.zeros((1, D), np.float32), np.zeros(D, np.float32),
                     np.zeros(NEGATIVE + 1, np.float32))


def _corpus(ids, offsets, keep):
    return K.Corpus(np.asarray(ids, np.int32), np.asarray(offsets, np.int64), keep)


def _schedule(alpha, min_alpha, words_before, total_words, seed):
    return K.make_schedule(alpha, min_alpha, words_before, total_words, seed)


def _reference_output(mode, W_out, W_inner, word, negatives):
    """(second matrix, the reference call's output-layer arguments) for one layer."""
    if mode == NS:
        return W_out, (word, negatives)
    return W_inner, (POINTS[word, :LENGTHS[word]], CODES[word, :LENGTHS[word]])


@pytest.mark.parametrize("mode", [NS, HS])
@pytest.mark.parametrize("learn", [True, False])  # training, inference (frozen outputs)
def test_dbow_step_equals_reference(mode, learn):
    P, W_in, W_out, W_inner = _matrices(mode)
    state = np.array([12345], np.uint64)
    negatives = _draws(state, mode)
    second, args = _reference_output(mode, W_out, W_inner, 5, negatives)
    f = ref.pv_dbow_negative_sampling if mode == NS else ref.pv_dbow_hierarchical_softmax
    loss, dP, d_second = f(P.astype(np.float64), second.astype(np.float64), 2, *args)
    expected_P, expected_second = P - ALPHA * dP, second - ALPHA * d_second if learn else second.copy()
    got = K.dbow_step(P, 2, 5, mode, K.Matrices(W_in, W_out, W_inner), OUTPUTS, _scratch(), state,
                      np.float32(ALPHA), True, learn)
    assert got == pytest.approx(loss, rel=1e-5)
    np.testing.assert_allclose(P, expected_P, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second, expected_second, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", [NS, HS])
@pytest.mark.parametrize("mean", [True, False])
@pytest.mark.parametrize("learn", [True, False])
def test_dm_step_equals_reference(mode, mean, learn):
    P, W_in, W_out, W_inner = _matrices(10 + mode)
    context = np.array([0, 3, 3, 8], np.int32)  # a repeated word
    state = np.array([777], np.uint64)
    negatives = _draws(state, mode)
    second, args = _reference_output(mode, W_out, W_inner, 4, negatives)
    f = ref.pv_dm_negative_sampling if mode == NS else ref.pv_dm_hierarchical_softmax
    P64, W_in64, second64 = P.astype(np.float64), W_in.astype(np.float64), second.astype(np.float64)
    loss, *grads = f(P64, W_in64, second64, 1, context, *args, mean=mean)
    new_P, new_in, new_second = ref.pv_dm_step(P64, W_in64, second64, 1, context, grads, ALPHA, mean)
    if not learn:  # inference: only the document row moves
        new_in, new_second = W_in64, second64
    got = K.dm_step(P, 1, context, 4, mean, mode, K.Matrices(W_in, W_out, W_inner), OUTPUTS, _scratch(), state,
                    np.float32(ALPHA), True, learn, learn)
    assert got == pytest.approx(loss, rel=1e-5)
    for got_matrix, expected in ((P, new_P), (W_in, new_in), (second, new_second)):
        np.testing.assert_allclose(got_matrix, expected, rtol=1e-5, atol=1e-6)


def _reference_inference(doc, dm, W_in, W_out, seed, epochs, window=2):
    """Replay inference of one document with the reference math and the kernel's random
    stream (document_seed, init uniforms, reduced windows, negatives); returns the row and
    the loss of the last epoch."""
    ids = np.array(doc, np.int32)
    state = np.array([K.document_seed(ids, 0, ids.size, np.uint64(seed))], np.uint64)
    p = ref.initial_document_vector(D, [uniform(state) for _ in range(D)]).astype(np.float64)[None, :]
    W_in64, W_out64 = W_in.astype(np.float64), W_out.astype(np.float64)
    for epoch in range(epochs):
        lr = ref.inference_rate(0.1, 0.01, epoch, epochs)
        last_loss = 0.0
        for i, word in enumerate(doc):
            if dm:
                reach = window - below(state, window)
                context = [doc[j] for j in range(max(0, i - reach), min(len(doc), i + reach + 1)) if j != i]
            negatives = np.array([draw_alias(NOISE, state) for _ in range(NEGATIVE)])
            if dm:
                full = ref.pv_dm_negative_sampling(p, W_in64, W_out64, 0, context, word, negatives, mean=True)
                loss, dP = ref.inference_gradient(full)
                p = p - lr * (1 + len(context)) * dP  # pv_dm_step's document row
            else:
                loss, dP = ref.inference_gradient(ref.pv_dbow_negative_sampling(p, W_out64, 0, word, negatives))
                p = p - lr * dP
            last_loss += loss
    return p[0], last_loss


@pytest.mark.parametrize("dm", [0, 1])
def test_inference_equals_reference_replay(dm):
    _, W_in, W_out, W_inner = _matrices(20 + dm)
    doc = [3, 1, 4, 1, 5, 8, 2, 6]
    ids = np.array(doc, np.int32)
    offsets = np.array([0, len(doc)], np.int64)
    out = np.zeros((1, D), np.float32)
    before = W_in.copy(), W_out.copy()
    keep = np.ones(V, np.float32)
    loss = K.infer_documents(_corpus(ids, offsets, keep), 0, 1, out, K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                             K.make_settings(dm, NS, True, 2, NEGATIVE, False), K.make_inference(3, 0.1, 0.01, 99))
    expected, last_epoch_loss = _reference_inference(doc, dm, W_in, W_out, 99, 3)
    np.testing.assert_allclose(out[0], expected, rtol=1e-4, atol=1e-6)
    assert loss == pytest.approx(last_epoch_loss, rel=1e-4)  # the last epoch's loss, exact
    np.testing.assert_array_equal(W_in, before[0])  # frozen
    np.testing.assert_array_equal(W_out, before[1])


def test_inference_is_independent_of_how_documents_are_split():
    """Each document's random stream is its own: inferring 0..5 at once or in two calls
    (as two threads would) gives bitwise the same rows, and the same text the same row."""
    _, W_in, W_out, W_inner = _matrices(30)
    rng = np.random.default_rng(0)
    lengths = [5, 0, 7, 3, 9, 5]
    ids = rng.integers(0, V, size=sum(lengths)).astype(np.int32)
    ids[-5:] = ids[:5]  # the last document repeats the first
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    keep = np.full(V, 0.7, np.float32)
    corpus = _corpus(ids, offsets, keep)
    args = (K.Matrices(W_in, W_out, W_inner), OUTPUTS, K.make_settings(1, NS | HS, True, 2, NEGATIVE, False),
            K.make_inference(4, 0.05, 0.001, 5))
    whole, split = np.zeros((6, D), np.float32), np.zeros((6, D), np.float32)
    K.infer_documents(corpus, 0, 6, whole, *args)
    K.infer_documents(corpus, 3, 6, split, *args)
    K.infer_documents(corpus, 0, 3, split, *args)
    np.testing.assert_array_equal(whole, split)
    np.testing.assert_array_equal(whole[0], whole[5])
    assert not np.array_equal(whole[0], whole[2])


def test_training_reports_words_examples_and_the_exact_loss():
    """train_documents with one document, no subsampling, PV-DBOW NS: as many examples as
    words, and a loss equal to the reference losses summed over the same draws."""
    P, W_in, W_out, W_inner = _matrices(40)
    doc = np.array([2, 7, 2, 5], np.int32)
    offsets = np.array([0, 4], np.int64)
    keep = np.ones(V, np.float32)
    P0, W_out0 = P.astype(np.float64), W_out.astype(np.float64)
    state = np.array([123], np.uint64)
    expected = 0.0
    for word in doc:  # replay with the reference, alpha constant (min_alpha = alpha)
        negatives = np.array([draw_alias(NOISE, state) for _ in range(NEGATIVE)])
        loss, dP, dW = ref.pv_dbow_negative_sampling(P0, W_out0, 1, word, negatives)
        P0, W_out0 = w2v.sgd_step([P0, W_out0], [dP, dW], ALPHA)
        expected += loss
    loss, stats = K.train_documents(_corpus(doc, offsets, keep), np.array([1], np.int64), 0, 1, P,
                                    K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                                    K.make_settings(0, NS, True, 2, NEGATIVE, False), _schedule(ALPHA, ALPHA, 0, 4, 123))
    assert list(stats) == [4, 4]
    assert loss == pytest.approx(expected, rel=1e-5)
    np.testing.assert_allclose(P, P0, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(W_out, W_out0, rtol=1e-5, atol=1e-6)


def test_dbow_words_training_equals_the_reference_replay():
    """PV-DBOW with dbow_words: per position, the reduced window, then ONE draw of the
    negatives serving every example that predicts the word (each context word's skip-gram
    pair, then the document's row), each example the reference step in that order."""
    P, W_in, W_out, W_inner = _matrices(50)
    doc = np.array([2, 7, 2, 5, 1], np.int32)
    window = 2
    keep = np.ones(V, np.float32)
    P0, W_in0, W_out0 = P.astype(np.float64), W_in.astype(np.float64), W_out.astype(np.float64)
    state = np.array([321], np.uint64)
    expected, examples = 0.0, 0
    for i, word in enumerate(doc):
        reach = window - below(state, window)
        context = [doc[j] for j in range(max(0, i - reach), min(doc.size, i + reach + 1)) if j != i]
        negatives = np.array([draw_alias(NOISE, state) for _ in range(NEGATIVE)])
        for c in context:
            loss, dW_in, dW = w2v.skipgram_negative_sampling(W_in0, W_out0, c, word, negatives)
            W_in0, W_out0 = w2v.sgd_step([W_in0, W_out0], [dW_in, dW], ALPHA)
            expected += loss
        loss, dP, dW = ref.pv_dbow_negative_sampling(P0, W_out0, 1, word, negatives)
        P0, W_out0 = w2v.sgd_step([P0, W_out0], [dP, dW], ALPHA)
        expected += loss
        examples += len(context) + 1
    loss, stats = K.train_documents(_corpus(doc, [0, doc.size], keep), np.array([1], np.int64), 0, 1, P,
                                    K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                                    K.make_settings(0, NS, True, window, NEGATIVE, True),
                                    _schedule(ALPHA, ALPHA, 0, doc.size, 321))
    assert list(stats) == [doc.size, examples]
    assert loss == pytest.approx(expected, rel=1e-5)
    for got, want in ((P, P0), (W_in, W_in0), (W_out, W_out0)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dm, dbow_words", [(0, False), (0, True), (1, False)])
def test_replica_rows_take_the_same_steps(dm, dbow_words):
    """With the most frequent words trained in replica rows (the threads' own, merged at
    the end of the call), one call takes the same steps as without: the same loss, and
    rows equal but for the merge's rounding (W + (R - W) in float32)."""
    P, W_in, W_out, W_inner = _matrices(60 + dm + 2 * dbow_words)
    ids = np.array([2, 7, 2, 5, 1, 0, 3, 2, 8, 1, 1, 4], np.int32)
    offsets, rows = np.array([0, 5, 12], np.int64), np.array([1, 3], np.int64)
    keep, hot, base = np.ones(V, np.float32), 4, V + 2  # replicas past two unused rows
    spare = [np.vstack([W, np.full((base + hot - V, D), np.nan, np.float32)]) for W in (W_in, W_out)]
    P_spare = P.copy()
    corpus = _corpus(ids, offsets, keep)
    args = (OUTPUTS, K.make_settings(dm, NS, True, 2, NEGATIVE, dbow_words), _schedule(ALPHA, ALPHA / 10, 0, ids.size, 77))
    loss, stats = K.train_documents(corpus, rows, 0, 2, P, K.Matrices(W_in, W_out, W_inner), *args)
    loss_spare, stats_spare = K.train_documents(corpus, rows, 0, 2, P_spare, K.Matrices(*spare, W_inner), *args, hot,
                                                base)
    assert list(stats_spare) == list(stats)
    assert loss_spare == pytest.approx(loss, rel=1e-5)
    for got, want in ((P_spare, P), (spare[0][:V], W_in), (spare[1][:V], W_out)):
        assert_float32_close(got, want)
    assert all(np.isnan(W[V:base]).all() for W in spare)  # nothing but the replica rows was written


def test_replica_rows_must_fit_past_the_vocabulary():
    P, W_in, W_out, W_inner = _matrices(70)
    args = (OUTPUTS, K.make_settings(0, NS, True, 2, NEGATIVE, False), _schedule(ALPHA, ALPHA, 0, 1, 1))
    doc = (_corpus([1], [0, 1], np.ones(V, np.float32)), np.array([0], np.int64), 0, 1, P)
    matrices = K.Matrices(np.vstack([W_in, W_in[:2]]), np.vstack([W_out, W_out[:2]]), W_inner)
    for hot, base in ((2, V - 1), (4, V)):  # over the vocabulary's rows; past the matrices' end
        with pytest.raises(ValueError, match="replica rows"):
            K.train_documents(*doc, matrices, *args, hot, base)


def _replay_fixed_window(dm, doc, window, seed, P, W_in, W_out):
    """Training replayed with the reference math and the kernel's random stream, every
    window reaching ``window`` (gensim's ``shrink_windows=False``: no number drawn for
    it): PV-DM mean (``pv_dm_step``) or PV-DBOW with dbow_words.  Returns (P, W_in,
    W_out, loss, examples) in float64."""
    P0, W_in0, W_out0 = P.astype(np.float64), W_in.astype(np.float64), W_out.astype(np.float64)
    state = np.array([seed], np.uint64)
    loss_sum, examples = 0.0, 0
    for i, word in enumerate(doc):
        context = [doc[j] for j in range(max(0, i - window), min(doc.size, i + window + 1)) if j != i]
        negatives = np.array([draw_alias(NOISE, state) for _ in range(NEGATIVE)])
        if dm:
            loss, *grads = ref.pv_dm_negative_sampling(P0, W_in0, W_out0, 1, context, word, negatives, mean=True)
            P0, W_in0, W_out0 = ref.pv_dm_step(P0, W_in0, W_out0, 1, context, grads, ALPHA, mean=True)
            loss_sum, examples = loss_sum + loss, examples + 1
            continue
        for c in context:
            loss, dW_in, dW = w2v.skipgram_negative_sampling(W_in0, W_out0, c, word, negatives)
            W_in0, W_out0 = w2v.sgd_step([W_in0, W_out0], [dW_in, dW], ALPHA)
            loss_sum += loss
        loss, dP, dW = ref.pv_dbow_negative_sampling(P0, W_out0, 1, word, negatives)
        P0, W_out0 = w2v.sgd_step([P0, W_out0], [dP, dW], ALPHA)
        loss_sum, examples = loss_sum + loss, examples + len(context) + 1
    return P0, W_in0, W_out0, loss_sum, examples


@pytest.mark.parametrize("dm, dbow_words", [(1, False), (0, True)])
def test_fixed_window_training_equals_the_reference_replay(dm, dbow_words):
    """``shrink=False`` (gensim's ``shrink_windows=False``): every window is the full one,
    each example the reference step, and the model differs from the shrunk windows'."""
    P, W_in, W_out, W_inner = _matrices(80 + dm)
    doc = np.array([2, 7, 2, 5, 1, 6, 3], np.int32)
    window, keep = 3, np.ones(V, np.float32)
    shrunk = [M.copy() for M in (P, W_in, W_out)]
    expected_P, expected_in, expected_out, expected_loss, examples = _replay_fixed_window(dm, doc, window, 99, P, W_in,
                                                                                          W_out)
    run = (_corpus(doc, [0, doc.size], keep), np.array([1], np.int64), 0, 1)
    schedule = _schedule(ALPHA, ALPHA, 0, doc.size, 99)
    loss, stats = K.train_documents(*run, P, K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                                    K.make_settings(dm, NS, True, window, NEGATIVE, dbow_words, shrink=False), schedule)
    assert list(stats) == [doc.size, examples]
    assert loss == pytest.approx(expected_loss, rel=1e-5)
    for got, want in ((P, expected_P), (W_in, expected_in), (W_out, expected_out)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    K.train_documents(*run, shrunk[0], K.Matrices(shrunk[1], shrunk[2], W_inner), OUTPUTS,
                      K.make_settings(dm, NS, True, window, NEGATIVE, dbow_words), schedule)
    assert not np.allclose(shrunk[0], P, rtol=1e-3, atol=1e-5)  # the shrunk windows train another model


# PV-DM with concatenation: the null word is the vocabulary's last word
NULL = V - 1


def _concat_matrices(seed, T, window):
    """P, W_in and the output rows W_out, W_inner, (T + 2 window) D wide."""
    rng = np.random.default_rng(seed)
    width = (T + 2 * window) * D
    return [rng.normal(scale=scale, size=shape).astype(np.float32)
            for shape, scale in (((N, D), 0.5), ((V, D), 0.5), ((V, width), 0.3), ((V - 1, width), 0.3))]


def _concat_scratch(width):
    return K.Scratch(np.zeros(NEGATIVE, np.int64), np.zeros((1, width), np.float32), np.zeros(width, np.float32),
                     np.zeros(NEGATIVE + 1, np.float32))


def _concat_reference(mode, P, W_in, W_out, W_inner, tags, slots, word, negatives):
    """(loss, grads, the second matrix) of the reference, float64."""
    if mode == NS:
        return (*ref.pv_dm_concat_negative_sampling(P, W_in, W_out, tags, slots, word, negatives), W_out)
    path = POINTS[word, :LENGTHS[word]], CODES[word, :LENGTHS[word]]
    return (*ref.pv_dm_concat_hierarchical_softmax(P, W_in, W_inner, tags, slots, *path), W_inner)


@pytest.mark.parametrize("mode", [NS, HS])
@pytest.mark.parametrize("tags, slots", [([1], [0, 3, NULL, NULL]), ([2, 0], [5, 5])])
@pytest.mark.parametrize("learn", [True, False])  # training, inference (only the document rows move)
def test_dm_concat_step_equals_reference(mode, tags, slots, learn):
    P, W_in, W_out, W_inner = _concat_matrices(90 + mode, len(tags), len(slots) // 2)
    state = np.array([4242], np.uint64)
    negatives = _draws(state, mode)
    P64, W_in64, W_out64, W_inner64 = (M.astype(np.float64) for M in (P, W_in, W_out, W_inner))
    loss, dP, dW_in, d_second, second64 = _concat_reference(mode, P64, W_in64, W_out64, W_inner64, tags, slots, 4,
                                                            negatives)
    new_P, new_in, new_second = ref.pv_dm_concat_step(P64, W_in64, second64, (dP, dW_in, d_second), ALPHA)
    if not learn:
        new_in, new_second = W_in64, second64
    second = W_out if mode == NS else W_inner
    got = K.dm_concat_step(P, tags, slots, 4, mode, K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                           _concat_scratch(W_out.shape[1]), state, ALPHA, learn)
    assert got == pytest.approx(loss, rel=1e-5)
    for got_matrix, expected in ((P, new_P), (W_in, new_in), (second, new_second)):
        np.testing.assert_allclose(got_matrix, expected, rtol=1e-5, atol=1e-6)


def _replay_concat(mode, doc, tags, window, seed, matrices):
    """Training of one document replayed with the reference math and the kernel's random
    stream (per position: the negatives; the window is never drawn).  Returns the float64
    (P, W_in, second matrix) and the summed loss."""
    P, W_in, W_out, W_inner = (M.astype(np.float64) for M in matrices)
    state = np.array([seed], np.uint64)
    total = 0.0
    for i, word in enumerate(doc):
        negatives = np.array([draw_alias(NOISE, state) for _ in range(NEGATIVE)]) if mode & NS else None
        slots = ref.concat_slots(doc, i, window, NULL)
        loss, dP, dW_in, d_second, second = _concat_reference(mode, P, W_in, W_out, W_inner, tags, slots, word,
                                                              negatives)
        P, W_in, second = ref.pv_dm_concat_step(P, W_in, second, (dP, dW_in, d_second), ALPHA)
        W_out, W_inner = (second, W_inner) if mode == NS else (W_out, second)
        total += loss
    return P, W_in, (W_out if mode == NS else W_inner), total


@pytest.mark.parametrize("mode", [NS, HS])
@pytest.mark.parametrize("tags", [[1], [3, 0]])
def test_concat_training_equals_the_reference_replay(mode, tags):
    """train_documents with concatenation (T rows a document, full windows padded with the
    null word): each example is the reference step, in order."""
    window = 2
    matrices = _concat_matrices(100 + mode + len(tags), len(tags), window)
    doc = np.array([2, 7, 2, 5, 1, 6], np.int32)
    expected_P, expected_in, expected_second, expected_loss = _replay_concat(mode, doc, tags, window, 55, matrices)
    P, W_in, W_out, W_inner = matrices
    loss, stats = K.train_documents(_corpus(doc, [0, doc.size], np.ones(V, np.float32)), np.array(tags, np.int64),
                                    0, 1, P, K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                                    K.make_settings(1, mode, True, window, NEGATIVE, False, concat=len(tags),
                                                    null_word=NULL),
                                    _schedule(ALPHA, ALPHA, 0, doc.size, 55))
    assert list(stats) == [doc.size, doc.size]
    assert loss == pytest.approx(expected_loss, rel=1e-5)
    for got, want in ((P, expected_P), (W_in, expected_in), (W_out if mode == NS else W_inner, expected_second)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_concat_training_takes_each_documents_own_rows():
    """Two documents of T = 2 rows each: document d trains rows doc_rows[2d], doc_rows[2d+1]
    and no other."""
    P, W_in, W_out, W_inner = _concat_matrices(110, 2, 1)
    before = P.copy()
    ids = np.array([1, 2, 3, 4, 5], np.int32)
    K.train_documents(_corpus(ids, [0, 2, 5], np.ones(V, np.float32)), np.array([3, 0, 3, 3], np.int64), 0, 2, P,
                      K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                      K.make_settings(1, NS, True, 1, NEGATIVE, False, concat=2, null_word=NULL),
                      _schedule(ALPHA, ALPHA, 0, ids.size, 5))
    moved = sorted(np.flatnonzero(np.abs(P - before).sum(axis=1)).tolist())
    assert moved == [0, 3]


def test_concat_inference_equals_the_reference_replay():
    """Inference with concatenation: the document's new row (the same initial uniforms and
    stream as the other models) trained against frozen word and output rows."""
    window, epochs = 2, 3
    _, W_in, W_out, W_inner = _concat_matrices(120, 1, window)
    doc = [3, 1, 4, 1, 5]
    ids = np.array(doc, np.int32)
    before = W_in.copy(), W_out.copy()
    out = np.zeros((1, D), np.float32)
    loss = K.infer_documents(_corpus(ids, [0, ids.size], np.ones(V, np.float32)), 0, 1, out,
                             K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                             K.make_settings(1, NS, True, window, NEGATIVE, False, concat=1, null_word=NULL),
                             K.make_inference(epochs, 0.1, 0.01, 7))
    state = np.array([K.document_seed(ids, 0, ids.size, np.uint64(7))], np.uint64)
    p = ref.initial_document_vector(D, [uniform(state) for _ in range(D)]).astype(np.float64)[None, :]
    W_in64, W_out64 = W_in.astype(np.float64), W_out.astype(np.float64)
    for epoch in range(epochs):
        lr, last_loss = ref.inference_rate(0.1, 0.01, epoch, epochs), 0.0
        for i, word in enumerate(doc):
            negatives = np.array([draw_alias(NOISE, state) for _ in range(NEGATIVE)])
            full = ref.pv_dm_concat_negative_sampling(p, W_in64, W_out64, [0], ref.concat_slots(doc, i, window, NULL),
                                                      word, negatives)
            step_loss, dP = ref.inference_gradient(full)
            p, last_loss = p - lr * dP, last_loss + step_loss
    np.testing.assert_allclose(out[0], p[0], rtol=1e-4, atol=1e-6)
    assert loss == pytest.approx(last_loss, rel=1e-4)
    np.testing.assert_array_equal(W_in, before[0])
    np.testing.assert_array_equal(W_out, before[1])


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(doc=st.lists(st.integers(0, V - 2), max_size=7), window=st.integers(1, 3), T=st.integers(1, 2),
       mode=st.sampled_from([NS, HS]), seed=st.integers(0, 2**32))
def test_concat_training_of_any_document_equals_the_reference_replay(doc, window, T, mode, seed):
    """Any short document (empty, shorter than the window, words repeated), any window and
    tag count: the compiled loop takes the reference's steps and writes no other row."""
    matrices = _concat_matrices(seed % 1000, T, window)
    tags = list(range(T))
    doc = np.array(doc, np.int32)
    expected_P, expected_in, expected_second, expected_loss = _replay_concat(mode, doc, tags, window, seed, matrices)
    P, W_in, W_out, W_inner = matrices
    loss, stats = K.train_documents(_corpus(doc, [0, doc.size], np.ones(V, np.float32)), np.array(tags, np.int64),
                                    0, 1, P, K.Matrices(W_in, W_out, W_inner), OUTPUTS,
                                    K.make_settings(1, mode, True, window, NEGATIVE, False, concat=T, null_word=NULL),
                                    _schedule(ALPHA, ALPHA, 0, max(doc.size, 1), seed))
    assert list(stats) == [doc.size, doc.size]
    assert loss == pytest.approx(expected_loss, rel=1e-5, abs=1e-9)
    for got, want in ((P, expected_P), (W_in, expected_in), (W_out if mode == NS else W_inner, expected_second)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
