"""Cutting a corpus into pieces that tasks can read independently.

A piece is one file, or a byte range of one plain (uncompressed) file.  Ranges are cut
just after a newline (``at="line"``), so no document is split and counting co-occurrences
or training per piece sees exactly the documents of the whole file; vocabulary counting
may also cut at any whitespace (``at="space"``), which lets one huge line (text8) be
split too.  Compressed files cannot be entered in the middle and stay whole.

Pieces are listed in corpus order; merging per-piece results in that order reproduces
"first appearance" in the whole corpus.
"""

import dataclasses
import os

from wordvec.data.corpus import COMPRESSED_SUFFIXES, Corpus, list_files

SEPARATORS = {"line": b"\n", "space": b" \n\t\r\x0b\x0c"}
MIN_PIECE_BYTES = 1 << 20
SCAN_BYTES = 1 << 16


@dataclasses.dataclass(frozen=True)
class Piece:
    path: str
    byte_range: tuple = None  # (start, end), or None for the whole file

    def corpus(self, lowercase, max_document_length):
        return Corpus(self.path, lowercase=lowercase, max_document_length=max_document_length,
                      byte_range=self.byte_range)


def plan_pieces(source, pieces, at="line"):
    """About ``pieces`` pieces of the corpus ``source`` (a file or directory), in order."""
    if at not in SEPARATORS:
        raise ValueError(at)
    # absolute: a Ray worker reads its piece from its own working folder, not the driver's
    paths = [os.path.abspath(p) for p in list_files(source)]
    sizes = [os.path.getsize(p) for p in paths]
    target = max(MIN_PIECE_BYTES, sum(sizes) // max(1, pieces))
    planned = []
    for path, size in zip(paths, sizes):
        compressed = os.path.splitext(path)[1].lower() in COMPRESSED_SUFFIXES
        if compressed or size <= target:
            planned.append(Piece(path))
            continue
        start = 0
        while start < size:
            end = _cut_after(path, min(size, start + target), size, SEPARATORS[at])
            planned.append(Piece(path, (start, end)))
            start = end
    return planned


def _cut_after(path, position, size, separators):
    """The offset just after the first separator byte at or after ``position`` (or ``size``)."""
    with open(path, "rb") as handle:
        handle.seek(position)
        while position < size:
            window = handle.read(SCAN_BYTES)
            hits = [i for i in (window.find(bytes([s])) for s in separators) if i >= 0]
            if hits:
                return position + min(hits) + 1
            position += len(window)
    return size
