"""Which vector sizes get kernels compiled with the size D as a constant.

With a constant D, LLVM unrolls a kernel's row loops completely and keeps a row in vector
registers (sg-ns epochs 10-25% shorter at D = 50-200; below D = 48 the shared kernel was
as fast or faster).  But each constant is a kernel of its own, compiled on the first run
that uses it: about 20 s a size for word2vec, 80 s with Doc2Vec's.  So only the sizes
published vectors come in (GloVe's, word2vec's, fastText's) get one, and ``wordvec
compile`` compiles them ahead; every other size shares one kernel with D read from the
arrays, and a new size never waits for the compiler.
"""

import numpy as np

CONSTANT_VECTOR_SIZES = (50, 100, 200, 300)


def vector_size_token(D):
    """What a kernel specialised by vector size takes to know D at compile time.

    A tuple's length is part of its Numba type, so a tuple of D zeros makes Numba compile
    (and cache) one kernel per D, in which ``len(token)`` is the constant D.  The empty
    tuple (D not in :data:`CONSTANT_VECTOR_SIZES`) means: read D from the arrays.
    """
    return (np.int8(0),) * (D if D in CONSTANT_VECTOR_SIZES else 0)
