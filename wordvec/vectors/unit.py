"""Unit-length rows and the analogy method names: the pieces both the vector table
(``keyed``) and the evaluations (``evaluate``) need, so neither imports the other."""

import numpy as np

ANALOGY_METHODS = ("3cosadd", "3cosmul")


def unit_rows(matrix):
    """Rows scaled to unit length (zero rows stay zero), float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1).astype(np.float32)
