"""Subword skip-gram / CBOW reference math (Bojanowski et al. 2017, fastText's model), in NumPy.

Only the *input* side differs from word2vec (``wordvec.math.word2vec``): a word w is
represented by the set G_w = {w} ∪ {its character n-grams} (``wordvec.data.subword``), and
its input vector is the mean of those rows (fastText; ``mean=False`` takes the sum):

    u_w = (1 / |G_w|) ( W_in[w] + Σ_{g ∈ G_w \\ {w}} W_ngrams[g] )              (S1)

The output layers are unchanged: skip-gram feeds h = u_w and CBOW h = the mean of the
context words' rows (fastText's CBOW pools *all* rows of all context words into one bag
and averages them, so a context word with many n-grams weighs more; we do the same).
By the chain rule, with dL/dh from the output layer (seed 004 sections 1.1 / 2.1):

    dL/dW_in[w] = dL/dW_ngrams[g] = (1 / |B|) dL/dh   for every row of the bag B  (S2)

(summed over repeats: a row that appears twice in the bag gets it twice), because
∂h/∂row = (1/|B|) I for each occurrence.  The sum (``mean=False``) drops the 1/|B|.

Like word2vec's CBOW (``wordvec.math.word2vec.cbow_step``), fastText's update does not
take the exact gradient step on the input rows: every row of the bag receives the full
``-alpha dL/dh`` (fastText ``Model::update`` divides by the bag size only for supervised
models; gensim's ``fasttext_inner`` does the same), i.e. |B| times its gradient step
(S2).  :func:`subword_step` is that update; the kernels perform it.
"""

import numpy as np

from wordvec.math.word2vec import (hierarchical_softmax_output, negative_sampling_output,
                                   softmax_output)


def input_bag(word, ngram_offsets, ngram_ids):
    """G_w as two index lists: the word row [w] and its n-gram rows (repeats kept)."""
    return np.array([word], dtype=np.int64), np.asarray(
        ngram_ids[ngram_offsets[word]:ngram_offsets[word + 1]], dtype=np.int64)


def compose(W_in, W_ngrams, word_rows, ngram_rows, mean=True):
    """h = (Σ W_in[word_rows] + Σ W_ngrams[ngram_rows]) / |B|, |B| = bag size   (S1)."""
    h = W_in[word_rows].sum(axis=0) + W_ngrams[ngram_rows].sum(axis=0)
    return h / (len(word_rows) + len(ngram_rows)) if mean else h


def _subword_example(W_in, W_ngrams, words, ngram_offsets, ngram_ids, mean, output_layer):
    bags = [input_bag(w, ngram_offsets, ngram_ids) for w in words]
    word_rows = np.concatenate([b[0] for b in bags])
    ngram_rows = np.concatenate([b[1] for b in bags])
    h = compose(W_in, W_ngrams, word_rows, ngram_rows, mean)
    loss, dh, d_second = output_layer(h)
    scale = 1.0 / (len(word_rows) + len(ngram_rows)) if mean else 1.0
    dW_in, dW_ngrams = np.zeros_like(W_in), np.zeros_like(W_ngrams)
    np.add.at(dW_in, word_rows, scale * dh)             # (S2)
    np.add.at(dW_ngrams, ngram_rows, scale * dh)        # (S2), repeats summed
    return loss, dW_in, dW_ngrams, d_second


def _output_layer(second, target, negatives=None, points=None, codes=None, softmax=False):
    if softmax:
        return lambda h: softmax_output(h, second, target)
    if points is not None:
        return lambda h: hierarchical_softmax_output(h, second, points, codes)
    return lambda h: negative_sampling_output(h, second, target, negatives)


def skipgram_subword(W_in, W_ngrams, second, ngram_offsets, ngram_ids, input_word, output_word,
                     negatives=None, points=None, codes=None, softmax=False, mean=True):
    """Subword skip-gram, one (input word, output word) pair: h = u_input (S1).

    The output layer is negative sampling (``negatives``; ``second`` = W_out), hierarchical
    softmax (``points``/``codes`` of the output word; ``second`` = W_inner) or the full
    softmax (``softmax=True``).  Returns (loss, dW_in, dW_ngrams, d_second), dense.
    """
    layer = _output_layer(second, output_word, negatives, points, codes, softmax)
    return _subword_example(W_in, W_ngrams, [input_word], ngram_offsets, ngram_ids, mean, layer)


def cbow_subword(W_in, W_ngrams, second, ngram_offsets, ngram_ids, context, output_word,
                 negatives=None, points=None, codes=None, softmax=False, mean=True):
    """Subword CBOW: h = mean of the pooled bags of all context words (fastText), (S1-S2).
    Returns (loss, dW_in, dW_ngrams, d_second)."""
    if len(context) == 0:
        raise ValueError("a CBOW example needs at least one context word")
    layer = _output_layer(second, output_word, negatives, points, codes, softmax)
    return _subword_example(W_in, W_ngrams, list(context), ngram_offsets, ngram_ids, mean, layer)


def subword_step(params, grads, bag_size, alpha, mean=True):
    """fastText's update for one example from its gradients (S2).

    ``params = (W_in, W_ngrams, second)``, ``grads`` their gradients.  The output rows
    take ``-alpha dL/dW``; every input row of the bag takes ``-alpha dL/dh`` per
    occurrence, which for the mean is ``bag_size`` times its gradient step.
    Returns the new arrays.
    """
    W_in, W_ngrams, second = params
    dW_in, dW_ngrams, d_second = grads
    input_rate = alpha * bag_size if mean else alpha
    return W_in - input_rate * dW_in, W_ngrams - input_rate * dW_ngrams, second - alpha * d_second
