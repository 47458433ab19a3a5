"""Product quantization (Jégou et al. 2011) as fastText's ``quantize`` uses it, in NumPy.

A row x of the input matrix is cut into sub-vectors of ``dsub`` values (the last one
may be shorter); sub-vector m is replaced by the nearest of 256 centroids learned by
k-means on that slice of (at most ``max_points``) rows, so a row costs one byte per
sub-vector instead of 4 × dsub:

    code_m(x) = argmin_c ||x_m - C_m[c]||²,     x ≈ [C_1[code_1], ..., C_M[code_M]]   (PQ1)

k-means (Lloyd) alternates (PQ1) and C_m[c] = mean of the sub-vectors coded c (PQ2);
an emptied centroid takes a copy of a random non-empty one (chosen by its size) and the
two are nudged apart by ±eps, as fastText's ``ProductQuantizer::MStep`` does. With
``qnorm`` the rows are divided by their norms first and the norms quantized by their
own one-dimensional quantizer.

The nearest-centroid search is the inner loop; ``wordvec.kernels.quantize`` compiles it
and is held to :func:`nearest_centroids` here.
"""

import numpy as np

KSUB = 256
EPS = 1e-7


def nearest_centroids(x, centroids):
    """(PQ1): for each row of x (n, d), the index of the nearest centroid (k, d); ties
    go to the lowest index. Squared distances summed directly (not expanded), in blocks."""
    out = np.empty(x.shape[0], dtype=np.int64)
    for begin in range(0, x.shape[0], 2048):
        diff = x[begin:begin + 2048, None, :] - centroids[None, :, :]
        out[begin:begin + 2048] = np.argmin((diff * diff).sum(axis=2), axis=1)
    return out


def update_centroids(x, assignment, centroids, rng):
    """(PQ2), in place; empty clusters are split off a random non-empty one."""
    k = centroids.shape[0]
    sizes = np.bincount(assignment, minlength=k)
    sums = np.stack([np.bincount(assignment, weights=x[:, j], minlength=k) for j in range(x.shape[1])], axis=1)
    full = sizes > 0
    centroids[full] = sums[full] / sizes[full, None]
    for empty in np.flatnonzero(~full):
        donor = rng.choice(k, p=sizes / sizes.sum())
        centroids[empty] = centroids[donor]
        sign = np.where(np.arange(centroids.shape[1]) % 2 == 0, 1.0, -1.0)
        centroids[empty] += sign * EPS
        centroids[donor] -= sign * EPS
        sizes[empty] = sizes[donor] // 2
        sizes[donor] -= sizes[empty]


def kmeans(x, k, n_iter, rng, assign=nearest_centroids):
    """Lloyd's k-means from k distinct random points; returns float32 centroids (k, d)."""
    centroids = x[rng.permutation(x.shape[0])[:k]].astype(np.float64)
    for _ in range(n_iter):
        update_centroids(x, assign(x, centroids), centroids, rng)
    return centroids.astype(np.float32)


def train_product_quantizer(X, dsub, seed=1234, n_iter=25, max_points=KSUB * KSUB, assign=nearest_centroids):
    """Centroids of every sub-vector in fastText's flat layout: float32[dim * 256]."""
    n, dim = X.shape
    if n < KSUB:
        raise ValueError(f"quantization needs at least {KSUB} rows, the matrix has {n}")
    rng = np.random.default_rng(seed)
    blocks = []
    for start in range(0, dim, dsub):
        rows = rng.permutation(n)[:max_points] if n > max_points else np.arange(n)
        x = np.ascontiguousarray(X[rows, start:start + dsub], dtype=np.float64)
        blocks.append(kmeans(x, KSUB, n_iter, rng, assign).reshape(-1))
    return np.concatenate(blocks)


def encode(X, centroids, dsub, assign=nearest_centroids):
    """(PQ1) for every row: uint8 codes (n, n_sub) against the flat centroid layout."""
    n, dim = X.shape
    starts = list(range(0, dim, dsub))
    codes = np.empty((n, len(starts)), dtype=np.uint8)
    for m, start in enumerate(starts):
        d = min(dsub, dim - start)
        block = centroids[m * KSUB * dsub:m * KSUB * dsub + KSUB * d].reshape(KSUB, d).astype(np.float64)
        for begin in range(0, n, 1 << 16):
            codes[begin:begin + (1 << 16), m] = assign(
                np.asarray(X[begin:begin + (1 << 16), start:start + d], dtype=np.float64), block)
    return codes


def decode(codes, centroids, dim, dsub):
    """x ≈ [C_1[code_1], ..., C_M[code_M]] (PQ1), float32 (n, dim)."""
    out = np.empty((codes.shape[0], dim), dtype=np.float32)
    for m, start in enumerate(range(0, dim, dsub)):
        d = min(dsub, dim - start)
        block = centroids[m * KSUB * dsub:m * KSUB * dsub + KSUB * d].reshape(KSUB, d)
        out[:, start:start + d] = block[codes[:, m]]
    return out
