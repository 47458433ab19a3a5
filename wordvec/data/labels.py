"""Labelled documents in fastText's format, encoded into the rows the classifier reads.

A line is one document: whitespace-separated tokens, those starting with the label
prefix (``__label__``) are its labels, the others its words; fastText ends every line
with the token ``</s>`` (EOS), which is a word of the dictionary like any other. This
module follows fastText's ``Dictionary`` (dictionary.cc) so that row ids are fastText's
and its ``.bin`` files can be read and written:

* the dictionary holds the words (count >= min_count) sorted by count, then the labels
  (count >= min_count_label) sorted by count; ties keep first-seen order;
* a document's *bag* of input rows (``getLine``/``addSubwords``): each known word's row
  (with ``maxn > 0``: the word's row then its character n-grams' rows, hashed into
  ``bucket`` rows after the words by ``wordvec.data.subword``); an unknown word adds only
  its character n-grams; then the word n-grams (``addWordNgrams``): for every start i
  and every j up to i + word_ngrams - 1, h = h * 116049371 + hash_j over 64-bit
  unsigned integers, starting from hash_i, where hash_k is fastText's 32-bit hash of the
  k-th word *sign-extended* from int32 (fastText keeps them in a ``vector<int32_t>``);
  the row is nwords + h % bucket. Unknown words take part in word n-grams too;
* a pruned (quantized with ``--cutoff``) dictionary keeps a map bucket -> row for the
  n-grams it kept; the others are dropped from bags.

Text is handled as bytes: tokens split on ASCII whitespace (and NUL), as fastText's
``readWord``; ``\\n`` becomes the EOS token.
"""

from collections import namedtuple
from dataclasses import dataclass

import numba
import numpy as np

from wordvec.data.label_dictionary import EOS, Encoded, LabelDictionary, to_bytes, to_text
from wordvec.data.label_stream import NGRAM_MULTIPLIER, text_blocks
from wordvec.data.subword import _fnv1a_int8, ngram_table
from wordvec.data.token_table import TokenTable
from wordvec.errors import WordvecError
from wordvec.kernels import tokens as token_kernels


class TokenScan:
    """The text as ids into a table of distinct tokens (first-seen order): a compiled hash
    table (``wordvec.data.token_table``) filled by :func:`_scan_block`, fastText's readWord."""

    def __init__(self, source="the text"):
        self.source = source  # what the text was read from, for messages
        self.table = TokenTable()
        self.stream = []      # int32 arrays, one per block
        self._tokens = []     # the distinct tokens as bytes, made when asked for

    @property
    def tokens(self):
        """The distinct tokens (bytes), in first-seen order."""
        n, have = len(self.table), len(self._tokens)
        if have < n:
            table = self.table
            arena = table.arena[:int(table.state[1])].tobytes()
            starts, lengths = table.word_start[have:n].tolist(), table.word_len[have:n].tolist()
            self._tokens.extend(arena[s:s + k] for s, k in zip(starts, lengths))
        return self._tokens

    def add(self, data):
        buf = np.frombuffer(data, dtype=np.uint8)
        ids = np.empty(len(buf), dtype=np.int32)  # a token takes at least one byte
        table, position, n_ids = self.table, 0, 0
        while True:
            position, n_ids = _scan_block(buf, position, EOS_KEY, table.slots, table.hashes, table.word_start,
                                          table.word_len, table.arena, table.state, ids, n_ids)
            if position >= len(buf):
                break
            # the token at ``position`` is at most the rest of the block, or EOS (4 bytes for one "\n")
            table._grow(needed_bytes=max(len(buf) - position, EOS_KEY.size))
        self.stream.append(ids[:n_ids].copy())

    def ids(self):
        """All token ids as one array (kept as the only copy: a 10M-token text is 40 MB).
        The blocks are copied in one by one and freed as they go, so that the text is not
        held twice (the new array's pages become resident only as they are written)."""
        if len(self.stream) != 1:
            blocks, self.stream = self.stream, []
            ids = np.empty(sum(len(b) for b in blocks), dtype=np.int32)
            start = 0
            while blocks:
                block = blocks.pop(0)
                ids[start:start + len(block)] = block
                start += len(block)
            self.stream = [ids]
        return self.stream[0]


EOS_KEY = np.frombuffer(EOS.encode(), dtype=np.uint8)

# The encoding kernels' arguments, grouped (named tuples, as ``wordvec.kernels``' are):
# per distinct token its own rows (CSR: int64 offsets, int32 rows), label id (-1: a word,
# -2: an unknown label) and fastText's int32 hash (``TokenInfo.arrays``)
TokenArrays = namedtuple("TokenArrays", "offsets rows label hash")
# word n-grams: int32 row of each bucket (-1: pruned), n-grams up to word_ngrams, buckets
WordNgrams = namedtuple("WordNgrams", "bucket_rows word_ngrams bucket")
# what a pass writes: int64 row_offsets and label_offsets (n_docs + 1), int64 doc_tokens;
# int32 rows and labels, left unwritten when empty (the first pass only counts)
Bags = namedtuple("Bags", "row_offsets label_offsets doc_tokens rows labels")


@numba.njit(inline="always")
def _is_separator(c):
    return c == 32 or 9 <= c <= 13 or c == 0  # fastText's readWord: space, \t\n\v\f\r and NUL


@numba.njit(nogil=True, cache=True)
def _scan_block(buf, position, eos_key, slots, hashes, word_start, word_len, arena, state, ids, n_ids):
    """fastText's tokens of ``buf[position:]`` (split on separators; every \\n is the token
    ``eos_key``) into the table, their ids appended to ``ids`` from ``n_ids`` on. Returns
    (position reached, ids written): the position is ``len(buf)`` when done, else the start
    of the first token that did not fit (grow the table or arena and call again)."""
    n = buf.shape[0]
    i = position
    while i < n:
        if buf[i] != 10 and _is_separator(buf[i]):
            i += 1
            continue
        key, start, end, after = eos_key, 0, eos_key.shape[0], i + 1
        if buf[i] != 10:
            end = i
            while end < n and not _is_separator(buf[end]):
                end += 1
            key, start, after = buf, i, end
        h = token_kernels.fnv1a(key, start, end)
        w, slot = token_kernels.find_slot(key, start, end, h, slots, hashes, word_start, word_len, arena)
        if w < 0:
            used, length = state[1], end - start
            if state[0] >= word_start.shape[0] or used + length > arena.shape[0]:
                return i, n_ids
            w = state[0]
            state[0] = w + 1
            slots[slot] = w
            hashes[w], word_start[w], word_len[w] = h, used, length
            arena[used:used + length] = key[start:end]
            state[1] = used + length
        ids[n_ids] = w
        n_ids += 1
        i = after
    return n, n_ids


def scan_text(source):
    """Scan a path (file/directory) or a list of lines into a :class:`TokenScan`; a
    TokenScan is given back as it is (a text read once and trained on again: autotune's
    trials)."""
    if isinstance(source, TokenScan):
        return source
    lines = isinstance(source, (list, tuple))
    scan = TokenScan("the training lines" if lines else str(source))
    if lines:
        scan.add(("\n".join(source) + "\n").encode("utf-8", "surrogateescape"))
    else:
        for block in text_blocks(source):
            scan.add(block)
    return scan


def encode(dictionary, scan):
    """The documents of ``scan`` as bags of input rows and label ids (:class:`Encoded`)."""
    info = token_info(dictionary, scan.tokens)
    return Encoded(*encode_documents(scan.ids(), info.eos, *info.arrays(), dictionary.bucket_rows,
                                     dictionary.word_ngrams, dictionary.bucket))


def encode_lines(dictionary, lines):
    return encode(dictionary, scan_text(list(lines)))


class StreamEncoder:
    """Encodes one text block after block with a fixed dictionary (``predict``): what a
    distinct token adds to a bag (rows, label, hash) is worked out once, when first seen,
    not again in every block. Past ``MAX_TOKENS`` distinct tokens it starts afresh."""
    MAX_TOKENS = 1 << 21

    def __init__(self, dictionary):
        self.dictionary = dictionary
        self.scan, self.info = TokenScan(), None

    def encode(self, data):
        """The documents (lines) of the bytes ``data`` as an :class:`Encoded`."""
        if len(self.scan.tokens) > self.MAX_TOKENS:
            self.scan, self.info = TokenScan(), None
        scan = self.scan
        scan.stream = []
        scan.add(data)
        known = 0 if self.info is None else len(self.info.label)
        if len(scan.tokens) > known:
            new = token_info(self.dictionary, scan.tokens[known:])
            self.info = new if self.info is None else self.info.extended(new)
        d = self.dictionary
        return Encoded(*encode_documents(scan.ids(), self.info.eos, *self.info.arrays(), d.bucket_rows,
                                         d.word_ngrams, d.bucket))


@dataclass(frozen=True)
class TokenInfo:
    """Per distinct token: its own rows (CSR), label id (-1: a word), signed 32-bit hash."""
    row_offsets: np.ndarray
    rows: np.ndarray
    label: np.ndarray
    hashes: np.ndarray
    eos: int

    def arrays(self):
        return self.row_offsets, self.rows, self.label, self.hashes

    def extended(self, more):
        """This table followed by ``more`` (the next distinct tokens)."""
        n = len(self.label)
        eos = self.eos if self.eos >= 0 else (more.eos + n if more.eos >= 0 else -1)
        return TokenInfo(np.concatenate([self.row_offsets, more.row_offsets[1:] + self.row_offsets[-1]]),
                         np.concatenate([self.rows, more.rows]), np.concatenate([self.label, more.label]),
                         np.concatenate([self.hashes, more.hashes]), eos)


def token_info(dictionary, tokens):
    """What each distinct token contributes to a bag (fastText's addSubwords)."""
    prefix = to_bytes(dictionary.label_prefix)
    word_index, label_index = dictionary.word_index, dictionary.label_index
    eos_bytes = to_bytes(EOS)
    n = len(tokens)
    label = np.full(n, -1, dtype=np.int32)
    is_label = np.zeros(n, dtype=bool)
    word_id = np.full(n, -1, dtype=np.int64)
    for i, token in enumerate(tokens):
        if token.startswith(prefix):
            is_label[i] = True
            label[i] = label_index.get(token, -1)
        else:
            word_id[i] = word_index.get(token, -1)
    label[is_label & (label < 0)] = -2  # an unknown label: neither word nor label
    if dictionary.maxn == 0:  # a word's bag part is its own row (no per-token lists: 10 MB for 150k tokens)
        own = word_id >= 0
        row_offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(own, out=row_offsets[1:])
        rows = word_id[own].astype(np.int32)
    else:
        row_offsets, rows = _rows_with_subwords(dictionary, tokens, word_id, is_label)
    eos = tokens.index(eos_bytes) if eos_bytes in tokens else -1
    return TokenInfo(row_offsets, rows, label, token_hashes(tokens), eos)


def _rows_with_subwords(dictionary, tokens, word_id, is_label):
    """CSR (offsets, rows) of each token: its word row (if known), then its character
    n-grams' rows (words only, not EOS), as fastText's addSubwords."""
    n = len(tokens)
    eos_bytes = to_bytes(EOS)
    lists = [[] for _ in range(n)]
    subwords = [i for i in range(n) if not is_label[i] and tokens[i] != eos_bytes]
    offsets, ngram_ids = ngram_table([to_text(tokens[i]).encode("utf-8", "replace").decode("utf-8")
                                      for i in subwords], dictionary.minn, dictionary.maxn, dictionary.bucket)
    bucket_rows = dictionary.bucket_rows
    for k, i in enumerate(subwords):
        rows = bucket_rows[ngram_ids[offsets[k]:offsets[k + 1]]]
        lists[i] = rows[rows >= 0].tolist()
    for i in range(n):
        if word_id[i] >= 0:
            lists[i].insert(0, int(word_id[i]))
    row_offsets = np.zeros(n + 1, dtype=np.int64)
    row_offsets[1:] = np.cumsum([len(x) for x in lists])
    return row_offsets, np.fromiter((r for x in lists for r in x), dtype=np.int32, count=int(row_offsets[-1]))


def token_hashes(tokens):
    """fastText's hash of each token, as the int32 it keeps (sign included)."""
    starts = np.zeros(len(tokens) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in tokens], out=starts[1:])
    buf = np.frombuffer(b"".join(tokens), dtype=np.uint8)
    return _hash_all(buf, starts)


@numba.njit(cache=True)
def _hash_all(buf, starts):
    out = np.empty(starts.shape[0] - 1, dtype=np.int32)
    for i in range(out.shape[0]):
        h = np.int64(_fnv1a_int8(buf, starts[i], starts[i + 1]))
        out[i] = np.int32(h - (1 << 32) if h >= (1 << 31) else h)  # C's int32_t(uint32_t)
    return out


@numba.njit(cache=True)
def _document_bag(ids, begin, end, tokens, ngrams, out_rows, n_rows, out_labels, n_labels, hashes):
    """Append one document's rows and labels (fastText's getLine); returns the new counts."""
    bucket_rows, word_ngrams, bucket = ngrams
    n_hashes = 0
    for p in range(begin, end):
        t = ids[p]
        if tokens.label[t] == -1:  # a word (known or not)
            for q in range(tokens.offsets[t], tokens.offsets[t + 1]):
                if out_rows.shape[0] > 0:
                    out_rows[n_rows] = tokens.rows[q]
                n_rows += 1
            hashes[n_hashes] = tokens.hash[t]
            n_hashes += 1
        elif tokens.label[t] >= 0:
            if out_labels.shape[0] > 0:
                out_labels[n_labels] = tokens.label[t]
            n_labels += 1
    if bucket > 0:
        for i in range(n_hashes):
            h = np.uint64(np.int64(hashes[i]))
            for j in range(i + 1, min(n_hashes, i + word_ngrams)):
                h = h * NGRAM_MULTIPLIER + np.uint64(np.int64(hashes[j]))
                row = bucket_rows[np.int64(h % np.uint64(bucket))]
                if row >= 0:
                    if out_rows.shape[0] > 0:
                        out_rows[n_rows] = row
                    n_rows += 1
    return n_rows, n_labels


@numba.njit(cache=True)
def _encode_pass(ids, eos, tokens, ngrams, out, hashes):
    """The bags of all documents of ``ids`` into ``out`` (:data:`Bags`); returns the number
    of documents. ``hashes``: scratch for one document's word hashes (as long as the
    longest one)."""
    d, begin, n_rows, n_labels = 0, 0, 0, 0
    for p in range(ids.shape[0]):
        if ids[p] != eos and p != ids.shape[0] - 1:
            continue
        n_rows, n_labels = _document_bag(ids, begin, p + 1, tokens, ngrams, out.rows, n_rows, out.labels, n_labels,
                                         hashes)
        out.doc_tokens[d] = p + 1 - begin
        d += 1
        out.row_offsets[d] = n_rows
        out.label_offsets[d] = n_labels
        begin = p + 1
    return d


def encode_documents(ids, eos, tok_offsets, tok_rows, tok_label, tok_hash, bucket_rows, word_ngrams, bucket):
    """Bags of all documents in the token stream ``ids`` (documents end at EOS)."""
    ends = np.flatnonzero(ids == eos)
    n_docs = len(ends) + 1
    longest = int(np.diff(ends, prepend=-1, append=len(ids) - 1).max())
    hashes = np.zeros(longest + 1, dtype=np.int32)
    row_offsets = np.zeros(n_docs + 1, dtype=np.int64)
    label_offsets = np.zeros(n_docs + 1, dtype=np.int64)
    doc_tokens = np.zeros(n_docs, dtype=np.int64)
    tokens = TokenArrays(tok_offsets, tok_rows, tok_label, tok_hash)
    ngrams = WordNgrams(bucket_rows, max(word_ngrams, 1), bucket)
    counting = Bags(row_offsets, label_offsets, doc_tokens, np.zeros(0, np.int32), np.zeros(0, np.int32))
    d = _encode_pass(ids, eos, tokens, ngrams, counting, hashes)
    rows = np.zeros(max(row_offsets[d], 1), dtype=np.int32)
    labels = np.zeros(max(label_offsets[d], 1), dtype=np.int32)
    _encode_pass(ids, eos, tokens, ngrams, counting._replace(rows=rows, labels=labels), hashes)
    return rows, row_offsets[:d + 1].copy(), labels, label_offsets[:d + 1].copy(), doc_tokens[:d].copy()


def warm_up(word_ngrams=1, minn=0, maxn=0, label_prefix="__label__"):
    """Load the kernels that read and encode a training text with these n-gram settings
    (from Numba's cache, or compile them) on a two-line text, so that a caller can do it
    while memory is still empty (``wordvec.kernels.loader``)."""
    scan = scan_text([f"{label_prefix}a x y", f"{label_prefix}b y z"])
    bucket = 16 if word_ngrams > 1 or maxn > 0 else 0
    encode(build_dictionary(scan, label_prefix, 1, 0, word_ngrams, bucket, minn, maxn), scan)


def build_dictionary(scan, label_prefix="__label__", min_count=1, min_count_label=0, word_ngrams=1,
                     bucket=2_000_000, minn=0, maxn=0, source="the training data"):
    """fastText's Dictionary of a training text: counts, thresholds, sorted by count."""
    ids = scan.ids()
    counts = np.zeros(len(scan.tokens), dtype=np.int64)
    for start in range(0, len(ids), 1 << 20):  # np.bincount widens its input to int64: a block at a time
        counts += np.bincount(ids[start:start + (1 << 20)], minlength=len(scan.tokens))
    prefix = to_bytes(label_prefix)
    is_label = np.array([t.startswith(prefix) for t in scan.tokens], dtype=bool)
    keep_word = ~is_label & (counts >= min_count)
    keep_label = is_label & (counts >= min_count_label)
    words = np.flatnonzero(keep_word)
    words = words[np.argsort(-counts[words], kind="stable")]
    labels = np.flatnonzero(keep_label)
    labels = labels[np.argsort(-counts[labels], kind="stable")]
    if len(labels) == 0:
        raise WordvecError(f"{source} has no labels starting with {label_prefix!r} "
                           f"(a line looks like '{label_prefix}pos some words')")
    if word_ngrams <= 1 and maxn == 0:
        bucket = 0  # fastText too: no n-gram rows are needed
    return LabelDictionary([to_text(scan.tokens[i]) for i in words], counts[words],
                           [to_text(scan.tokens[i]) for i in labels], counts[labels], int(len(ids)),
                           label_prefix, int(word_ngrams), int(bucket), int(minn), int(maxn))
