"""``exp_nonpositive(a)``: float32 exp(a) for a <= 0 in straight-line arithmetic, for the
logistic terms of the output layers (``wordvec.kernels.word2vec.logistic_term``).

A call to the C library's ``expf`` is opaque to the compiler, so a loop over a Huffman
path's scores made one call per node and stayed scalar.  This is the same function
written out, so that loop compiles to vector instructions:

    exp(a) = 2^n exp(r),   n = round(a / ln 2),   r = a - n ln 2,   |r| <= ln 2 / 2

with r in float64 (exact to far below float32's precision, whatever the fast-math flags
of the loop it is inlined into), exp(r) by its Taylor series to r^8 (truncation below
1e-9), 2^n from its bits, and one rounding to float32 at the end: the correctly rounded
exp(a) for all but about 0.02% of arguments, one unit in the last place from it at most
(``tests/word2vec/test_kernels.py``).
The loop must also not raise on a division by zero (``error_model="numpy"``): a check
that may raise is a branch the vectoriser cannot take.
"""

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

LN2 = 0.6931471805599453
LOG2E = 1.4426950408889634
# Below this, exp(a) rounds to float32 zero (exp(-104) = 6.8e-46 < 2^-150), and n stays far
# inside float64's exponent range.
SMALLEST = -104.0


@intrinsic
def float64_from_bits(typingctx, bits):
    """The float64 whose IEEE-754 bits are the int64 ``bits`` (a bit cast, no conversion)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


@numba.njit(nogil=True, cache=True, inline="always")
def exp_nonpositive(a):
    """exp(a) in float32 for a float32 a <= 0 (0 below -104; NaN stays NaN)."""
    x = np.float64(a)
    x = SMALLEST if x < SMALLEST else x
    n = np.floor(x * LOG2E + 0.5)
    r = x - n * LN2
    p = 1.0 + r * (1.0 + r * (1 / 2 + r * (1 / 6 + r * (1 / 24 + r * (1 / 120 + r * (1 / 720 + r * (
        1 / 5040 + r * (1 / 40320))))))))
    k = np.int64(n) if n == n else 0  # NaN: any finite scale keeps p's NaN
    return np.float32(p * float64_from_bits((k + 1023) << 52))  # p * 2^n, n in [-151, 0]
