"""Fast readers of word2vec binary, word2vec/fastText text and GloVe files (optionally compressed).

The readers stream the file in BLOCK_BYTES blocks through the compiled kernels of
``wordvec.kernels.parse`` straight into the one final matrix (allocated once, from the
header, its pages populated by a second thread while the parser fills it, which also
decompresses a compressed file ahead of the parser: ``wordvec.vectors.background``), so
peak memory is the matrix plus a few blocks whatever the file's size, and no Python code
runs per word or per number.
Words are collected per block as UTF-8 bytes (checked per block) and become a
``WordTable`` (bytes + offsets + hash table, ``wordvec.vectors.wordtable``): no Python
string or dict per word unless the caller asks for the list (``table=False``).

Binary files too small for the compiled kernels to pay for themselves (under
``COMPILED_FROM_BYTES`` of matrix, unless Numba is loaded already) are read in NumPy
alone (``wordvec.vectors.binary_records``, the same rules and errors): Numba's import and
the kernels' loading take ~0.3 s and leave ~50 MB in the process, a tenth of a 500k x 300
matrix, which no file of that size repays.  Text needs a compiled float parser (NumPy
parses decimal numbers at 25-75 ns each, ``np.fromstring``, 3-5x slower): its rows are read by
the C twin of the Numba kernel (``wordvec.io._text_rows``, built at install by setup.py), and
the rest of the load is NumPy's as for a small binary file, so no text load imports Numba
either (a 500k-row file: 1.12x the matrix at its peak, against 1.19x with Numba loaded).
Where no C compiler was found at install, the Numba kernel parses them instead.

They follow the rules of the simple pure-Python readers in ``wordvec.io.formats`` (the
reference: a word is everything before the first space, duplicate words keep the first
vector, NaN/inf rows, ragged rows, short or long files are errors naming the line), and
tests/vectors/test_loading.py holds them to those readers on random and damaged files.  On top:
``limit=N`` (the first N vectors, like gensim), ``dtype=float16``, and .gz/.bz2/.xz files.
"""

import gzip
import io
import logging
import mmap
import os
import sys

import numpy as np

from wordvec.errors import DecodingError, FormatError, TruncatedError, WordvecError
from wordvec.io.formats import DECOMPRESSION_ERRORS, has_word2vec_header, is_number, open_bytes, parse_header
from wordvec.memory import release_compiler_pages, release_free_heap
from wordvec.vectors import background, binary_records
from wordvec.vectors.wordtable import WordTable

logger = logging.getLogger(__name__)

BLOCK_BYTES = 1 << 22  # 4 MB: the file's pages resident at a time, and a decompressed chunk
SPACE = 32
POPULATE_READ = getattr(mmap, "MADV_POPULATE_READ", 22)  # Linux >= 5.14
DTYPES = {None: np.float32, "float32": np.float32, "float16": np.float16}
UNICODE_ERRORS = ("replace", "ignore", "strict")  # gensim's unicode_errors that the readers take
# a binary file is read by the compiled kernels from this much matrix on (or when Numba is
# loaded anyway): where they break even: load_vectors
# of the first N rows of the synthetic 3M x 300 .bin in a fresh process, wall seconds,
# NumPy vs compiled: 250k rows 0.44 vs 0.74, 1M rows (1.2 GB) 1.36 vs 1.32, 3M 6.7 vs 3.8
COMPILED_FROM_BYTES = 1 << 30


def _compiled():
    """``wordvec.kernels.parse``, imported on first use (importing it loads Numba)."""
    from wordvec.kernels import parse

    return parse


def text_row_parser():
    """The module whose ``parse_text_rows`` (and error codes) read text rows: the C twin
    ``wordvec.io._text_rows`` where it was built (setup.py; no Numba in the process),
    else ``wordvec.kernels.parse`` -- the same rows, floats and errors."""
    try:
        from wordvec.io import _text_rows
    except ImportError:  # installed without a C compiler
        return _compiled()
    return _text_rows


def _words_with_spaces(buf, word_start, word_end):
    """``buf[word_start[i]:word_end[i]]`` for each row, each followed by a space, in one
    array (what ``_WordBytes.add`` takes), gathered in NumPy."""
    lengths = word_end - word_start
    room = lengths + 1
    at = np.cumsum(room) - room  # where each word starts in the arena
    word = np.repeat(np.arange(len(lengths)), room)  # the word of each arena byte
    offset = np.arange(len(word)) - at[word]
    inside = offset < lengths[word]
    arena = np.full(len(word), SPACE, dtype=np.uint8)
    arena[inside] = buf[(word_start[word] + offset)[inside]]
    return arena


def use_compiled(compiled, matrix_bytes):
    """Whether a binary file is read by the compiled kernels (``compiled`` None: by size)."""
    if compiled is not None:
        return bool(compiled)
    return "numba" in sys.modules or matrix_bytes >= COMPILED_FROM_BYTES


def _plain_size(path, handle):
    """Size in bytes of an uncompressed file, or None for a compressed one."""
    return os.fstat(handle.fileno()).st_size if isinstance(handle, io.BufferedReader) else None


def target_dtype(path, dtype):
    key = None if dtype is None else np.dtype(dtype).name
    if key not in DTYPES:
        raise WordvecError(f"cannot load {path} as {dtype}: choose float32 or float16")
    return DTYPES[key]


def _allocate(path, rows, dims, dtype, compiled=True):
    """The one allocation of the final matrix (a header asking for too much is the file's fault).
    The compiled kernels (if used) are loaded first and LLVM's pages handed back
    (``_ready_kernels``), so that the process is as small as it gets when the matrix comes."""
    if compiled:
        _ready_kernels()
    release_free_heap()
    try:
        return mapped_empty((rows, dims), dtype)
    except (MemoryError, ValueError, OverflowError):
        gigabytes = rows * dims * np.dtype(dtype).itemsize / 1e9
        raise FormatError(path, 1, f"the header asks for {rows} vectors of size {dims} ({gigabytes:.1f} GB), "
                                   "more memory than this machine can give; load fewer with limit=N") from None


_kernels_ready = []


def _ready_kernels():
    """Load the readers' compiled kernels (the first call of each loads it from Numba's
    cache, touching ~50 MB of LLVM and its heap) on a two-row file, then hand LLVM's pages
    and the heap's free pages back (``wordvec.memory``): done before the matrix is
    allocated, the process's peak is the matrix plus what the interpreter keeps, not plus
    the compiler's working set."""
    if _kernels_ready:
        return
    parse = _compiled()
    row = b"a \x00\x00\x80?\n"
    buf = np.frombuffer(row + b"b 1.5\n", dtype=np.uint8)
    starts, ends, at = (np.empty(1, np.int64) for _ in range(3))
    parse.scan_binary_records(buf[:len(row)], True, 4, 1, starts, ends, at)
    dest = np.empty((1, 1), np.float32)
    parse.gather_bytes(buf, at, 4, 1, dest.view(np.uint8))
    parse.parse_text_rows(buf[len(row):], True, 1, 1, dest, starts, ends)
    parse.first_nonfinite_row(dest.view(np.uint32))
    parse.gather_words(buf, starts, ends, 1, np.empty(8, np.uint8))
    parse.gather_word_parts(buf, starts, ends, 1, np.empty(8, np.uint8), np.empty(1, np.int32))
    WordTable.first_of_each(np.frombuffer(b"ab", dtype=np.uint8), np.array([0, 1, 2], np.int64))
    release_compiler_pages()
    release_free_heap()
    _kernels_ready.append(True)


def mapped_empty(shape, dtype):
    """``np.empty(shape, dtype)``; a big one gets its own anonymous map (page-aligned, so
    ``background.PagesAhead`` can populate it, and handed back whole when it goes).
    Not ``MADV_HUGEPAGE`` (2 MB pages, 500x fewer faults): a 500k-row ``.bin`` took
    0.59-1.32 s with it against 0.60-0.65 s, 1.09-1.32 s on fresh memory (the kernel
    compacting memory for the huge pages; ``benchmarks/diagnostics/diag_load_variants.py``)."""
    nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    if nbytes < BLOCK_BYTES or not hasattr(mmap, "MAP_ANONYMOUS"):
        return np.empty(shape, dtype=dtype)
    area = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return np.frombuffer(area, dtype=dtype).reshape(shape)  # the map lives as long as the array


class _WordBytes:
    """The words of the parsed rows as UTF-8 bytes and offsets, block by block.

    A block's words arrive as their bytes and lengths, already checked by the compiled
    ``parse.is_utf8`` (``add_valid``), or as ``b"w1 w2 ... wn "`` (``add``: every block
    gathered without Numba, and a block with bad bytes; no word contains a space, so no
    UTF-8 sequence spans two words), checked here, and if need be decoded with U+FFFD in
    place of the bad bytes and re-encoded (counted, reported once).  ``unicode_errors``
    (gensim's): "replace" as just said, "ignore" drops the bad bytes, "strict" refuses
    the file (a ``DecodingError``, also Python's ``UnicodeDecodeError``)."""

    def __init__(self, path, unicode_errors="replace"):
        if unicode_errors not in UNICODE_ERRORS:
            raise WordvecError(f"unicode_errors must be one of {', '.join(UNICODE_ERRORS)}, not {unicode_errors!r}")
        self.path, self.parts, self.lengths, self.bad = path, [], [], 0
        self.unicode_errors = unicode_errors

    def add(self, arena):
        try:
            arena.tobytes().decode("utf-8")
        except UnicodeDecodeError as error:
            if self.unicode_errors == "strict":
                raise DecodingError(self.path, None, "a word is not valid UTF-8 (unicode_errors='strict'; "
                                    "'replace' or 'ignore' load it)", error) from None
            words = arena.tobytes().decode("utf-8", errors="replace").split(" ")[:-1]
            self.bad += sum(1 for word in words if "\ufffd" in word)
            if self.unicode_errors == "ignore":
                words = arena.tobytes().decode("utf-8", errors="ignore").split(" ")[:-1]
            arena = np.frombuffer(" ".join(words).encode("utf-8") + b" ", dtype=np.uint8)
        spaces = np.flatnonzero(arena == SPACE)
        self.lengths.append(np.diff(spaces, prepend=-1) - 1)
        self.parts.append(arena[arena != SPACE])

    def add_valid(self, blob, lengths):
        """A block's words, already checked to be UTF-8: their bytes and their lengths."""
        self.parts.append(blob)
        self.lengths.append(lengths)

    def arrays(self):
        """(bytes, offsets) of all words so far; the parts go as they are joined."""
        if self.bad:
            logger.warning("%s: %d words were not valid UTF-8; bad bytes were %s", self.path, self.bad,
                           "dropped" if self.unicode_errors == "ignore" else "replaced by U+FFFD")
        offsets = np.zeros(sum(len(part) for part in self.lengths) + 1, dtype=np.int64)
        np.cumsum(np.concatenate(self.lengths) if self.lengths else [], out=offsets[1:])
        self.lengths.clear()
        blob, at = np.empty(int(offsets[-1]), dtype=np.uint8), 0
        self.parts.reverse()
        while self.parts:  # each part goes once copied: the words are held once, not twice
            part = self.parts.pop()
            blob[at:at + len(part)] = part
            at += len(part)
        return blob, offsets


def _check_promise(path, size, n_words, dims, min_row_bytes):
    """Refuse at once a header promising more rows than a plain file of ``size`` bytes holds."""
    if size is not None and n_words * min_row_bytes > size:
        raise TruncatedError(path, 1, f"header promises {n_words} vectors of size {dims} "
                                   f"({n_words * min_row_bytes}+ bytes), more than a {size}-byte file can hold")


def _keep_first(path, word_bytes, vectors):
    """The word table of the first occurrence of each word, as gensim keeps; returns
    (table, vectors).  Rows are moved up in place (the kept rows only ever move towards
    the start), so a file with duplicates costs no second matrix."""
    table, keep = WordTable.first_of_each(*word_bytes)
    if keep is None:
        return table, vectors
    logger.warning("%s: %d duplicate words; kept the first vector of each", path, len(vectors) - len(keep))
    for new, old in enumerate(keep.tolist()):
        if new != old:
            vectors[new] = vectors[old]
    return table, vectors[: len(keep)]


def _words_and_rows(path, sink, matrix):
    """``_keep_first`` of the parsed rows, once the parse's freed buffers (file blocks,
    decompressed chunks, per-block words: malloc keeps their pages) are handed back: the
    word table's build is the load's last and highest point (measured, a 500k-row
    ``.bin.gz``: 658 MB peak before, 647 MB after; 1.151x the matrix before, 1.131x)."""
    release_free_heap()
    return _keep_first(path, sink.words(), matrix)


def _result(table, vectors, want_table):
    return (table if want_table else table.words()), vectors, None


def _check_block_finite(path, block, line_of_first_row, word_of, problem="contains NaN or infinity",
                        compiled=True):
    """NaN/inf check of one parsed block (float32: a compiled test of the exponent bits, or
    NumPy's row sums; float16: float64 row sums, which cannot overflow)."""
    if not compiled:
        i = binary_records.first_nonfinite_row(block)
        if i < 0:
            return
    elif block.dtype == np.float32 and block.flags.c_contiguous:
        i = int(_compiled().first_nonfinite_row(block.view(np.uint32)))
        if i < 0:
            return
    elif np.isfinite(block.sum(axis=1, dtype=np.float64)).all():
        return
    else:
        i = int(np.flatnonzero(~np.isfinite(block).all(axis=1))[0])
    raise FormatError(path, line_of_first_row + i, f"the vector of {word_of(i)!r} {problem}")


class _BlockSink:
    """Where parsed rows go: straight into the final matrix (float32), or through a float32
    staging block into a float16 one; also keeps each block's words as bytes.  ``compiled``:
    the NaN/inf check and the words' gathering by the Numba kernels, else by NumPy."""

    def __init__(self, path, matrix, first_line, compiled=True, unicode_errors="replace"):
        self.path, self.matrix, self.first_line, self.compiled = path, matrix, first_line, compiled
        self.rows, self.word_bytes, self.pages = 0, _WordBytes(path, unicode_errors), None

    def pages_ahead(self):
        """The matrix's pages populated in a second thread, ahead of the rows written."""
        self.pages = background.PagesAhead(self.matrix)
        return self.pages

    def destination(self, capacity):
        capacity = min(capacity, len(self.matrix) - self.rows)
        if self.pages is not None:
            self.pages.before_writing((self.rows + capacity) * self.matrix.itemsize * self.matrix.shape[1])
        if self.matrix.dtype == np.float32:
            return self.matrix[self.rows:self.rows + capacity]
        return np.empty((capacity, self.matrix.shape[1]), dtype=np.float32)

    def check(self, buf, dest, rows, word_start, word_end, known_finite=False):
        """Check ``rows`` parsed rows whose words are ``buf[word_start:word_end]`` (and
        store them, if the matrix is float16); ``known_finite``: NaN/inf already ruled out."""
        def word_of(i):
            return bytes(buf[word_start[i]:word_end[i]]).decode("utf-8", "replace")

        line = self.first_line + self.rows
        if not known_finite:
            _check_block_finite(self.path, dest[:rows], line, word_of, compiled=self.compiled)
        if self.matrix.dtype != np.float32:
            with np.errstate(over="ignore"):
                self.matrix[self.rows:self.rows + rows] = dest[:rows]
            _check_block_finite(self.path, self.matrix[self.rows:self.rows + rows], line, word_of,
                                "has a value beyond float16's range (+-65504); load it as float32", self.compiled)

    def accept(self, buf, dest, rows, word_start, word_end):
        """Check and keep ``rows`` parsed rows whose words are ``buf[word_start:word_end]``."""
        self.check(buf, dest, rows, word_start, word_end)
        if not self.compiled:
            self.word_bytes.add(_words_with_spaces(buf, word_start[:rows], word_end[:rows]))
            self.rows += rows
            return
        parse = _compiled()
        blob, lengths = np.empty(int((word_end[:rows] - word_start[:rows]).sum()), np.uint8), np.empty(rows, np.int32)
        used, valid = parse.gather_word_parts(buf, word_start, word_end, rows, blob, lengths)
        if valid:
            self.word_bytes.add_valid(blob[:used], lengths)
        else:  # bad bytes: replaced, as Python's decoder replaces them
            arena = np.empty(len(blob) + rows, dtype=np.uint8)
            used = parse.gather_words(buf, word_start, word_end, rows, arena)
            self.word_bytes.add(arena[:used])
        self.rows += rows

    def accept_records(self, buf, dest, records, known_finite):
        """Check and keep the rows of ``binary_records.find_records`` (NumPy alone)."""
        self.check(buf, dest, records.rows, records.word_start, records.word_end, known_finite)
        words, lengths, valid = binary_records.word_parts(records)
        if valid:
            self.word_bytes.add_valid(words, lengths)
        else:  # bad bytes: replaced, as Python's decoder replaces them
            self.word_bytes.add(words)
        self.rows += records.rows

    def words(self):
        """(UTF-8 bytes, offsets) of the words of the rows parsed."""
        return self.word_bytes.arrays()


def _text_row_problem(line, dims):
    """The sentence for a text row the compiled parser rejected (found again in Python)."""
    line = line.rstrip(b"\r\n").rstrip()
    if not line:
        return "empty line"
    raw_word, _, rest = line.partition(b" ")
    if not raw_word:
        return "line starts with a space (empty word)"
    values = rest.split()
    if len(values) != dims:
        return f"expected {dims} numbers after the word, found {len(values)}"
    bad = next((v for v in values if not is_number(v)), values[0])
    return f"{bad[:30].decode('utf-8', 'replace')!r} is not a number"


class _ReadStream:
    """The file after its first line, read block by block (compressed files; any handle).

    ``block()`` gives the bytes not yet consumed plus the next BLOCK_BYTES; ``advance(n)``
    consumes n of them; ``rest()`` is what is left of the current block (for messages)."""

    def __init__(self, handle, unread=b""):
        self.handle, self.data, self.offset = handle, unread, handle.tell() - len(unread)

    def block(self):
        chunk = self.handle.read(BLOCK_BYTES)
        self.data += chunk
        return np.frombuffer(self.data, dtype=np.uint8), not chunk

    def advance(self, consumed):
        self.data, self.offset = self.data[consumed:], self.offset + consumed

    def rest(self):
        return self.data

    def rest_is_blank(self):
        return _rest_is_blank(self.handle, self.data)

    def close(self):
        self.handle.close()  # the prefetching thread (the file itself is the caller's)


class _MappedStream:
    """The same for a plain file, through one read-only memory map: no copy into a buffer,
    and the pages already parsed are handed back (MADV_DONTNEED), so the resident set is
    the matrix plus about one block, not the matrix plus the file."""

    def __init__(self, handle, start):
        self.map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self.map.madvise(mmap.MADV_SEQUENTIAL)
        self.bytes = np.frombuffer(self.map, dtype=np.uint8)
        self.offset, self.released, self.size = start, 0, BLOCK_BYTES

    def block(self):
        end = min(len(self.bytes), self.offset + self.size)
        self.size *= 2  # grows only while a block holds no whole row (advance resets it)
        start = self.offset // mmap.PAGESIZE * mmap.PAGESIZE
        try:  # the block's pages mapped in one call, not a fault per 64 KB as the parser reads
            self.map.madvise(POPULATE_READ, start, end - start)
        except (OSError, ValueError):  # Linux < 5.14: the faults it is
            pass
        return self.bytes[self.offset:end], end == len(self.bytes)

    def advance(self, consumed):
        self.offset += consumed
        if consumed:
            self.size = BLOCK_BYTES
        done = self.offset // mmap.PAGESIZE * mmap.PAGESIZE
        if done - self.released >= BLOCK_BYTES:
            self.map.madvise(mmap.MADV_DONTNEED, self.released, done - self.released)
            self.released = done

    def rest(self):
        return bytes(self.bytes[self.offset:self.offset + BLOCK_BYTES])

    def rest_is_blank(self):
        for start in range(self.offset, len(self.bytes), BLOCK_BYTES):
            if bytes(self.bytes[start:start + BLOCK_BYTES]).strip():
                return False
        return True

    def close(self):
        del self.bytes
        try:
            self.map.close()
        except BufferError:  # a view is still alive (in a traceback): the map goes with it
            pass


def _stream(handle, unread=b""):
    """A mapped stream for a plain file (after ``unread``, bytes already read but not
    consumed); a compressed one is decompressed in a second thread (``background``)."""
    if isinstance(handle, io.BufferedReader) and os.fstat(handle.fileno()).st_size > 0:
        return _MappedStream(handle, handle.tell() - len(unread))
    if isinstance(handle, gzip.GzipFile) and handle.fileobj.seekable():  # zlib itself, from the start
        start = handle.tell()
        handle.fileobj.seek(0)
        handle = background.GzipChunks(handle.fileobj, BLOCK_BYTES, start)
    return _ReadStream(background.PrefetchedReader(handle, BLOCK_BYTES), unread)


def _max_line_bytes(dims):
    return (1 << 20) + 64 * dims  # longer than any honest row: the file is not vector text


def _rest_is_blank(handle, tail):
    """True if ``tail`` and everything left in ``handle`` is whitespace."""
    while True:
        if tail.strip():
            return False
        tail = handle.read(BLOCK_BYTES)
        if not tail:
            return True


def _count_text_rows(path, stop_at):
    """Lines holding data in a headerless file (newlines, plus an unterminated last line)."""
    total, last = 0, b"\n"
    with open_bytes(path) as handle:
        while total < stop_at:
            block = handle.read(BLOCK_BYTES)
            if not block:
                break
            total += block.count(b"\n")
            last = block[-1:]
    return min(stop_at, total + (last != b"\n"))


def read_word2vec_text(path, header=True, limit=None, dtype=None, table=False, unicode_errors="replace"):
    """Read word2vec text (``header=True``), GloVe text (False) or either (None: sniff).

    ``limit=N`` reads only the first N vectors (the rest of the file is not looked at);
    ``dtype="float16"`` stores the matrix at half size (parsed through float32);
    ``table=True`` gives the words as a ``WordTable``, not a list; ``unicode_errors``:
    what becomes of bytes that are not UTF-8 in a word ("replace", "ignore", "strict")."""
    if header is None:
        header = has_word2vec_header(path)
    dtype = target_dtype(path, dtype)
    limit = None if limit is None else max(0, int(limit))
    try:
        with open_bytes(path) as handle:
            return _result(*_read_text(path, handle, header, limit, dtype, unicode_errors), table)
    except TruncatedError:
        raise  # an EOFError of wordvec's own, already one sentence
    except DECOMPRESSION_ERRORS as error:
        if isinstance(error, OSError) and not isinstance(error, (gzip.BadGzipFile,)) and error.errno:
            raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
        raise FormatError(path, None, f"damaged compressed file ({error})") from None


def _read_text(path, handle, header, limit, dtype, unicode_errors="replace"):
    first = handle.readline(_max_line_bytes(1 << 16))
    if header:
        n_words, dims = parse_header(path, first)
        _check_promise(path, _plain_size(path, handle), n_words, dims, 2 * dims + 2)
        unread, first_line = b"", 2
    else:
        dims = len(first.split()) - 1
        if not first.strip():
            raise FormatError(path, None, "no vectors in the file")
        if dims < 1:
            raise FormatError(path, 1, "a word with no numbers after it")
        n_words = _count_text_rows(path, float("inf") if limit is None else limit)
        unread, first_line = first, 1
    wanted = n_words if limit is None else min(limit, n_words)
    parser = text_row_parser()
    compiled = parser.__name__ == "wordvec.kernels.parse"  # Numba loaded: its kernels do the rest too
    sink = _BlockSink(path, _allocate(path, wanted, dims, dtype, compiled), first_line, compiled, unicode_errors)
    stream, pages = _stream(handle, unread), sink.pages_ahead()
    try:
        _parse_text_blocks(path, stream, sink, dims, wanted, parser)
        line_no = first_line + sink.rows
        if header and sink.rows < wanted:  # named by its last line, as the reference reader does
            raise TruncatedError(path, line_no - 1, f"file ends after {sink.rows} of the {n_words} vectors "
                                                 "the header announces")
        if header and limit is None and not stream.rest_is_blank():
            raise FormatError(path, line_no, f"more vectors than the {n_words} the header announces")
    finally:
        pages.close()
        stream.close()
    matrix = sink.matrix[: sink.rows]  # a headerless file's trailing blank lines were counted
    if not header and sink.rows == 0:
        raise FormatError(path, None, "no vectors in the file")
    return _words_and_rows(path, sink, matrix)


def _parse_text_blocks(path, stream, sink, dims, wanted, parse):
    """Parse rows block by block (``parse``: ``text_row_parser()``) until ``wanted`` rows,
    a blank tail or the end of the file."""
    at_eof = False
    with np.errstate(over="ignore"):  # overflow -> inf -> the NaN/inf error
        while sink.rows < wanted and not at_eof:
            buf, at_eof = stream.block()
            dest = sink.destination(len(buf) // (2 * dims) + 2)
            starts, ends = np.empty(len(dest), np.int64), np.empty(len(dest), np.int64)
            rows, consumed, error, _ = parse.parse_text_rows(buf, at_eof, dims, len(dest), dest, starts, ends)
            sink.accept(buf, dest, rows, starts, ends)
            del buf
            stream.advance(consumed)
            if error == parse.BLANK_LINE and stream.rest_is_blank():
                return
            if error:
                line = stream.rest().split(b"\n", 1)[0]
                raise FormatError(path, sink.first_line + sink.rows, _text_row_problem(line, dims))
            if rows == 0 and not at_eof and len(stream.rest()) > _max_line_bytes(dims):
                raise FormatError(path, sink.first_line + sink.rows,
                                  f"line longer than {_max_line_bytes(dims)} bytes: not a vector file")


def read_glove(path, limit=None, dtype=None, table=False):
    """Read headerless GloVe text (one ``word x1 ... xD`` line per word)."""
    return read_word2vec_text(path, header=False, limit=limit, dtype=dtype, table=table)


def read_word2vec_binary(path, limit=None, dtype=None, table=False, compiled=None, unicode_errors="replace"):
    """Read the C tool's binary format (optionally compressed), ``limit``/``dtype``/``table``/
    ``unicode_errors`` as for text; ``compiled``: True/False for the compiled kernels or NumPy alone, None to
    choose by size (see the module doc)."""
    dtype = target_dtype(path, dtype)
    limit = None if limit is None else max(0, int(limit))
    try:
        with open_bytes(path) as handle:
            return _result(*_read_binary(path, handle, limit, dtype, compiled, unicode_errors), table)
    except TruncatedError:
        raise  # an EOFError of wordvec's own, already one sentence
    except DECOMPRESSION_ERRORS as error:
        if isinstance(error, OSError) and not isinstance(error, (gzip.BadGzipFile,)) and error.errno:
            raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
        raise FormatError(path, None, f"damaged compressed file ({error})") from None


def _read_binary(path, handle, limit, dtype, compiled, unicode_errors="replace"):
    header = handle.readline(1 << 16)
    n_words, dims = parse_header(path, header)
    row_bytes = 4 * dims
    _check_promise(path, _plain_size(path, handle), n_words, dims, row_bytes + 2)
    wanted = n_words if limit is None else min(limit, n_words)
    compiled = use_compiled(compiled, wanted * row_bytes)
    sink = _BlockSink(path, _allocate(path, wanted, dims, dtype, compiled), 2, compiled, unicode_errors)
    stream, pages = _stream(handle), sink.pages_ahead()
    try:
        scan = _scan_binary_blocks if compiled else _find_binary_blocks
        scan(path, stream, sink, n_words, row_bytes, wanted)
        if limit is None and not stream.rest_is_blank():
            raise FormatError(path, n_words + 2, f"unexpected data after the {n_words} vectors the header announces")
    finally:
        pages.close()
        stream.close()
    return _words_and_rows(path, sink, sink.matrix)


def _next_block(stream, at_eof):
    """(bytes, at_eof): the stream's next block, or no bytes once it has ended (a short
    file's last records are still scanned, with ``at_eof`` set)."""
    if at_eof:
        return np.zeros(0, dtype=np.uint8), True
    return stream.block()


def _scan_binary_blocks(path, stream, sink, n_words, row_bytes, wanted):
    """Find and copy records block by block until ``wanted`` rows (or an error)."""
    parse = _compiled()
    at_eof = False
    while sink.rows < wanted:
        buf, at_eof = _next_block(stream, at_eof)
        dest = sink.destination(len(buf) // (row_bytes + 2) + 1)
        starts, ends, vector_at = (np.empty(len(dest), np.int64) for _ in range(3))
        rows, consumed, error, _ = parse.scan_binary_records(buf, True if at_eof else False, row_bytes, len(dest),
                                                             starts, ends, vector_at)
        parse.gather_bytes(buf, vector_at, row_bytes, rows, dest.view(np.uint8))
        if sys.byteorder != "little":
            dest[:rows].byteswap(inplace=True)
        sink.accept(buf, dest, rows, starts, ends)
        problem = {parse.EMPTY_WORD: "empty word", parse.WORD_TOO_LONG: "word too long"}.get(error)
        del buf
        _after_binary_block(path, stream, sink, n_words, problem, consumed, at_eof and sink.rows < wanted)


def _find_binary_blocks(path, stream, sink, n_words, row_bytes, wanted):
    """``_scan_binary_blocks`` in NumPy alone (``binary_records``): the same rows, the same errors."""
    at_eof = False
    while sink.rows < wanted:
        buf, at_eof = _next_block(stream, at_eof)
        records = binary_records.find_records(buf, row_bytes, wanted - sink.rows)
        dest = sink.destination(records.rows)
        finite = binary_records.copy_vectors(buf, records, row_bytes, dest)
        if sys.byteorder != "little":  # (the sums were of swapped bytes: check again)
            dest[:records.rows].byteswap(inplace=True)
        sink.accept_records(buf, dest, records, finite and sys.byteorder == "little")
        del buf
        _after_binary_block(path, stream, sink, n_words, records.problem, records.consumed,
                            at_eof and sink.rows < wanted)


def _after_binary_block(path, stream, sink, n_words, problem, consumed, ended_short):
    """Raise the error a block of records ended with (or the file ending before ``wanted``
    rows), else consume the block's records."""
    record = sink.first_line + sink.rows
    if problem == "empty word":
        raise FormatError(path, record, f"vector {sink.rows + 1} of {n_words} has an empty word")
    if problem == "word too long":
        raise FormatError(path, record, f"no space within {binary_records.MAX_WORD_BYTES} bytes after byte "
                                        f"{stream.offset + consumed}: not a word2vec binary file")
    stream.advance(consumed)
    if ended_short:
        rest = stream.rest()
        if not rest.strip():
            raise TruncatedError(path, record - 1, f"file ends after {sink.rows} of the {n_words} vectors "
                                                "the header announces")
        raise FormatError(path, record, f"vector {sink.rows + 1} of {n_words} is truncated "
                                        f"(file ends at byte {stream.offset + len(rest)})")

