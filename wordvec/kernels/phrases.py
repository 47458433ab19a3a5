"""Compiled phrase detection: count adjacent word pairs, then join the pairs that score high.

Words are looked up in a ``wordvec.data.token_table.TokenTable`` (the vocabulary count's own
hash table, so a word's id is its index there).  A pair of adjacent words ``(a, b)`` is
one int64 key ``a << 32 | b`` in a second open-addressing table (linear probing,
``EMPTY`` marks a free slot).  Pairs never cross a document end (a newline, or every
``max_document_length`` tokens, as the corpus reader splits documents) nor a word that
is not in the table (pruned while counting), so no pair is counted that the text does
not contain.

The scores are the functions of ``wordvec.data.phrases`` (their NumPy references); the
kernels inline the same arithmetic.
"""

import math
from collections import namedtuple

import numba
import numpy as np

from wordvec.kernels.tokens import NEWLINE, is_space, lookup_token

EMPTY = np.int64(-1)
DEFAULT, NPMI = 0, 1  # scoring functions, as codes for the kernels
UNDERSCORE = 95

# Positions in the int64 ``state`` arrays carried across blocks.
N_PAIRS, PREVIOUS, DOC_TOKENS = 0, 1, 2  # counting
OPEN_WORD, OPEN_DOC_TOKENS, LINE_HAS_TOKENS, N_JOINED = 0, 1, 2, 3  # joining

# The kernels' arguments, grouped (named tuples: Numba compiles them into plain structs,
# unpacked once per block):
# the word table (``TokenTable``'s arrays, what ``lookup_token`` takes) and each word's count
Words = namedtuple("Words", "slots hashes word_start word_len arena counts")
Pairs = namedtuple("Pairs", "keys counts")  # the pair table: int64 keys (EMPTY: free), their counts
# the score (DEFAULT or NPMI), its min_count and corpus size, and the threshold a pair must pass
Scoring = namedtuple("Scoring", "function min_count total threshold")


def make_scoring(function, min_count, total, threshold):
    """A :data:`Scoring` with the types the compiled kernels are specialised for."""
    return Scoring(int(function), float(min_count), float(total), float(threshold))


@numba.njit(inline="always")
def pair_key(a, b):
    return (np.int64(a) << 32) | np.int64(b)


@numba.njit(inline="always")
def pair_slot(keys, key):
    """The slot holding ``key``, or the free slot where it would go."""
    mask = keys.shape[0] - 1
    # Fibonacci hashing spreads the structured keys (small ids in both halves) evenly.
    slot = np.int64((np.uint64(key) * np.uint64(11400714819323198485)) >> np.uint64(20)) & mask
    while keys[slot] != key and keys[slot] != EMPTY:
        slot = (slot + 1) & mask
    return slot


@numba.njit(nogil=True, cache=True)
def count_pairs_block(buf, position, word_slots, word_hashes, word_start, word_len, arena,
                      keys, pair_counts, max_document_length, state):
    """Count the adjacent word pairs of ``buf[position:]`` into ``keys`` / ``pair_counts``.

    Returns ``len(buf)`` when done, or the start of the token whose pair did not fit
    (the pair table is half full: grow it with ``rehash_pairs`` and call again from
    there; ``state`` still holds the word before it).
    """
    n = buf.shape[0]
    capacity = keys.shape[0]
    previous = state[PREVIOUS]
    doc_tokens = state[DOC_TOKENS]
    i = position
    while i < n:
        byte = buf[i]
        if is_space(byte):
            if byte == NEWLINE:
                previous = -1
                doc_tokens = 0
            i += 1
            continue
        start = i
        i, _, _, w, _ = lookup_token(buf, start, word_slots, word_hashes, word_start, word_len, arena)
        if doc_tokens == max_document_length:  # the reader starts a new document here
            previous = -1
            doc_tokens = 0
        doc_tokens += 1
        if previous >= 0 and w >= 0:
            key = pair_key(previous, w)
            slot = pair_slot(keys, key)
            if keys[slot] == EMPTY:
                if 2 * (state[N_PAIRS] + 1) > capacity:
                    state[PREVIOUS] = previous
                    state[DOC_TOKENS] = doc_tokens - 1
                    return start
                keys[slot] = key
                state[N_PAIRS] += 1
            pair_counts[slot] += 1
        previous = w
    state[PREVIOUS] = previous
    state[DOC_TOKENS] = doc_tokens
    return n


@numba.njit(nogil=True, cache=True)
def rehash_pairs(keys, pair_counts, new_keys, new_counts, keep_from_count):
    """Move the pairs counted at least ``keep_from_count`` times into the empty table
    ``new_keys`` / ``new_counts``; return how many were moved."""
    moved = 0
    for slot in range(keys.shape[0]):
        key = keys[slot]
        if key == EMPTY or pair_counts[slot] < keep_from_count:
            continue
        target = pair_slot(new_keys, key)
        new_keys[target] = key
        new_counts[target] = pair_counts[slot]
        moved += 1
    return moved


@numba.njit(inline="always")
def score(scoring, count_a, count_b, count_ab, min_count, total):
    """``wordvec.data.phrases.default_score`` / ``npmi_score`` for one pair."""
    if scoring == DEFAULT:
        return (count_ab - min_count) / (count_a * count_b) * total
    if count_ab < min_count:
        return -math.inf
    p_a = count_a / total
    p_b = count_b / total
    p_ab = count_ab / total
    if p_ab >= 1.0:
        return 1.0
    return math.log(p_ab / (p_a * p_b)) / -math.log(p_ab)


@numba.njit(nogil=True, cache=True)
def score_pairs(keys, pair_counts, word_counts, scoring, min_count, total, out):
    """The score of every occupied slot of the pair table (``-inf`` for free slots)."""
    for slot in range(keys.shape[0]):
        key = keys[slot]
        if key == EMPTY:
            out[slot] = -math.inf
            continue
        out[slot] = score(scoring, np.float64(word_counts[key >> 32]),
                          np.float64(word_counts[key & 0xFFFFFFFF]),
                          np.float64(pair_counts[slot]), min_count, total)


@numba.njit(nogil=True, cache=True)
def join_block(buf, words, pairs, scoring, delimiter, max_document_length, out, state):
    """Copy the tokens of ``buf`` into ``out``, joining each pair that scores above
    ``scoring.threshold`` with ``delimiter`` (bytes) instead of a space; return the bytes
    written.  ``words``: :data:`Words`; ``pairs``: :data:`Pairs`; ``scoring``: :data:`Scoring`.

    Greedy from the left, as word2phrase and gensim do: a word joined to the word before
    it cannot also be joined to the word after it.  Each line with tokens stays a line
    (empty lines go); runs of whitespace become one space.  ``out`` needs ``len(buf) + 1`` bytes (a block's first token may
    need the separator whose whitespace ended the previous block).
    """
    word_slots, word_hashes, word_start, word_len, arena, word_counts = words
    keys, pair_counts = pairs
    scoring, min_count, total, threshold = scoring
    n = buf.shape[0]
    open_word = state[OPEN_WORD]  # the last word, if it may still start a phrase
    doc_tokens = state[OPEN_DOC_TOKENS]
    line_has_tokens = state[LINE_HAS_TOKENS]
    joined = state[N_JOINED]
    written = 0
    i = 0
    while i < n:
        byte = buf[i]
        if is_space(byte):
            if byte == NEWLINE:
                if line_has_tokens:  # a document per line; lines without tokens go
                    out[written] = NEWLINE
                    written += 1
                open_word = -1
                doc_tokens = 0
                line_has_tokens = 0
            i += 1
            continue
        start = i
        i, _, _, w, _ = lookup_token(buf, start, word_slots, word_hashes, word_start, word_len, arena)
        if doc_tokens == max_document_length:
            open_word = -1
            doc_tokens = 0
        doc_tokens += 1
        join = False
        if open_word >= 0 and w >= 0:
            slot = pair_slot(keys, pair_key(open_word, w))
            if keys[slot] != EMPTY:
                value = score(scoring, np.float64(word_counts[open_word]), np.float64(word_counts[w]),
                              np.float64(pair_counts[slot]), min_count, total)
                join = value > threshold
        if join:
            for k in range(delimiter.shape[0]):
                out[written] = delimiter[k]
                written += 1
            joined += 1
            open_word = -1
        else:
            if line_has_tokens:
                out[written] = 32
                written += 1
            open_word = w
        for k in range(start, i):
            out[written] = buf[k]
            written += 1
        line_has_tokens = 1
    state[OPEN_WORD] = open_word
    state[OPEN_DOC_TOKENS] = doc_tokens
    state[LINE_HAS_TOKENS] = line_has_tokens
    state[N_JOINED] = joined
    return written
