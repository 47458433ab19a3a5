"""Compiled Adam update: the NumPy expressions of :func:`wordvec.math.adam.adam_step` in
one pass over the arrays, bit for bit (``tests/lm/test_adam.py``).

The NumPy version makes ten passes and five temporaries per array (a word-level LM's
10k x 128 embedding and output matrices are 5 MB each; with the CLI's 128 KB mmap
threshold every temporary is fresh pages).  Here each element does the same float
operations in the same order and precision (no fastmath: no contraction into FMA, no
reassociation), with the scalars rounded to the array's dtype first, as NumPy does
with a Python float against a float32 array; tests hold the two to equality.
"""

import numba
import numpy as np


# error_model="numpy": a division by zero gives inf as in NumPy instead of a Python
# exception check per element, which is what kept LLVM from vectorising the loop.
@numba.njit(nogil=True, cache=True, error_model="numpy")
def adam_update(param, grad, m, v, beta1, one_minus_beta1, beta2, one_minus_beta2, step_size, eps):
    """In place, elementwise over the flat arrays (all of one dtype, scalars of that dtype):

        m = m * beta1 + (1 - beta1) * g;   v = v * beta2 + (1 - beta2) * (g * g)
        param = param - (step_size * m) / (sqrt(v) + eps)
    """
    for k in range(param.size):
        g = grad[k]
        m[k] = m[k] * beta1 + one_minus_beta1 * g
        v[k] = v[k] * beta2 + one_minus_beta2 * (g * g)
        param[k] = param[k] - (step_size * m[k]) / (np.sqrt(v[k]) + eps)
