"""Compiled token hashing: count and encode whitespace-separated tokens in a byte block.

Text is handled as UTF-8 bytes and split on ASCII whitespace (space, \\t, \\n, \\v, \\f,
\\r: exactly what Python's ``bytes.split()`` does), which is what the word2vec C tool
does and is ~10x faster than ``str.split`` + ``Counter``.  A token longer than
``MAX_TOKEN_BYTES`` is known by its first ``MAX_TOKEN_BYTES`` bytes (backed off to a
character boundary), as in word2vec.c, so one giant "word" (a file with no whitespace)
cannot fill memory.  A token table is an
open-addressing hash table (linear probing, FNV-1a hashes) whose keys live in one byte
arena; word ``w`` is ``arena[start[w]:start[w] + length[w]]``.

The table is a handful of plain arrays so that Numba can use it without jitclasses;
``wordvec.data.vocab.TokenTable`` owns them and grows them when a kernel says it is full.
"""

import numba
import numpy as np

from wordvec.io import fnv
from wordvec.io.text import MAX_TOKEN_BYTES  # the one limit, shared with the Python tokenizer

FNV_OFFSET, FNV_PRIME = np.uint64(fnv.FNV_OFFSET), np.uint64(fnv.FNV_PRIME)  # defined once, in io.fnv
NEWLINE = 10

# Positions in the int64 ``state`` array shared with the Python side.
N_WORDS, ARENA_USED = 0, 1
N_IDS, N_DOCS, DOC_TOKENS, DOC_HAS_IDS = 0, 1, 2, 3


@numba.njit(inline="always")
def is_space(byte):
    return byte == 32 or (9 <= byte <= 13)


@numba.njit(inline="always")
def fnv1a(buf, start, end):
    h = FNV_OFFSET
    for i in range(start, end):
        h = (h ^ np.uint64(buf[i])) * FNV_PRIME
    return h


@numba.njit(inline="always")
def find_slot(buf, start, end, h, slots, hashes, word_start, word_len, arena):
    """Return (word index or -1, slot) for the token ``buf[start:end]`` with hash ``h``."""
    mask = slots.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    length = end - start
    while True:
        w = slots[slot]
        if w < 0:
            return -1, slot
        if hashes[w] == h and word_len[w] == length:
            base = word_start[w]
            same = True
            for k in range(length):
                if arena[base + k] != buf[start + k]:
                    same = False
                    break
            if same:
                return w, slot
        slot = (slot + 1) & mask


@numba.njit(inline="always")
def key_end(buf, start, end):
    """End of the part of token ``buf[start:end]`` that names it: at most MAX_TOKEN_BYTES
    bytes, cut before a UTF-8 continuation byte so the key stays valid text."""
    if end - start <= MAX_TOKEN_BYTES:
        return end
    stop = start + MAX_TOKEN_BYTES
    while stop > start and (buf[stop] & 0xC0) == 0x80:
        stop -= 1
    return stop


@numba.njit(inline="always")
def lookup_token(buf, start, slots, hashes, word_start, word_len, arena):
    """Scan the token starting at ``start``: return (its end, its key's end, hash, word index
    or -1, slot)."""
    # One pass: hash while scanning (a key is at most MAX_TOKEN_BYTES; the rare longer
    # token is hashed again below, from its key's end backed off to a character boundary).
    n = buf.shape[0]
    end = start
    h = FNV_OFFSET
    while end < n and not is_space(buf[end]):
        h = (h ^ np.uint64(buf[end])) * FNV_PRIME
        end += 1
    stop = end
    if end - start > MAX_TOKEN_BYTES:
        stop = key_end(buf, start, end)
        h = fnv1a(buf, start, stop)
    w, slot = find_slot(buf, start, stop, h, slots, hashes, word_start, word_len, arena)
    return end, stop, h, w, slot


@numba.njit(inline="always")
def insert_word(source, start, stop, h, slot, count, table, state):
    """Append the word ``source[start:stop]`` (hash ``h``, free slot ``slot``, as
    :func:`find_slot` returned them) with ``count`` to ``table`` = (slots, hashes,
    word_start, word_len, counts, arena).  Returns False, changing nothing, when the table
    or its arena is full."""
    slots, hashes, word_start, word_len, counts, arena = table
    length = stop - start
    used = state[ARENA_USED]
    if state[N_WORDS] >= word_start.shape[0] or used + length > arena.shape[0]:
        return False
    w = state[N_WORDS]
    state[N_WORDS] = w + 1
    slots[slot] = w
    hashes[w] = h
    word_start[w] = used
    word_len[w] = length
    arena[used:used + length] = source[start:stop]
    state[ARENA_USED] = used + length
    counts[w] = count
    return True


@numba.njit(nogil=True, cache=True)
def count_block(buf, position, slots, hashes, word_start, word_len, counts, arena, state):
    """Count the tokens of ``buf[position:]`` into the table.

    Returns the position reached: ``len(buf)`` when done, or the start of the first
    token that did not fit (the table or arena is full; grow them and call again).
    """
    n = buf.shape[0]
    table = (slots, hashes, word_start, word_len, counts, arena)
    i = position
    while i < n:
        while i < n and is_space(buf[i]):
            i += 1
        if i >= n:
            break
        start = i
        i, stop, h, w, slot = lookup_token(buf, start, slots, hashes, word_start, word_len, arena)
        if w >= 0:
            counts[w] += 1
        elif not insert_word(buf, start, stop, h, slot, 1, table, state):
            return start
    return n


@numba.njit(nogil=True, cache=True)
def rehash(hashes, n_words, slots):
    """Insert words ``0..n_words-1`` into the empty (all -1) table ``slots``."""
    mask = slots.shape[0] - 1
    for w in range(n_words):
        slot = np.int64(hashes[w] & np.uint64(mask))
        while slots[slot] >= 0:
            slot = (slot + 1) & mask
        slots[slot] = w


@numba.njit(nogil=True, cache=True)
def merge_counts(block, first, slots, hashes, word_start, word_len, counts, arena, state):
    """Add the words of another table, ``block`` = (hashes, word_start, word_len, counts,
    arena, n_words), from its word ``first`` on and in its order, to this table's counts: a
    word this table lacks is appended, as :func:`count_block` would have appended it.

    Returns the word reached: ``n_words`` when done, or the first word that did not fit
    (the table or arena is full; grow them and call again).
    """
    b_hashes, b_start, b_len, b_counts, b_arena, n_words = block
    table = (slots, hashes, word_start, word_len, counts, arena)
    for v in range(first, n_words):
        begin = b_start[v]
        end = begin + b_len[v]
        h = b_hashes[v]
        w, slot = find_slot(b_arena, begin, end, h, slots, hashes, word_start, word_len, arena)
        if w >= 0:
            counts[w] += b_counts[v]
        elif not insert_word(b_arena, begin, end, h, slot, b_counts[v], table, state):
            return v
    return n_words


# The raw stream of a block (:func:`lookup_block`): a token's word index, or these.
UNKNOWN, LINE_END = -1, -2


@numba.njit(nogil=True, cache=True)
def lookup_block(buf, slots, hashes, word_start, word_len, arena, raw):
    """The raw stream of ``buf`` into ``raw`` (int32, >= ``len(buf)``): each token's word
    index, or UNKNOWN for a token the table lacks, and LINE_END for a newline (one for a
    run of newlines with no token between).  Returns its length.

    A block's raw stream does not depend on any other block, so blocks can be looked up
    in parallel; :func:`finish_block` then cuts the streams into documents in order.
    """
    n = buf.shape[0]
    n_raw = 0
    i = 0
    while i < n:
        byte = buf[i]
        if is_space(byte):
            if byte == NEWLINE and (n_raw == 0 or raw[n_raw - 1] != LINE_END):
                raw[n_raw] = LINE_END
                n_raw += 1
            i += 1
            continue
        i, _, _, w, _ = lookup_token(buf, i, slots, hashes, word_start, word_len, arena)
        raw[n_raw] = w if w >= 0 else UNKNOWN
        n_raw += 1
    return n_raw


@numba.njit(nogil=True, cache=True)
def finish_block(raw, n_raw, max_document_length, out_ids, out_doc_ends, state):
    """Translate a block's raw stream ``raw[:n_raw]`` (:func:`lookup_block`) into word ids
    (unknown tokens dropped) and document ends.

    A document ends at a newline or after ``max_document_length`` tokens (counted
    before dropping unknown words, so the split does not depend on the vocabulary).
    ``state`` carries the open document across blocks: ``N_IDS`` and ``N_DOCS`` count
    what was written into ``out_ids`` / ``out_doc_ends`` (reset by the caller per
    block); ``DOC_TOKENS`` is the raw length of the open document.  ``out_doc_ends``
    holds, for each closed document, the number of ids written so far in this block.
    Documents with no known word are not recorded.  Returns the ids written.
    """
    n_ids = state[N_IDS]
    n_docs = state[N_DOCS]
    doc_tokens = state[DOC_TOKENS]
    doc_start = n_ids  # ids of the open document written in this block start here
    has_ids = state[DOC_HAS_IDS] > 0  # the open document already has ids from earlier blocks
    for k in range(n_raw):
        w = raw[k]
        if w == LINE_END:
            if doc_tokens > 0:
                if has_ids or n_ids > doc_start:
                    out_doc_ends[n_docs] = n_ids
                    n_docs += 1
                doc_tokens = 0
                doc_start = n_ids
                has_ids = False
            continue
        if w >= 0:
            out_ids[n_ids] = w
            n_ids += 1
        doc_tokens += 1
        if doc_tokens == max_document_length:
            if has_ids or n_ids > doc_start:
                out_doc_ends[n_docs] = n_ids
                n_docs += 1
            doc_tokens = 0
            doc_start = n_ids
            has_ids = False
    state[N_IDS] = n_ids
    state[N_DOCS] = n_docs
    state[DOC_TOKENS] = doc_tokens
    state[DOC_HAS_IDS] = 1 if (has_ids or n_ids > doc_start) else 0
    return n_ids
