"""Compiled nearest-centroid search for product quantization (``wordvec.math.product_quantizer``).

Coding every row of a 2M-row input matrix against 256 centroids per sub-vector is the
cost of ``quantize``; NumPy's ``x @ C.T`` form allocates an (n, 256) distance matrix per
block, this loop keeps one row's 256 distances in registers and runs on all cores.
"""

import numba
import numpy as np


@numba.njit(nogil=True, cache=True, parallel=True)
def nearest_centroids(x, centroids):
    """For each row of x (n, d): the index of the nearest row of centroids (k, d);
    ties go to the lowest index (as ``np.argmin``)."""
    n, d = x.shape
    k = centroids.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in numba.prange(n):
        best, best_distance = 0, np.inf
        for c in range(k):
            distance = 0.0
            for j in range(d):
                diff = x[i, j] - centroids[c, j]
                distance += diff * diff
            if distance < best_distance:
                best, best_distance = c, distance
        out[i] = best
    return out
