"""Word classes by K-means on the word vectors, as word2vec.c's ``-classes K`` computes them.

The C tool's procedure (``TrainModel``), reproduced step for step so that the same
vectors give the same classes:

    start:     class(w) = index(w) mod K
    10 times:  centroid_k = (sum of the vectors of class k) / (1 + members of k)
               (the count starts at 1), then scaled to unit length;
               class(w) = argmax_k  centroid_k . v_w   (the first k on ties)

It is spherical K-means on the dot product (the vectors themselves are not normalised).
"""

import numpy as np

from wordvec.errors import WordvecError
from wordvec.memory import check_allocation

C_TOOL_ITERATIONS = 10


def c_tool_classes(vectors, k, iterations=C_TOOL_ITERATIONS):
    """int64[V] class of every row of ``vectors`` (V x D), word2vec.c's K-means."""
    vectors = np.asarray(vectors, dtype=np.float32)
    if not (isinstance(k, (int, np.integer)) and 1 <= k):
        raise WordvecError(f"the number of classes must be a whole number of at least 1, not {k}")
    # the centroids and their sums (k x D), the counts, and every row's cosine to each (V x k)
    check_allocation(4 * k * (2 * vectors.shape[1] + 2 + len(vectors)), f"{k:,} classes (-classes)")
    classes = np.arange(len(vectors), dtype=np.int64) % k
    for _ in range(iterations):
        sums = np.zeros((k, vectors.shape[1]), dtype=np.float32)
        np.add.at(sums, classes, vectors)
        members = 1 + np.bincount(classes, minlength=k).astype(np.float32)
        centroids = sums / members[:, None]
        lengths = np.linalg.norm(centroids, axis=1, keepdims=True)
        centroids = centroids / np.where(lengths > 0, lengths, 1)
        classes = np.argmax(vectors @ centroids.T, axis=1).astype(np.int64)
    return classes
