"""A vocabulary as three flat arrays: UTF-8 bytes, offsets and a hash table.

``KeyedVectors`` keeps its words as ``index_to_key`` (a list of str) and ``key_to_index``
(a dict).  At GoogleNews size that is 3M Python strings and a 3M-entry dict: ~400 MB and
seconds to build, even when a user only asks ``most_similar("king")``.  A ``WordTable``
holds the same vocabulary as

    blob     uint8[B]      every word's UTF-8 bytes, one after the other
    offsets  int64[V + 1]  word i is blob[offsets[i]:offsets[i + 1]]
    slots    int32[2^k]    open-addressing hash table, row + 1 per word (kernels.wordtable)

which the readers fill straight from the file's bytes, the native format stores as
``.npy`` files (so opening a save maps them: no parsing, no dict), and whose lookups are
one compiled hash probe.  ``KeyedVectors`` builds its list and dict from it only when
code touches ``index_to_key`` / ``key_to_index``.
"""

import sys
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io import formats
from wordvec.io.arrays import read_array
from wordvec.io.atomic import saved_directory
from wordvec.io.fnv import fnv1a64, fnv1a_many

WORD_SLOTS = "word_slots.npy"  # the hash table, beside formats.WORD_BYTES / WORD_OFFSETS
CHECKED_ROWS = 64  # rows looked up again when a table is read from disk (a stale table shows)


def _kernels():
    """``wordvec.kernels.wordtable``, imported on first use: a process that loads a small
    vector file and asks it questions never imports Numba (``wordvec.vectors.reading``)."""
    from wordvec.kernels import wordtable

    return wordtable


def slot_count(n_words):
    """Table size: a power of two at least twice the words (load factor <= 1/2)."""
    return 1 << max(3, int(2 * max(1, n_words) - 1).bit_length())


def fnv1a_rows(blob, offsets, chunk=1 << 16):
    """The 64-bit FNV-1a of every word (uint64, ``io.fnv.fnv1a_many``), ``chunk`` words at
    a time (so the temporaries stay small)."""
    hashes = np.empty(len(offsets) - 1, dtype=np.uint64)
    for first in range(0, len(hashes), chunk):
        part = offsets[first:first + chunk + 1]
        hashes[first:first + len(part) - 1] = fnv1a_many(blob, part[:-1], np.diff(part))
    return hashes


def build_slots(blob, offsets, slots):
    """``kernels.wordtable.build_slots`` in NumPy: fill the empty table ``slots`` by linear
    probing from each word's hash; returns the bool mask of rows repeating an earlier word
    (not inserted).  The words probe in rounds.  Each round, a word whose slot is taken
    moves on to the next one, unless the word there has its 64-bit hash, when the bytes are
    compared (equal: a repeat, dropped); of the words trying a free slot the first row takes
    it, the others try it again next round (so a repeat meets the word it repeats: both
    probe the same slots, in step).  A word moves on only past a taken slot, so probing from
    its hash finds it, as in the compiled build (the slots may differ from that build's)."""
    hashes = fnv1a_rows(blob, offsets)
    repeated = np.zeros(len(hashes), dtype=bool)
    mask = len(slots) - 1
    pending = np.arange(len(hashes), dtype=np.int32)
    at = (hashes & np.uint64(mask)).astype(np.int32)
    while len(pending):
        held = slots[at]
        free = held == 0
        trying = at[free]
        slots[trying] = np.iinfo(np.int32).min  # the first row trying a slot takes it:
        np.maximum.at(slots, trying, -1 - pending[free])  # the largest of -(row + 1)
        slots[trying] = -slots[trying]
        placed = free & (slots[at] == pending + 1)
        same_hash = ~free & (hashes[np.maximum(held, 1) - 1] == hashes[pending])
        for i in np.flatnonzero(same_hash).tolist():  # duplicates (or, rarely, a 64-bit collision)
            row, other = int(pending[i]), int(held[i]) - 1
            if blob[offsets[row]:offsets[row + 1]].tobytes() == blob[offsets[other]:offsets[other + 1]].tobytes():
                repeated[row] = placed[i] = True
        moving = ~free & ~placed
        at[moving] = (at[moving] + 1) & mask
        pending, at = pending[~placed], at[~placed]
    return repeated


class WordTable:
    """V unique words as arrays (see the module doc); immutable."""

    def __init__(self, blob, offsets, slots=None):
        if len(offsets) - 1 >= np.iinfo(np.int32).max:
            raise WordvecError(f"{len(offsets) - 1} words: more than a word table can index")
        self.blob, self.offsets = blob, offsets
        if slots is None:
            slots, repeated = self._build_slots()
            if repeated is not None:
                first = int(np.flatnonzero(repeated)[0])
                raise WordvecError(f"the word {self.word(first)!r} appears more than once")
        self.slots = slots

    def _build_slots(self):
        """(slots, repeated): the table, and a uint8 mask of rows repeating an earlier word
        (or None when every word is new)."""
        slots = np.zeros(slot_count(len(self)), dtype=np.int32)
        if "numba" not in sys.modules:  # no compiler loaded: the NumPy build, same probes
            repeated = build_slots(self.blob, self.offsets, slots)
            return slots, (repeated.view(np.uint8) if repeated.any() else None)
        repeated = np.zeros(len(self), dtype=np.uint8)
        duplicates = _kernels().build_slots(self.blob, self.offsets, slots, repeated)
        return slots, (repeated if duplicates else None)

    @classmethod
    def from_words(cls, words):
        """A table of a list of str (unique)."""
        encoded = [word.encode("utf-8") for word in words]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in encoded], out=offsets[1:])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), offsets)

    @classmethod
    def first_of_each(cls, blob, offsets):
        """(table, kept): the table of the words' first occurrences, and the int64 rows kept
        (None when there were no duplicates, the usual case: nothing is copied)."""
        table = cls.__new__(cls)
        table.blob, table.offsets = blob, offsets
        slots, repeated = table._build_slots()
        if repeated is None:
            table.slots = slots
            return table, None
        kept = np.flatnonzero(repeated == 0)
        return table.subset(kept), kept

    def subset(self, rows):
        """A new table of the words ``rows`` (int64, in that order, unique)."""
        lengths = self.offsets[rows + 1] - self.offsets[rows]
        blob = np.empty(int(lengths.sum()), dtype=np.uint8)
        offsets = np.empty(len(rows) + 1, dtype=np.int64)
        _kernels().gather_word_bytes(self.blob, self.offsets, rows, blob, offsets)
        return WordTable(blob, offsets)

    def first(self, n):
        """The first ``n`` words (``limit``)."""
        return self.subset(np.arange(min(n, len(self)), dtype=np.int64))

    def __len__(self):
        return len(self.offsets) - 1

    def word(self, row):
        """Word ``row`` as str."""
        return self.blob[self.offsets[row]:self.offsets[row + 1]].tobytes().decode("utf-8", "replace")

    def find(self, word):
        """Row of ``word`` (a str), or -1.

        One lookup in plain Python (the same hash and probes as ``kernels.find_row``):
        a few microseconds, like the compiled call's dispatch, and a process that only
        opens a save and asks one question never starts the compiler's machinery."""
        return self.find_bytes(word.encode("utf-8", "surrogatepass"))

    def find_bytes(self, key):
        """Row of the word whose UTF-8 bytes are ``key``, or -1."""
        slots, mask = self.slots, len(self.slots) - 1
        at = fnv1a64(key) & mask
        for _ in range(len(slots)):
            held = int(slots[at])
            if held == 0:
                return -1
            start, stop = int(self.offsets[held - 1]), int(self.offsets[held])
            if stop - start == len(key) and self.blob[start:stop].tobytes() == key:
                return held - 1
            at = (at + 1) & mask
        return -1

    def find_many(self, words):
        """int64 rows of a list of str (-1 for words not in the table), in one compiled call."""
        encoded = [word.encode("utf-8", "surrogatepass") for word in words]
        key_offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in encoded], out=key_offsets[1:])
        rows = np.empty(len(encoded), dtype=np.int64)
        keys = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        _kernels().find_rows(self.blob, self.offsets, self.slots, keys, key_offsets, rows)
        return rows

    def words(self):
        """All words as a list of str (what ``index_to_key`` holds)."""
        data = self.blob.tobytes()
        bounds = self.offsets.tolist()
        return [data[a:b].decode("utf-8", "replace") for a, b in zip(bounds[:-1], bounds[1:])]

    def check(self):
        """The problem of a table read from disk as (file name, sentence), or None if it looks
        sound: offsets that do not step through the bytes, slot values out of range, and a
        sample of rows that the hash table does not find again (a table of other words)."""
        problem = offsets_problem(self.blob, self.offsets)
        if problem is not None:
            return formats.WORD_OFFSETS, problem
        offsets, n, slots = self.offsets, len(self), self.slots
        if (slots.ndim != 1 or len(slots) < 2 * n or len(slots) & (len(slots) - 1)
                or int(slots.min(initial=0)) < 0 or int(slots.max(initial=0)) > n):
            return WORD_SLOTS, f"the word hash table does not fit the {n} words"
        sample = np.linspace(0, n - 1, min(n, CHECKED_ROWS)).astype(np.int64)
        for row in sample.tolist():
            if self.find_bytes(self.blob[offsets[row]:offsets[row + 1]].tobytes()) != row:
                return WORD_SLOTS, f"the word hash table does not match the words (row {row})"
        return None


def offsets_problem(blob, offsets):
    """Why ``offsets`` cannot index ``blob`` (a sentence), or None: they must run from 0 to
    its length and increase (the compiled kernels trust them: no read outside ``blob``)."""
    if offsets.ndim != 1 or len(offsets) < 1 or int(offsets[0]) != 0 or int(offsets[-1]) != len(blob):
        return "word offsets do not span the word bytes"
    if len(offsets) > 1 and int(np.diff(offsets).min()) < 1:
        return "word offsets must increase (no empty word)"
    return None


def read_word_table(path, mmap_mode=None):
    """``(table, counts, vector_size, directory)`` of a version-2 native save (its word
    arrays mapped with ``mmap_mode``, the hash table checked, or rebuilt if it is missing),
    or None for a version-1 save (words in vocab.json)."""
    directory = saved_directory(path, formats.NATIVE_META)
    if not (directory / formats.NATIVE_META).is_file() or not (directory / formats.WORD_BYTES).is_file():
        return None
    meta = formats.read_vocab_meta(directory)
    if meta["words"] is not None:
        return None
    blob, offsets, counts = formats.read_word_arrays(directory, meta, mmap_mode)
    slots_path = Path(directory) / WORD_SLOTS
    if not slots_path.is_file():
        problem = offsets_problem(blob, offsets)
        if problem is not None:
            raise FormatError(Path(directory) / formats.WORD_OFFSETS, None, problem)
        try:
            table = WordTable(blob, offsets)
        except WordvecError as error:  # duplicates
            raise FormatError(Path(directory) / formats.WORD_BYTES, None, str(error)) from None
        return table, counts, meta["vector_size"], directory
    slots = read_array(slots_path, (None,), kinds="i", mmap_mode=mmap_mode)
    if slots.dtype != np.int32:
        raise FormatError(slots_path, None, f"array holds {slots.dtype}, not int32")
    table = WordTable(blob, offsets, slots)
    problem = table.check()
    if problem is not None:
        raise FormatError(Path(directory) / problem[0], None, problem[1])
    return table, counts, meta["vector_size"], directory
