"""Compiled loops of the replica synchronisation in ``wordvec.distributed.training``:
finding the rows a worker changed with their deltas, and adding deltas into the
parameters.  Each performs exactly the float32 arithmetic of its NumPy reference in
``training`` (``reference_row_deltas``, ``reference_add_row_deltas``); the NumPy versions
cost ~0.1 s (deltas) and ~0.25 s (adding) per 51k x 100 matrix, which per round is time
every worker waits for."""

import numba


@numba.njit(nogil=True, cache=True)
def touched_row_deltas(current, base, rows_out, deltas_out):
    """For each row r (in order) where current[r] != base[r] anywhere: rows_out[k] = r and
    deltas_out[k] = current[r] - base[r].  Returns the number k of such rows."""
    n_rows, width = current.shape
    k = 0
    for r in range(n_rows):
        changed = False
        for d in range(width):
            if current[r, d] != base[r, d]:
                changed = True
                break
        if changed:
            rows_out[k] = r
            for d in range(width):
                deltas_out[k, d] = current[r, d] - base[r, d]
            k += 1
    return k


@numba.njit(nogil=True, cache=True)
def add_row_deltas(array, rows, deltas, divisor):
    """array[rows[k]] += deltas[k] / divisor[rows[k]] (float32 throughout)."""
    width = array.shape[1]
    for k in range(rows.shape[0]):
        r = rows[k]
        scale = divisor[r]
        for d in range(width):
            array[r, d] += deltas[k, d] / scale
