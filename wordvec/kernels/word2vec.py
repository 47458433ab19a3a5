"""Compiled word2vec training: the updates of ``wordvec.math.word2vec``, fast.

One call of :func:`train_chunk` trains a run of whole documents of the encoded corpus
with word2vec's procedure: frequent-word subsampling (``keep`` probabilities), a
reduced window (``b`` uniform in [0, window), effective window ``window - b``), and a
learning rate that is a pure function of the position of each document in the whole
training run (linear decay, :mod:`wordvec.data.schedule`).  The model runs several chunks
at once in Python threads; the kernels release the GIL (``nogil=True``) and update the
shared float32 matrices without locks (Hogwild), as word2vec.c and gensim do.

Every example performs exactly one reference SGD step (``wordvec.math.word2vec``):

    W <- W - alpha * dL/dW, every term evaluated at the parameters before the step

(CBOW's context rows each take the full ``-alpha dL/dh``, as in word2vec.c and gensim:
see ``wordvec.math.word2vec.cbow_step``), an input row's step times its factor in
``Settings.lockf`` where the model has one (gensim's ``vectors_lockf``, :func:`lock_factor`).

Per example, negative sampling first computes all its scores from the current rows,
then accumulates ``neu1e = -alpha dL/dh`` from the output rows *before* changing them,
then updates the rows; finally ``neu1e`` goes to the input row(s).  A negative equal
to the target, or a repeated negative, therefore gets both updates from the same
pre-step rows (seed 004, section 2.2).  word2vec.c/gensim interleave per term instead
(and skip a negative equal to the target); the difference is O(alpha^2).  Hierarchical
softmax takes the same three passes over its path; a path never repeats a node, so
that is word2vec.c's one visit per node to the bit, and exactly the reference step.

The loss is the exact objective, saturated terms included: for each logistic term
``-log sigma(z) = max(-z, 0) + log(1 + exp(-|z|))``; the ``exp(-|z|)`` also gives the
sigmoid, and the ``log(1 + ...)`` factors are multiplied and logged once per example,
so an exact loss costs one ``exp`` per term and one ``log`` per example.  The logistic
is computed in float32, the precision of the parameters it updates.

Speed: the output layers are inlined into the chunk loop, which Numba compiles with D a
constant for the vector sizes of ``wordvec.kernels.sizes`` (:func:`vector_size_token`;
other sizes share one kernel).  With a constant D LLVM unrolls the row loops completely
and keeps the input row and ``neu1e`` in vector registers across the output rows; with
D known only at run time, a 100-float row went through a 64-wide vector loop, an 8-wide
remainder loop and a scalar tail, and the per-example state through memory.  Together
with a branch-free logistic: 2.0-2.8x faster per epoch for the same steps.  With several
threads, skip-gram HS trains each window against a window-local copy of the centre
word's Huffman path (``concurrent``), so the rows near the root, which are
on every path, change hands between the cores once per window instead of once per pair;
and both architectures train the TOP_NODES rows nearest the root in a block of each
thread's own, added back every TOP_FLUSH positions (mean epoch at 2 workers: CBOW HS 0.73x,
skip-gram HS 0.86x; ``benchmarks/results/checks/epoch-ab-{cbow,sg}-hs-top-block-20261128.json``).
The examples wait on memory (rows scattered over matrices larger than a core's caches),
so where a position's random numbers are drawn once for all its examples (CBOW, shared
or batched skip-gram) the loop draws position i+1's -- the same stream in the same
order -- before position i's examples, and prefetches the rows they name
(``wordvec.kernels.prefetch``), as the Doc2Vec kernels do: the same bits, and the next
misses overlap this position's arithmetic (best epochs at 2 workers, 3M tokens: cbow-ns
0.72x, sg-ns 0.75x, sg-hs 0.90x, cbow-hs unchanged;
``benchmarks/results/checks/epoch-ab-prefetch-next-position-20261128.json``).

Random numbers: word2vec's 64-bit linear congruential generator (``kernels/random.py``),
using only its high bits; each chunk gets its own
state derived from the seed (see ``wordvec.models.word2vec.model``), so results do not depend
on which thread ran which chunk.

Shapes: V vocabulary, D vector size, K negatives, L Huffman code length.
"""

from collections import namedtuple

import numba
import numpy as np

from wordvec.kernels.borrowed import borrowed
from wordvec.kernels.exp import exp_nonpositive
from wordvec.kernels.prefetch import prefetch_row
from wordvec.kernels.random import SHIFT_32, below, lcg_next, uniform
from wordvec.kernels.sizes import CONSTANT_VECTOR_SIZES, vector_size_token  # noqa: F401 (the kernels' own names)

LOW_32 = np.uint64(0xFFFFFFFF)

# Which output layer(s) an example trains (flags, so ns and hs can be combined as in gensim).
NEGATIVE_SAMPLING, HIERARCHICAL_SOFTMAX, FULL_SOFTMAX = 1, 2, 4

# Layout of the statistics a chunk returns.
STAT_WORDS, STAT_EXAMPLES = 0, 1

# Reassociation (vectorised sums, FMA contraction), but no "no NaN/inf" assumptions: a
# diverging run must still show a NaN loss.  A float division by zero gives inf as in
# NumPy (error_model="numpy") instead of raising: a check that may raise is a branch that
# keeps the loop over a path's scores (logistic_term's division) from being vectorised.
FAST = {"reassoc", "contract", "nsz", "arcp"}
jit = numba.njit(nogil=True, cache=True)
jit_fast = numba.njit(nogil=True, cache=True, fastmath=FAST, error_model="numpy")
jit_inline = numba.njit(nogil=True, cache=True, inline="always")  # no call per output row
# The per-example code: inlined into the (fastmath) chunk loop, whose flags it then takes.
jit_example = numba.njit(nogil=True, cache=True, fastmath=FAST, error_model="numpy", inline="always")

# The chunk kernels' arguments, grouped (named tuples: Numba compiles them into plain
# structs, unpacked once per chunk; tests/word2vec/test_kernels.py checks the speed):
Corpus = namedtuple("Corpus", "ids offsets keep")          # int32 ids, int64 document offsets, keep probs
Matrices = namedtuple("Matrices", "W_in W_out W_inner")    # the trained float32 matrices
Outputs = namedtuple("Outputs", "points codes lengths noise")  # Huffman paths, packed noise alias table
Settings = namedtuple("Settings", "sg mode cbow_mean window negative share_negatives batched shrink_windows lockf")
Schedule = namedtuple("Schedule", "alpha min_alpha words_before total_words seed")
# The buffers of the batched window step (:func:`skipgram_window_step`), allocated once per chunk.
WindowBuffers = namedtuple("WindowBuffers", "H E G rows labels acc")


# ``Settings.lockf`` when no input row has a factor of its own: every row trains at the full rate.
NO_LOCKS = np.ones(0, dtype=np.float32)


def make_settings(sg, mode, cbow_mean, window, negative, share_negatives, batched=False, shrink_windows=True,
                  lockf=NO_LOCKS):
    """A :data:`Settings` with the types the compiled kernels are specialised for;
    ``shrink_windows=False`` (gensim's) trains every word with the full ``window``.
    ``lockf``: float32 (V,), gensim's ``vectors_lockf``, one learning-rate factor per input
    row (:func:`lock_factor`; 0 locks the row), or empty (:data:`NO_LOCKS`): no factors."""
    return Settings(int(sg), int(mode), bool(cbow_mean), int(window), int(negative), bool(share_negatives),
                    bool(batched), bool(shrink_windows), np.ascontiguousarray(lockf, dtype=np.float32))


def make_schedule(alpha, min_alpha, words_before, total_words, seed):
    """A :data:`Schedule` with the types the compiled kernels are specialised for."""
    return Schedule(float(alpha), float(min_alpha), int(words_before), int(total_words), np.uint64(seed))


@jit_inline
def token_size(token, W):
    """The vector size: ``len(token)`` (a compile-time constant) or W's columns."""
    return len(token) if len(token) > 0 else W.shape[1]


# ---------------------------------------------------------------------------------------
# Random numbers and the alias sampler
# ---------------------------------------------------------------------------------------


def pack_alias_table(accept, alias):
    """Pack an alias table into one uint64 per column: (threshold << 32) | alias.

    ``threshold = floor(accept * 2^32)`` (2^32 - 1 when accept is 1), so a draw is one
    random column, one memory read and one comparison with 32 random bits.
    """
    accept = np.asarray(accept, dtype=np.float64)
    alias = np.asarray(alias, dtype=np.int64)
    threshold = np.minimum(np.floor(accept * 2.0**32), 2.0**32 - 1).astype(np.uint64)
    # accept = 1: a draw of exactly 2^32 - 1 falls to the alias, which is the column itself
    return (threshold << np.uint64(32)) | alias.astype(np.uint64)


@jit
def draw_alias(table, state):
    """One draw from the packed alias table (see :func:`pack_alias_table`)."""
    column = below(state, table.shape[0])
    entry = table[column]
    if lcg_next(state) < (entry >> SHIFT_32):
        return column
    return np.int64(entry & LOW_32)


# ---------------------------------------------------------------------------------------
# Row loops of the batched window step and the subword bags (the chunk loop's output
# layers write theirs out, with D a constant); the dot product in fastmath, so LLVM
# vectorises its reduction
# ---------------------------------------------------------------------------------------


# These loops index ``W[row, i]`` in place: a view ``W[row]`` takes and drops a
# reference on W's memory block, an atomic add on one cache line that every thread hits
# for every row it touches.


@jit_fast
def dot_rows(A, a, W, row):
    """A[a] . W[row]"""
    total = np.float32(0.0)
    for i in range(A.shape[1]):
        total += A[a, i] * W[row, i]
    return total


@jit_inline
def axpy_from_row(scale, W, row, y):
    """y += scale * W[row]"""
    for i in range(y.shape[0]):
        y[i] += scale * W[row, i]


@jit_inline
def axpy_to_row(scale, x, W, row):
    """W[row] += scale * x"""
    for i in range(x.shape[0]):
        W[row, i] += scale * x[i]


@jit_inline
def lock_factor(lockf, row):
    """The learning-rate factor of input row ``row``: gensim's ``vectors_lockf[row]`` (0.0
    locks the row), or 1 when ``lockf`` is empty.  The row then takes ``lockf[row] * neu1e``
    (reference: ``wordvec.math.word2vec.sgd_step``'s ``lockf``); a factor of 1 leaves the
    sum bitwise as it was (1 * x is x, and a fused multiply-add rounds once as the add did)."""
    return lockf[row] if lockf.shape[0] > 0 else np.float32(1.0)


@jit_inline
def logistic_term(x, label):
    """For a float32 score x and label 1/0: (sigma(x), 1 + exp(-|x|), max(-z, 0)) with
    z = ±x, all float32.

    The loss of the term is ``-log sigma(z) = max(-z, 0) + log(1 + exp(-|x|))``.
    exp is ``wordvec.kernels.exp.exp_nonpositive`` (within one unit in the last place of the
    correctly rounded value), arithmetic the compiler vectorises over a path's scores,
    where a call to the C library's ``expf`` per term kept the loop scalar (sg-ns and sg-hs epochs
    0.9x the time, ``benchmarks/results/checks/epoch-ab-inline-exp-1worker-20261128.json``).
    """
    one = np.float32(1.0)
    e = exp_nonpositive(-abs(x))
    r = one / (one + e)
    s = r if x >= 0 else e * r  # selects, not branches: the signs are coin flips to a
    z = (label + label - one) * x  # branch predictor (branches: sg-hs 1.26x slower)
    return s, one + e, max(-z, np.float32(0.0))


# ---------------------------------------------------------------------------------------
# Output layers: given the hidden vector h = H[hrow], update the output rows, accumulate
# neu1e = -alpha dL/dh, return the loss.  Skip-gram's h is its input row, read in place
# (H = W_in: nothing writes that row until the example ends); CBOW's and the subword
# models' h is a one-row buffer.  D: the vector size (a constant in train_chunk).
# ---------------------------------------------------------------------------------------


@jit_example
def negative_sampling_update(H, hrow, W_out, target, negatives, alpha, neu1e, coeff, D):
    """Reference: ``wordvec.math.word2vec.negative_sampling_output`` (seed 004 sec. 2).

    ``negatives`` (K,) are already drawn; ``coeff`` is a float32 buffer of >= K+1.  All
    scores first, then their logistic terms in a loop of their own, then neu1e, then the
    rows, as :func:`hierarchical_softmax_update` does.
    """
    count = negatives.shape[0] + 1
    for k in range(count):  # scores x = w_k . h from the rows before the step
        row = target if k == 0 else negatives[k - 1]
        x = np.float32(0.0)
        for i in range(D):
            x += W_out[row, i] * H[hrow, i]
        coeff[k] = x
    linear = np.float32(0.0)
    product = 1.0  # of K + 1 factors in (1, 2]: float64, as float32 overflows past 2^128
    for k in range(count):
        label = np.float32(1.0) if k == 0 else np.float32(0.0)
        s, one_plus_e, lin = logistic_term(coeff[k], label)
        linear += lin
        product *= np.float64(one_plus_e)
        coeff[k] = alpha * (label - s)  # -alpha dL/dx
    for k in range(count):  # neu1e from the rows before the step          (2.1)
        row = target if k == 0 else negatives[k - 1]
        for i in range(D):
            neu1e[i] += coeff[k] * W_out[row, i]
    for k in range(count):  # then the rows themselves (repeats get both)  (2.2)
        row = target if k == 0 else negatives[k - 1]
        for i in range(D):
            W_out[row, i] += coeff[k] * H[hrow, i]
    return np.float64(linear) + np.log(product)


@jit_example
def hierarchical_softmax_update(H, hrow, W_inner, points, codes, word, first, length, alpha, neu1e, coeff, D):
    """Reference: ``wordvec.math.word2vec.hierarchical_softmax_output`` (seed 002), for the
    nodes ``first..length-1`` of ``word``'s path (``first`` 0: the whole path).

    ``coeff`` is a float32 buffer of >= ``length``.  A path never visits a node twice and
    ``h`` does not change until the caller adds ``neu1e``, so every node's score comes
    from the rows before the step whatever the order: all scores first (independent dot
    products, whose row loads the core overlaps), then node by node neu1e's term from the
    row and the row's own step, in one pass over the row (no row is read after its step)
    -- the same sums in the same order as word2vec.c's one visit per node, so the same
    bits.  (Two passes, neu1e's then the rows': sg-hs 1.1x slower an epoch,
    ``benchmarks/results/checks/epoch-ab-hs-fused-row-loop-1worker-20261128.json``.)
    """
    linear = np.float32(0.0)
    product = 1.0  # float64: see negative_sampling_update
    for l in range(first, length):
        node = points[word, l]
        x = np.float32(0.0)
        for i in range(D):
            x += W_inner[node, i] * H[hrow, i]
        coeff[l] = x
    for l in range(first, length):
        label = np.float32(1.0) - np.float32(codes[word, l])
        s, one_plus_e, lin = logistic_term(coeff[l], label)
        linear += lin
        product *= np.float64(one_plus_e)
        coeff[l] = alpha * (label - s)  # -alpha dL/dx
    for l in range(first, length):  # neu1e from the row before its step, then the step
        node = points[word, l]
        g = coeff[l]
        for i in range(D):
            w = W_inner[node, i]
            neu1e[i] += g * w
            W_inner[node, i] = w + g * H[hrow, i]
    return np.float64(linear) + np.log(product)


@jit
def softmax_update(h, W_out, target, alpha, neu1e, scores):
    """Reference: ``wordvec.math.word2vec.softmax_output`` (seed 004 sec. 1).

    O(V D) per example through BLAS: meant for small vocabularies and for checking the
    approximate objectives, not for real corpora.  ``scores`` is a float32 buffer of >= V.
    """
    scores = scores[:W_out.shape[0]]
    scores[:] = np.dot(W_out, h)
    top = np.float64(scores.max())
    norm = 0.0
    for j in range(scores.shape[0]):
        norm += np.exp(np.float64(scores[j]) - top)
    log_norm = top + np.log(norm)
    loss = log_norm - np.float64(scores[target])
    for j in range(scores.shape[0]):  # coefficient -alpha (y_hat - t)
        scores[j] = np.float32(-alpha * np.exp(np.float64(scores[j]) - log_norm))
    scores[target] += np.float32(alpha)
    neu1e += np.dot(scores, W_out)
    for j in range(scores.shape[0]):
        axpy_to_row(scores[j], h, W_out, j)
    return loss


@jit_inline
def borrowed_tables(matrices, outputs):
    """``matrices`` and ``outputs`` with borrowed arrays (``wordvec.kernels.borrowed``), for a
    loop that hands them to the inlined :func:`output_update` every example: each inlined
    call takes and drops a reference to every array of the tables it is given, an atomic
    operation on counters the threads share, which a borrowed array skips."""
    return (Matrices(borrowed(matrices.W_in), borrowed(matrices.W_out), borrowed(matrices.W_inner)),
            Outputs(borrowed(outputs.points), borrowed(outputs.codes), borrowed(outputs.lengths),
                    borrowed(outputs.noise)))


@jit_example
def output_update(H, hrow, target, mode, matrices, outputs, negatives, alpha, neu1e, coeff, D):
    """All output layers selected by ``mode`` for one example; returns the loss.
    ``matrices`` (:data:`Matrices`: its ``W_out`` and ``W_inner``), ``outputs``
    (:data:`Outputs`: the Huffman paths)."""
    loss = 0.0
    if mode & HIERARCHICAL_SOFTMAX:
        loss += hierarchical_softmax_update(H, hrow, matrices.W_inner, outputs.points, outputs.codes, target, 0,
                                            outputs.lengths[target], alpha, neu1e, coeff, D)
    if mode & NEGATIVE_SAMPLING:
        loss += negative_sampling_update(H, hrow, matrices.W_out, target, negatives, alpha, neu1e, coeff, D)
    if mode & FULL_SOFTMAX:
        loss += softmax_update(H[hrow], matrices.W_out, target, alpha, neu1e, coeff)
    return loss


# ---------------------------------------------------------------------------------------
# One example of each architecture (reference: skipgram_* and cbow_* in math/word2vec)
# ---------------------------------------------------------------------------------------
#
# The chunk loop (train_chunk_compiled) calls the output layers itself, one
# inlining level below it: every further level of inlined calls that passes the arrays on
# cost ~35% on sg-hs (measured: the examples as functions calling output_update calling
# the layers, 2.96 s an epoch; the layers called from the loop, 2.07 s).  These functions
# are the same steps for one example, for the tests that hold a step to the reference.


@jit_example
def cbow_hidden(W_in, context, n_context, mean, neu1, D):
    """neu1[0] = h, the mean (or sum) of the context rows ``W_in[context[:n_context]]``."""
    for i in range(D):
        neu1[0, i] = 0.0
    for c in range(n_context):
        row = context[c]  # a local: a store to neu1 could alias ``context`` for all LLVM knows
        for i in range(D):
            neu1[0, i] += W_in[row, i]
    if mean:
        scale = np.float32(1.0 / n_context)
        for i in range(D):
            neu1[0, i] *= scale


@jit_example
def add_to_rows(neu1e, W, rows, n_rows, D):
    """W[rows[c]] += neu1e for c < n_rows (CBOW: every context row takes the full step)."""
    for c in range(n_rows):
        row = rows[c]
        for i in range(D):
            W[row, i] += neu1e[i]


@jit_example
def add_to_locked_rows(neu1e, W, rows, n_rows, lockf, D):
    """W[rows[c]] += lockf[rows[c]] * neu1e for c < n_rows: :func:`add_to_rows` with each row's
    :func:`lock_factor` (word2vec's CBOW)."""
    for c in range(n_rows):
        row = rows[c]
        f = lock_factor(lockf, row)
        for i in range(D):
            W[row, i] += f * neu1e[i]


@jit_example
def copy_path(W_inner, points, codes, word, first, length, path_rows, path_before, path_codes, D):
    """The rows and codes of nodes ``first..length-1`` of ``word``'s Huffman path into a
    window-local block: row l of ``path_rows`` (and of ``path_before``, kept unchanged) is
    node ``points[word, l]``."""
    for l in range(first, length):
        node = points[word, l]
        path_codes[0, l] = codes[word, l]
        for i in range(D):
            path_rows[l, i] = W_inner[node, i]
            path_before[l, i] = W_inner[node, i]


@jit_example
def add_path_change(W_inner, points, word, first, length, path_rows, path_before, D):
    """W_inner[path] += the block's change since :func:`copy_path` (nodes ``first..length-1``):
    added to whatever other threads wrote to those rows meanwhile, so no thread's update
    is lost."""
    for l in range(first, length):
        node = points[word, l]
        for i in range(D):
            W_inner[node, i] += path_rows[l, i] - path_before[l, i]


# HS with concurrent threads: the inner nodes nearest the root, trained in a block of the
# thread's own and added to W_inner every TOP_FLUSH positions (see train_chunk_compiled).
TOP_NODES, TOP_FLUSH = 64, 256


@jit_example
def top_of_path(points, codes, word, length, cut, top_points, top_codes):
    """The nodes of ``word``'s path at or above row ``cut`` of W_inner, as rows of the top
    block (``top_points[0, l]`` = ``points[word, l] - cut``); returns how many.  A parent
    node is made after its children, so a path, root first, has falling rows: those nodes
    are the path's first ones."""
    t = 0
    while t < length and points[word, t] >= cut:
        top_points[0, t] = points[word, t] - cut
        top_codes[0, t] = codes[word, t]
        t += 1
    return t


@jit_example
def add_top_change(W_inner, cut, top_rows, top_before, D):
    """W_inner[cut:] += the top block's change since the last call (added to whatever other
    threads wrote meanwhile, so no thread's update is lost); then the block, and its copy
    kept unchanged, take the sum: the other threads' changes reach this thread."""
    for k in range(top_rows.shape[0]):
        for i in range(D):
            w = W_inner[cut + k, i] + (top_rows[k, i] - top_before[k, i])
            W_inner[cut + k, i] = w
            top_rows[k, i] = w
            top_before[k, i] = w


@jit_fast
def skipgram_step(matrices, outputs, input_word, output_word, settings, negatives, alpha, neu1e, coeff):
    """One skip-gram example: h = W_in[input_word] (read in place); W_in[input_word] +=
    lockf[input_word] * neu1e.  ``matrices``: :data:`Matrices`; ``outputs``: :data:`Outputs`
    (its ``noise`` unused); ``settings``: :data:`Settings` (its ``mode`` and ``lockf``)."""
    W_in = matrices.W_in
    neu1e[:] = 0.0
    loss = output_update(W_in, input_word, output_word, settings.mode, matrices, outputs, negatives, alpha, neu1e,
                         coeff, W_in.shape[1])
    W_in[input_word] += lock_factor(settings.lockf, input_word) * neu1e
    return loss


@jit_fast
def cbow_step(matrices, outputs, context, n_context, output_word, settings, negatives, alpha, neu1, neu1e, coeff):
    """One CBOW example: h = mean (``settings.cbow_mean``) or sum of the context rows; each
    row then gets neu1e times its :func:`lock_factor`.  ``matrices``, ``outputs``,
    ``settings`` as in :func:`skipgram_step`; ``neu1``: a (1, D) buffer for h.

    Reference: ``wordvec.math.word2vec.cbow_step`` -- word2vec's CBOW step, which hands
    every context row the full ``-alpha dL/dh`` even for the mean (C times its true
    gradient step), as word2vec.c and gensim do.
    """
    W_in = matrices.W_in
    D = W_in.shape[1]
    cbow_hidden(W_in, context, n_context, settings.cbow_mean, neu1, D)
    neu1e[:] = 0.0
    loss = output_update(neu1, 0, output_word, settings.mode, matrices, outputs, negatives, alpha, neu1e, coeff, D)
    add_to_locked_rows(neu1e, W_in, context, n_context, settings.lockf, D)
    return loss


# ---------------------------------------------------------------------------------------
# Skip-gram, one window at a time (batched=True; reference: *_window in math/word2vec)
# ---------------------------------------------------------------------------------------


@jit
def batched_logistic_update(H, n, W, rows, labels, r, alpha, E, G, acc):
    """Reference: ``wordvec.math.word2vec.batched_logistic_output`` (Ji et al. 2016).

    The n hidden rows ``H[:n]`` against the r output rows ``W[rows[:r]]``: scores
    S = H O^T, then ``E += -alpha dJ/dH = G O`` from the rows before the step, then
    ``O += G^T H`` (G = -alpha dJ/dS), each output row written once with its rank-n
    update summed in ``acc``.  A repeated row gets both updates, as in the reference.
    ``G`` is a float32 buffer of at least n x r.
    """
    D = H.shape[1]
    loss = 0.0
    for c in range(n):  # S = H O^T, G = -alpha (sigma(S) - labels)
        linear = 0.0
        product = 1.0
        for l in range(r):
            s, one_plus_e, lin = logistic_term(dot_rows(H, c, W, rows[l]), labels[l])
            linear += lin
            product *= one_plus_e
            G[c, l] = alpha * (labels[l] - s)
        loss += linear + np.log(product)
    for c in range(n):  # E += G O, from the rows before the step
        for l in range(r):
            g, row = G[c, l], rows[l]
            for i in range(D):
                E[c, i] += g * W[row, i]
    for l in range(r):  # O += G^T H: one write per output row
        row = rows[l]
        for i in range(D):
            acc[i] = 0.0
        for c in range(n):
            g = G[c, l]
            for i in range(D):
                acc[i] += g * H[c, i]
        for i in range(D):
            W[row, i] += acc[i]
    return loss


@jit
def skipgram_window_step(matrices, outputs, context, n, output_word, mode, negatives, alpha, buffers, lockf):
    """One window of skip-gram as one step: the n input words ``context[:n]`` all predict
    ``output_word`` with the same negatives (or the same Huffman path), every term read
    at the parameters before the window.  Reference:
    ``wordvec.math.word2vec.skipgram_*_window``.  ``matrices``: :data:`Matrices`;
    ``outputs``: :data:`Outputs` (its ``noise`` unused); ``buffers``: :data:`WindowBuffers`,
    H, E (>= n x D), G (>= n x R), rows, labels (>= R), acc (D), R the longest path or K + 1;
    ``lockf``: :data:`Settings`'s, each input row's step times its :func:`lock_factor`.
    """
    W_in, W_out, W_inner = matrices
    points, codes, lengths, _ = outputs
    H, E, G, rows, labels, acc = buffers
    D = W_in.shape[1]
    for c in range(n):  # the input rows before the step (a repeated word: both read it)
        for i in range(D):
            H[c, i] = W_in[context[c], i]
            E[c, i] = 0.0
    loss = 0.0
    if mode & HIERARCHICAL_SOFTMAX:
        r = lengths[output_word]
        for l in range(r):
            rows[l] = points[output_word, l]
            labels[l] = 1.0 - codes[output_word, l]
        loss += batched_logistic_update(H, n, W_inner, rows, labels, r, alpha, E, G, acc)
    if mode & NEGATIVE_SAMPLING:
        r = negatives.shape[0] + 1
        rows[0], labels[0] = output_word, 1.0
        for k in range(negatives.shape[0]):
            rows[k + 1], labels[k + 1] = negatives[k], 0.0
        loss += batched_logistic_update(H, n, W_out, rows, labels, r, alpha, E, G, acc)
    for c in range(n):
        f = lock_factor(lockf, context[c])
        for i in range(D):
            W_in[context[c], i] += f * E[c, i]
    return loss


# ---------------------------------------------------------------------------------------
# The training loop over a chunk of documents
# ---------------------------------------------------------------------------------------


@jit
def longest_document(offsets, doc_begin, doc_end):
    """Tokens in the longest of documents ``doc_begin..doc_end-1`` (a buffer's size)."""
    longest = 0
    for d in range(doc_begin, doc_end):
        longest = max(longest, offsets[d + 1] - offsets[d])
    return longest


@jit_inline
def document_rate(alpha, min_alpha, position, total_words):
    """The learning rate of a document that starts at ``position`` of the whole run:
    alpha - (alpha - min_alpha) * position / total (linear decay, clamped at the end);
    ``wordvec.data.schedule.learning_rate`` in float32, for the compiled loops."""
    progress = min(1.0, position / total_words)
    return np.float32(alpha - (alpha - min_alpha) * progress)


@jit
def subsample(ids, start, stop, keep, state, sentence):
    """Copy the document ``ids[start:stop]`` into ``sentence``, keeping each word w with
    probability ``keep[w]`` (frequent-word subsampling); returns how many were kept."""
    n = 0
    for i in range(start, stop):
        w = ids[i]
        if keep[w] < 1.0 and keep[w] < uniform(state):
            continue
        sentence[n] = w
        n += 1
    return n


@jit_inline
def window_context(sentence, n, i, reach, context):
    """``context[:m]`` = the words of ``sentence[:n]`` at most ``reach`` positions from i,
    i itself excluded, in order; returns m."""
    m = 0
    for j in range(max(0, i - reach), min(n, i + reach + 1)):
        if j != i:
            context[m] = sentence[j]
            m += 1
    return m


@jit_inline
def start_document(ids, offsets, keep, d, alpha, min_alpha, position, total_words, state, sentence):
    """Document d of the chunk loop: its learning rate from its position in the whole run
    (linear decay), its words after frequent-word subsampling in ``sentence[:n]``;
    returns (n, lr, the position after it)."""
    start, stop = offsets[d], offsets[d + 1]
    lr = document_rate(alpha, min_alpha, position, total_words)
    n = subsample(ids, start, stop, keep, state, sentence)
    return n, lr, position + stop - start


@jit_inline
def draw_window(sentence, n, i, window, shrink, state, context):
    """The window around position i of ``sentence[:n]`` into ``context[:m]``; returns m.
    Its reach is reduced (``window - b``, ``b`` uniform in [0, window): word2vec's), or
    the full ``window`` when ``shrink`` is False (gensim's ``shrink_windows=False``)."""
    reach = window - below(state, window) if shrink else window
    return window_context(sentence, n, i, reach, context)


@jit_inline
def draw_position(window, shrink, noise, state, negatives, with_negatives):
    """A position's random numbers, in the order the chunk loop has always drawn them: its
    window's reach (:func:`draw_window`'s), then, ``with_negatives``, its K negatives."""
    reach = window - below(state, window) if shrink else window
    if with_negatives:
        for k in range(negatives.shape[0]):
            negatives[k] = draw_alias(noise, state)
    return reach


@jit_example
def prefetch_position(sentence, n, i, reach, negatives, matrices, outputs, mode, asked, D):
    """Ask for the rows position i will read (``wordvec.kernels.prefetch``): its output rows
    (the target's and the negatives' with negative sampling, its Huffman path's with
    hierarchical softmax) and the input rows of its window that no earlier window asked
    for (``sentence[:asked]``: the windows slide); returns the new ``asked``."""
    word = sentence[i]
    if mode & NEGATIVE_SAMPLING:
        prefetch_row(matrices.W_out, word, D)
        for k in range(negatives.shape[0]):
            prefetch_row(matrices.W_out, negatives[k], D)
    if mode & HIERARCHICAL_SOFTMAX:
        for l in range(outputs.lengths[word]):
            prefetch_row(matrices.W_inner, outputs.points[word, l], D)
    end = min(n, i + reach + 1)
    for j in range(max(asked, i - reach), end):
        prefetch_row(matrices.W_in, sentence[j], D)
    return max(asked, end)


# ---------------------------------------------------------------------------------------
# word2vec's chunk kernel: its window step in the document loop
# ---------------------------------------------------------------------------------------

def train_chunk(corpus, doc_begin, doc_end, matrices, outputs, settings, schedule, concurrent=False):
    """Train documents ``doc_begin..doc_end-1``; return (loss, [words, examples]).

    :func:`train_chunk_compiled` for the vector size of ``W_in`` (see
    :func:`vector_size_token`); the arguments are described there.
    """
    return train_chunk_compiled(corpus, doc_begin, doc_end, matrices, outputs, settings, schedule, concurrent,
                                vector_size_token(matrices.W_in.shape[1]))


@jit_fast
def train_chunk_compiled(corpus, doc_begin, doc_end, matrices, outputs, settings, schedule, concurrent, token):
    """Train documents ``doc_begin..doc_end-1``; return (loss, [words, examples]).

    The tables: ``corpus`` (:data:`Corpus`), ``matrices`` (:data:`Matrices`), ``outputs``
    (:data:`Outputs`), ``settings`` (:data:`Settings`), ``schedule`` (:data:`Schedule`).

    ``words_before``: tokens of the whole run (all epochs, before subsampling) trained
    before ``doc_begin`` (in this epoch's chunk order); the learning rate of a document
    is the linear schedule at its first token's position:
    alpha - (alpha - min_alpha) * pos / total.
    ``keep``: float32 (V,) subsampling keep probabilities (all 1 to disable).
    ``noise``: packed alias table (:func:`pack_alias_table`) of the noise distribution.
    ``share_negatives`` (skip-gram): draw the K negatives once per predicted (centre)
    word and use them for all its context pairs, instead of once per pair.  Each pair
    still takes exactly the reference step; only the draws are shared across the
    window, so the output rows stay in L1 cache (Ji et al. 2016 share them the same
    way).  About 1.5-2x faster; see ``benchmarks/`` for the quality comparison.
    ``batched`` (skip-gram, not full softmax): train each window as one step on its
    summed loss (:func:`skipgram_window_step`, HogBatch), negatives shared across it.
    ``words`` counts every token of the documents before subsampling.
    ``lockf``: each input row's step times its factor (:func:`lock_factor`), or no factors.
    ``concurrent``: other threads train in the same matrices at the same time (Hogwild);
    HS then trains the nodes nearest the root in a block of the thread's own, and
    skip-gram HS each window against a window-local copy of the rest of its path.
    ``token``: :func:`vector_size_token` of D.

    The chunk loop's steps (a document, a window) are the subword kernel's too:
    :func:`start_document`, :func:`draw_window` (here :func:`draw_position` one position
    ahead with :func:`prefetch_position`, where a position's draws serve all its
    examples: the same stream).  The window's examples are written out
    here, with the arrays unpacked and the buffers allocated in this function: a window
    step of its own reading them from a table took a reference count per array per window,
    1.13-1.69x the epoch time (benchmarks/results/checks/epoch-ab-20261126T1516-loops.json).
    """
    ids, offsets, keep = corpus
    W_in, W_out, W_inner = matrices
    points, codes, lengths, noise = outputs
    sg, mode, cbow_mean, window, negative, share_negatives, batched, shrink, lockf = settings
    alpha, min_alpha, words_before, total_words, seed = schedule
    D = token_size(token, W_in)
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    neu1 = np.zeros((1, D), dtype=np.float32)
    neu1e = np.zeros(D, dtype=np.float32)
    coeff_size = max(negative + 1, points.shape[1])
    if mode & FULL_SOFTMAX:
        coeff_size = max(coeff_size, W_out.shape[0])
    coeff = np.zeros(coeff_size, dtype=np.float32)
    negatives = np.zeros(negative if mode & NEGATIVE_SAMPLING else 0, dtype=np.int64)
    batch = sg and batched and not mode & FULL_SOFTMAX
    width = max(points.shape[1], negative + 1) if batch else 1
    H = np.zeros((2 * window if batch else 1, D), dtype=np.float32)
    E = np.zeros_like(H)
    G = np.zeros((H.shape[0], width), dtype=np.float32)
    rows = np.zeros(width, dtype=np.int64)
    labels = np.zeros(width, dtype=np.float64)
    # The batched window step's tables, borrowed: a call takes a reference to each array it
    # is given, and the tables' counters are shared with the other threads.  (Not the
    # buffers: this thread's own, and a local array is freed after its last use here.)
    window_matrices, window_outputs = borrowed_tables(matrices, outputs)
    window_buffers = WindowBuffers(H, E, G, rows, labels, neu1[0])
    window_lockf = borrowed(lockf)
    # Skip-gram HS with concurrent threads: every pair of a window predicts the centre
    # word, so all of them walk the same Huffman path.  The path's rows are copied into a
    # window-local block, the pairs update the block (the same steps, in the same order),
    # and the block's change is added to W_inner once per window.  The nodes near the root
    # are on every path: written once per window instead of once per pair, the threads'
    # caches trade those lines far less often (two workers: 1.2x faster an epoch).  One
    # thread has no one to trade with and would only pay the copies (7% slower).
    local_path = concurrent and sg and mode & HIERARCHICAL_SOFTMAX and not batch
    longest_path = points.shape[1] if local_path else 0
    path_rows = np.zeros((longest_path, D), dtype=np.float32)
    path_before = np.zeros((longest_path, D), dtype=np.float32)
    path_points = np.zeros((1, longest_path), dtype=points.dtype)  # node l of the block: row l
    path_codes = np.zeros((1, longest_path), dtype=codes.dtype)
    for l in range(longest_path):
        path_points[0, l] = l
    # HS with concurrent threads: every path starts at the root, so the rows of the nodes
    # nearest it are written by every position of every thread, and their cache lines move
    # between the cores on nearly every position (CBOW HS: two workers were often no
    # faster than one).  This thread trains the top TOP_NODES rows in a block of its own
    # and adds the block's change to W_inner every TOP_FLUSH positions
    # (:func:`add_top_change`): the same steps, each seeing the other threads' top-node
    # changes up to TOP_FLUSH positions late, as Hogwild sees any row a little late.  A
    # path's first ``top`` nodes come from the block, the rest from W_inner (skip-gram: from
    # the window-local block).
    n_top = min(TOP_NODES, W_inner.shape[0]) if concurrent and mode & HIERARCHICAL_SOFTMAX and not batch else 0
    cut = W_inner.shape[0] - n_top
    top_rows = np.zeros((n_top, D), dtype=np.float32)
    top_before = np.zeros((n_top, D), dtype=np.float32)
    top_points = np.zeros((1, points.shape[1] if n_top > 0 else 0), dtype=points.dtype)
    top_codes = np.zeros((1, top_points.shape[1]), dtype=codes.dtype)
    for k in range(n_top):
        for c in range(D):
            top_rows[k, c] = top_before[k, c] = W_inner[cut + k, c]
    positions = 0  # since the top block's last change was added
    sentence = np.zeros(longest_document(offsets, doc_begin, doc_end), dtype=np.int32)
    context = np.zeros(2 * window, dtype=np.int32)
    # With one draw of negatives per position (CBOW, shared or batched skip-gram), position
    # i+1's random numbers are drawn before position i's examples -- the same stream in the
    # same order -- and the rows they name are prefetched, so that their cache misses
    # overlap this position's arithmetic.  (Skip-gram drawing per pair draws in order.)
    draws_ahead = not sg or share_negatives or batch
    ahead = np.zeros_like(negatives)
    reach = 0
    loss = 0.0
    examples = 0
    position = words_before
    for d in range(doc_begin, doc_end):
        n, lr, position = start_document(ids, offsets, keep, d, alpha, min_alpha, position, total_words, state,
                                         sentence)
        if draws_ahead and n > 0:  # CBOW draws no negatives for a lone word (no context)
            reach = draw_position(window, shrink, noise, state, negatives, sg or n > 1)
        asked = 0  # the window rows of sentence[:asked] were prefetched
        for i in range(n):
            word = sentence[i]
            if draws_ahead:
                m = window_context(sentence, n, i, reach, context)
                if i + 1 < n:
                    reach = draw_position(window, shrink, noise, state, ahead, True)
                    asked = prefetch_position(sentence, n, i + 1, reach, ahead, window_matrices, window_outputs,
                                              mode, asked, D)
            else:
                m = draw_window(sentence, n, i, window, shrink, state, context)
            if batch:
                if m > 0:
                    loss += skipgram_window_step(window_matrices, window_outputs, context, m, word, mode, negatives,
                                                 lr, window_buffers, window_lockf)
                    examples += m
            else:
                top = 0
                if n_top > 0:
                    top = top_of_path(points, codes, word, lengths[word], cut, top_points, top_codes)
                inner, inner_points, inner_codes, inner_word = W_inner, points, codes, word
                if local_path:
                    copy_path(W_inner, points, codes, word, top, lengths[word], path_rows, path_before, path_codes, D)
                    inner, inner_points, inner_codes, inner_word = path_rows, path_points, path_codes, 0
                # The examples that predict ``word``: skip-gram one per context word, whose input
                # row is the hidden vector (H = W_in, read in place); CBOW one, whose hidden
                # vector is the context mean in ``neu1``.
                for e in range(m if sg else min(m, 1)):
                    if sg:
                        hidden, h = W_in, context[e]
                        if not draws_ahead:  # one draw per pair
                            for k in range(negatives.shape[0]):
                                negatives[k] = draw_alias(noise, state)
                    else:
                        hidden, h = neu1, 0
                        cbow_hidden(W_in, context, m, cbow_mean, neu1, D)
                    for c in range(D):
                        neu1e[c] = 0.0
                    if mode & HIERARCHICAL_SOFTMAX:  # output_update's layers, one inlining level down
                        if top > 0:  # the path's first nodes, from the top block
                            loss += hierarchical_softmax_update(hidden, h, top_rows, top_points, top_codes, 0, 0, top,
                                                                lr, neu1e, coeff, D)
                        loss += hierarchical_softmax_update(hidden, h, inner, inner_points, inner_codes, inner_word,
                                                            top, lengths[word], lr, neu1e, coeff, D)
                    if mode & NEGATIVE_SAMPLING:
                        loss += negative_sampling_update(hidden, h, W_out, word, negatives, lr, neu1e, coeff, D)
                    if mode & FULL_SOFTMAX:
                        loss += softmax_update(hidden[h], W_out, word, lr, neu1e, coeff)
                    if sg:
                        f = lock_factor(lockf, h)
                        for c in range(D):
                            W_in[h, c] += f * neu1e[c]
                    else:
                        add_to_locked_rows(neu1e, W_in, context, m, lockf, D)
                    examples += 1
                if local_path:
                    add_path_change(W_inner, points, word, top, lengths[word], path_rows, path_before, D)
            if draws_ahead:
                for k in range(negatives.shape[0]):
                    negatives[k] = ahead[k]
            positions += 1
            if n_top > 0 and positions == TOP_FLUSH:
                add_top_change(W_inner, cut, top_rows, top_before, D)
                positions = 0
    if n_top > 0:
        add_top_change(W_inner, cut, top_rows, top_before, D)
    stats = np.zeros(2, dtype=np.int64)  # written once: a store to ``stats`` could
    stats[STAT_WORDS] = position - words_before  # alias the matrices for all LLVM knows
    stats[STAT_EXAMPLES] = examples
    return loss, stats


# ---------------------------------------------------------------------------------------
# Deterministic multi-threaded training: merging the workers' replicas
# ---------------------------------------------------------------------------------------


@jit
def merge_replicas(W, replicas, base, begin, end):
    """Rows ``begin..end-1``: W <- W + sum_k (replicas[k] - base), the k in order; then
    base and every replica <- W (``wordvec.models.word2vec.sync``).  Each element's
    result depends only on that element's operands, in a fixed order: bitwise
    reproducible however the rows are split between threads."""
    for r in range(begin, end):
        for i in range(W.shape[1]):
            b = base[r, i]
            w = W[r, i]
            for k in range(replicas.shape[0]):
                w += replicas[k, r, i] - b
            W[r, i] = w
            base[r, i] = w
            for k in range(replicas.shape[0]):
                replicas[k, r, i] = w


def empty_arguments(vector_size):
    """A corpus, matrices, outputs, settings and schedule of the types training passes, with
    one row each: with an empty range of documents the kernel trains nothing."""
    ids = np.zeros(1, np.int32)
    ids.flags.writeable = False  # training reads the corpus through a read-only view
    tiny = np.zeros((1, vector_size), np.float32)
    corpus = Corpus(ids, np.zeros(2, np.int64), np.ones(1, np.float32))
    outputs = Outputs(np.zeros((1, 1), np.int32), np.zeros((1, 1), np.uint8), np.zeros(1, np.int32),
                      np.zeros(1, np.uint64))
    settings = make_settings(1, NEGATIVE_SAMPLING, True, 1, 1, True)
    return corpus, Matrices(tiny, tiny, tiny), outputs, settings, make_schedule(0.025, 0.0001, 0, 1, 0)


def warm_up(vector_size):
    """Load :func:`train_chunk` for ``vector_size`` (``wordvec.kernels.loader``)."""
    corpus, matrices, outputs, settings, schedule = empty_arguments(vector_size)
    train_chunk(corpus, 0, 0, matrices, outputs, settings, schedule)
