"""FNV-1a, the two hashes of a token's bytes, each defined once.

* **64-bit** over the bytes: the hash of every vocabulary table, the compiled ones
  (``wordvec.kernels.tokens``, ``kernels.wordtable``) and the NumPy word table's
  (``wordvec.vectors.wordtable``), which must probe the same slots.
* **fastText's** ``Dictionary::hash``: 32-bit, over the bytes read as int8 and
  sign-extended (``h ^ uint32_t(int8_t(c))``), so that word ids, word n-gram buckets and
  character n-gram buckets are fastText's (``wordvec.data.subword``, ``data.label_stream``).

Each has its Python specification (:func:`fnv1a64`, :func:`fasttext_fnv1a`); the compiled
versions are tested against them, and :func:`fnv1a_many` computes either over many tokens
at once in NumPy.
"""

import numpy as np

FNV_OFFSET, FNV_PRIME = 14695981039346656037, 1099511628211  # 64-bit
FASTTEXT_FNV_OFFSET, FASTTEXT_FNV_PRIME = 2166136261, 16777619  # 32-bit
MASK64, MASK32 = (1 << 64) - 1, (1 << 32) - 1
FEW_TOKENS = 64  # tokens still hashing after the shorter ones are done: finished one by one in Python


def fnv1a64(key):
    """The 64-bit FNV-1a of the bytes ``key``."""
    h = FNV_OFFSET
    for byte in key:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def fasttext_fnv1a(key):
    """fastText's 32-bit hash of the bytes ``key`` (as an unsigned int)."""
    h = FASTTEXT_FNV_OFFSET
    for byte in key:
        signed = byte - 256 if byte >= 128 else byte  # int8_t(c), then sign-extended to 32 bits
        h = ((h ^ (signed & MASK32)) * FASTTEXT_FNV_PRIME) & MASK32
    return h


def fnv1a_many(blob, starts, lengths, fasttext=False):
    """The hash of every token ``blob[starts[i]:starts[i] + lengths[i]]`` (``blob`` uint8):
    :func:`fnv1a64` as uint64, or with ``fasttext`` :func:`fasttext_fnv1a` as uint32.

    Vectorised across tokens: step k mixes byte k into every token longer than k (sorted
    longest first, those are a prefix); once at most ``FEW_TOKENS`` are left (a few long
    tokens would cost a NumPy step per byte), they are finished in Python."""
    dtype, offset, prime, mask = ((np.uint32, FASTTEXT_FNV_OFFSET, FASTTEXT_FNV_PRIME, MASK32) if fasttext
                                  else (np.uint64, FNV_OFFSET, FNV_PRIME, MASK64))
    lengths = np.asarray(lengths, dtype=np.int64)
    order = np.argsort(-lengths, kind="stable")
    longest_first, first_bytes = lengths[order], np.asarray(starts, dtype=np.int64)[order]
    hashes = np.full(len(lengths), offset, dtype=dtype)
    longer = len(lengths) - np.cumsum(np.bincount(lengths, minlength=1))  # longer[k]: tokens longer than k
    k = 0
    while k < len(longer) and longer[k] > FEW_TOKENS:
        going = int(longer[k])
        units = blob[first_bytes[:going] + k]
        if fasttext:
            units = units.view(np.int8).astype(np.int32).view(np.uint32)
        hashes[:going] ^= units
        hashes[:going] *= dtype(prime)  # wraps modulo 2**bits, as the compiled hashes do
        k += 1
    for i in range(int(longer[k]) if k < len(longer) else 0):
        h = int(hashes[i])
        for byte in blob[first_bytes[i] + k:first_bytes[i] + longest_first[i]].tobytes():
            h = ((h ^ ((byte - 256 if byte >= 128 else byte) & MASK32 if fasttext else byte)) * prime) & mask
        hashes[i] = h
    out = np.empty_like(hashes)
    out[order] = hashes
    return out
