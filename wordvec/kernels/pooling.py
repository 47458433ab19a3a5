"""Compiled pooling of word vectors into sentence vectors: one gather-and-sum pass.

For sentence s with word ids ``ids[offsets[s]:offsets[s+1]]`` (n_s of them) and a weight
per word, :func:`weighted_means` writes

    out[s]       = (1 / n_s) * sum_t weights[id_t] * W[id_t]     (0 for an empty sentence)
    mean_w[s]    = (1 / n_s) * sum_t weights[id_t]

``mean_w`` lets a caller apply an affine map of the word vectors (PCA's centring and
rotation) after pooling instead of to the whole vocabulary: pooling is linear, so
mean_t w_t R (v_t - mu) = R (out[s] - mean_w[s] mu).

The row loops run with the vector size D a compile-time constant for the sizes of
``wordvec.kernels.sizes`` (a tuple of D zeros), so they unroll into vector code; one
thread pools more than a million 20-word sentences a second at D = 100.
"""

import numba
import numpy as np

from wordvec.kernels.sizes import vector_size_token

FAST = {"reassoc", "contract", "nsz", "arcp"}


def weighted_means(ids, offsets, weights, W, out, mean_w):
    """Fill ``out`` (n x D float32) and ``mean_w`` (n float64); see the module docstring."""
    D = W.shape[1]
    weighted_means_compiled(ids, offsets, weights, W, out, mean_w, vector_size_token(D))


@numba.njit(nogil=True, cache=True, fastmath=FAST)
def weighted_means_compiled(ids, offsets, weights, W, out, mean_w, token):
    D = len(token) if len(token) > 0 else W.shape[1]
    acc = np.zeros(D, dtype=np.float32)
    for s in range(offsets.shape[0] - 1):
        start, stop = offsets[s], offsets[s + 1]
        for i in range(D):
            acc[i] = 0.0
        total = 0.0
        for t in range(start, stop):
            w = ids[t]
            c = weights[w]
            total += c
            for i in range(D):
                acc[i] += c * W[w, i]
        n = stop - start
        scale = np.float32(1.0 / n) if n > 0 else np.float32(0.0)
        for i in range(D):
            out[s, i] = acc[i] * scale
        mean_w[s] = total / n if n > 0 else 0.0
