"""Compiled hash table over a vocabulary stored as arrays (``wordvec.vectors.wordtable``).

The words are one UTF-8 byte string ``blob`` (uint8) and ``offsets`` (int64[V + 1]):
word ``i`` is ``blob[offsets[i]:offsets[i + 1]]``.  ``slots`` (int32, a power-of-two
length, at most half full) is an open-addressing table with linear probing: a slot holds
``row + 1`` of the word whose FNV-1a hash first probes there (or the next free slot), 0 when
empty.  Looking a word up is a hash of its bytes plus, on average, under two probes
(load factor <= 1/2), each a byte comparison; building it is one insert per word.  No
Python object is made per word, so a 3M-word vocabulary is three flat arrays that can
be memory-mapped, instead of 3M strings and a dict.

The kernels never loop forever or read out of bounds on a damaged table: a probe
sequence stops after ``len(slots)`` steps and slot values are checked by the caller
(``WordTable.check``) before a table read from disk is used.
"""

import numba
import numpy as np

from wordvec.kernels.tokens import FNV_OFFSET, FNV_PRIME  # the vocabulary's 64-bit FNV-1a, one definition


@numba.njit(inline="always", cache=True)
def fnv1a(data, start, stop):
    """64-bit FNV-1a hash of ``data[start:stop]`` (uint8)."""
    h = FNV_OFFSET
    for k in range(start, stop):
        h = (h ^ np.uint64(data[k])) * FNV_PRIME
    return h


@numba.njit(inline="always", cache=True)
def _equal(blob, offsets, row, key, key_start, key_stop):
    """True if word ``row`` is ``key[key_start:key_stop]``."""
    start, stop = offsets[row], offsets[row + 1]
    if stop - start != key_stop - key_start:
        return False
    for k in range(stop - start):
        if blob[start + k] != key[key_start + k]:
            return False
    return True


@numba.njit(cache=True)
def find_row(blob, offsets, slots, key, key_start, key_stop):
    """Row of the word ``key[key_start:key_stop]``, or -1 if it is not in the table."""
    mask = len(slots) - 1
    at = np.int64(fnv1a(key, key_start, key_stop) & np.uint64(mask))
    for _ in range(len(slots)):
        held = slots[at]
        if held == 0:
            return -1
        if _equal(blob, offsets, held - 1, key, key_start, key_stop):
            return held - 1
        at = (at + 1) & mask
    return -1


@numba.njit(cache=True)
def find_rows(blob, offsets, slots, keys, key_offsets, out):
    """``out[j]`` = row of key ``j`` of (``keys``, ``key_offsets``), or -1: many lookups, one call."""
    for j in range(len(key_offsets) - 1):
        out[j] = find_row(blob, offsets, slots, keys, key_offsets[j], key_offsets[j + 1])


@numba.njit(cache=True)
def build_slots(blob, offsets, slots, repeated):
    """Insert every word into the empty table ``slots``; a word already there (a duplicate)
    is not inserted and gets ``repeated[row] = 1``.  Returns the number of duplicates."""
    mask = len(slots) - 1
    duplicates = 0
    for row in range(len(offsets) - 1):
        at = np.int64(fnv1a(blob, offsets[row], offsets[row + 1]) & np.uint64(mask))
        while True:
            held = slots[at]
            if held == 0:
                slots[at] = row + 1
                break
            if _equal(blob, offsets, held - 1, blob, offsets[row], offsets[row + 1]):
                repeated[row] = 1
                duplicates += 1
                break
            at = (at + 1) & mask
    return duplicates


@numba.njit(cache=True)
def gather_word_bytes(blob, offsets, rows, out, out_offsets):
    """The words ``rows`` (in that order) as a new (blob, offsets) pair written into
    ``out`` / ``out_offsets`` (sized by the caller)."""
    used = 0
    out_offsets[0] = 0
    for j in range(len(rows)):
        start, stop = offsets[rows[j]], offsets[rows[j] + 1]
        out[used:used + stop - start] = blob[start:stop]
        used += stop - start
        out_offsets[j + 1] = used
