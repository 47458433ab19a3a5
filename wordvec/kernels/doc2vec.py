"""Compiled paragraph vectors: the steps of ``wordvec.math.doc2vec``, fast.

:func:`train_documents` trains a run of whole documents: PV-DBOW (``dm=0``: the
document's row predicts each of its words, optionally interleaved with skip-gram over
the words, ``dbow_words``) or PV-DM (``dm=1``: the mean or sum of the document's row and
the context rows predicts the centre word).  Frequent-word subsampling (``keep``), the
reduced window (effective window ``window - b``, b uniform in [0, window)), and the
learning rate of each document a pure function of its position in the whole run, as in
``wordvec.kernels.word2vec``.  The model runs several chunks at once in Python threads
(``nogil``), updating the shared float32 matrices without locks (Hogwild).

:func:`infer_documents` trains new documents' rows against frozen word and output rows
(gensim's ``infer_vector``), a whole file of documents in one call.  Each document's
random numbers come from (seed, its words) alone, so the result does not depend on
where it stands, how many threads share the documents or which one runs which.

Every example performs exactly one reference step (``wordvec.math.doc2vec``): the
scores from the rows before the step, ``neu1e = -alpha dJ/dh`` accumulated from the
output rows before they change, then the output rows, then the input rows.  PV-DM with
the mean hands the document row and every context row the full ``neu1e``
(``wordvec.math.doc2vec.pv_dm_step``).  The loss is the exact objective
``-log sigma(z) = max(-z, 0) + log(1 + exp(-|z|))`` summed over the terms, one ``log``
per example (``wordvec.kernels.word2vec.logistic_term``).

The output layers here take a ``learn_hidden`` flag (inference must not move the output
rows), so this module has its own copies of word2vec's two layers rather than
calling ``wordvec.kernels.word2vec``'s; the random numbers and the alias sampler are
word2vec's.

Shapes: N documents, V vocabulary, D vector size, K negatives, L Huffman path length.
"""

import numba
import numpy as np

from wordvec.kernels.word2vec import below, draw_alias, logistic_term, uniform

NEGATIVE_SAMPLING, HIERARCHICAL_SOFTMAX = 1, 2  # the same flags as wordvec.kernels.word2vec
STAT_WORDS, STAT_EXAMPLES = 0, 1

FAST = {"reassoc", "contract", "nsz", "arcp"}  # no "no NaN" assumption: divergence must show
jit = numba.njit(nogil=True, cache=True)
jit_fast = numba.njit(nogil=True, cache=True, fastmath=FAST)
jit_example = numba.njit(nogil=True, cache=True, fastmath=FAST, inline="always")

MAX_CONSTANT_VECTOR_SIZE = 512


def vector_size_token(D):
    """A tuple of D zeros: its length is part of its Numba type, so each D up to
    :data:`MAX_CONSTANT_VECTOR_SIZE` gets a kernel with D a compile-time constant (the
    row loops unroll; see ``wordvec.kernels.word2vec.vector_size_token``); the empty
    tuple means: read D from the arrays."""
    return (np.int8(0),) * (D if 0 < D <= MAX_CONSTANT_VECTOR_SIZE else 0)


# ---------------------------------------------------------------------------------------
# Output layers: hidden vector H[hrow]; accumulate neu1e = -alpha dJ/dh; return the loss
# ---------------------------------------------------------------------------------------


@jit_example
def negative_sampling_layer(H, hrow, W_out, target, negatives, alpha, neu1e, coeff, learn_hidden, D):
    """Reference: ``wordvec.math.word2vec.negative_sampling_output`` (seed 004 sec. 2).
    ``learn_hidden=False`` leaves the output rows as they are (inference)."""
    count = negatives.shape[0] + 1
    linear = np.float32(0.0)
    product = 1.0  # float64: K + 1 factors in (1, 2] can overflow float32
    for k in range(count):
        row = target if k == 0 else negatives[k - 1]
        label = np.float32(1.0) if k == 0 else np.float32(0.0)
        x = np.float32(0.0)
        for i in range(D):
            x += W_out[row, i] * H[hrow, i]
        s, one_plus_e, lin = logistic_term(x, label)
        linear += lin
        product *= np.float64(one_plus_e)
        coeff[k] = alpha * (label - s)  # -alpha dJ/dx
    for k in range(count):  # neu1e from the rows before the step (2.1)
        row = target if k == 0 else negatives[k - 1]
        for i in range(D):
            neu1e[i] += coeff[k] * W_out[row, i]
    if learn_hidden:
        for k in range(count):  # the rows themselves, repeats get both (2.2)
            row = target if k == 0 else negatives[k - 1]
            for i in range(D):
                W_out[row, i] += coeff[k] * H[hrow, i]
    return np.float64(linear) + np.log(product)


@jit_example
def hierarchical_softmax_layer(H, hrow, W_inner, points, codes, word, length, alpha, neu1e,
                               learn_hidden, D):
    """Reference: ``wordvec.math.word2vec.hierarchical_softmax_output`` (seed 002).
    A path never repeats a node, so each node is scored and updated in one visit."""
    linear = np.float32(0.0)
    product = 1.0
    for l in range(length):
        node = points[word, l]
        label = np.float32(1.0) - np.float32(codes[word, l])
        x = np.float32(0.0)
        for i in range(D):
            x += W_inner[node, i] * H[hrow, i]
        s, one_plus_e, lin = logistic_term(x, label)
        linear += lin
        product *= np.float64(one_plus_e)
        g = alpha * (label - s)
        for i in range(D):
            neu1e[i] += g * W_inner[node, i]
        if learn_hidden:
            for i in range(D):
                W_inner[node, i] += g * H[hrow, i]
    return np.float64(linear) + np.log(product)


@jit_example
def output_layers(H, hrow, word, mode, W_out, W_inner, points, codes, lengths, negatives, noise, state,
                  alpha, neu1e, coeff, learn_hidden, D):
    """neu1e <- 0, then every output layer of ``mode`` for one example (negatives drawn
    here); returns the loss."""
    for i in range(D):
        neu1e[i] = 0.0
    loss = 0.0
    if mode & HIERARCHICAL_SOFTMAX:
        loss += hierarchical_softmax_layer(H, hrow, W_inner, points, codes, word, lengths[word], alpha,
                                           neu1e, learn_hidden, D)
    if mode & NEGATIVE_SAMPLING:
        for k in range(negatives.shape[0]):
            negatives[k] = draw_alias(noise, state)
        loss += negative_sampling_layer(H, hrow, W_out, word, negatives, alpha, neu1e, coeff,
                                        learn_hidden, D)
    return loss


@jit_example
def add_to_row(neu1e, W, row, D):
    for i in range(D):
        W[row, i] += neu1e[i]


@jit_example
def dm_hidden(P, doc, W_in, context, m, mean, neu1, D):
    """neu1[0] = h = (P[doc] + sum_c W_in[context[c]]) / (1 + m) (mean) or the sum."""
    for i in range(D):
        neu1[0, i] = P[doc, i]
    for c in range(m):
        row = context[c]
        for i in range(D):
            neu1[0, i] += W_in[row, i]
    if mean:
        scale = np.float32(1.0 / (1 + m))
        for i in range(D):
            neu1[0, i] *= scale


# ---------------------------------------------------------------------------------------
# One example of each model (the tests hold these to the reference step)
# ---------------------------------------------------------------------------------------


@jit_fast
def dbow_step(P, doc, word, mode, W_out, W_inner, points, codes, lengths, negatives, noise, state, alpha,
              neu1e, coeff, learn_doc, learn_hidden):
    """One PV-DBOW example: P[doc] predicts ``word`` (reference ``pv_dbow_*``)."""
    D = P.shape[1]
    loss = output_layers(P, doc, word, mode, W_out, W_inner, points, codes, lengths, negatives, noise, state,
                         alpha, neu1e, coeff, learn_hidden, D)
    if learn_doc:
        add_to_row(neu1e, P, doc, D)
    return loss


@jit_fast
def dm_step(P, doc, W_in, context, m, word, mean, mode, W_out, W_inner, points, codes, lengths, negatives,
            noise, state, alpha, neu1, neu1e, coeff, learn_doc, learn_words, learn_hidden):
    """One PV-DM example: the document row and ``context[:m]`` predict ``word``
    (reference ``pv_dm_*`` and ``pv_dm_step``)."""
    D = P.shape[1]
    dm_hidden(P, doc, W_in, context, m, mean, neu1, D)
    loss = output_layers(neu1, 0, word, mode, W_out, W_inner, points, codes, lengths, negatives, noise, state,
                         alpha, neu1e, coeff, learn_hidden, D)
    if learn_doc:
        add_to_row(neu1e, P, doc, D)
    if learn_words:
        for c in range(m):
            add_to_row(neu1e, W_in, context[c], D)
    return loss


# ---------------------------------------------------------------------------------------
# A whole document
# ---------------------------------------------------------------------------------------


@jit
def subsample(ids, start, stop, keep, state, sentence):
    """Copy ``ids[start:stop]`` into ``sentence`` keeping word w with probability keep[w]."""
    n = 0
    for i in range(start, stop):
        w = ids[i]
        if keep[w] < 1.0 and keep[w] < uniform(state):
            continue
        sentence[n] = w
        n += 1
    return n


@jit_example
def train_one_document(sentence, n, P, doc, W_in, W_out, W_inner, points, codes, lengths, noise, dm, mode,
                       mean, window, dbow_words, lr, state, context, negatives, neu1, neu1e, coeff,
                       learn_words, learn_hidden, D):
    """Every example of one (subsampled) document; returns (loss, examples)."""
    loss = 0.0
    examples = 0
    for i in range(n):
        word = sentence[i]
        m = 0
        if dm or dbow_words:
            reach = window - below(state, window)  # reduced window in 1..window
            for j in range(max(0, i - reach), min(n, i + reach + 1)):
                if j != i:
                    context[m] = sentence[j]
                    m += 1
        if dm:
            dm_hidden(P, doc, W_in, context, m, mean, neu1, D)
            loss += output_layers(neu1, 0, word, mode, W_out, W_inner, points, codes, lengths, negatives, noise,
                                  state, lr, neu1e, coeff, learn_hidden, D)
            add_to_row(neu1e, P, doc, D)
            if learn_words:
                for c in range(m):
                    add_to_row(neu1e, W_in, context[c], D)
            examples += 1
            continue
        if dbow_words and learn_words:  # skip-gram: each context word predicts the centre word
            for c in range(m):
                loss += output_layers(W_in, context[c], word, mode, W_out, W_inner, points, codes, lengths,
                                      negatives, noise, state, lr, neu1e, coeff, learn_hidden, D)
                add_to_row(neu1e, W_in, context[c], D)
                examples += 1
        loss += output_layers(P, doc, word, mode, W_out, W_inner, points, codes, lengths, negatives, noise,
                              state, lr, neu1e, coeff, learn_hidden, D)
        add_to_row(neu1e, P, doc, D)
        examples += 1
    return loss, examples


@jit
def longest_document(offsets, doc_begin, doc_end):
    longest = 0
    for d in range(doc_begin, doc_end):
        longest = max(longest, offsets[d + 1] - offsets[d])
    return longest


def train_documents(ids, offsets, doc_rows, doc_begin, doc_end, P, W_in, W_out, W_inner, points, codes,
                    lengths, keep, noise, dm, mode, mean, window, negative, dbow_words, alpha, min_alpha,
                    words_before, total_words, seed):
    """Train documents ``doc_begin..doc_end-1``; return (loss, [words, examples]).

    Document d's tokens are ``ids[offsets[d]:offsets[d+1]]`` and its row ``P[doc_rows[d]]``.
    The learning rate of a document is alpha - (alpha - min_alpha) * pos / total, pos
    its first token's position in the whole run (``words_before`` for ``doc_begin``).
    """
    return train_documents_compiled(ids, offsets, doc_rows, doc_begin, doc_end, P, W_in, W_out, W_inner,
                                    points, codes, lengths, keep, noise, int(dm), int(mode), bool(mean),
                                    int(window), int(negative), bool(dbow_words), float(alpha), float(min_alpha),
                                    int(words_before), int(total_words), np.uint64(seed),
                                    vector_size_token(P.shape[1]))


@jit_fast
def train_documents_compiled(ids, offsets, doc_rows, doc_begin, doc_end, P, W_in, W_out, W_inner, points,
                             codes, lengths, keep, noise, dm, mode, mean, window, negative, dbow_words, alpha,
                             min_alpha, words_before, total_words, seed, token):
    D = len(token) if len(token) > 0 else P.shape[1]
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    neu1 = np.zeros((1, D), dtype=np.float32)
    neu1e = np.zeros(D, dtype=np.float32)
    coeff = np.zeros(negative + 1, dtype=np.float32)
    negatives = np.zeros(negative if mode & NEGATIVE_SAMPLING else 0, dtype=np.int64)
    sentence = np.zeros(longest_document(offsets, doc_begin, doc_end), dtype=np.int32)
    context = np.zeros(2 * window, dtype=np.int32)
    loss = 0.0
    examples = 0
    position = words_before
    for d in range(doc_begin, doc_end):
        start, stop = offsets[d], offsets[d + 1]
        progress = min(1.0, position / total_words)
        lr = np.float32(alpha - (alpha - min_alpha) * progress)
        position += stop - start
        n = subsample(ids, start, stop, keep, state, sentence)
        doc_loss, doc_examples = train_one_document(
            sentence, n, P, doc_rows[d], W_in, W_out, W_inner, points, codes, lengths, noise, dm, mode, mean,
            window, dbow_words, lr, state, context, negatives, neu1, neu1e, coeff, True, True, D)
        loss += doc_loss
        examples += doc_examples
    stats = np.zeros(2, dtype=np.int64)
    stats[STAT_WORDS] = position - words_before
    stats[STAT_EXAMPLES] = examples
    return loss, stats


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
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def infer_documents(ids, offsets, doc_begin, doc_end, out, W_in, W_out, W_inner, points, codes, lengths, keep,
                    noise, dm, mode, mean, window, negative, epochs, alpha, min_alpha, seed):
    """Infer the rows ``out[d]`` of documents ``doc_begin..doc_end-1``; returns the loss of
    their last epoch.  Each starts from (u - 0.5) / D and trains ``epochs`` passes at a
    rate going linearly from alpha to min_alpha (``wordvec.math.doc2vec.inference_rate``)."""
    return infer_documents_compiled(ids, offsets, doc_begin, doc_end, out, W_in, W_out, W_inner, points, codes,
                                    lengths, keep, noise, int(dm), int(mode), bool(mean), int(window),
                                    int(negative), int(epochs), float(alpha), float(min_alpha), np.uint64(seed),
                                    vector_size_token(out.shape[1]))


@jit_fast
def infer_documents_compiled(ids, offsets, doc_begin, doc_end, out, W_in, W_out, W_inner, points, codes, lengths,
                             keep, noise, dm, mode, mean, window, negative, epochs, alpha, min_alpha, seed, token):
    D = len(token) if len(token) > 0 else out.shape[1]
    state = np.empty(1, dtype=np.uint64)
    neu1 = np.zeros((1, D), dtype=np.float32)
    neu1e = np.zeros(D, dtype=np.float32)
    coeff = np.zeros(negative + 1, dtype=np.float32)
    negatives = np.zeros(negative if mode & NEGATIVE_SAMPLING else 0, dtype=np.int64)
    sentence = np.zeros(longest_document(offsets, doc_begin, doc_end), dtype=np.int32)
    context = np.zeros(2 * window, dtype=np.int32)
    last_loss = 0.0
    for d in range(doc_begin, doc_end):
        state[0] = document_seed(ids, offsets[d], offsets[d + 1], seed)
        for i in range(D):
            out[d, i] = np.float32((uniform(state) - 0.5) / D)
        for epoch in range(epochs):
            lr = np.float32(alpha - (alpha - min_alpha) * epoch / max(epochs - 1, 1))
            n = subsample(ids, offsets[d], offsets[d + 1], keep, state, sentence)
            doc_loss, _ = train_one_document(
                sentence, n, out, d, W_in, W_out, W_inner, points, codes, lengths, noise, dm, mode, mean,
                window, False, lr, state, context, negatives, neu1, neu1e, coeff, False, False, D)
            if epoch == epochs - 1:
                last_loss += doc_loss
    return last_loss
