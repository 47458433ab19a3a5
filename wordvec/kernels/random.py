"""Every random-number generator of the compiled kernels, in one place.

Three generators, each kept because a model's results are defined by it:

* word2vec's 64-bit linear congruential generator (x <- x * 25214903917 + 11 mod 2^64),
  the C tool's and gensim's, using only its high bits (:func:`lcg_next`, :func:`uniform`,
  :func:`below`): word2vec, subword and Doc2Vec draw their windows, negatives and
  subsampling from it, so a run with the C tool's seed follows its stream.
* the classifier's 64-bit LCG with Knuth's MMIX constants, 31 bits per draw
  (:func:`lcg31_next`): the label that one-vs-all trains against a document's other labels.
* splitmix64 (:data:`GOLDEN`, :func:`mix64`): counter-based, for values that must not depend
  on thread or order (the classifier's initial rows, GloVe's epoch order, a document's
  inference seed).

Each stream's state is a one-element ``uint64`` array (the LCGs) or a ``uint64`` counter
(splitmix64), owned by one thread.
"""

import numba
import numpy as np

LCG_MULTIPLIER = np.uint64(25214903917)
LCG_INCREMENT = np.uint64(11)
SHIFT_32 = np.uint64(32)
SHIFT_11 = np.uint64(11)
TWO_POW_M53 = 1.0 / 9007199254740992.0

MMIX_MULTIPLIER = np.uint64(6364136223846793005)
MMIX_INCREMENT = np.uint64(1442695040888963407)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # splitmix64's increment: 2^64 / the golden ratio

jit = numba.njit(nogil=True, cache=True)


@jit
def lcg_next(state):
    """Advance the one-element uint64 ``state``; return its top 32 bits as uint64."""
    x = state[0] * LCG_MULTIPLIER + LCG_INCREMENT
    state[0] = x
    return x >> SHIFT_32


@jit
def uniform(state):
    """A float64 uniform in [0, 1) from the top 53 bits of the next LCG state."""
    x = state[0] * LCG_MULTIPLIER + LCG_INCREMENT
    state[0] = x
    return float(x >> SHIFT_11) * TWO_POW_M53


@jit
def below(state, n):
    """A uniform integer in [0, n) (n < 2^32) by multiply-shift of 32 random bits."""
    return np.int64((lcg_next(state) * np.uint64(n)) >> SHIFT_32)


@jit
def lcg31_next(state):
    """One step of the MMIX LCG held in ``state[0]``; returns 31 random bits."""
    state[0] = state[0] * MMIX_MULTIPLIER + MMIX_INCREMENT
    return np.int64(state[0] >> np.uint64(33))


@jit
def mix64(z):
    """splitmix64's finaliser: a 64-bit value whose every bit depends on every bit of z."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))
