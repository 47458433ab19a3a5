"""Character n-grams of words and their bucket ids, exactly as fastText computes them.

Bojanowski et al. (2017) represent a word by itself plus the character n-grams of
``"<" + word + ">"`` for n in ``min_n..max_n``; each n-gram is hashed into one of
``bucket`` rows.  To load and compare with fastText and gensim the ids must be the same
as theirs, so this module follows fastText's ``Dictionary`` to the byte:

* n counts *characters*, not bytes: an n-gram never starts or ends inside a UTF-8
  sequence (bytes ``10xxxxxx`` continue the character before them);
* the single-character n-grams ``"<"`` and ``">"`` are left out (only matters for
  ``min_n = 1``);
* the hash is 32-bit FNV-1a over the n-gram's UTF-8 bytes (a word read from a file as
  bytes that are not UTF-8 keeps those bytes: ``word_bytes``), where each byte is first
  sign-extended as a C ``int8_t`` (fastText's ``h ^ uint32_t(int8_t(c))``): bytes
  >= 0x80, i.e. every non-ASCII character, XOR in ``0xFFFFFF00 | byte``;
* the bucket is ``hash % bucket``; n-grams are listed by start position, then length,
  and repeats are kept (fastText and gensim average over the repeated rows too).

``ngram_table`` runs this for a whole vocabulary in a compiled loop and returns the
CSR arrays the training kernels read (``wordvec.kernels.subword``).
"""

import numba
import numpy as np

from wordvec.errors import WordvecError
from wordvec.io.fnv import FASTTEXT_FNV_OFFSET, FASTTEXT_FNV_PRIME, fasttext_fnv1a

BOW, EOW = "<", ">"


def check_ngram_settings(min_n, max_n, bucket):
    """Raise WordvecError unless 1 <= min_n <= max_n and bucket >= 1 (integers)."""
    for name, value in (("min_n", min_n), ("max_n", max_n), ("bucket", bucket)):
        if not isinstance(value, (int, np.integer)) or value < 1:
            raise WordvecError(f"{name} must be a positive integer, not {value!r}")
    if min_n > max_n:
        raise WordvecError(f"min_n ({min_n}) must not exceed max_n ({max_n})")


@numba.njit(inline="always")
def _fnv1a_int8(buf, start, end):
    """fastText's Dictionary::hash of ``buf[start:end]``: 32-bit FNV-1a over int8 bytes."""
    h = np.uint32(FASTTEXT_FNV_OFFSET)
    for i in range(start, end):
        byte = np.int64(buf[i])
        signed = byte - 256 if byte >= 128 else byte  # int8_t(c)
        h = np.uint32((h ^ np.uint32(signed & 0xFFFFFFFF)) * np.uint32(FASTTEXT_FNV_PRIME))
    return h


@numba.njit(inline="always")
def _continues_character(byte):
    return (byte & 0xC0) == 0x80


@numba.njit(cache=True)
def _ngram_buckets(buf, starts, min_n, max_n, bucket, count_only, out_offsets, out_ids):
    """For word w = ``buf[starts[w]:starts[w+1]]`` (already wrapped in < and >), write its
    n-gram buckets to ``out_ids[out_offsets[w]:...]`` (or only count them)."""
    total = 0
    for w in range(starts.shape[0] - 1):
        begin, end = starts[w], starts[w + 1]
        if not count_only:
            total = out_offsets[w]
        for i in range(begin, end):
            if _continues_character(buf[i]):
                continue
            j = i
            n = 1
            while j < end and n <= max_n:
                j += 1  # the first byte of the next character ...
                while j < end and _continues_character(buf[j]):
                    j += 1  # ... and its continuation bytes
                if n >= min_n and not (n == 1 and (i == begin or j == end)):
                    if not count_only:
                        out_ids[total] = np.int32(_fnv1a_int8(buf, i, j) % np.uint32(bucket))
                    total += 1
                n += 1
        if count_only:
            out_offsets[w + 1] = total
    return total


def word_bytes(text):
    """The bytes of a word as fastText hashes them: UTF-8, where a word read from a file
    with bytes that are not UTF-8 (decoded with ``surrogateescape``) gives those bytes
    back; any other lone surrogate is written as UTF-8 would write it (``surrogatepass``)."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _wrapped_bytes(words):
    encoded = [word_bytes(BOW + w + EOW) for w in words]
    starts = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=starts[1:])
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), starts


def ngram_table(words, min_n, max_n, bucket):
    """CSR table of the n-gram buckets of ``words``: ``(offsets int64[V+1], ids int32[...])``;
    word w's buckets are ``ids[offsets[w]:offsets[w+1]]`` (rows of the n-gram matrix)."""
    check_ngram_settings(min_n, max_n, bucket)
    if bucket > 2**31 - 1:
        raise WordvecError(f"bucket must be below 2^31, not {bucket}")
    buf, starts = _wrapped_bytes(words)
    offsets = np.zeros(len(starts), dtype=np.int64)
    _ngram_buckets(buf, starts, min_n, max_n, bucket, True, offsets, np.zeros(0, np.int32))
    ids = np.empty(offsets[-1], dtype=np.int32)
    _ngram_buckets(buf, starts, min_n, max_n, bucket, False, offsets, ids)
    return offsets, ids


def ngram_buckets(word, min_n, max_n, bucket):
    """The bucket ids of one word's n-grams (int32 array, fastText's order)."""
    return ngram_table([word], min_n, max_n, bucket)[1]


def ngrams(word, min_n, max_n):
    """The n-grams of ``word`` as strings, in the order of :func:`ngram_buckets`."""
    wrapped = BOW + word + EOW
    out = []
    for i in range(len(wrapped)):
        for n in range(1, max_n + 1):
            if i + n > len(wrapped):
                break
            if n >= min_n and not (n == 1 and (i == 0 or i + n == len(wrapped))):
                out.append(wrapped[i:i + n])
    return out


def fasttext_hash(text):
    """fastText's 32-bit hash of ``text`` (UTF-8), in plain Python: the specification
    that the compiled :func:`_fnv1a_int8` is tested against."""
    return fasttext_fnv1a(word_bytes(text))
