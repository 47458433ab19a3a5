"""The records of a word2vec binary file found and copied in NumPy alone (no compiled code).

A record is ``word " " float32[D]``, after the newline(s) ending the one before.  Where a
record starts depends on every word before it, so finding them is a walk, which one
regular expression does in C (``re.findall`` over a block of the file, no Python code per
record):

    (\\n*[^ ]* ).{4D}     newlines, the word (anything but a space), a space: the group;
                         then the 4D bytes of the vector (``.`` with DOTALL: skipped, not read)
    | .+                 or, where no whole record starts, the rest of the block

The second branch ends the search at the first place the first cannot match (the block
ends inside a record): without it ``findall`` would try again at every later byte.  So the
matches are the block's whole records from its start, in order; the lengths of the groups
give where each word and vector is (``Records``), and the vectors are copied into the
matrix by one fancy index over a view of the block with one row starting at every byte.

``wordvec.vectors.reading`` uses this for files small enough that loading the compiled
kernels (Numba: ~0.3 s and ~50 MB of the process, more than a 500k-word file's words and
buffers together) costs more than it saves; it applies the compiled scanner's rules
(``kernels.parse.scan_binary_records``: the same errors at the same record), and
tests/vectors/test_loading.py holds the two to the same results on random and damaged files.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from wordvec.io.text import MAX_WORD_BYTES

NEWLINE, SPACE = 10, 32
COPY_BYTES = 96 << 10  # vector bytes copied per fancy index (a temporary inside L2)


@lru_cache(maxsize=8)
def record_pattern(row_bytes):
    return re.compile(rb"(\n*[^ ]* ).{%d}|.+" % row_bytes, re.DOTALL)


@dataclass
class Records:
    """The whole records at the start of a block (positions are offsets in the block)."""

    rows: int
    word_start: np.ndarray  # int64[rows]
    word_end: np.ndarray  # int64[rows]: the space after the word (its vector follows)
    consumed: int  # bytes of the block the rows took
    groups: np.ndarray  # uint8: each row's newlines, word and space, one row after the other
    group_lengths: np.ndarray  # int64[rows]
    word_in_group: np.ndarray  # int64[rows]: the newlines before each word
    problem: str | None = None  # "empty word" / "word too long": the record after the rows


def find_records(buf, row_bytes, max_rows):
    """Up to ``max_rows`` whole records at the start of ``buf`` (uint8), stopping before
    a record with an empty word or one longer than ``MAX_WORD_BYTES`` (``problem``)."""
    groups = record_pattern(row_bytes).findall(buf)
    if groups and not groups[-1]:
        groups.pop()  # the rest of the block (the second branch matched): no record
    del groups[max_rows:]
    lengths = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
    joined = np.frombuffer(b"".join(groups), dtype=np.uint8)
    group_start = np.cumsum(lengths) - lengths
    word_at = _word_starts(joined, group_start)
    space = group_start + lengths - 1
    bad = np.flatnonzero((space - word_at > MAX_WORD_BYTES) | (space == word_at))
    rows, problem = len(groups), None
    if len(bad):
        rows = int(bad[0])
        problem = "word too long" if space[rows] - word_at[rows] > MAX_WORD_BYTES else "empty word"
    shift = np.arange(rows, dtype=np.int64) * row_bytes  # the vectors before each group
    word_end = space[:rows] + shift
    consumed = int(word_end[-1]) + 1 + row_bytes if rows else 0
    if problem is None and rows < max_rows and _tail_word_too_long(buf[consumed:]):
        problem = "word too long"
    return Records(rows, word_at[:rows] + shift, word_end, consumed, joined, lengths[:rows],
                   word_at[:rows] - group_start[:rows], problem)


def _word_starts(joined, group_start):
    """Where each group's word starts, after its newlines: one newline at most, as the
    records of every writer have, is checked for directly; more, found by a search."""
    if len(group_start) == 0:
        return group_start
    word_at = group_start + (joined[group_start] == NEWLINE)
    if (joined[word_at] != NEWLINE).all():
        return word_at
    not_newline = np.flatnonzero(joined != NEWLINE)  # every group ends in a space: always found
    return not_newline[np.searchsorted(not_newline, group_start)]


def _tail_word_too_long(tail):
    """True if the bytes after the last whole record start a word of more than
    ``MAX_WORD_BYTES`` (no space in the MAX_WORD_BYTES + 1 bytes after its newlines)."""
    if len(tail) <= MAX_WORD_BYTES:
        return False
    start = int(np.argmax(tail != NEWLINE)) if (tail != NEWLINE).any() else len(tail)
    window = tail[start:start + MAX_WORD_BYTES + 1]
    return len(window) > MAX_WORD_BYTES and not (window == SPACE).any()


def copy_vectors(buf, records, row_bytes, dest):
    """Copy the records' vector bytes (little-endian float32) into ``dest[:rows]`` (float32,
    C-contiguous) by fancy indexes over a view of ``buf`` with a row at every byte, under
    COPY_BYTES at a time (the index's temporary stays in the cache, and below malloc's
    128 KB mmap threshold: never fresh memory).  Returns True if every value copied is
    finite (``np.isfinite`` of each piece while it is in the cache: measured, 0.018 s per
    500k x 300 against 0.032 s for a float32 sum, which also overflowed on huge values),
    False if some is not."""
    if records.rows == 0:
        return True
    row = np.dtype((np.void, row_bytes))
    every_start = np.ndarray((len(buf) - row_bytes + 1,), dtype=row, buffer=buf, strides=(1,))
    rows = dest[:records.rows].view(row).reshape(records.rows)
    step, finite = max(1, COPY_BYTES // row_bytes), True
    for first in range(0, records.rows, step):
        rows[first:first + step] = every_start[records.word_end[first:first + step] + 1]
        finite = finite and bool(np.isfinite(dest[first:first + step]).all())
    return finite


def word_parts(records):
    """(bytes, int32 lengths, valid): the records' words one after the other, and whether
    they are all valid UTF-8; when they are not, the bytes are each word followed by a
    space (what ``reading._WordBytes.add`` takes), and the lengths None."""
    total = int(records.group_lengths.sum())
    groups = records.groups[:total]
    newlines = groups == NEWLINE
    if int(np.count_nonzero(newlines)) == int(records.word_in_group.sum()):  # no newline inside a word
        with_spaces = groups[~newlines]
    else:
        offset_in_group = np.arange(total, dtype=np.int64) - np.repeat(
            np.cumsum(records.group_lengths) - records.group_lengths, records.group_lengths)
        with_spaces = groups[offset_in_group >= np.repeat(records.word_in_group, records.group_lengths)]
    try:
        with_spaces.tobytes().decode("utf-8")  # the spaces keep a bad sequence from spanning two words
    except UnicodeDecodeError:
        return with_spaces, None, False
    lengths = (records.group_lengths - records.word_in_group - 1).astype(np.int32)
    return with_spaces[with_spaces != SPACE], lengths, True


def first_nonfinite_row(block):
    """First row of ``block`` (rows x D, float32 or float16) holding NaN or infinity, or
    -1.  A sum in float32 is NaN/inf if a value is (or, by overflow, if values are huge):
    the whole block's sum first (one fast contiguous reduction), then, if it is not
    finite, the rows' sums, and the rows whose sum is not finite value by value."""
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(block.sum(dtype=np.float32)):
            return -1
        sums = block.sum(axis=1, dtype=np.float32)
    suspects = np.flatnonzero(~np.isfinite(sums))
    if len(suspects) == 0:
        return -1
    bad = suspects[~np.isfinite(block[suspects]).all(axis=1)]
    return int(bad[0]) if len(bad) else -1
