"""Compiled loops for co-occurrence counting (see ``wordvec/data/cooccur.py`` for the plan).

Counts are integers: every weight is a whole number of ``1/scale`` units (``scale`` is
chosen in ``wordvec.data.cooccur`` so that 1/d is exact for every distance d in the window),
accumulated in int64.  Integer addition is associative, so the result does not depend on
how the corpus was cut into chunks or in which order chunks are merged: counting under a
tight memory limit gives exactly the same matrix.

Pair convention: token ``i`` at position p and a token ``j`` at position q < p with
p - q <= window (same document).  "Left" pairs (row i, column j) are always counted;
``symmetric`` also counts (row j, column i).  Pairs of frequent words, those with
(i+1)(j+1) <= P (ids are frequency ranks), are accumulated in a dense "hyperbolic" table
like the Stanford tool's: row r holds columns [0, row_start[r+1]-row_start[r]) at
dense[row_start[r]:...].  The region is symmetric under transposition, so a symmetric
window adds both (i, j) and (j, i) there as well.
"""

import numba
import numpy as np


@numba.njit(nogil=True, cache=True)
def count_pairs(ids, offsets, doc, pos, window, weight_units, symmetric, dense, row_start,
                rows, cols, vals):
    """Count pairs for tokens from ``pos`` (inside document ``doc``) on, until the buffer
    could not take another token's pairs or the corpus ends.

    ids: int32[N]; offsets: int64[n_docs+1]; weight_units: int32[window+1] (weight of
    distance d in units); dense: int64[row_start[V]] (left pairs of frequent words,
    updated); row_start: int64[V+1];
    rows, cols, vals: int32[capacity] pair buffer (filled from 0).
    Returns (doc, pos, n_buffered, n_pairs): where to resume, how many buffer slots were
    used, and how many (left) pairs were counted in this call.
    """
    n_docs = offsets.shape[0] - 1
    capacity = rows.shape[0]
    per_token = 2 * window if symmetric else window
    n = 0
    n_pairs = 0
    while doc < n_docs:
        start = offsets[doc]
        end = offsets[doc + 1]
        while pos < end:
            if n + per_token > capacity:
                return doc, pos, n, n_pairs
            i = ids[pos]
            lo = max(start, pos - window)
            for q in range(pos - 1, lo - 1, -1):
                j = ids[q]
                w = weight_units[pos - q]
                if j < row_start[i + 1] - row_start[i]:
                    dense[row_start[i] + j] += w
                    if symmetric:
                        dense[row_start[j] + i] += w
                else:
                    rows[n] = i
                    cols[n] = j
                    vals[n] = w
                    n += 1
                    if symmetric:
                        rows[n] = j
                        cols[n] = i
                        vals[n] = w
                        n += 1
            n_pairs += pos - lo
            pos += 1
        doc += 1
        if doc < n_docs:
            pos = offsets[doc]
    return doc, pos, n, n_pairs


@numba.njit(nogil=True, cache=True)
def compress_pairs(rows, cols, vals, n, V):
    """Sum duplicate (row, col) pairs of the first ``n`` buffer entries into CSR form.

    Bucket by row (counting sort), then per row scatter-add into a dense accumulator and
    emit the touched columns in sorted order.  Returns (indptr int64[V+1], indices
    int32[nnz], values int64[nnz]).
    """
    start = np.zeros(V + 1, np.int64)
    for k in range(n):
        start[rows[k] + 1] += 1
    for r in range(V):
        start[r + 1] += start[r]
    fill = start[:-1].copy()
    bucket_cols = np.empty(n, np.int32)
    bucket_vals = np.empty(n, np.int32)
    for k in range(n):
        r = rows[k]
        bucket_cols[fill[r]] = cols[k]
        bucket_vals[fill[r]] = vals[k]
        fill[r] += 1
    acc = np.zeros(V, np.int64)
    touched = np.empty(V, np.int32)
    indptr = np.zeros(V + 1, np.int64)
    indices = np.empty(n, np.int32)
    values = np.empty(n, np.int64)
    nnz = 0
    for r in range(V):
        m = 0
        for k in range(start[r], start[r + 1]):
            c = bucket_cols[k]
            if acc[c] == 0:
                touched[m] = c
                m += 1
            acc[c] += bucket_vals[k]
        row_cols = np.sort(touched[:m])
        for c in row_cols:
            indices[nnz] = c
            values[nnz] = acc[c]
            acc[c] = 0
            nnz += 1
        indptr[r + 1] = nnz
    return indptr, indices[:nnz].copy(), values[:nnz].copy()


@numba.njit(nogil=True, cache=True)
def _gather_row(r, indptrs, indices_list, values_list, dense, row_start, acc, touched):
    """Scatter-add row r of every chunk (and of the dense block) into ``acc``; return the
    number of distinct columns, listed (unsorted) in ``touched[:m]``."""
    m = 0
    for c in range(row_start[r + 1] - row_start[r]):
        v = dense[row_start[r] + c]
        if v != 0:
            touched[m] = c
            m += 1
            acc[c] = v
    for t in range(len(indptrs)):
        indptr = indptrs[t]
        indices = indices_list[t]
        values = values_list[t]
        for k in range(indptr[r], indptr[r + 1]):
            c = indices[k]
            if acc[c] == 0:
                touched[m] = c
                m += 1
            acc[c] += values[k]
    return m


@numba.njit(nogil=True, cache=True)
def merged_row_lengths(indptrs, indices_list, values_list, dense, row_start, r0, r1, lengths):
    """First merge pass over rows [r0, r1): lengths[r] = distinct columns of row r."""
    V = row_start.shape[0] - 1
    acc = np.zeros(V, np.int64)
    touched = np.empty(V, np.int32)
    for r in range(r0, r1):
        m = _gather_row(r, indptrs, indices_list, values_list, dense, row_start, acc, touched)
        for k in range(m):
            acc[touched[k]] = 0
        lengths[r] = m


@numba.njit(nogil=True, cache=True)
def merge_rows(indptrs, indices_list, values_list, dense, row_start, scale, r0, r1,
               out_indptr, out_indices, out_data):
    """Second merge pass over rows [r0, r1): fill the CSR result; data = count / scale
    (computed in float64, stored in out_data's type)."""
    V = out_indptr.shape[0] - 1
    acc = np.zeros(V, np.int64)
    touched = np.empty(V, np.int32)
    for r in range(r0, r1):
        m = _gather_row(r, indptrs, indices_list, values_list, dense, row_start, acc, touched)
        row_cols = np.sort(touched[:m])
        k = out_indptr[r]
        for c in row_cols:
            out_indices[k] = c
            out_data[k] = acc[c] / scale
            acc[c] = 0
            k += 1
