"""Borrowed arrays (no reference counting) and buffers on cache lines of their own."""

import numba
import numpy as np

from wordvec.kernels.borrowed import borrowed
from wordvec.kernels.doc2vec import zeros_on_own_lines


@numba.njit
def _scale_rows(A, rows, factor):
    view = borrowed(A)
    for r in rows:
        for i in range(view.shape[1]):
            view[r, i] *= factor
    return view.shape[0] * 1000 + view.shape[1], view[rows[0]].sum()


def test_a_borrowed_array_is_the_same_memory():
    A = np.arange(12, dtype=np.float32).reshape(4, 3)
    shape, first_row = _scale_rows(A, np.array([1, 3]), np.float32(2.0))
    assert shape == 4003
    assert first_row == 2.0 * (3 + 4 + 5)
    np.testing.assert_array_equal(A, [[0, 1, 2], [6, 8, 10], [6, 7, 8], [18, 20, 22]])


def test_zeros_on_own_lines_start_on_a_line_inside_their_allocation():
    for shape, dtype in (((1,), np.uint64), ((5,), np.int64), ((1, 100), np.float32), ((7,), np.float32)):
        array = zeros_on_own_lines(shape, dtype)
        assert array.shape == shape and array.dtype == dtype and not array.any()
        start, raw = array.ctypes.data, array.base
        while raw.base is not None:
            raw = raw.base
        last_line_end = start + -(-array.nbytes // 64) * 64
        assert start % 64 == 0
        assert raw.ctypes.data <= start and last_line_end <= raw.ctypes.data + raw.nbytes
