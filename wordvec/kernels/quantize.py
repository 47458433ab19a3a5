"""Compiled nearest-centroid search for product quantization (``wordvec.math.product_quantizer``).

Coding every row of a 2M-row input matrix against 256 centroids per sub-vector is the
cost of ``quantize``; NumPy's ``x @ C.T`` form allocates an (n, 256) distance matrix per
block, this loop keeps one row's 256 distances in registers and runs on all cores. A
small search (k-means on a model cut to a few thousand rows, which autotune's trials with
a model size run hundreds of times) runs on one thread.
"""

import numba
import numpy as np

# Below this many distance terms (rows × centroids × sub-vector size) the search runs on one
# thread: waking the other threads costs more than the work (1,200 rows × 256 centroids × 2
# on 2 busy cores: 16 ms a search on both threads, 1.5 ms on one).
ALL_CORES_FROM = 1 << 22


def nearest_centroids(x, centroids):
    """For each row of x (n, d): the index of the nearest row of centroids (k, d);
    ties go to the lowest index (as ``np.argmin``)."""
    if x.shape[0] * centroids.shape[0] * x.shape[1] >= ALL_CORES_FROM:
        return nearest_centroids_kernel(x, centroids)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return nearest_centroids_kernel(x, centroids)
    finally:
        numba.set_num_threads(threads)


@numba.njit(nogil=True, cache=True, parallel=True)
def nearest_centroids_kernel(x, centroids):
    """:func:`nearest_centroids` on Numba's threads (as many as ``numba.set_num_threads`` says).
    A row's k distances are summed a coordinate at a time over the centroids transposed
    (d, k), a loop the compiler vectorizes across centroids (the same sums in the same
    order as one centroid at a time: 2-3x faster at d = 2), then scanned for the first
    smallest."""
    n, d = x.shape
    k = centroids.shape[0]
    by_coordinate = np.ascontiguousarray(centroids.T)
    out = np.empty(n, dtype=np.int64)
    for i in numba.prange(n):
        distances = np.zeros(k)
        for j in range(d):
            value, column = x[i, j], by_coordinate[j]
            for c in range(k):
                diff = value - column[c]
                distances[c] += diff * diff
        best, best_distance = 0, np.inf
        for c in range(k):
            if distances[c] < best_distance:
                best, best_distance = c, distances[c]
        out[i] = best
    return out
