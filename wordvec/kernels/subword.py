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

The document loop (subsampling, reduced window, learning-rate schedule, per-chunk
random state) is word2vec's (``wordvec.kernels.word2vec.document_loop``), compiled
around :func:`subword_window`.
Threads update the shared matrices without locks (Hogwild), as the other kernels do.
"""

from collections import namedtuple

import numpy as np

from wordvec.kernels.word2vec import (FULL_SOFTMAX, NEGATIVE_SAMPLING, axpy_from_row, axpy_to_row,
                                      document_loop, draw_alias, jit, jit_fast, jit_inline, output_update)


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


@jit_fast
def subword_step(W_in, W_ngrams, ngram_offsets, ngram_ids, inputs, n_inputs, output_word, mean,
                 mode, W_out, W_inner, points, codes, lengths, negatives, alpha, neu1, neu1e, coeff):
    """One example: h = mean (or sum) of the pooled bags of ``inputs[:n_inputs]`` (one word
    for skip-gram, the context for CBOW); output layers; each bag row += neu1e.

    Reference: ``wordvec.math.subword.skipgram_subword`` / ``cbow_subword`` with
    ``subword_step``.
    """
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
    loss = output_update(neu1.reshape((1, D)), 0, output_word, mode, W_out, W_inner, points, codes,
                         lengths, negatives, alpha, neu1e, coeff, D)
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
def skipgram_window(W_in, W_ngrams, ngram_offsets, ngram_ids, overlaps, word, outputs, n_outputs, mean,
                    mode, W_out, W_inner, points, codes, lengths, negatives, alpha, neu1, neu1e, window_e,
                    coeff):
    """Skip-gram examples word -> outputs[k] for k < n_outputs (negatives[k] for each), in
    order, with the bag of ``word`` composed once and its rows updated once (see the
    module docstring).  Reference: ``wordvec.math.subword.skipgram_subword`` then
    ``subword_step``, once per example."""
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
    for k in range(n_outputs):
        neu1e[:] = 0.0
        loss += output_update(neu1.reshape((1, D)), 0, outputs[k], mode, W_out, W_inner, points, codes,
                              lengths, negatives[k], alpha, neu1e, coeff, D)
        for i in range(D):
            window_e[i] += neu1e[i]
            neu1[i] += q * neu1e[i]
    scatter_bag(word, window_e, W_in, W_ngrams, ngram_offsets, ngram_ids)
    return loss


Subwords = namedtuple("Subwords", "W_ngrams ngram_offsets ngram_ids overlaps")  # the n-gram rows and table
# What the window step reads besides the window: the chunk's tables and buffers
# allocated once per chunk (:func:`subword_work`).
Work = namedtuple("Work", "matrices subwords outputs settings neu1 neu1e coeff negatives window_negatives window_e")


@jit_inline
def subword_work(matrices, subwords, outputs, settings):
    """The :data:`Work` of one chunk: its buffers, sized for the settings."""
    W_in, W_out = matrices.W_in, matrices.W_out
    window, negative, mode = settings.window, settings.negative, settings.mode
    D = W_in.shape[1]
    coeff_size = negative + 1
    if mode & FULL_SOFTMAX:
        coeff_size = max(coeff_size, W_out.shape[0])
    K = negative if mode & NEGATIVE_SAMPLING else 0
    return Work(matrices, subwords, outputs, settings, np.zeros(D, dtype=np.float32), np.zeros(D, dtype=np.float32),
                np.zeros(coeff_size, dtype=np.float32), np.zeros(K, dtype=np.int64),
                np.zeros((2 * window, K), dtype=np.int64), np.zeros(D, dtype=np.float32))


@jit_inline
def subword_window(work, word, context, m, lr, state, loss):
    """Train the window of centre ``word`` and context ``context[:m]``: skip-gram in
    fastText's direction (the centre word predicts its window, K negatives drawn per
    example or, ``share_negatives``, once for the window), CBOW one example; returns
    (loss plus the window's, examples trained)."""
    W_in, W_out, W_inner = work.matrices
    W_ngrams, ngram_offsets, ngram_ids, overlaps = work.subwords
    points, codes, lengths, noise = work.outputs
    sg, mode, mean, _, _, share_negatives, _, _ = work.settings
    if m == 0:
        return loss, 0
    if sg:
        window_negatives = work.window_negatives
        for c in range(m):
            for k in range(window_negatives.shape[1]):
                if share_negatives and c > 0:
                    window_negatives[c, k] = window_negatives[0, k]
                else:
                    window_negatives[c, k] = draw_alias(noise, state)
        loss += skipgram_window(W_in, W_ngrams, ngram_offsets, ngram_ids, overlaps, word, context, m,
                                mean, mode, W_out, W_inner, points, codes, lengths,
                                window_negatives, lr, work.neu1, work.neu1e, work.window_e, work.coeff)
        return loss, m
    negatives = work.negatives
    for k in range(negatives.shape[0]):
        negatives[k] = draw_alias(noise, state)
    loss += subword_step(W_in, W_ngrams, ngram_offsets, ngram_ids, context, m, word, mean,
                         mode, W_out, W_inner, points, codes, lengths, negatives, lr,
                         work.neu1, work.neu1e, work.coeff)
    return loss, 1


train_subword_documents = document_loop(subword_window)


@jit
def train_chunk(corpus, doc_begin, doc_end, matrices, subwords, outputs, settings, schedule):
    """``wordvec.kernels.word2vec.train_chunk`` with subword inputs; the same tables plus
    ``subwords`` (:data:`Subwords`: ``W_ngrams``, bucket x D, the CSR n-gram table and its
    :func:`bag_overlaps`); ``settings.cbow_mean`` applies to both architectures (fastText
    averages the bag), ``settings.batched`` to none.  ``share_negatives``: one draw of K
    negatives per centre word serves its whole window.  Returns (loss, [words, examples]).

    The loop is word2vec's :func:`~wordvec.kernels.word2vec.document_loop`, the window
    step :func:`subword_window`."""
    work = subword_work(matrices, subwords, outputs, settings)
    return train_subword_documents(corpus, doc_begin, doc_end, settings.window, settings.shrink_windows,
                                   schedule, work)


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
