"""A growable hash table of byte tokens, driven by the kernels in ``wordvec.kernels.tokens``.

Used twice: to count every distinct token of a corpus (``count``), and, filled with the
final vocabulary in rank order, to translate text into word ids (``encode_block``).
"""

import numpy as np

from wordvec.io.fnv import fnv1a_many
from wordvec.kernels import tokens as kernels


class TokenTable:
    def __init__(self, capacity=1 << 16, arena_bytes=1 << 20):
        capacity = 1 << max(4, int(capacity - 1).bit_length())  # a power of two
        self.slots = np.full(capacity, -1, dtype=np.int64)
        max_words = capacity // 2  # load factor <= 1/2 keeps probes short
        self.hashes = np.zeros(max_words, dtype=np.uint64)
        self.word_start = np.zeros(max_words, dtype=np.int64)
        self.word_len = np.zeros(max_words, dtype=np.int64)
        self.counts = np.zeros(max_words, dtype=np.int64)
        self.arena = np.zeros(arena_bytes, dtype=np.uint8)
        self.state = np.zeros(2, dtype=np.int64)  # [n_words, arena bytes used]
        self.pruned_tokens = 0  # occurrences of words dropped by ``keep``

    @classmethod
    def from_words(cls, words):
        """A table whose word ``i`` is ``words[i]`` (so lookups return vocabulary ids)."""
        encoded = [w.encode("utf-8") for w in words]
        return cls.from_bytes(b"".join(encoded), np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)))

    @classmethod
    def from_bytes(cls, joined, lengths, counts=None):
        """A table whose word ``i`` is the UTF-8 bytes ``joined[start_i:start_i + lengths[i]]``
        (the words back to back), with ``counts[i]`` occurrences (0 without counts)."""
        lengths = np.asarray(lengths, dtype=np.int64)
        n = lengths.size
        table = cls(capacity=4 * max(n, 1), arena_bytes=max(1, len(joined)))
        table.word_len[:n] = lengths
        table.word_start[:n] = np.cumsum(lengths) - lengths
        table.arena[:len(joined)] = np.frombuffer(joined, dtype=np.uint8)
        if counts is not None:
            table.counts[:n] = counts
        table.hashes[:n] = fnv1a_many(table.arena, table.word_start[:n], lengths)  # NumPy: no compile per process
        table.state[:] = (n, len(joined))
        kernels.rehash(table.hashes, n, table.slots)
        return table

    def __len__(self):
        return int(self.state[0])

    def count(self, block):
        """Add the tokens of a UTF-8 byte block to the counts."""
        buf = np.frombuffer(block, dtype=np.uint8)
        position = 0
        while True:
            position = kernels.count_block(buf, position, self.slots, self.hashes, self.word_start,
                                           self.word_len, self.counts, self.arena, self.state)
            if position >= buf.size:
                return
            self._grow(needed_bytes=buf.size - position)

    @classmethod
    def of_block(cls, block):
        """A table of one block's tokens (sized for a ~2 MB block: one growth at most)."""
        table = cls(capacity=1 << 17)
        table.count(block)
        return table

    def merge(self, other):
        """Add ``other``'s words and counts: a word this table lacks is appended, in
        ``other``'s order, so counting blocks into tables of their own and merging them in
        the blocks' order gives the same table as counting the blocks into this one."""
        n = len(other)
        block = (other.hashes, other.word_start, other.word_len, other.counts, other.arena, n)
        first = 0
        while True:
            first = kernels.merge_counts(block, first, self.slots, self.hashes, self.word_start, self.word_len,
                                         self.counts, self.arena, self.state)
            if first >= n:
                break
            self._grow(needed_bytes=int(other.word_len[first:n].sum()))
        self.pruned_tokens += other.pruned_tokens

    def _grow(self, needed_bytes):
        n, used = (int(x) for x in self.state)
        if used + needed_bytes > self.arena.size:
            self.arena = _enlarged(self.arena, max(2 * self.arena.size, used + needed_bytes))
        if n >= self.word_start.size:
            max_words = 2 * self.word_start.size
            self.hashes = _enlarged(self.hashes, max_words)
            self.word_start = _enlarged(self.word_start, max_words)
            self.word_len = _enlarged(self.word_len, max_words)
            self.counts = _enlarged(self.counts, max_words)
            self.slots = np.full(2 * max_words, -1, dtype=np.int64)
            kernels.rehash(self.hashes, n, self.slots)

    def words(self, which=None):
        """The tokens (all, or those at the indices ``which``) in order of first
        appearance, as ``str``."""
        which = np.arange(len(self)) if which is None else np.asarray(which)
        arena = self.arena.tobytes()
        return [arena[s:s + k].decode("utf-8") for s, k in zip(self.word_start[which].tolist(),
                                                              self.word_len[which].tolist())]

    def keep(self, mask):
        """Drop every word where ``mask`` is False (order of the rest kept)."""
        n = len(self)
        keep = np.flatnonzero(mask[:n])
        self.pruned_tokens += int(self.counts[:n].sum() - self.counts[keep].sum())
        self.hashes[:keep.size] = self.hashes[keep]
        self.word_start[:keep.size] = self.word_start[keep]
        self.word_len[:keep.size] = self.word_len[keep]
        self.counts[:keep.size] = self.counts[keep]
        self.counts[keep.size:] = 0
        self.state[0] = keep.size  # the arena keeps dead bytes; fine for a pruning pass
        self.slots[:] = -1
        kernels.rehash(self.hashes, keep.size, self.slots)


def _enlarged(array, size):
    bigger = np.zeros(size, dtype=array.dtype)
    bigger[:array.size] = array
    return bigger
