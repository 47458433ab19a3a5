"""Compiled subword skip-gram / CBOW training (fastText's model): ``wordvec.math.subword``, fast.

Only the input side is new.  As in fastText's ``loss.h``, the output layers do not know
where h came from: every example builds h from the bag of input rows (a word's own row
of ``W_in`` and its n-gram rows of ``W_ngrams``), calls word2vec's
``output_update`` (negative sampling, hierarchical or full softmax: the very same
compiled loops as plain word2vec, which accumulate ``neu1e = -alpha dL/dh``), then adds
``neu1e`` to every row of the bag (fastText's step, see ``wordvec.math.subword``).

A word's n-gram rows are read from a CSR table computed once per vocabulary
(``wordvec.data.subword.ngram_table``): word w's rows are
``ngram_ids[ngram_offsets[w]:ngram_offsets[w + 1]]``.

Skip-gram runs in fastText's direction: the centre word's bag predicts each word of its
window in turn.  Then the bag is the same for the whole window, and nothing else reads
its rows until the window is done (the output layers touch only W_out / W_inner), so
the kernel composes h once per centre word, keeps it exact after each example with

    h <- h + q_w neu1e,   q_w = Σ_r m_r² / |B|   (m_r: how often row r occurs in the bag)

(every occurrence of row r moved by neu1e, and row r weighs m_r / |B| in the mean), and
adds the window's summed neu1e to the bag's rows once at the end: the same steps as
one reference step per example (``wordvec.math.subword``), up to float rounding,
for a fraction of the row traffic (an average bag has ~20 rows, a window ~6 examples).

The chunk loop's pieces (subsampling, reduced window, learning-rate schedule, per-chunk
random state) are word2vec's (``wordvec.kernels.word2vec.start_document``, ``draw_window``).
Threads update the shared matrices without locks (Hogwild), as the other kernels do.
"""

from collections import namedtuple

import numpy as np

from wordvec.kernels.word2vec import (FULL_SOFTMAX, NEGATIVE_SAMPLING, STAT_EXAMPLES, STAT_WORDS, axpy_from_row,
                                      axpy_to_row, borrowed_tables, draw_alias, draw_window, empty_arguments,
                                      jit, jit_fast, jit_inline, longest_document, output_update, start_document)


@jit
def add_bag(word, W_in, W_ngrams, ngram_offsets, ngram_ids, h):
    """h += W_in[word] + Σ W_ngrams[g] over the word's n-grams; returns the bag size."""
    axpy_from_row(np.float32(1.0), W_in, word, h)
    for k in range(ngram_offsets[word], ngram_offsets[word + 1]):
        axpy_from_row(np.float32(1.0), W_ngrams, ngram_ids[k], h)
    return 1 + ngram_offsets[word + 1] - ngram_offsets[word]


@jit
def scatter_bag(word, neu1e, W_in, W_ngrams, ngram_offsets, ngram_ids):
    """Every row of the word's bag += neu1e (fastText's step: the full -alpha dL/dh)."""
    axpy_to_row(np.float32(1.0), neu1e, W_in, word)
    for k in range(ngram_offsets[word], ngram_offsets[word + 1]):
        axpy_to_row(np.float32(1.0), neu1e, W_ngrams, ngram_ids[k])


Subwords = namedtuple("Subwords", "W_ngrams ngram_offsets ngram_ids overlaps")  # the n-gram rows and table
# The buffers of one chunk (:func:`subword_buffers`).
Buffers = namedtuple("Buffers", "neu1 neu1e coeff negatives window_negatives window_e")


@jit_fast
def subword_step(matrices, subwords, outputs, inputs, n_inputs, output_word, mean, mode, alpha, buffers):
    """One example: h = mean (or sum) of the pooled bags of ``inputs[:n_inputs]`` (one word
    for skip-gram, the context for CBOW); output layers; each bag row += neu1e.

    ``matrices`` (:data:`wordvec.kernels.word2vec.Matrices`), ``subwords`` (:data:`Subwords`),
    ``outputs`` (:data:`wordvec.kernels.word2vec.Outputs`, its ``noise`` unused); ``buffers``
    (:data:`Buffers`): h in ``neu1``, ``neu1e``, ``coeff``, the drawn ``negatives``.

    Reference: ``wordvec.math.subword.skipgram_subword`` / ``cbow_subword`` with
    ``subword_step``.
    """
    W_in = matrices.W_in
    W_ngrams, ngram_offsets, ngram_ids, _ = subwords
    neu1, neu1e, coeff, negatives, _, _ = buffers
    layers, paths = borrowed_tables(matrices, outputs)
    neu1[:] = 0.0
    neu1e[:] = 0.0
    size = 0
    for c in range(n_inputs):
        size += add_bag(inputs[c], W_in, W_ngrams, ngram_offsets, ngram_ids, neu1)
    if mean:
        scale = np.float32(1.0 / size)
        for i in range(neu1.shape[0]):
            neu1[i] *= scale
    D = neu1.shape[0]
    loss = output_update(neu1.reshape((1, D)), 0, output_word, mode, layers, paths, negatives, alpha, neu1e, coeff, D)
    for c in range(n_inputs):
        scatter_bag(inputs[c], neu1e, W_in, W_ngrams, ngram_offsets, ngram_ids)
    return loss


@jit
def bag_overlaps(ngram_offsets, ngram_ids):
    """q_w |B_w| = Σ_r m_r² for every word's bag (its own row counts once): float32 (V,)."""
    V = ngram_offsets.shape[0] - 1
    out = np.empty(V, dtype=np.float32)
    for w in range(V):
        total = 1
        for a in range(ngram_offsets[w], ngram_offsets[w + 1]):
            for b in range(ngram_offsets[w], ngram_offsets[w + 1]):
                if ngram_ids[a] == ngram_ids[b]:
                    total += 1
        out[w] = total
    return out


@jit_fast
def skipgram_window(matrices, subwords, outputs, word, targets, n_targets, mean, mode, alpha, buffers):
    """Skip-gram examples word -> targets[k] for k < n_targets (``buffers.window_negatives[k]``
    for each), in order, with the bag of ``word`` composed once and its rows updated once
    (see the module docstring).  The tables and buffers as in :func:`subword_step`.
    Reference: ``wordvec.math.subword.skipgram_subword`` then ``subword_step``, once per
    example."""
    W_in = matrices.W_in
    W_ngrams, ngram_offsets, ngram_ids, overlaps = subwords
    neu1, neu1e, coeff, _, negatives, window_e = buffers
    layers, paths = borrowed_tables(matrices, outputs)
    D = neu1.shape[0]
    neu1[:] = 0.0
    window_e[:] = 0.0
    size = add_bag(word, W_in, W_ngrams, ngram_offsets, ngram_ids, neu1)
    q = overlaps[word]
    if mean:
        scale = np.float32(1.0 / size)
        for i in range(neu1.shape[0]):
            neu1[i] *= scale
        q = np.float32(q / size)
    loss = 0.0
    for k in range(n_targets):
        neu1e[:] = 0.0
        loss += output_update(neu1.reshape((1, D)), 0, targets[k], mode, layers, paths, negatives[k], alpha, neu1e,
                              coeff, D)
        for i in range(D):
            window_e[i] += neu1e[i]
            neu1[i] += q * neu1e[i]
    scatter_bag(word, window_e, W_in, W_ngrams, ngram_offsets, ngram_ids)
    return loss


@jit_inline
def subword_buffers(W_out, points, settings, D):
    """The :data:`Buffers` of one chunk, sized for the settings and the longest Huffman
    path (``points``' width)."""
    window, negative, mode = settings.window, settings.negative, settings.mode
    coeff_size = max(negative + 1, points.shape[1])
    if mode & FULL_SOFTMAX:
        coeff_size = max(coeff_size, W_out.shape[0])
    K = negative if mode & NEGATIVE_SAMPLING else 0
    return Buffers(np.zeros(D, dtype=np.float32), np.zeros(D, dtype=np.float32),
                   np.zeros(coeff_size, dtype=np.float32), np.zeros(K, dtype=np.int64),
                   np.zeros((2 * window, K), dtype=np.int64), np.zeros(D, dtype=np.float32))


@jit
def train_chunk(corpus, doc_begin, doc_end, matrices, subwords, outputs, settings, schedule):
    """``wordvec.kernels.word2vec.train_chunk`` with subword inputs; the same tables plus
    ``subwords`` (:data:`Subwords`: ``W_ngrams``, bucket x D, the CSR n-gram table and its
    :func:`bag_overlaps`); ``settings.cbow_mean`` applies to both architectures (fastText
    averages the bag), ``settings.batched`` and ``settings.lockf`` to none (a subword model
refuses lock factors before it trains).  ``share_negatives``: one draw of K
    negatives per centre word serves its whole window.  Returns (loss, [words, examples]).

    The chunk loop is word2vec's (``start_document``, ``draw_window``); skip-gram runs in
    fastText's direction, the centre word predicting its window (:func:`skipgram_window`,
    K negatives drawn per example or once for the window), CBOW one example per window.
    The window functions take the tables this function was given and the chunk's
    :data:`Buffers`, all made once per chunk, and unpack them once per window."""
    ids, offsets, keep = corpus
    noise = outputs.noise
    sg, mode, mean, window, _, share_negatives, _, shrink, _ = settings
    alpha, min_alpha, words_before, total_words, seed = schedule
    buffers = subword_buffers(matrices.W_out, outputs.points, settings, matrices.W_in.shape[1])
    negatives, window_negatives = buffers.negatives, buffers.window_negatives
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    sentence = np.zeros(longest_document(offsets, doc_begin, doc_end), dtype=np.int32)
    context = np.zeros(2 * window, dtype=np.int32)
    loss = 0.0
    examples = 0
    position = words_before
    for d in range(doc_begin, doc_end):
        n, lr, position = start_document(ids, offsets, keep, d, alpha, min_alpha, position, total_words, state,
                                         sentence)
        for i in range(n):
            m = draw_window(sentence, n, i, window, shrink, state, context)
            word = sentence[i]
            if m == 0:
                continue
            if sg:
                for c in range(m):
                    for k in range(window_negatives.shape[1]):
                        if share_negatives and c > 0:
                            window_negatives[c, k] = window_negatives[0, k]
                        else:
                            window_negatives[c, k] = draw_alias(noise, state)
                loss += skipgram_window(matrices, subwords, outputs, word, context, m, mean, mode, lr, buffers)
                examples += m
            else:
                for k in range(negatives.shape[0]):
                    negatives[k] = draw_alias(noise, state)
                loss += subword_step(matrices, subwords, outputs, context, m, word, mean, mode, lr, buffers)
                examples += 1
    stats = np.zeros(2, dtype=np.int64)
    stats[STAT_WORDS] = position - words_before
    stats[STAT_EXAMPLES] = examples
    return loss, stats


@jit
def compose_vectors(W_in, W_ngrams, ngram_offsets, ngram_ids, mean, out):
    """out[w] = the mean (or sum) of word w's bag: its vector as users see it (S1)."""
    for w in range(W_in.shape[0]):
        out[w, :] = 0.0
        size = add_bag(w, W_in, W_ngrams, ngram_offsets, ngram_ids, out[w])
        if mean:
            scale = np.float32(1.0 / size)
            for i in range(out.shape[1]):
                out[w, i] *= scale


def warm_up(vector_size):
    """Load :func:`train_chunk` for ``vector_size`` (``wordvec.kernels.loader``)."""
    corpus, matrices, outputs, settings, schedule = empty_arguments(vector_size)
    tiny = matrices.W_in
    subwords = Subwords(tiny, np.zeros(2, np.int64), np.zeros(1, np.int32), np.ones(1, np.float32))
    train_chunk(corpus, 0, 0, matrices, subwords, outputs, settings, schedule)
