"""One line of text to a classifier's label probabilities, in one compiled call: what a
per-call ``predict(text)`` costs when a Python program asks line by line.

The line's bag is fastText's ``Dictionary::getLine``: tokens split on space, tab,
vertical tab, form feed, carriage return and NUL; a token with the label prefix is left
out; the token ``</s>`` ends the line; each word's row (looked up in a compiled word
table, ``kernels.wordtable``) and, with ``maxn > 0``, its character n-grams' rows
(``<word>`` hashed by fastText's 32-bit FNV-1a over sign-extended bytes, modulo
``bucket``, through ``bucket_rows``); ``</s>`` at the end; then the word n-grams of the
tokens' sign-extended hashes, h = h * 116049371 + hash_j over 64-bit integers. The
probabilities are ``wordvec.math.classifier_predict``'s: the hidden vector is the mean
of the bag's rows (P1), softmax (C2) or hierarchical softmax with ``offset`` in each
factor (C3). ``wordvec.fasttext.predict`` holds this kernel to its NumPy path.
"""

import numba
import numpy as np

from wordvec.io.fnv import FASTTEXT_FNV_OFFSET, FASTTEXT_FNV_PRIME
from wordvec.kernels.wordtable import find_row

# The model's integers in one int64 array (few arguments: each costs dispatch time on every
# call): these numbers first, then the words' byte offsets, the table's slots, the n-gram
# bucket rows and the labels' tree (hs: per label its path's length, nodes, codes), each at
# the position its *_AT field gives. The words' bytes and then the label prefix are one
# uint8 array, ``text``.
(MINN, MAXN, BUCKET, WORD_NGRAMS, EOS_ROW, EOS_HASH, HS, PREFIX_AT, OFFSETS_AT, SLOTS_AT, ROWS_AT, ROWS_LEN,
 TREE_AT, TREE_WIDTH) = range(14)
HEADER = 14
HS_OFFSET = 1e-5  # fastText's 1e-5 inside each hierarchical-softmax factor's log

NGRAM_MULTIPLIER = np.uint64(116049371)


@numba.njit(inline="always")
def _separates(c):
    return c == 32 or c == 9 or c == 11 or c == 12 or c == 13 or c == 0


@numba.njit(inline="always")
def _hash32(data, start, stop):
    """fastText's Dictionary::hash: 32-bit FNV-1a over the bytes as int8."""
    h = np.uint32(FASTTEXT_FNV_OFFSET)
    for i in range(start, stop):
        byte = np.int64(data[i])
        signed = byte - 256 if byte >= 128 else byte
        h = np.uint32((h ^ np.uint32(signed & 0xFFFFFFFF)) * np.uint32(FASTTEXT_FNV_PRIME))
    return h


@numba.njit(inline="always")
def _sign_extended(h):
    value = np.int64(h)
    return np.uint64(value - 4294967296 if value >= 2147483648 else value)


@numba.njit(inline="always")
def _add_row(hidden, W_in, row):
    for j in range(hidden.shape[0]):
        hidden[j] += W_in[row, j]


@numba.njit(inline="always")
def _is_eos(buf, start, stop):
    return stop - start == 4 and buf[start] == 60 and buf[start + 1] == 47 and buf[start + 2] == 115 \
        and buf[start + 3] == 62


@numba.njit(inline="always")
def _has_prefix(buf, start, stop, prefix):
    if stop - start < len(prefix):
        return False
    for k in range(len(prefix)):
        if buf[start + k] != prefix[k]:
            return False
    return True


@numba.njit(inline="always")
def _add_char_ngrams(bucket_rows, W_in, settings, buf, start, stop, wrapped, hidden):
    """Add the rows of the character n-grams of ``<token>``; returns how many."""
    length = stop - start + 2
    wrapped[0] = 60
    for k in range(stop - start):
        wrapped[k + 1] = buf[start + k]
    wrapped[length - 1] = 62
    added = 0
    for a in range(length):
        if (wrapped[a] & 0xC0) == 0x80:
            continue
        j, n = a, 1
        while j < length and n <= settings[MAXN]:
            j += 1
            while j < length and (wrapped[j] & 0xC0) == 0x80:
                j += 1
            if n >= settings[MINN] and not (n == 1 and (a == 0 or j == length)):
                row = bucket_rows[np.int64(_hash32(wrapped, a, j)) % settings[BUCKET]]
                if row >= 0:
                    _add_row(hidden, W_in, row)
                    added += 1
            n += 1
    return added


@numba.njit(nogil=True, cache=True)
def predict_line(text, ints, W_in, W_out, buf, out):
    """Label probabilities of the line ``buf`` (UTF-8 bytes, no newline) into ``out``;
    returns (rows in the bag, the best label, first of equals), (0, -1) for an empty bag.
    ``text`` and ``ints``: the model's words, prefix, table and tree (see HEADER)."""
    settings = ints[:HEADER]
    blob, prefix = text[:settings[PREFIX_AT]], text[settings[PREFIX_AT]:]
    offsets = ints[settings[OFFSETS_AT]:settings[SLOTS_AT]]
    slots = ints[settings[SLOTS_AT]:settings[ROWS_AT]]
    bucket_rows = ints[settings[ROWS_AT]:settings[ROWS_AT] + settings[ROWS_LEN]]
    tree = ints[settings[TREE_AT]:].reshape((-1, settings[TREE_WIDTH]))
    hidden = np.zeros(W_in.shape[1], dtype=np.float64)
    hashes = np.empty(len(buf) // 2 + 2, dtype=np.uint64)
    wrapped = np.empty(len(buf) + 2, dtype=np.uint8)
    n_rows, n_hashes, i, end = 0, 0, 0, len(buf)
    ngrams = settings[MAXN] > 0 and len(bucket_rows) > 0
    while i < end:
        while i < end and _separates(buf[i]):
            i += 1
        if i >= end:
            break
        start = i
        while i < end and not _separates(buf[i]):
            i += 1
        if _is_eos(buf, start, i):
            break
        if _has_prefix(buf, start, i, prefix):
            continue
        row = find_row(blob, offsets, slots, buf, start, i)
        if row >= 0:
            _add_row(hidden, W_in, row)
            n_rows += 1
        if ngrams:
            n_rows += _add_char_ngrams(bucket_rows, W_in, settings, buf, start, i, wrapped, hidden)
        hashes[n_hashes] = _sign_extended(_hash32(buf, start, i))
        n_hashes += 1
    if settings[EOS_ROW] >= 0:  # the line's end, a newline or the token itself
        _add_row(hidden, W_in, settings[EOS_ROW])
        n_rows += 1
    hashes[n_hashes] = np.uint64(settings[EOS_HASH])
    n_hashes += 1
    if settings[WORD_NGRAMS] > 1 and len(bucket_rows) > 0:
        bucket = np.uint64(settings[BUCKET])
        for a in range(n_hashes):
            h = hashes[a]
            for b in range(a + 1, min(n_hashes, a + settings[WORD_NGRAMS])):
                h = h * NGRAM_MULTIPLIER + hashes[b]
                row = bucket_rows[h % bucket]
                if row >= 0:
                    _add_row(hidden, W_in, row)
                    n_rows += 1
    if n_rows == 0:
        return 0, -1
    hidden /= n_rows
    n_out = W_out.shape[0]
    scores = np.empty(n_out, dtype=np.float64)
    for label in range(n_out):
        total = 0.0
        for j in range(hidden.shape[0]):
            total += W_out[label, j] * hidden[j]
        scores[label] = total
    if settings[HS]:
        for label in range(tree.shape[0]):
            p, length = 1.0, tree[label, 0]
            for level in range(length):
                q = 1.0 / (1.0 + np.exp(-scores[tree[label, 1 + level]]))
                p *= (q if tree[label, 1 + length + level] == 1 else 1.0 - q) + HS_OFFSET
            out[label] = p
    else:
        top = scores.max()
        total = 0.0
        for label in range(n_out):
            out[label] = np.exp(scores[label] - top)
            total += out[label]
        for label in range(n_out):
            out[label] /= total
    best = 0
    for label in range(len(out)):
        if out[label] > out[best]:
            best = label
    return n_rows, best
