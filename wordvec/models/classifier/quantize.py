"""fastText's ``quantize`` steps on a classifier's input rows: choose the rows to keep
(``selectEmbeddings``), prune the dictionary to them (``Dictionary::prune``) and
product-quantize the matrix (``QuantMatrix``; the math in ``wordvec.math.product_quantizer``,
the nearest-centroid search compiled in ``wordvec.kernels.quantize``).
"""

import numpy as np

from wordvec.data.label_dictionary import EOS, LabelDictionary, to_bytes
from wordvec.io.fasttext_bin import ProductQuantizer, QuantizedMatrix
from wordvec.kernels import quantize as quantize_kernels
from wordvec.math import product_quantizer as pq


def select_rows(dictionary, W_in, cutoff):
    """fastText's selectEmbeddings: the EOS row, then the rows of largest norm."""
    norms = row_norms(W_in)
    order = np.argsort(-norms, kind="stable")
    eos = dictionary.word_index.get(to_bytes(EOS), -1)
    if eos >= 0:
        order = np.concatenate([[eos], order[order != eos]])
    return order[:cutoff]


def row_norms(W, block=1 << 16):
    """||W[i]|| for every row, in float64, a block at a time (no float64 copy of W)."""
    norms = np.empty(W.shape[0], dtype=np.float64)
    for start in range(0, W.shape[0], block):
        rows = W[start:start + block].astype(np.float64)
        norms[start:start + block] = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    return norms


def prune_rows(dictionary, W_in, kept):
    """fastText's Dictionary::prune: kept words in id order, then the kept n-gram rows in
    the order given, with a bucket -> row map for the n-grams."""
    nwords = dictionary.nwords
    words = np.sort(kept[kept < nwords])
    ngram_rows = kept[kept >= nwords]
    if dictionary.prune_index is None:
        buckets = ngram_rows - nwords
    else:
        bucket_of_row = {r: b for b, r in dictionary.prune_index.items()}
        buckets = np.array([bucket_of_row[r - nwords] for r in ngram_rows], dtype=np.int64)
    pruned = LabelDictionary([dictionary.words[i] for i in words], dictionary.word_counts[words],
                             list(dictionary.labels), dictionary.label_counts, dictionary.ntokens,
                             dictionary.label_prefix, dictionary.word_ngrams, dictionary.bucket, dictionary.minn,
                             dictionary.maxn, {int(b): j for j, b in enumerate(buckets)})
    return pruned, W_in[np.concatenate([words, ngram_rows]).astype(np.int64)]


def quantize_matrix(W, dsub, qnorm):
    """A QuantizedMatrix of W (rows divided by their quantized norms with ``qnorm``)."""
    X = W.astype(np.float32)
    norm_codes = norm_pq = None
    if qnorm:
        norms = np.linalg.norm(X, axis=1).astype(np.float32)
        X = X / np.where(norms > 0, norms, 1.0)[:, None]
        norm_centroids = pq.train_product_quantizer(norms[:, None], 1, assign=quantize_kernels.nearest_centroids)
        norm_codes = pq.encode(norms[:, None], norm_centroids, 1, quantize_kernels.nearest_centroids)[:, 0]
        norm_pq = ProductQuantizer(1, 1, norm_centroids)
    centroids = pq.train_product_quantizer(X, dsub, assign=quantize_kernels.nearest_centroids)
    codes = pq.encode(X, centroids, dsub, quantize_kernels.nearest_centroids)
    return QuantizedMatrix(W.shape[0], W.shape[1], codes.reshape(-1), ProductQuantizer(W.shape[1], dsub, centroids),
                           norm_codes, norm_pq)
