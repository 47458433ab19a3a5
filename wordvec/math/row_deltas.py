"""What data-parallel training sends between replicas (``wordvec.distributed.training``),
as reference NumPy code that the compiled ``wordvec.kernels.sync`` performs exactly.

A replica's change since the last synchronisation, sparse by rows::

    rows   = { r : current[r] != base[r] }              (int32, ascending)
    deltas = current[rows] - base[rows]

and the driver's combination of the deltas of several workers into a shared array::

    array[rows] += deltas / divisor[rows]

(``divisor``: 1 to add the workers' steps, as Hogwild threads would; the number of
workers that touched a row to average them).  Vectors (GloVe's biases) are treated as
one-column matrices.
"""

import numpy as np


def as_rows(array):
    """A 2-D view: vectors (GloVe's biases) as one-column matrices."""
    return array.reshape(-1, 1) if array.ndim == 1 else array


def reference_row_deltas(current, base):
    """(int32 rows where ``current`` differs from ``base``, current - base on those rows)."""
    differs = as_rows(current) != as_rows(base)
    rows = np.flatnonzero(differs.any(axis=1)).astype(np.int32)
    return rows, current[rows] - base[rows]


def reference_add_row_deltas(array, rows, deltas, divisor):
    """array[rows] += deltas / divisor[rows], in float32 (rows are distinct)."""
    array[rows] += deltas / divisor[rows].reshape((-1,) + (1,) * (deltas.ndim - 1))
