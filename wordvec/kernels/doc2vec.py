"""Compiled paragraph vectors: the steps of ``wordvec.math.doc2vec``, fast.

Both models are word2vec with one more input row, and every example here is one of
word2vec's output-layer steps (``wordvec.kernels.word2vec.negative_sampling_update`` and
``hierarchical_softmax_update``, the functions ``tests/word2vec/test_kernels.py`` holds to
``wordvec.math.word2vec``) with the document's row in the input:

* PV-DBOW (``dm=0``) is skip-gram whose input row is the document's row ``P[doc]``; with
  ``dbow_words`` each window's skip-gram pairs are trained too, interleaved;
* PV-DM (``dm=1``) is CBOW whose context also holds ``P[doc]`` (mean or sum);
* PV-DM with concatenation (gensim's ``dm_concat=1``, :func:`train_concat_document`):
  the hidden vector is the concatenation of the document's T rows and the 2W word rows
  around the predicted word (the null word's row past the document's ends), (T + 2W) D
  wide, and so are the output rows; the window never shrinks and each row takes its own
  block of ``neu1e`` (``wordvec.math.doc2vec.pv_dm_concat``).

One document loop (:func:`train_document`) serves training and inference.
:func:`train_documents` runs it over a run of whole documents: frequent-word subsampling
(``keep``), the reduced window (effective window ``window - b``, b uniform in
[0, window); ``Settings.shrink`` False: always ``window``, gensim's ``shrink_windows=False``,
with no number drawn for it) and a learning rate that is a pure function of the document's position in
the whole run, as in ``wordvec.kernels.word2vec``.  The model runs several chunks at once
in Python threads (``nogil``), updating the shared float32 matrices without locks
(Hogwild).  :func:`infer_documents` trains new documents' rows against frozen word and
output rows (gensim's ``infer_vector``), a whole file of documents in one call.  Each
document's random numbers come from (seed, its words) alone, so the result does not
depend on where it stands, how many threads share the documents or which one runs which.

The K negatives are drawn once per predicted word and serve every example that predicts
it (the document's row, and with ``dbow_words`` the window's context words): word2vec's
``share_negatives``.  Each example still takes exactly the reference step for its
negatives.  PV-DBOW without words and PV-DM have one example per predicted word, so for
them this is the plain one draw per example.

The examples wait on memory: the rows they read are scattered over matrices larger than
a core's caches, and each example needs the one before (the document's row changes).  So
the document loop draws position i+1's random numbers (its window, its negatives: the
same stream in the same order) before position i's examples and prefetches the rows
they name (``wordvec.kernels.prefetch``): the next misses overlap this example's
arithmetic.  A/B at 2 workers on imdb: PV-DBOW epochs 1.23x faster, PV-DM 1.12x,
inference 1.12x and 1.20x.

With several threads the most frequent words' rows were the bottleneck: every thread
writes "the", "a", "," ... example after example (sample 0 keeps them all), and each
write took the row's cache lines from the other core (2 workers spent 2.5 CPU s an PV-DBOW
epoch on imdb, two separate processes 1.85 each).  So :func:`train_documents` can train
the ``hot`` most frequent words in replica rows of the calling thread's own, past the
vocabulary's rows of W_in and W_out, and add their change to the shared rows when the
call (a chunk of ~20k words) ends: Hogwild for those rows a chunk late.  A/B at 2
workers on imdb, under the lock, 1024 words: PV-DBOW epoch 1.31 -> 1.03 s, PV-DM mean
2.72 -> 1.49 s, dbow_words 8.4 -> 5.5 s; one seed's imdb accuracy 88.90 -> 88.66
(PV-DBOW), 83.57 -> 83.87 (PV-DM mean).  One call with replicas takes the same steps as
without (tests/doc2vec/test_kernels.py).

The kernels use every array through :func:`wordvec.kernels.borrowed.borrowed` copies,
and their buffers are made by the caller (:func:`thread_buffers`): the example functions
are inlined into the loops, and each inlined call took and dropped a reference to each
array it was given (22 atomic operations an example, on counters the threads share).
A/B under the lock, imdb, on top of the replicas: PV-DBOW epoch (2 workers) 1.03 ->
0.68 s, one worker 1.85 -> 1.29 s; inference of the test documents (PV-DBOW, 2 workers)
3.7 -> 2.4 s, the same vectors.

Inference must not move the output rows, and word2vec's layers always update them, so
inference has one layer of its own (:func:`held_layer`): word2vec's logistic terms and
``neu1e`` without the rows' step.

PV-DM with the mean hands the document row and every context row the full ``neu1e``
(``wordvec.math.doc2vec.pv_dm_step``, as word2vec's CBOW).  The loss is the exact objective
of word2vec's layers, saturated terms included.

Shapes: N documents, V vocabulary, D vector size, K negatives, L Huffman path length.
"""

from collections import namedtuple

import numba
import numpy as np

from wordvec.kernels.word2vec import (
    HIERARCHICAL_SOFTMAX,
    NEGATIVE_SAMPLING,
    STAT_EXAMPLES,
    STAT_WORDS,
    Corpus,
    Matrices,
    Outputs,
    Schedule,
    add_to_rows,
    cbow_hidden,
    document_rate,
    draw_alias,
    hierarchical_softmax_update,
    logistic_term,
    make_schedule,
    negative_sampling_update,
    subsample,
    vector_size_token,
    window_context,
)
from wordvec.kernels.borrowed import borrowed
from wordvec.kernels.random import below, mix64, uniform
from wordvec.kernels.prefetch import prefetch_row

__all__ = ["HIERARCHICAL_SOFTMAX", "NEGATIVE_SAMPLING", "STAT_EXAMPLES", "STAT_WORDS", "vector_size_token",
           "Corpus", "Matrices", "Outputs", "Schedule", "Settings", "Inference", "Scratch", "make_schedule",
           "make_settings", "make_inference", "dbow_step", "dm_step", "dm_concat_step", "layer_width",
           "train_documents", "infer_documents",
           "document_seed", "warm_up", "warm_up_inference"]

FAST = {"reassoc", "contract", "nsz", "arcp"}  # no "no NaN" assumption: divergence must show
jit = numba.njit(nogil=True, cache=True)
jit_fast = numba.njit(nogil=True, cache=True, fastmath=FAST)
jit_example = numba.njit(nogil=True, cache=True, fastmath=FAST, inline="always")

# The arguments, grouped (named tuples, as ``wordvec.kernels.word2vec``'s; its ``Corpus``,
# ``Matrices``, ``Outputs`` and ``Schedule`` where the meaning is the same).  Inside a
# kernel every array in them is replaced by its :func:`borrowed` copy before the loops
# (``borrowed_corpus`` ...): an array taken out of a tuple in the example loop otherwise
# costs a reference-count increment and decrement on its memory block, atomic, on the
# matrices every thread shares (PV-DBOW 18% more CPU an epoch, inference 28%); a
# borrowed array has no block to count.
# ``concat``: the document rows T of PV-DM with concatenation (0: the other models);
# ``null_word``: the row that fills its window past a document's ends
Settings = namedtuple("Settings", "dm mode mean window negative dbow_words shrink concat null_word")
Replicas = namedtuple("Replicas", "hot base")  # words 0..hot-1 train in rows base + w (train_documents)
Inference = namedtuple("Inference", "epochs alpha min_alpha seed")  # infer_documents' schedule
Scratch = namedtuple("Scratch", "negatives neu1 neu1e coeff")  # one example's buffers (dbow_step, dm_step)
# one thread's buffers (new_buffers, then the random state)
Buffers = namedtuple("Buffers", "sentence context negatives ahead neu1 neu1e coeff rows labels state")


def make_settings(dm, mode, mean, window, negative, dbow_words, shrink=True, concat=0, null_word=0):
    """A :data:`Settings` with the types the compiled kernels are specialised for:
    ``negative`` is 0 without negative sampling, ``dbow_words`` False with PV-DM;
    ``shrink=False`` is gensim's ``shrink_windows=False``: every window reaches ``window``;
    ``concat`` T > 0 (with ``dm``): PV-DM with concatenation of T document rows, the
    window padded with row ``null_word``."""
    negative = int(negative) if int(mode) & NEGATIVE_SAMPLING else 0
    concat = int(concat) if int(dm) else 0
    return Settings(int(dm), int(mode), bool(mean), int(window), negative, bool(dbow_words) and not int(dm),
                    bool(shrink), concat, int(null_word))


def layer_width(settings, D):
    """The hidden layer's width: (T + 2W) D with concatenation, else D."""
    return (settings.concat + 2 * settings.window) * D if settings.concat else D


def make_inference(epochs, alpha, min_alpha, seed):
    """An :data:`Inference` with the types the compiled kernels are specialised for."""
    return Inference(int(epochs), float(alpha), float(min_alpha), np.uint64(seed))


@jit_example
def new_buffers(longest, window, negative, points, D):
    """(sentence, context, negatives, ahead, neu1, neu1e, coeff, rows, labels): one
    thread's buffers, for documents of at most ``longest`` tokens; ``ahead`` holds the next
    position's negatives, ``rows`` and ``labels`` an inference example's output rows and
    labels."""
    width = max(negative + 1, points.shape[1])
    return (np.zeros(max(longest, 1), dtype=np.int32), np.zeros(2 * window, dtype=np.int32),
            np.zeros(negative, dtype=np.int64), np.zeros(negative, dtype=np.int64), np.zeros((1, D), dtype=np.float32),
            np.zeros(D, dtype=np.float32),
            np.zeros(negative + 1, dtype=np.float32), np.zeros(width, dtype=np.int64),
            np.zeros(width, dtype=np.float32))


# ---------------------------------------------------------------------------------------
# One example: word2vec's output layers for hidden vector H[hrow]
# ---------------------------------------------------------------------------------------


@jit_example
def predict(H, hrow, word, mode, matrices, outputs, buffers, lr, frozen, count_loss, D):
    """``neu1e`` <- -lr dJ/dh for H[hrow] predicting ``word`` (negatives already drawn),
    through word2vec's output layers, whose output rows take their step; or, ``frozen``
    (inference), through :func:`held_layer`, which leaves them as they are.  Returns the loss
    (inference: 0 unless ``count_loss``)."""
    W_out, W_inner = matrices.W_out, matrices.W_inner
    points, codes, lengths = outputs.points, outputs.codes, outputs.lengths
    negatives, neu1e, coeff, rows, labels = buffers.negatives, buffers.neu1e, buffers.coeff, buffers.rows, buffers.labels
    for i in range(D):
        neu1e[i] = 0.0
    loss = 0.0
    if mode & HIERARCHICAL_SOFTMAX:
        if frozen:
            for l in range(lengths[word]):
                rows[l], labels[l] = points[word, l], np.float32(1.0) - np.float32(codes[word, l])
            loss += held_layer(H, hrow, W_inner, rows, labels, lengths[word], lr, neu1e, count_loss, D)
        else:
            loss += hierarchical_softmax_update(H, hrow, W_inner, points, codes, word, 0, lengths[word], lr, neu1e,
                                                labels, D)  # ``labels``, as wide as a path: its coefficients
    if mode & NEGATIVE_SAMPLING:
        if frozen:
            rows[0], labels[0] = word, np.float32(1.0)
            for k in range(negatives.shape[0]):
                rows[k + 1], labels[k + 1] = negatives[k], np.float32(0.0)
            loss += held_layer(H, hrow, W_out, rows, labels, negatives.shape[0] + 1, lr, neu1e, count_loss, D)
        else:
            loss += negative_sampling_update(H, hrow, W_out, word, negatives, lr, neu1e, coeff, D)
    return loss


@jit_example
def held_layer(H, hrow, W, rows, labels, count, alpha, neu1e, count_loss, D):
    """Inference's output layer: word2vec's logistic terms of H[hrow] against the rows
    ``W[rows[:count]]`` with ``labels`` (negative sampling: the target and the negatives;
    HS: the Huffman path and 1 - code), accumulating ``neu1e``, but *not* the rows' own
    step (``wordvec.math.doc2vec.inference_gradient``).  word2vec's layers always take
    that step, and running them on a scratch copy of the rows cost inference 20-50%.
    The terms are word2vec's ``logistic_term``; the loss is exact, as there.  Every score
    first, then ``neu1e`` (as word2vec's negative sampling): the rows' loads are then
    independent of one another and overlap.  ``labels[:count]`` is overwritten with
    the terms' coefficients -alpha dJ/dx.  Inference reports only its last epoch's loss:
    without ``count_loss`` the example's ``log`` is skipped and 0 returned."""
    linear = np.float32(0.0)
    product = 1.0  # float64: see wordvec.kernels.word2vec.negative_sampling_update
    for k in range(count):
        row = rows[k]
        x = np.float32(0.0)
        for i in range(D):
            x += W[row, i] * H[hrow, i]
        s, one_plus_e, lin = logistic_term(x, labels[k])
        linear += lin
        product *= np.float64(one_plus_e)
        labels[k] = alpha * (labels[k] - s)
    for k in range(count):
        row, g = rows[k], labels[k]
        for i in range(D):
            neu1e[i] += g * W[row, i]
    return np.float64(linear) + np.log(product) if count_loss else 0.0


@jit_example
def add_to_row(neu1e, W, row, D):
    for i in range(D):
        W[row, i] += neu1e[i]


@jit_example
def draw_negatives(negatives, noise, state):
    for k in range(negatives.shape[0]):
        negatives[k] = draw_alias(noise, state)


@jit_example
def dm_hidden(P, doc, W_in, context, m, mean, neu1, D):
    """neu1[0] = h: CBOW's hidden vector with the document's row as one more context row,
    (P[doc] + sum_c W_in[context[c]]) / (1 + m) (mean) or the sum."""
    cbow_hidden(W_in, context, m, False, neu1, D)
    for i in range(D):
        neu1[0, i] += P[doc, i]
    if mean:
        scale = np.float32(1.0 / (1 + m))
        for i in range(D):
            neu1[0, i] *= scale


# ---------------------------------------------------------------------------------------
# The document loop, for training and inference
# ---------------------------------------------------------------------------------------


@jit_example
def draw_position(windowed, window, shrink, noise, state, negatives, hot, base):
    """A position's random numbers, in the stream's order: the reduced window's reach
    (``window - b``, b uniform in [0, window); models with a window; without ``shrink``
    the full ``window``, nothing drawn), then the K negatives (as rows:
    :func:`replica_row`).  Returns the reach."""
    if not windowed:
        reach = 0
    elif shrink:
        reach = window - below(state, window)
    else:
        reach = window
    draw_negatives(negatives, noise, state)
    for k in range(negatives.shape[0]):
        negatives[k] = replica_row(negatives[k], hot, base)
    return reach


@jit_example
def replica_row(word, hot, base):
    """The row that trains ``word`` in this call: its thread's replica ``base + word`` if it
    is one of the ``hot`` most frequent words (:func:`train_documents`), else its own."""
    return word + base if word < hot else word


@jit_example
def prefetch_position(sentence, n, i, reach, negatives, W_in, W_out, windowed, mode, asked, D):
    """Ask for the rows position i will read: its output rows (negative sampling) and
    the input rows of its window that no earlier window asked for (``sentence[:asked]``:
    the windows slide, so most of a window's rows were asked for already; the word at i
    itself is asked for too, as the next windows hold it); returns the new ``asked``.
    See ``wordvec.kernels.prefetch``."""
    if mode & NEGATIVE_SAMPLING:
        prefetch_row(W_out, sentence[i], D)
        for k in range(negatives.shape[0]):
            prefetch_row(W_out, negatives[k], D)
    if not windowed:
        return asked
    end = min(n, i + reach + 1)
    for j in range(max(asked, i - reach), end):
        prefetch_row(W_in, sentence[j], D)
    return max(asked, end)


@jit_example
def train_document(n, P, doc, matrices, outputs, settings, replicas, lr, buffers, learn_words, count_loss, D):
    """Every example of one (subsampled) document ``buffers.sentence[:n]``, row P[doc];
    ``learn_words=False`` is inference: the word and output rows stay as they are;
    ``settings.dbow_words``: its skip-gram pairs too.  Returns (loss, examples); inference's
    loss is 0 unless ``count_loss``.

    Position i+1's random numbers are drawn (into ``ahead``) before position i's examples
    and its rows prefetched: the stream is drawn in the same order as one position at a
    time, so every example is the same, only the next rows' cache misses overlap this one's
    arithmetic."""
    dm, mode, mean, window, _, skipgram, shrink, _, _ = settings
    hot, base = replicas
    W_in, W_out, noise = matrices.W_in, matrices.W_out, outputs.noise
    sentence, context, negatives, ahead = buffers.sentence, buffers.context, buffers.negatives, buffers.ahead
    neu1, neu1e, state = buffers.neu1, buffers.neu1e, buffers.state
    frozen = not learn_words
    windowed = dm or skipgram
    loss = 0.0
    examples = 0
    reach = draw_position(windowed, window, shrink, noise, state, negatives, hot, base) if n > 0 else 0
    asked = 0  # the window rows of sentence[:asked] were prefetched
    for i in range(n):
        word = sentence[i]
        m = window_context(sentence, n, i, reach, context) if windowed else 0
        if i + 1 < n:
            reach = draw_position(windowed, window, shrink, noise, state, ahead, hot, base)
            asked = prefetch_position(sentence, n, i + 1, reach, ahead, W_in, W_out, windowed, mode, asked, D)
        # ``negatives``: one draw serves every example predicting ``word``
        if dm:  # CBOW with the document's row: one example
            dm_hidden(P, doc, W_in, context, m, mean, neu1, D)
            loss += predict(neu1, 0, word, mode, matrices, outputs, buffers, lr, frozen, count_loss, D)
            add_to_row(neu1e, P, doc, D)
            if learn_words:
                add_to_rows(neu1e, W_in, context, m, D)
            examples += 1
        else:
            if skipgram:  # each context word predicts ``word``, then the document's row does
                for c in range(m):
                    loss += predict(W_in, context[c], word, mode, matrices, outputs, buffers, lr, False, True, D)
                    add_to_row(neu1e, W_in, context[c], D)
                examples += m
            loss += predict(P, doc, word, mode, matrices, outputs, buffers, lr, frozen, count_loss, D)
            add_to_row(neu1e, P, doc, D)
            examples += 1
        for k in range(negatives.shape[0]):
            negatives[k] = ahead[k]
    return loss, examples


@jit_example
def concat_slots(sentence, n, i, window, null_word, slots):
    """``slots[:2W]`` = the words at positions i-W..i+W of ``sentence[:n]``, i left out,
    ``null_word`` past either end (reference ``concat_slots``)."""
    m = 0
    for j in range(i - window, i + window + 1):
        if j != i:
            slots[m] = sentence[j] if 0 <= j < n else null_word
            m += 1


@jit_example
def concat_hidden(P, tag_rows, W_in, slots, neu1, D):
    """neu1[0] = h = [P[tag_rows[0]]; ...; W_in[slots[0]]; ...], each row a block of D."""
    T = tag_rows.shape[0]
    for m in range(T):
        row = tag_rows[m]
        for i in range(D):
            neu1[0, m * D + i] = P[row, i]
    for m in range(slots.shape[0]):
        row = slots[m]
        for i in range(D):
            neu1[0, (T + m) * D + i] = W_in[row, i]


@jit_example
def add_blocks(neu1e, first, W, rows, D):
    """W[rows[m]] += block ``first + m`` of neu1e, for every m (a repeated row takes each
    of its blocks)."""
    for m in range(rows.shape[0]):
        row, offset = rows[m], (first + m) * D
        for i in range(D):
            W[row, i] += neu1e[offset + i]


@jit_example
def train_concat_document(n, P, tag_rows, matrices, outputs, settings, lr, buffers, learn_words, count_loss, D):
    """Every example of PV-DM with concatenation over ``buffers.sentence[:n]``, the
    document's rows ``P[tag_rows]`` (reference ``pv_dm_concat_*`` and
    ``pv_dm_concat_step``): per position the negatives, then the full window's slots
    (``buffers.context``), the concatenated hidden vector, the output layers and each
    row's block of ``neu1e``.  ``learn_words=False`` is inference (word and output rows
    stay).  Returns (loss, examples)."""
    window, null_word = settings.window, settings.null_word
    width = (tag_rows.shape[0] + 2 * window) * D
    slots, neu1, neu1e = buffers.context, buffers.neu1, buffers.neu1e
    frozen = not learn_words
    loss = 0.0
    for i in range(n):
        word = buffers.sentence[i]
        draw_negatives(buffers.negatives, outputs.noise, buffers.state)
        concat_slots(buffers.sentence, n, i, window, null_word, slots)
        concat_hidden(P, tag_rows, matrices.W_in, slots, neu1, D)
        loss += predict(neu1, 0, word, settings.mode, matrices, outputs, buffers, lr, frozen, count_loss, width)
        add_blocks(neu1e, 0, P, tag_rows, D)
        if learn_words:
            add_blocks(neu1e, tag_rows.shape[0], matrices.W_in, slots, D)
    return loss, n


# ---------------------------------------------------------------------------------------
# One example of each model, for the tests that hold a step to the reference
# ---------------------------------------------------------------------------------------


def dbow_step(P, doc, word, mode, matrices, outputs, scratch, state, alpha, learn_doc=True, learn_hidden=True):
    """One PV-DBOW example: P[doc] predicts ``word`` (reference ``pv_dbow_*``), the
    negatives drawn from ``state`` into ``scratch.negatives``; ``learn_hidden=False``:
    inference (the output rows of ``matrices`` stay as they are)."""
    return dbow_step_compiled(P, doc, word, mode, matrices, outputs, scratch, state, np.float32(alpha),
                              bool(learn_doc), not learn_hidden)


@jit_example
def step_buffers(scratch, state, points, D):
    """The :data:`Buffers` of one example: the caller's ``scratch`` and ``state``, the rest new."""
    fresh = new_buffers(1, 1, scratch.negatives.shape[0], points, D)
    return Buffers(fresh[0], fresh[1], scratch.negatives, fresh[3], scratch.neu1, scratch.neu1e, scratch.coeff,
                   fresh[7], fresh[8], state)


@jit_fast
def dbow_step_compiled(P, doc, word, mode, matrices, outputs, scratch, state, alpha, learn_doc, frozen):
    D = P.shape[1]
    buffers = step_buffers(scratch, state, outputs.points, D)
    draw_negatives(buffers.negatives, outputs.noise, state)
    loss = predict(P, doc, word, mode, matrices, outputs, buffers, alpha, frozen, True, D)
    if learn_doc:
        add_to_row(buffers.neu1e, P, doc, D)
    return loss


def dm_step(P, doc, context, word, mean, mode, matrices, outputs, scratch, state, alpha, learn_doc=True,
            learn_words=True, learn_hidden=True):
    """One PV-DM example: the document row and the rows of ``context`` predict ``word``
    (reference ``pv_dm_*`` and ``pv_dm_step``)."""
    return dm_step_compiled(P, doc, context, word, bool(mean), mode, matrices, outputs, scratch, state,
                            np.float32(alpha), (bool(learn_doc), bool(learn_words), not learn_hidden))


@jit_fast
def dm_step_compiled(P, doc, context, word, mean, mode, matrices, outputs, scratch, state, alpha, learning):
    learn_doc, learn_words, frozen = learning
    D, m = P.shape[1], context.shape[0]
    buffers = step_buffers(scratch, state, outputs.points, D)
    draw_negatives(buffers.negatives, outputs.noise, state)
    dm_hidden(P, doc, matrices.W_in, context, m, mean, buffers.neu1, D)
    loss = predict(buffers.neu1, 0, word, mode, matrices, outputs, buffers, alpha, frozen, True, D)
    if learn_doc:
        add_to_row(buffers.neu1e, P, doc, D)
    if learn_words:
        add_to_rows(buffers.neu1e, matrices.W_in, context, m, D)
    return loss


def dm_concat_step(P, tag_rows, slots, word, mode, matrices, outputs, scratch, state, alpha, learn_words=True):
    """One example of PV-DM with concatenation: the rows ``P[tag_rows]`` and ``W_in[slots]``
    concatenated predict ``word`` (reference ``pv_dm_concat_*`` and ``pv_dm_concat_step``);
    ``scratch.neu1``/``neu1e`` are (T + 2W) D wide; ``learn_words=False``: inference (the
    word and output rows stay)."""
    return dm_concat_step_compiled(P, np.asarray(tag_rows, np.int64), np.asarray(slots, np.int32), word, mode,
                                   matrices, outputs, scratch, state, np.float32(alpha), bool(learn_words))


@jit_fast
def dm_concat_step_compiled(P, tag_rows, slots, word, mode, matrices, outputs, scratch, state, alpha, learn_words):
    D = P.shape[1]
    width = (tag_rows.shape[0] + slots.shape[0]) * D
    buffers = step_buffers(scratch, state, outputs.points, width)
    draw_negatives(buffers.negatives, outputs.noise, state)
    concat_hidden(P, tag_rows, matrices.W_in, slots, buffers.neu1, D)
    loss = predict(buffers.neu1, 0, word, mode, matrices, outputs, buffers, alpha, not learn_words, True, width)
    add_blocks(buffers.neu1e, 0, P, tag_rows, D)
    if learn_words:
        add_blocks(buffers.neu1e, tag_rows.shape[0], matrices.W_in, slots, D)
    return loss


# ---------------------------------------------------------------------------------------
# Training: a run of whole documents
# ---------------------------------------------------------------------------------------


def train_documents(corpus, doc_rows, doc_begin, doc_end, P, matrices, outputs, settings, schedule, hot=0,
                    replica_base=0):
    """Train documents ``doc_begin..doc_end-1`` of ``corpus`` (a :data:`Corpus`) with
    :data:`Settings` ``settings`` (:func:`make_settings`) at :data:`Schedule` ``schedule``
    (``wordvec.kernels.word2vec.make_schedule``); return (loss, [words, examples]).

    Document d's tokens are ``ids[offsets[d]:offsets[d+1]]`` and its row ``P[doc_rows[d]]``;
    with concatenation of T rows (``settings.concat``) its rows are
    ``P[doc_rows[d*T:(d+1)*T]]``.
    The learning rate of a document is alpha - (alpha - min_alpha) * pos / total, pos
    its first token's position in the whole run (``schedule.words_before`` for ``doc_begin``).

    ``hot`` > 0 (negative sampling only): words ``0..hot-1`` (the most frequent) train
    in this call's replica rows ``replica_base + w`` of W_in and W_out (past the
    vocabulary's V rows), copied from rows w when it starts; their change is added to
    rows w when it ends (:func:`merge_replicas`).
    """
    W_in, W_out = matrices.W_in, matrices.W_out
    hot, replica_base = int(hot), int(replica_base)
    if hot and not (int(settings.mode) == NEGATIVE_SAMPLING and 0 < hot <= corpus.keep.shape[0] <= replica_base
                    and replica_base + hot <= min(W_in.shape[0], W_out.shape[0])):
        raise ValueError(f"replica rows {replica_base}..{replica_base + hot - 1} of words 0..{hot - 1} do not fit "
                         f"matrices of {W_in.shape[0]} and {W_out.shape[0]} rows past {corpus.keep.shape[0]} words "
                         "(and replicas need negative sampling alone)")
    buffers = thread_buffers(corpus.offsets, doc_begin, doc_end, settings, outputs.points, P.shape[1])
    return train_documents_compiled(corpus, doc_rows, doc_begin, doc_end, P, matrices, outputs, settings,
                                    Replicas(hot, replica_base), schedule, buffers, vector_size_token(P.shape[1]))


def thread_buffers(offsets, doc_begin, doc_end, settings, points, D):
    """A kernel call's :data:`Buffers` (:func:`new_buffers`, then the random state), made
    here so that the call can use them :func:`borrowed`: this frame keeps them alive.  Each
    on cache lines of its own: the threads write theirs all the time, and two small arrays
    made side by side by two threads shared a line (inference 2.97 s one run, 4.28 the
    next, with 60% more CPU)."""
    longest = int(np.diff(offsets[doc_begin:doc_end + 1]).max(initial=0))
    buffers = new_buffers.py_func(longest, settings.window, settings.negative, points, layer_width(settings, D)) + (
        np.zeros(1, np.uint64),)
    return Buffers(*(zeros_on_own_lines(b.shape, b.dtype) for b in buffers))


def zeros_on_own_lines(shape, dtype, line=64):
    """Zeros of ``shape``, starting on a cache line, in an allocation that holds every line
    they touch (no other array shares them)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.zeros(nbytes + 2 * line, np.uint8)
    start = -raw.ctypes.data % line
    return raw[start:start + nbytes].view(dtype).reshape(shape)


@jit_example
def borrowed_corpus(corpus):
    """The caller's arrays, :func:`borrowed` (no reference counts in the loops)."""
    return Corpus(borrowed(corpus.ids), borrowed(corpus.offsets), borrowed(corpus.keep))


@jit_example
def borrowed_matrices(matrices):
    return Matrices(borrowed(matrices.W_in), borrowed(matrices.W_out), borrowed(matrices.W_inner))


@jit_example
def borrowed_outputs(outputs):
    return Outputs(borrowed(outputs.points), borrowed(outputs.codes), borrowed(outputs.lengths),
                   borrowed(outputs.noise))


@jit_example
def borrowed_buffers(buffers):
    return Buffers(borrowed(buffers.sentence), borrowed(buffers.context), borrowed(buffers.negatives),
                   borrowed(buffers.ahead), borrowed(buffers.neu1), borrowed(buffers.neu1e), borrowed(buffers.coeff),
                   borrowed(buffers.rows), borrowed(buffers.labels), borrowed(buffers.state))


@jit_fast
def train_documents_compiled(corpus, doc_rows, doc_begin, doc_end, P, matrices, outputs, settings, replicas,
                             schedule, buffers, token):
    alpha, min_alpha, words_before, total_words, seed = schedule
    hot, base = replicas
    D = len(token) if len(token) > 0 else P.shape[1]
    corpus, matrices, outputs = borrowed_corpus(corpus), borrowed_matrices(matrices), borrowed_outputs(outputs)
    ids, offsets, keep = corpus
    P, doc_rows = borrowed(P), borrowed(doc_rows)
    buffers = borrowed_buffers(buffers)
    sentence, state = buffers.sentence, buffers.state
    state[0] = seed
    words_too = settings.dm or settings.dbow_words  # the word rows train too
    start_in = start_replicas(matrices.W_in, hot if words_too else 0, base, D)
    start_out = start_replicas(matrices.W_out, hot, base, D)
    loss = 0.0
    examples = 0
    position = words_before
    for d in range(doc_begin, doc_end):
        start, stop = offsets[d], offsets[d + 1]
        lr = document_rate(alpha, min_alpha, position, total_words)
        position += stop - start
        n = subsample(ids, start, stop, keep, state, sentence)
        for j in range(n):
            sentence[j] = replica_row(sentence[j], hot, base)
        if settings.concat:
            T = settings.concat
            doc_loss, doc_examples = train_concat_document(n, P, doc_rows[d * T:(d + 1) * T], matrices, outputs,
                                                           settings, lr, buffers, True, True, D)
        else:
            doc_loss, doc_examples = train_document(n, P, doc_rows[d], matrices, outputs, settings, replicas, lr,
                                                    buffers, True, True, D)
        loss += doc_loss
        examples += doc_examples
    merge_replicas(matrices.W_in, start_in, base, D)
    merge_replicas(matrices.W_out, start_out, base, D)
    stats = np.zeros(2, dtype=np.int64)
    stats[STAT_WORDS] = position - words_before
    stats[STAT_EXAMPLES] = examples
    return loss, stats


@jit_example
def start_replicas(W, hot, base, D):
    """Copy rows ``0..hot-1`` of W into its replica rows ``base..base+hot-1``; return
    their values now (:func:`merge_replicas` adds what changed since)."""
    start = np.empty((hot, D), dtype=np.float32)
    for r in range(hot):
        for i in range(D):
            start[r, i] = W[r, i]
            W[base + r, i] = W[r, i]
    return start


@jit_example
def merge_replicas(W, start, base, D):
    """W[r] += W[base + r] - start[r] for the replicated rows: this call's steps, added to
    whatever the other threads wrote into W[r] meanwhile (Hogwild, a chunk late)."""
    for r in range(start.shape[0]):
        for i in range(D):
            W[r, i] += W[base + r, i] - start[r, i]


# ---------------------------------------------------------------------------------------
# Inference: new documents' rows against frozen words and outputs
# ---------------------------------------------------------------------------------------


@jit
def document_seed(ids, start, stop, seed):
    """The random state of the document ``ids[start:stop]``: splitmix64 steps over the
    seed and its words.  A pure function of (seed, the document's words): the same text
    gets the same vector wherever it stands in a file, alone or in a batch, on any
    number of threads."""
    z = seed ^ np.uint64(stop - start)
    for i in range(start, stop + 1):
        z += np.uint64(0x9E3779B97F4A7C15) + (np.uint64(ids[i]) if i < stop else np.uint64(0))
        z = mix64(z)
    return z


def infer_documents(corpus, doc_begin, doc_end, out, matrices, outputs, settings, inference):
    """Infer the rows ``out[d]`` of documents ``doc_begin..doc_end-1`` of ``corpus`` with
    :data:`Settings` ``settings`` (``dbow_words`` is not used) and :data:`Inference`
    ``inference`` (:func:`make_inference`); returns the loss of their last epoch.  Each
    starts from (u - 0.5) / D and trains ``epochs`` passes at a rate going linearly from
    alpha to min_alpha (``wordvec.math.doc2vec.inference_rate``).  With concatenation
    of T rows, the document's one row fills all T blocks."""
    settings = settings._replace(dbow_words=False)
    buffers = thread_buffers(corpus.offsets, doc_begin, doc_end, settings, outputs.points, out.shape[1])
    return infer_documents_compiled(corpus, doc_begin, doc_end, out, matrices, outputs, settings, inference, buffers,
                                    vector_size_token(out.shape[1]))


@jit_fast
def infer_documents_compiled(corpus, doc_begin, doc_end, out, matrices, outputs, settings, inference, buffers, token):
    epochs, alpha, min_alpha, seed = inference
    D = len(token) if len(token) > 0 else out.shape[1]
    corpus, matrices, outputs = borrowed_corpus(corpus), borrowed_matrices(matrices), borrowed_outputs(outputs)
    ids, offsets, keep = corpus
    out = borrowed(out)
    buffers = borrowed_buffers(buffers)
    sentence, state = buffers.sentence, buffers.state
    replicas = Replicas(0, 0)
    tag_rows = np.empty(settings.concat, np.int64)  # concatenation: the row in each of the T blocks
    last_loss = 0.0
    for d in range(doc_begin, doc_end):
        tag_rows[:] = d
        state[0] = document_seed(ids, offsets[d], offsets[d + 1], seed)
        for i in range(D):
            out[d, i] = np.float32((uniform(state) - 0.5) / D)
        for epoch in range(epochs):
            lr = np.float32(alpha - (alpha - min_alpha) * epoch / max(epochs - 1, 1))
            n = subsample(ids, offsets[d], offsets[d + 1], keep, state, sentence)
            if settings.concat:
                doc_loss, _ = train_concat_document(n, out, tag_rows, matrices, outputs, settings, lr, buffers, False,
                                                    epoch == epochs - 1, D)
            else:
                doc_loss, _ = train_document(n, out, d, matrices, outputs, settings, replicas, lr, buffers, False,
                                             epoch == epochs - 1, D)
            if epoch == epochs - 1:
                last_loss += doc_loss
    return last_loss


# ---------------------------------------------------------------------------------------
# Loading (``wordvec.kernels.loader``)
# ---------------------------------------------------------------------------------------


def empty_arguments(vector_size):
    """A corpus, document rows, matrices, outputs and settings of the types training and
    inference pass, with one row each: with an empty range of documents a kernel trains
    nothing."""
    tiny = np.zeros((1, vector_size), np.float32)
    corpus = Corpus(np.zeros(1, np.int32), np.zeros(2, np.int64), np.ones(1, np.float32))
    outputs = Outputs(np.zeros((1, 1), np.int32), np.zeros((1, 1), np.uint8), np.zeros(1, np.int32),
                      np.zeros(1, np.uint64))
    settings = make_settings(0, NEGATIVE_SAMPLING, True, 1, 1, False)
    return corpus, np.zeros(1, np.int64), Matrices(tiny, tiny, tiny), outputs, settings


def warm_up(vector_size):
    """Load :func:`train_documents` for ``vector_size`` (``wordvec.kernels.loader``)."""
    corpus, doc_rows, matrices, outputs, settings = empty_arguments(vector_size)
    train_documents(corpus, doc_rows, 0, 0, matrices.W_in, matrices, outputs, settings,
                    make_schedule(0.025, 0.0001, 0, 1, 1))


def warm_up_inference(vector_size):
    """Load :func:`infer_documents` for ``vector_size`` (``wordvec.kernels.loader``)."""
    corpus, _, matrices, outputs, settings = empty_arguments(vector_size)
    infer_documents(corpus, 0, 0, matrices.W_in, matrices, outputs, settings, make_inference(1, 0.025, 0.0001, 1))
