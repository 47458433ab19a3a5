"""Sparse (CSR) times dense, compiled and threaded: the products of the randomized SVD."""

import threading

import numba
import numpy as np


@numba.njit(nogil=True, cache=True)
def csr_times_dense_rows(indptr, indices, data, B, out, row_start, row_stop):
    """out[r] = sum_p data[p] * B[indices[p]] for CSR rows r in [row_start, row_stop).
    B: float32[n, l]; out: float32[m, l]."""
    l = B.shape[1]
    for r in range(row_start, row_stop):
        for t in range(l):
            out[r, t] = 0.0
        for p in range(indptr[r], indptr[r + 1]):
            c = indices[p]
            v = data[p]
            for t in range(l):
                out[r, t] += v * B[c, t]


def csr_times_dense(M, B, workers=2):
    """M @ B for a float32 CSR matrix M (m x n) and dense B (n x l), rows split between
    ``workers`` threads by equal numbers of non-zeros."""
    B = np.ascontiguousarray(B, dtype=np.float32)
    out = np.empty((M.shape[0], B.shape[1]), np.float32)
    indptr, indices, data = M.indptr, M.indices, np.asarray(M.data, dtype=np.float32)
    cuts = np.searchsorted(indptr, np.linspace(0, indptr[-1], workers + 1)).clip(0, M.shape[0])
    cuts[0], cuts[-1] = 0, M.shape[0]
    threads = [threading.Thread(target=csr_times_dense_rows,
                                args=(indptr, indices, data, B, out, int(cuts[t]), int(cuts[t + 1])))
               for t in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out
