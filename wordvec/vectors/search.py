"""Exact cosine top-k over a big matrix, in blocks of rows, for many queries at once.

For unit queries ``Q`` (n x D) the cosines with rows ``s:e`` of the matrix ``X`` are

    C = (X[s:e] @ Q.T) * inv_norm[s:e, None]          (a B x n float32 block)

and each query keeps a running best ``k``: ``kernels.topk.merge_block``, one compiled pass
per block, for many queries; ``merge_top`` (its NumPy reference) for up to FEW_QUERIES.  The block height ``B`` is
chosen so that ``B x n`` stays near BLOCK_SCORES floats, so a 3M-row matrix never needs
a V x V or V x n temporary (and never a float64 one), and a float16 or int8 matrix is
turned into float32 one block at a time.  The inverse row norms are computed in the
same pass the first time (a memory-mapped matrix is read once for its first query).

``rows(start, stop)`` gives float32 rows of the stored matrix: a plain or memory-mapped
array (``array_rows``) or a compact form (``wordvec.vectors.compact``).
"""

import numpy as np

from wordvec.blas import blas_threads

BLOCK_SCORES = 1 << 22  # floats in one block of scores (16 MB)
MIN_BLOCK_ROWS = 1024
FEW_QUERIES = 16  # up to this many queries a block product is memory-bound: one BLAS thread


def array_rows(matrix):
    """``rows(start, stop)`` for a float32/float16 (possibly memory-mapped) matrix."""
    return lambda start, stop: np.asarray(matrix[start:stop], dtype=np.float32)


def inverse_norms(block):
    """1 / |row| for each row of a float32 block (0 for a zero row, so its cosines are 0)."""
    norms = np.sqrt(np.einsum("ij,ij->i", block, block))
    return np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0).astype(np.float32)


def merge_top(best_index, best_score, block_scores, offset, k):
    """Merge a (n x B) block of scores into each query's running best ``k`` (sorted later):
    the NumPy reference of ``kernels.topk.merge_block``, which ``top_k`` uses.

    Once every query has ``k`` candidates, only scores above a query's current k-th best
    can enter; after the first blocks those are few, so they are picked out with one
    comparison pass (``_merge_few``) instead of a partition of the whole block."""
    if best_score.shape[1] == k:
        threshold = best_score.min(axis=1)
        rows, cols = np.nonzero(block_scores > threshold[:, None])
        if len(rows) <= 4 * block_scores.shape[0] * k:
            return _merge_few(best_index, best_score, rows, cols, block_scores[rows, cols], offset, k)
    if block_scores.shape[1] > k:
        part = np.argpartition(-block_scores, k - 1, axis=1)[:, :k]
    else:
        part = np.broadcast_to(np.arange(block_scores.shape[1]), block_scores.shape)
    scores = np.concatenate([best_score, np.take_along_axis(block_scores, part, axis=1)], axis=1)
    index = np.concatenate([best_index, part + offset], axis=1)
    if scores.shape[1] > k:
        keep = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        scores, index = np.take_along_axis(scores, keep, axis=1), np.take_along_axis(index, keep, axis=1)
    return index, scores


def _merge_few(best_index, best_score, rows, cols, scores, offset, k):
    """Each query's best ``k`` of its current best and the few new (row, col, score) candidates."""
    if len(rows) == 0:
        return best_index, best_score
    n = best_score.shape[0]
    query = np.concatenate([np.repeat(np.arange(n), k), rows])
    index = np.concatenate([best_index.ravel(), cols + offset])
    score = np.concatenate([best_score.ravel(), scores])
    order = np.lexsort((-score, query))  # by query, best first
    query, index, score = query[order], index[order], score[order]
    rank = np.arange(len(query)) - np.searchsorted(query, query)  # place within its query
    keep = rank < k  # exactly k per query: each had k before
    return index[keep].reshape(n, k), score[keep].reshape(n, k)


def block_rows(n_queries, n_rows, dims):
    """Rows per block: the scores (B x n) and the float32 rows (B x D) each near BLOCK_SCORES floats."""
    height = min(BLOCK_SCORES // max(1, n_queries), BLOCK_SCORES // max(1, dims))
    return int(min(max(MIN_BLOCK_ROWS, height), max(1, n_rows)))


def top_k(rows, n_rows, queries, k, inv_norms=None, exclude=None):
    """Best ``k`` rows by cosine for each unit query: (index n x k, cosine n x k), best first.

    ``inv_norms`` (float32[n_rows], or None to compute them on the way; the array used is
    returned third so a caller can keep it); ``exclude``: a pair of arrays (query, row)
    that must not be answers (the query words themselves).
    """
    queries = np.ascontiguousarray(queries, dtype=np.float32)
    n, k = queries.shape[0], int(min(k, n_rows))
    fresh = inv_norms is None
    if fresh:
        inv_norms = np.empty(n_rows, dtype=np.float32)
    few = n <= FEW_QUERIES
    best = _FewBest(n, k) if few else _ManyBest(n, k)
    step = block_rows(n, n_rows, queries.shape[1])
    with blas_threads(1 if few else None):
        for start in range(0, n_rows, step):
            stop = min(n_rows, start + step)
            block = rows(start, stop)
            if fresh:
                inv_norms[start:stop] = inverse_norms(block)
            dots = queries @ block.T  # n x B; cosines = dots * inv_norms
            excluded = None
            if exclude is not None:
                inside = (exclude[1] >= start) & (exclude[1] < stop)
                excluded = (exclude[0][inside], exclude[1][inside] - start)
            best.add(dots, inv_norms[start:stop], start, excluded)
    best_index, best_score = best.result()
    order = np.argsort(-best_score, axis=1, kind="stable")
    return np.take_along_axis(best_index, order, axis=1), np.take_along_axis(best_score, order, axis=1), inv_norms


class _FewBest:
    """Running best k of a few queries, in NumPy (``merge_top``): a process's first query
    then never waits for the compiler's start-up (~0.2 s), and with few queries the
    partitions are cheap."""

    def __init__(self, n, k):
        self.k, self.index, self.score = k, np.zeros((n, 0), dtype=np.int64), np.zeros((n, 0), dtype=np.float32)

    def add(self, dots, inv_norms, offset, excluded):
        scores = np.multiply(dots, inv_norms, out=dots)
        if excluded is not None:
            scores[excluded] = -np.inf
        self.index, self.score = merge_top(self.index, self.score, scores, offset, self.k)

    def result(self):
        return self.index, self.score


class _ManyBest:
    """Running best k of many queries: one compiled pass per block (``kernels.topk``)."""

    def __init__(self, n, k):
        self.index = np.zeros((n, k), dtype=np.int64)
        self.score = np.full((n, k), -np.inf, dtype=np.float32)
        self.filled = np.zeros(n, dtype=np.int64)

    def add(self, dots, inv_norms, offset, excluded):
        if excluded is not None:
            dots[excluded] = -np.inf
        from wordvec.kernels.topk import merge_block  # many queries: the compiled pass pays for Numba

        merge_block(dots, inv_norms, offset, self.index, self.score, self.filled)

    def result(self):
        return self.index, self.score


def all_cosines(rows, n_rows, query, inv_norms):
    """Cosines of one unit query with every row (float32[n_rows]), block by block."""
    out = np.empty(n_rows, dtype=np.float32)
    step = block_rows(1, n_rows, len(query))
    with blas_threads(1):
        for start in range(0, n_rows, step):
            stop = min(n_rows, start + step)
            out[start:stop] = (rows(start, stop) @ query) * inv_norms[start:stop]
    return out


def norms_of(rows, n_rows, dims):
    """float32 inverse norms of all rows, block by block."""
    out = np.empty(n_rows, dtype=np.float32)
    step = block_rows(1, n_rows, dims)
    for start in range(0, n_rows, step):
        stop = min(n_rows, start + step)
        out[start:stop] = inverse_norms(rows(start, stop))
    return out


BIG_MATRIX = 1 << 25  # float32 values (128 MB) above which a unit-norm copy is not made


def exclusion_pairs(excluded):
    """(query, row) arrays from one list of excluded rows per query."""
    queries = [q for q, rows in enumerate(excluded) for _ in rows]
    rows = [r for rows in excluded for r in rows]
    return np.asarray(queries, dtype=np.int64), np.asarray(rows, dtype=np.int64)
