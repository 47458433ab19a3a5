"""The log-probability of a sentence under a trained hierarchical-softmax word2vec model:
gensim's ``Word2Vec.score`` (Taddy 2015, "Document Classification by Inversion of
Distributed Language Representations"), in NumPy.  Nothing is trained: it reads W_in and
W_inner.

With the sentence's words w_1..w_n (words not in the vocabulary dropped first, so their
neighbours close up, as gensim does), window k and hierarchical softmax's
log p(w | h) = Σ_l log σ((1 - 2 c_l) θ_l·h) along w's Huffman path (seed 002,
``math/output_layers.hierarchical_softmax_output`` is its negative):

    skip-gram:  log p(s) = Σ_i Σ_{j ≠ i, |j - i| ≤ k} log p(w_i | v_{w_j})
    CBOW:       log p(s) = Σ_i log p(w_i | h_i),  h_i = the mean (``cbow_mean``) or sum of
                v_{w_j} over j ≠ i, |j - i| ≤ k  (a word with no context scores nothing)

Every window is the full ``window`` (no reduced windows: scoring draws nothing).  gensim
reads log σ from its table and skips each term whose |θ·h| ≥ 6; these are the exact sums.
"""

import numpy as np

from wordvec.math.output_layers import log_sigmoid


def path_log_probability(H, W_inner, points, codes):
    """Σ over the rows h of ``H`` (C x D) of log p(word | h), the word's Huffman path
    ``points`` / ``codes`` (L,): Σ_c Σ_l log σ((1 - 2 c_l) θ_l·h_c)."""
    signs = 1.0 - 2.0 * np.asarray(codes, dtype=np.float64)
    scores = np.asarray(H, dtype=np.float64) @ np.asarray(W_inner[np.asarray(points, dtype=np.int64)],
                                                          dtype=np.float64).T  # C x L
    return float(np.sum(log_sigmoid(scores * signs)))


def score_sentence(ids, W_in, W_inner, points, codes, lengths, window, sg=True, cbow_mean=True):
    """log p(sentence) of the vocabulary ids ``ids`` (unknown words already dropped);
    ``points``/``codes``/``lengths``: the Huffman tree's rows (``data.huffman.HuffmanTree``)."""
    ids = np.asarray(ids, dtype=np.int64)
    total = 0.0
    for i, word in enumerate(ids.tolist()):
        context = np.concatenate([ids[max(0, i - window):i], ids[i + 1:i + 1 + window]])
        length = int(lengths[word])
        if context.size == 0 or length == 0:
            continue
        H = np.asarray(W_in[context], dtype=np.float64)
        if not sg:
            H = H.mean(axis=0, keepdims=True) if cbow_mean else H.sum(axis=0, keepdims=True)
        total += path_log_probability(H, W_inner, points[word, :length], codes[word, :length])
    return total
