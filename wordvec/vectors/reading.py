"""Fast readers of word2vec binary, word2vec/fastText text and GloVe files (optionally compressed).

The readers stream the file in BLOCK_BYTES blocks through the compiled kernels of
``wordvec.kernels.parse`` straight into the one final matrix (allocated once, from the
header), so peak memory is the matrix plus a few blocks whatever the file's size, and
no Python code runs per word or per number.  Words are collected per block as bytes and
decoded in one call at the end (``_decode_words``).

They follow the rules of the simple pure-Python readers in ``wordvec.io.formats`` (the
reference: a word is everything before the first space, duplicate words keep the first
vector, NaN/inf rows, ragged rows, short or long files are errors naming the line), and
tests/test_loading.py holds them to those readers on random and damaged files.  On top:
``limit=N`` (the first N vectors, like gensim), ``dtype=float16``, and .gz/.bz2/.xz files.
"""

import gzip
import io
import logging
import mmap
import os
import sys

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io.formats import DECOMPRESSION_ERRORS, has_word2vec_header, is_number, open_bytes, parse_header
from wordvec.kernels import parse

logger = logging.getLogger(__name__)

BLOCK_BYTES = 1 << 24
DTYPES = {None: np.float32, "float32": np.float32, "float16": np.float16}


def _plain_size(path, handle):
    """Size in bytes of an uncompressed file, or None for a compressed one."""
    return os.fstat(handle.fileno()).st_size if isinstance(handle, io.BufferedReader) else None


def target_dtype(path, dtype):
    key = None if dtype is None else np.dtype(dtype).name
    if key not in DTYPES:
        raise WordvecError(f"cannot load {path} as {dtype}: choose float32 or float16")
    return DTYPES[key]


def _allocate(path, rows, dims, dtype):
    """The one allocation of the final matrix (a header asking for too much is the file's fault)."""
    try:
        return np.empty((rows, dims), dtype=dtype)
    except (MemoryError, ValueError):
        gigabytes = rows * dims * np.dtype(dtype).itemsize / 1e9
        raise FormatError(path, 1, f"the header asks for {rows} vectors of size {dims} ({gigabytes:.1f} GB), "
                                   "more memory than this machine can give; load fewer with limit=N") from None


def _decode_words(path, parts, expected):
    """Words from blocks of ``b"w1 w2 ... wn "`` (no word contains a space): one decode, one
    split; each copy is dropped as soon as the next exists (3M words: ~40 MB a copy)."""
    arena = b"".join(parts)
    parts.clear()
    try:
        text = arena.decode("utf-8")
        del arena
        words = text.split(" ")
    except UnicodeDecodeError:
        words = arena.decode("utf-8", errors="replace").split(" ")
        bad = sum(1 for word in words if "\ufffd" in word)
        logger.warning("%s: %d words were not valid UTF-8; bad bytes were replaced by U+FFFD", path, bad)
    words.pop()  # after the last word's space
    assert len(words) == expected
    return words


def _check_promise(path, size, n_words, dims, min_row_bytes):
    """Refuse at once a header promising more rows than a plain file of ``size`` bytes holds."""
    if size is not None and n_words * min_row_bytes > size:
        raise FormatError(path, 1, f"header promises {n_words} vectors of size {dims} "
                                   f"({n_words * min_row_bytes}+ bytes), more than a {size}-byte file can hold")


def _keep_first(path, words, vectors):
    """Drop repeated words after the first, as gensim does; returns (words, vectors).

    Rows are moved up in place (the kept rows only ever move towards the start), so a
    file with duplicates costs no second matrix."""
    hashes = np.fromiter(map(hash, words), dtype=np.int64, count=len(words))  # 8 bytes a word, not a set
    hashes.sort()
    if not (hashes[1:] == hashes[:-1]).any():
        return words, vectors
    seen, keep = set(), []
    for i, word in enumerate(words):
        if word not in seen:
            seen.add(word)
            keep.append(i)
    logger.warning("%s: %d duplicate words; kept the first vector of each", path, len(words) - len(keep))
    for new, old in enumerate(keep):
        if new != old:
            vectors[new] = vectors[old]
    return [words[i] for i in keep], vectors[: len(keep)]


def _check_block_finite(path, block, line_of_first_row, word_of, problem="contains NaN or infinity"):
    """NaN/inf check of one parsed block (float64 row sums: cheap, and they cannot overflow)."""
    if np.isfinite(block.sum(axis=1, dtype=np.float64)).all():
        return
    i = int(np.flatnonzero(~np.isfinite(block).all(axis=1))[0])
    raise FormatError(path, line_of_first_row + i, f"the vector of {word_of(i)!r} {problem}")


class _BlockSink:
    """Where parsed rows go: straight into the final matrix (float32), or through a float32
    staging block into a float16 one; also keeps each block's words as bytes."""

    def __init__(self, path, matrix, first_line):
        self.path, self.matrix, self.first_line = path, matrix, first_line
        self.rows, self.word_parts = 0, []

    def destination(self, capacity):
        capacity = min(capacity, len(self.matrix) - self.rows)
        if self.matrix.dtype == np.float32:
            return self.matrix[self.rows:self.rows + capacity]
        return np.empty((capacity, self.matrix.shape[1]), dtype=np.float32)

    def accept(self, buf, dest, rows, word_start, word_end):
        """Check and keep ``rows`` parsed rows whose words are ``buf[word_start:word_end]``."""
        def word_of(i):
            return bytes(buf[word_start[i]:word_end[i]]).decode("utf-8", "replace")

        line = self.first_line + self.rows
        _check_block_finite(self.path, dest[:rows], line, word_of)
        if self.matrix.dtype != np.float32:
            with np.errstate(over="ignore"):
                self.matrix[self.rows:self.rows + rows] = dest[:rows]
            _check_block_finite(self.path, self.matrix[self.rows:self.rows + rows], line, word_of,
                                "has a value beyond float16's range (+-65504); load it as float32")
        arena = np.empty(int((word_end[:rows] - word_start[:rows]).sum()) + rows, dtype=np.uint8)
        used = parse.gather_words(buf, word_start, word_end, rows, arena)
        self.word_parts.append(arena[:used].tobytes())
        self.rows += rows

    def words(self):
        return _decode_words(self.path, self.word_parts, self.rows)


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
        pass


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
    """A mapped stream for a plain file (after ``unread``, bytes already read but not consumed)."""
    if isinstance(handle, io.BufferedReader) and os.fstat(handle.fileno()).st_size > 0:
        return _MappedStream(handle, handle.tell() - len(unread))
    return _ReadStream(handle, unread)


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
            total += parse.count_lines(np.frombuffer(block, dtype=np.uint8))
            last = block[-1:]
    return min(stop_at, total + (last != b"\n"))


def read_word2vec_text(path, header=True, limit=None, dtype=None):
    """Read word2vec text (``header=True``), GloVe text (False) or either (None: sniff).

    ``limit=N`` reads only the first N vectors (the rest of the file is not looked at);
    ``dtype="float16"`` stores the matrix at half size (parsed through float32)."""
    if header is None:
        header = has_word2vec_header(path)
    dtype = target_dtype(path, dtype)
    limit = None if limit is None else max(0, int(limit))
    try:
        with open_bytes(path) as handle:
            return _read_text(path, handle, header, limit, dtype)
    except DECOMPRESSION_ERRORS as error:
        if isinstance(error, OSError) and not isinstance(error, (gzip.BadGzipFile,)) and error.errno:
            raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
        raise FormatError(path, None, f"damaged compressed file ({error})") from None


def _read_text(path, handle, header, limit, dtype):
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
    sink = _BlockSink(path, _allocate(path, wanted, dims, dtype), first_line)
    stream = _stream(handle, unread)
    try:
        _parse_text_blocks(path, stream, sink, dims, wanted)
        line_no = first_line + sink.rows
        if header and sink.rows < wanted:  # named by its last line, as the reference reader does
            raise FormatError(path, line_no - 1, f"file ends after {sink.rows} of the {n_words} vectors "
                                                 "the header announces")
        if header and limit is None and not stream.rest_is_blank():
            raise FormatError(path, line_no, f"more vectors than the {n_words} the header announces")
    finally:
        stream.close()
    matrix = sink.matrix[: sink.rows]  # a headerless file's trailing blank lines were counted
    if not header and sink.rows == 0:
        raise FormatError(path, None, "no vectors in the file")
    words, vectors = _keep_first(path, sink.words(), matrix)
    return words, vectors, None


def _parse_text_blocks(path, stream, sink, dims, wanted):
    """Parse rows block by block until ``wanted`` rows, a blank tail or the end of the file."""
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


def read_glove(path, limit=None, dtype=None):
    """Read headerless GloVe text (one ``word x1 ... xD`` line per word)."""
    return read_word2vec_text(path, header=False, limit=limit, dtype=dtype)


def read_word2vec_binary(path, limit=None, dtype=None):
    """Read the C tool's binary format (optionally compressed), ``limit``/``dtype`` as for text."""
    dtype = target_dtype(path, dtype)
    limit = None if limit is None else max(0, int(limit))
    try:
        with open_bytes(path) as handle:
            return _read_binary(path, handle, limit, dtype)
    except DECOMPRESSION_ERRORS as error:
        if isinstance(error, OSError) and not isinstance(error, (gzip.BadGzipFile,)) and error.errno:
            raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
        raise FormatError(path, None, f"damaged compressed file ({error})") from None


def _read_binary(path, handle, limit, dtype):
    header = handle.readline(1 << 16)
    n_words, dims = parse_header(path, header)
    row_bytes = 4 * dims
    _check_promise(path, _plain_size(path, handle), n_words, dims, row_bytes + 2)
    wanted = n_words if limit is None else min(limit, n_words)
    sink = _BlockSink(path, _allocate(path, wanted, dims, dtype), 2)
    stream = _stream(handle)
    try:
        _scan_binary_blocks(path, stream, sink, n_words, row_bytes, wanted)
        if limit is None and not stream.rest_is_blank():
            raise FormatError(path, n_words + 2, f"unexpected data after the {n_words} vectors the header announces")
    finally:
        stream.close()
    words, vectors = _keep_first(path, sink.words(), sink.matrix)
    return words, vectors, None


def _scan_binary_blocks(path, stream, sink, n_words, row_bytes, wanted):
    """Find and copy records block by block until ``wanted`` rows (or an error)."""
    at_eof = False
    while sink.rows < wanted:
        if at_eof:
            buf = np.zeros(0, dtype=np.uint8)
        else:
            buf, at_eof = stream.block()
        dest = sink.destination(len(buf) // (row_bytes + 2) + 1)
        starts, ends, vector_at = (np.empty(len(dest), np.int64) for _ in range(3))
        rows, consumed, error, _ = parse.scan_binary_records(buf, True if at_eof else False, row_bytes, len(dest),
                                                             starts, ends, vector_at)
        parse.gather_bytes(buf, vector_at, row_bytes, rows, dest.view(np.uint8))
        if sys.byteorder != "little":
            dest[:rows].byteswap(inplace=True)
        sink.accept(buf, dest, rows, starts, ends)
        record = sink.first_line + sink.rows
        if error == parse.EMPTY_WORD:
            raise FormatError(path, record, f"vector {sink.rows + 1} of {n_words} has an empty word")
        if error == parse.WORD_TOO_LONG:
            raise FormatError(path, record, f"no space within {parse.MAX_WORD_BYTES} bytes after byte "
                                            f"{stream.offset + consumed}: not a word2vec binary file")
        del buf
        stream.advance(consumed)
        if at_eof and sink.rows < wanted:
            rest = stream.rest()
            if not rest.strip():
                raise FormatError(path, record - 1, f"file ends after {sink.rows} of the {n_words} vectors "
                                                    "the header announces")
            raise FormatError(path, record, f"vector {sink.rows + 1} of {n_words} is truncated "
                                            f"(file ends at byte {stream.offset + len(rest)})")

