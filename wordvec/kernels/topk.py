"""Compiled running top-k for the blocked exact search (``wordvec.vectors.search``).

For each query ``q`` the search keeps its ``k`` best (row, cosine) pairs so far and
merges in one block of cosines (rows ``offset .. offset + B - 1``) at a time, each the
dot product times the row's inverse norm, multiplied here rather than in a pass of its own.  ``merge_block`` does it in one pass over the block with no temporaries: while a
query has fewer than ``k`` candidates every score enters; after that a score enters only
if it beats the query's current lowest, which then is replaced (and the new lowest found
among the k).  After the first blocks almost no score beats the k-th best, so the pass
tests CHUNK scores at a time (vectorised) and looks closer only at a chunk that has one.  A NaN score counts as -inf.  The NumPy reference (``search.merge_top``: partition and
concatenate) gives the same k rows and cosines (tests/vectors/test_loading.py).
"""

import numba
import numpy as np


CHUNK = 64  # scores tested at once: an OR of comparisons, which the compiler vectorises


@numba.njit(inline="always", cache=True)
def _any_above(row, scale, start, stop, floor):
    above = False
    for i in range(start, stop):
        above |= row[i] * scale[i] > floor
    return above


@numba.njit(inline="always", cache=True)
def _lowest(values):
    at = 0
    for j in range(1, len(values)):
        if values[j] < values[at]:
            at = j
    return at


@numba.njit(cache=True)
def merge_block(dots, scale, offset, best_index, best_score, filled):
    """Merge the scores ``dots * scale`` (n x B float32 dot products times float32[B] inverse
    row norms: cosines) into each query's running best: ``best_index`` / ``best_score``
    (n x k, unsorted), ``filled[q]`` of them in use so far."""
    k, width = best_score.shape[1], dots.shape[1]
    for q in range(dots.shape[0]):
        count, j = filled[q], 0
        row = dots[q]
        while count < k and j < width:  # filling up: every score enters
            value = row[j] * scale[j]
            best_score[q, count] = value if value == value else np.float32(-np.inf)
            best_index[q, count] = offset + j
            count += 1
            j += 1
        filled[q] = count
        if count < k:
            continue
        lowest = _lowest(best_score[q])
        floor = best_score[q, lowest]
        for chunk in range(j, width, CHUNK):  # (NaN never compares greater)
            stop = min(chunk + CHUNK, width)
            if not _any_above(row, scale, chunk, stop, floor):
                continue
            for i in range(chunk, stop):
                value = row[i] * scale[i]
                if value > floor:
                    best_score[q, lowest], best_index[q, lowest] = value, offset + i
                    lowest = _lowest(best_score[q])
                    floor = best_score[q, lowest]
