"""Compiled word2vec steps against the NumPy reference, and the training loop's bookkeeping."""

import numba
import numpy as np
from numba.core import types
import pytest

from wordvec.kernels import word2vec as K
from wordvec.kernels.exp import exp_nonpositive
from wordvec.math import word2vec as ref
from wordvec.data.vocab import alias_table

V, D = 9, 6
ALPHA = 0.05
POINTS = np.array([[7, 3, 0, 0], [7, 3, 1, 0], [7, 5, 2, 4]] * 3, dtype=np.int32)
CODES = np.array([[0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1]] * 3, dtype=np.uint8)
LENGTHS = np.array([2, 3, 4] * 3, dtype=np.int32)


def _matrices(seed):
    rng = np.random.default_rng(seed)
    W_in = rng.normal(scale=0.5, size=(V, D)).astype(np.float32)
    W_out = rng.normal(scale=0.5, size=(V, D)).astype(np.float32)
    W_inner = rng.normal(scale=0.5, size=(V - 1, D)).astype(np.float32)
    return W_in, W_out, W_inner


# gensim's vectors_lockf: row 3 (the skip-gram input, twice in the CBOW context) locked,
# other rows at other factors
LOCKS = np.array([0.5, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.25], np.float32)


def _settings(sg, mode, mean=True, lockf=None):
    """The Settings the one-example steps read (their mode, mean and lock factors)."""
    return K.make_settings(sg, mode, mean, 1, 1, True, lockf=K.NO_LOCKS if lockf is None else lockf)


def _kernel_step(sg, mode, W_in, W_out, W_inner, inputs, output, negatives, mean=True, lockf=None):
    neu1 = np.zeros((1, D), np.float32)
    neu1e = np.zeros(D, np.float32)
    coeff = np.zeros(max(V, 8), np.float32)
    negatives = np.asarray(negatives, dtype=np.int64)
    matrices, outputs, settings = K.Matrices(W_in, W_out, W_inner), _outputs(), _settings(sg, mode, mean, lockf)
    if sg:
        return K.skipgram_step(matrices, outputs, inputs, output, settings, negatives, np.float32(ALPHA), neu1e,
                               coeff)
    context = np.asarray(inputs, dtype=np.int32)
    return K.cbow_step(matrices, outputs, context, context.size, output, settings, negatives, np.float32(ALPHA),
                       neu1, neu1e, coeff)


def _outputs(noise=None):
    """The Huffman paths as an Outputs table (the one-example steps do not draw: no noise)."""
    return K.Outputs(POINTS, CODES, LENGTHS, np.zeros(1, np.uint64) if noise is None else noise)


def _reference(sg, mode, W_in, W_out, W_inner, inputs, output, negatives, mean=True, lockf=None):
    W_in, W_out, W_inner = (W.astype(np.float64) for W in (W_in, W_out, W_inner))
    path = (POINTS[output, :LENGTHS[output]], CODES[output, :LENGTHS[output]])
    if mode == K.NEGATIVE_SAMPLING:
        f = ref.skipgram_negative_sampling if sg else ref.cbow_negative_sampling
        args, second = (output, negatives), W_out
    elif mode == K.HIERARCHICAL_SOFTMAX:
        f = ref.skipgram_hierarchical_softmax if sg else ref.cbow_hierarchical_softmax
        args, second = path, W_inner
    else:
        f = ref.skipgram_softmax if sg else ref.cbow_softmax
        args, second = (output,), W_out
    kwargs = {} if sg else {"mean": mean}
    loss, d_in, d_second = f(W_in, second, inputs, *args, **kwargs)
    if sg:
        new_in, new_second = ref.sgd_step([W_in, second], [d_in, d_second], ALPHA, lockf)
    else:
        new_in, new_second = ref.cbow_step(W_in, second, inputs, (d_in, d_second), ALPHA, mean, lockf)
    return loss, new_in, new_second


NS, HS, SOFTMAX = K.NEGATIVE_SAMPLING, K.HIERARCHICAL_SOFTMAX, K.FULL_SOFTMAX
PLAIN, TARGET_DRAWN, REPEATED = [2, 5, 7], [4, 1, 1], [4, 4, 4]
STEP_CASES = (
    [(NS, 1, negs, True) for negs in (PLAIN, TARGET_DRAWN, REPEATED)]
    + [(NS, 0, negs, mean) for negs in (PLAIN, TARGET_DRAWN, REPEATED) for mean in (True, False)]
    + [(mode, sg, PLAIN, mean) for mode in (HS, SOFTMAX) for sg, mean in ((1, True), (0, True), (0, False))]
)


@pytest.mark.parametrize("lockf", [None, LOCKS, LOCKS[::-1].copy()], ids=["no-locks", "locked", "halved"])
@pytest.mark.parametrize("mode, sg, negatives, mean", STEP_CASES)
def test_one_kernel_step_equals_reference_sgd_step(mode, sg, negatives, mean, lockf):
    W_in, W_out, W_inner = _matrices(sg * 10 + mode)
    inputs = 3 if sg else [0, 3, 3, 8]  # CBOW context repeats a word
    output = 4
    before = W_in.copy()
    expected_loss, expected_in, expected_second = _reference(sg, mode, W_in, W_out, W_inner, inputs,
                                                             output, negatives, mean, lockf)
    loss = _kernel_step(sg, mode, W_in, W_out, W_inner, inputs, output, negatives, mean, lockf)
    second = W_inner if mode == K.HIERARCHICAL_SOFTMAX else W_out
    assert loss == pytest.approx(expected_loss, rel=1e-5)
    np.testing.assert_allclose(W_in, expected_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second, expected_second, rtol=1e-5, atol=1e-6)
    if lockf is LOCKS:  # the locked input row did not move, bit for bit
        np.testing.assert_array_equal(W_in[3], before[3])
    else:
        assert not np.array_equal(W_in[3], before[3])


def test_saturated_terms_are_counted_in_the_loss():
    W_in, W_out, W_inner = _matrices(0)
    W_in[3] = 10.0
    W_out[4] = -10.0  # target score -600: sigma saturates, loss ~ 600
    loss = _kernel_step(1, K.NEGATIVE_SAMPLING, W_in, W_out, W_inner, 3, 4, [2])
    assert loss > 590.0 and np.isfinite(loss)


def test_loss_of_many_negatives_does_not_overflow():
    """K + 1 terms at score 0 each contribute log 2; their product of (1 + e) factors is
    2^(K+1), past float32's range for K = 500 (allowed up to 1000)."""
    W_in, W_out, W_inner = _matrices(0)
    W_out[:] = 0.0
    neu1e, coeff = np.zeros(D, np.float32), np.zeros(501, np.float32)
    loss = K.skipgram_step(K.Matrices(W_in, W_out, W_inner), _outputs(), 3, 4, _settings(1, K.NEGATIVE_SAMPLING),
                           np.full(500, 2, dtype=np.int64), np.float32(ALPHA), neu1e, coeff)
    assert loss == pytest.approx(501 * np.log(2.0), rel=1e-5)


def test_alias_sampler_matches_distribution():
    p = np.array([0.5, 0.25, 0.125, 0.0625, 0.0625])
    table = K.pack_alias_table(*alias_table(p))
    draws = _draw_many(table, 200_000)
    freq = np.bincount(draws, minlength=p.size) / draws.size
    np.testing.assert_allclose(freq, p, atol=0.005)


def _draw_many(table, n):
    state = np.array([12345], dtype=np.uint64)
    return np.array([K.draw_alias(table, state) for _ in range(n)])


def _toy_corpus(seed=0, docs=40):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 60, size=docs)
    ids = rng.integers(0, V, size=lengths.sum()).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    return ids, offsets


def _run_chunk(ids, offsets, begin, end, W_in, W_out, sg, sample_keep=1.0, seed=7, mode=K.NEGATIVE_SAMPLING,
               batched=False, lockf=K.NO_LOCKS):
    keep = np.full(V, sample_keep, dtype=np.float32)
    noise = K.pack_alias_table(*alias_table(np.full(V, 1.0 / V)))
    W_inner = np.zeros((V - 1, D), np.float32)
    return K.train_chunk(K.Corpus(ids, offsets, keep), begin, end, K.Matrices(W_in, W_out, W_inner),
                         K.Outputs(POINTS, CODES, LENGTHS, noise),
                         K.make_settings(sg, mode, True, 3, 2, True, batched, lockf=lockf),
                         K.make_schedule(0.025, 0.0001, 0, int(offsets[-1]), seed))


@pytest.mark.parametrize("sg", [1, 0])
def test_chunk_counts_every_token_and_examples(sg):
    ids, offsets = _toy_corpus()
    W_in, W_out, _ = _matrices(1)
    total = 0
    for begin, end in [(0, 13), (13, 14), (14, 40)]:
        loss, stats = _run_chunk(ids, offsets, begin, end, W_in, W_out, sg, sample_keep=0.3)
        assert np.isfinite(loss) and loss > 0
        total += stats[K.STAT_WORDS]
    assert total == ids.size  # subsampling never hides tokens from the count


def test_chunk_without_subsampling_counts_cbow_examples():
    ids, offsets = _toy_corpus()
    W_in, W_out, _ = _matrices(2)
    _, stats = _run_chunk(ids, offsets, 0, 40, W_in, W_out, 0)
    one_word_docs = int(np.sum(np.diff(offsets) == 1))
    assert stats[K.STAT_EXAMPLES] == ids.size - one_word_docs  # every word with a context


def test_chunk_is_deterministic_for_a_seed():
    ids, offsets = _toy_corpus()
    results = []
    for seed in (7, 7, 8):
        W_in, W_out, _ = _matrices(3)
        loss, _ = _run_chunk(ids, offsets, 0, 40, W_in, W_out, 1, sample_keep=0.5, seed=seed)
        results.append((loss, W_in.copy()))
    assert results[0][0] == results[1][0] and np.array_equal(results[0][1], results[1][1])
    assert not np.array_equal(results[0][1], results[2][1])


@pytest.mark.parametrize("sg, batched", [(1, False), (1, True), (0, False)])
def test_lock_factors_of_one_train_bitwise_as_no_factors(sg, batched):
    """gensim's vectors_lockf all ones is the plain step, bit for bit (deterministic runs
    keep their results); a zero factor keeps its row exactly, the others train."""
    ids, offsets = _toy_corpus()
    runs = []
    for lockf in (K.NO_LOCKS, np.ones(V, np.float32), LOCKS):
        W_in, W_out, _ = _matrices(4)
        before = W_in.copy()
        loss, _ = _run_chunk(ids, offsets, 0, 40, W_in, W_out, sg, mode=NS | HS, batched=batched, lockf=lockf)
        runs.append((loss, W_in, W_out))
    (plain_loss, plain_in, plain_out), (ones_loss, ones_in, ones_out), (_, locked_in, _) = runs
    assert plain_loss == ones_loss
    np.testing.assert_array_equal(plain_in, ones_in)
    np.testing.assert_array_equal(plain_out, ones_out)
    np.testing.assert_array_equal(locked_in[3], before[3])
    assert not np.array_equal(locked_in[[0, 1, 8]], before[[0, 1, 8]])


# -- skip-gram windows as one step (batched=True) ---------------------------------------


def _window_reference(mode, W_in, W_out, W_inner, inputs, output, negatives, lockf=None):
    W_in, W_out, W_inner = (W.astype(np.float64) for W in (W_in, W_out, W_inner))
    loss, params, grads = 0.0, [W_in, W_out, W_inner], [np.zeros_like(W_in), 0.0, 0.0]
    if mode & K.HIERARCHICAL_SOFTMAX:
        path = (POINTS[output, :LENGTHS[output]], CODES[output, :LENGTHS[output]])
        l, d_in, d_inner = ref.skipgram_hierarchical_softmax_window(W_in, W_inner, inputs, *path)
        loss, grads[0], grads[2] = loss + l, grads[0] + d_in, d_inner
    if mode & K.NEGATIVE_SAMPLING:
        l, d_in, d_out = ref.skipgram_negative_sampling_window(W_in, W_out, inputs, output, negatives)
        loss, grads[0], grads[1] = loss + l, grads[0] + d_in, d_out
    return (loss, *ref.sgd_step(params, grads, ALPHA, lockf))


@pytest.mark.parametrize("lockf", [None, LOCKS], ids=["no-locks", "locked"])
@pytest.mark.parametrize("mode", [NS, HS, NS | HS])
@pytest.mark.parametrize("negatives", [PLAIN, TARGET_DRAWN, REPEATED])
@pytest.mark.parametrize("inputs", [[0, 3, 5, 8], [0, 3, 3, 8]])  # distinct, a repeated input word
def test_one_kernel_window_step_equals_reference_batched_step(mode, negatives, inputs, lockf):
    W_in, W_out, W_inner = _matrices(20 + mode)
    output = 5
    expected_loss, expected_in, expected_out, expected_inner = _window_reference(
        mode, W_in, W_out, W_inner, inputs, output, negatives, lockf)
    n, width = len(inputs), max(POINTS.shape[1], len(negatives) + 1)
    H, E = np.zeros((n + 1, D), np.float32), np.zeros((n + 1, D), np.float32)
    buffers = K.WindowBuffers(H, E, np.zeros((n + 1, width), np.float32), np.zeros(width, np.int64), np.zeros(width),
                              np.zeros(D, np.float32))
    loss = K.skipgram_window_step(K.Matrices(W_in, W_out, W_inner), _outputs(), np.array(inputs, np.int32), n, output,
                                  mode, np.array(negatives, np.int64), np.float32(ALPHA), buffers,
                                  K.NO_LOCKS if lockf is None else lockf)
    assert loss == pytest.approx(expected_loss, rel=1e-5)
    np.testing.assert_allclose(W_in, expected_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(W_out, expected_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(W_inner, expected_inner, rtol=1e-5, atol=1e-6)


def test_merge_replicas_adds_each_workers_delta_in_order():
    rng = np.random.default_rng(3)
    base = rng.normal(size=(7, 5)).astype(np.float32)
    W = base + rng.normal(size=base.shape).astype(np.float32)
    replicas = np.stack([base + rng.normal(size=base.shape).astype(np.float32) for _ in range(2)])
    expected = W.copy()
    for k in range(2):
        expected += replicas[k] - base
    untouched = W[5:].copy()
    K.merge_replicas(W, replicas, base, 0, 5)  # one band of rows
    np.testing.assert_array_equal(W[:5], expected[:5])
    np.testing.assert_array_equal(W[5:], untouched)
    for copy in (base, replicas[0], replicas[1]):
        np.testing.assert_array_equal(copy[:5], W[:5])


# -- the chunk loop's own examples against the one-step functions -------------------------


@pytest.mark.parametrize("lockf", [None, LOCKS], ids=["no-locks", "locked"])
@pytest.mark.parametrize("concurrent", [False, True])
@pytest.mark.parametrize("sg, mode, dim", [(1, NS, D), (1, HS, D), (1, NS | HS, D), (0, NS, D), (0, HS, D),
                                           (1, NS | HS, K.CONSTANT_VECTOR_SIZES[0])])
def test_chunk_loop_takes_the_same_steps_as_the_step_functions(sg, mode, dim, concurrent, lockf):
    """train_chunk inlines the output layers into its loop with D read from the arrays
    (D = 6) or as a compile-time constant (the sizes of CONSTANT_VECTOR_SIZES); replaying its random
    draws through skipgram_step / cbow_step (held to the reference above) must give the
    same matrices.  ``concurrent`` skip-gram HS trains each window against a local copy
    of the path, added back at the window's end: alone, the same steps."""
    doc = np.array([0, 4, 3, 8, 4, 1, 2, 4], dtype=np.int32)
    offsets = np.array([0, doc.size], dtype=np.int64)
    keep = np.ones(V, np.float32)  # no subsampling: no draws for it
    noise = K.pack_alias_table(*alias_table(np.full(V, 1.0 / V)))
    seed, negative, window = 11, 3, 1  # window 1: the reduced window is always 1
    W_in, W_out, W_inner = ((np.repeat(W, -(-dim // D), axis=1)[:, :dim] / np.sqrt(dim / D)).astype(np.float32)
                            for W in _matrices(sg * 10 + mode))  # scores of the same size for any dim
    before = W_in.copy()
    chunk = [W.copy() for W in (W_in, W_out, W_inner)]
    settings = K.make_settings(sg, mode, True, window, negative, True, False,
                               lockf=K.NO_LOCKS if lockf is None else lockf)
    loss, stats = K.train_chunk(K.Corpus(doc, offsets, keep), 0, 1, K.Matrices(*chunk),
                                K.Outputs(POINTS, CODES, LENGTHS, noise), settings,
                                K.make_schedule(ALPHA, ALPHA, 0, doc.size, seed), concurrent=concurrent)

    state = np.array([seed], dtype=np.uint64)
    neu1, neu1e, coeff = np.zeros((1, dim), np.float32), np.zeros(dim, np.float32), np.zeros(V, np.float32)
    expected_loss, negatives = 0.0, np.zeros(negative if mode & NS else 0, dtype=np.int64)
    matrices, outputs = K.Matrices(W_in, W_out, W_inner), _outputs(noise)
    for i in range(doc.size):
        K.below(state, window)
        context = np.array([doc[j] for j in (i - 1, i + 1) if 0 <= j < doc.size], dtype=np.int32)
        if sg:
            negatives[:] = [K.draw_alias(noise, state) for _ in range(negatives.size)]
            for word in context:
                expected_loss += K.skipgram_step(matrices, outputs, word, doc[i], settings, negatives,
                                                 np.float32(ALPHA), neu1e, coeff)
        else:
            negatives[:] = [K.draw_alias(noise, state) for _ in range(negatives.size)]
            expected_loss += K.cbow_step(matrices, outputs, context, context.size, doc[i], settings, negatives,
                                         np.float32(ALPHA), neu1, neu1e, coeff)
    assert stats[K.STAT_EXAMPLES] == (2 * doc.size - 2 if sg else doc.size)
    assert loss == pytest.approx(expected_loss, rel=1e-5)
    for got, want in zip(chunk, (W_in, W_out, W_inner)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert not np.array_equal(chunk[0], before)  # it trained
    if lockf is not None:
        np.testing.assert_array_equal(chunk[0][3], before[3])  # but not the locked row


def test_the_argument_tables_compile_once_as_plain_structs():
    """The kernels take named tuples (Corpus, Matrices, Outputs, Settings, Schedule): Numba
    must compile them (nopython: njit has no object mode) into one specialisation that
    calls with other values reuse -- make_settings / make_schedule fix the types.  Their
    speed against the spelled-out arguments: benchmarks/results/checks/epoch-ab-20261125.json."""
    ids, offsets = _toy_corpus(docs=5)
    W_in, W_out, _ = _matrices(3)
    before = len(K.train_chunk_compiled.signatures)
    _run_chunk(ids, offsets, 0, 5, W_in, W_out, 1, seed=1)
    _run_chunk(ids, offsets, 1, 4, W_in, W_out, 1, sample_keep=0.5, seed=99)  # other values, same types
    signatures = K.train_chunk_compiled.signatures
    assert len(signatures) - before <= 1
    corpus, _, _, matrices, outputs, settings, schedule = signatures[-1][:7]
    for table in (corpus, matrices, outputs, settings, schedule):
        assert isinstance(table, (types.NamedTuple, types.NamedUniTuple)), table
    assert [str(t) for t in settings.types] == ["int64", "int64", "bool", "int64", "int64", "bool", "bool", "bool",
                                                "array(float32, 1d, C)"]


@pytest.mark.parametrize("sg", [0, 1], ids=["cbow", "sg"])
def test_concurrent_hs_trains_the_nodes_nearest_the_root_in_a_block_of_its_own(sg):
    """With concurrent threads, HS trains the TOP_NODES rows nearest the root in the
    thread's own block and adds the block's change to W_inner every TOP_FLUSH positions and
    at the chunk's end (skip-gram the rest of the path in a window-local block): alone, the
    same steps as training W_inner in place, up to the rounding of adding the changes back.
    The tree has more inner nodes than the block, so paths run through both."""
    from wordvec.data.huffman import build_huffman

    rng = np.random.default_rng(5)
    words, dim = 400, 8
    tree = build_huffman(np.sort(rng.zipf(1.4, words).clip(1, 10**6))[::-1])
    cut = (words - 1) - K.TOP_NODES
    assert any(tree.points[w, 0] >= cut > tree.points[w, tree.lengths[w] - 1] for w in range(words))
    doc = rng.integers(0, words, size=3 * K.TOP_FLUSH + 17).astype(np.int32)  # flushes in the chunk and at its end
    corpus = K.Corpus(doc, np.array([0, doc.size], np.int64), np.ones(words, np.float32))
    outputs = K.Outputs(tree.points, tree.codes, tree.lengths, np.zeros(1, np.uint64))
    settings = K.make_settings(sg, HS, True, 2, 0, True, False)
    start = [rng.normal(scale=0.3, size=(rows, dim)).astype(np.float32) for rows in (words, words, words - 1)]
    trained = {}
    for concurrent in (False, True):
        matrices = K.Matrices(*(W.copy() for W in start))
        schedule = K.make_schedule(ALPHA, ALPHA, 0, doc.size, 3)
        loss, _ = K.train_chunk(corpus, 0, 1, matrices, outputs, settings, schedule, concurrent=concurrent)
        trained[concurrent] = (loss, matrices)
    (loss, alone), (loss_block, block) = trained[False], trained[True]
    assert loss_block == pytest.approx(loss, rel=1e-5)
    for got, want in zip(block, alone):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert not np.array_equal(block.W_inner[cut:], start[2][cut:])  # the block's change reached W_inner


def test_the_logistic_terms_exp_is_float64_exp_rounded_to_within_one_unit():
    """``exp_nonpositive`` (the inline exp of :func:`K.logistic_term`) against exp in float64
    rounded to float32: random scores, the powers of two from 2^-30 to 2^6, and the edges
    (0, the smallest normal, the underflow to zero near -104, -inf, NaN)."""
    rng = np.random.default_rng(0)
    edges = np.array([0.0, -0.0, -1e-30, -1e-7, -0.5, -87.33654, -103.27893, -103.97, -104.0, -104.5, -1e30],
                     dtype=np.float32)
    a = np.concatenate([-np.abs(rng.standard_normal(200_000)) * 8, -rng.uniform(0, 110, 200_000),
                        -np.ldexp(1.0, np.arange(-30, 7)), edges]).astype(np.float32)
    got = _exp_nonpositive_all(a)
    want = np.exp(a.astype(np.float64)).astype(np.float32)
    units = np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64))
    assert units.max() <= 1
    assert np.mean(units) < 1e-3  # the correctly rounded value but for a few arguments
    special = _exp_nonpositive_all(np.array([-np.inf, np.nan, -1e-45], dtype=np.float32))
    assert special[0] == 0.0 and np.isnan(special[1]) and special[2] == 1.0


@numba.njit
def _exp_nonpositive_all(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = exp_nonpositive(a[i])
    return out
