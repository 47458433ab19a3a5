"""Streaming corpus: documents from text files, compressed files, directories or iterables.

A *document* is one line of text (or one item of a Python iterable), split on
whitespace into tokens.  Nothing here holds the corpus in memory: files are read in
bounded blocks (``block_size`` bytes), and a block always ends on whitespace, so a
single 100 MB line with no newline (the text8 layout) streams like any other file and
no token is ever cut in two.  Documents longer than ``max_document_length`` tokens are
split into pieces of that length (as gensim's ``LineSentence`` does).

Tokenisation splits on ASCII whitespace (space, tab, newline, \\v, \\f, \\r), exactly as
``bytes.split()`` and the word2vec C tool do; non-ASCII spaces such as U+00A0 stay
inside tokens.  ``WHITESPACE`` / ``split_tokens`` / ``is_token`` are that one definition
for the rest of wordvec (LM and task readers, vector writers).  A token longer than
``MAX_TOKEN_BYTES`` (100) bytes is cut there, at a character boundary, as word2vec.c does.  Bytes that are not valid UTF-8 are replaced by U+FFFD, counted, and
reported once per pass (a warning naming the file), never a crash.

Compressed files are decompressed on a background thread (the decompressors release
the GIL), so reading overlaps with counting or encoding on the other core.
"""

import functools
import io
import logging
import os
import threading
from pathlib import Path

from wordvec.errors import FormatError, WordvecError
# the token definition lives in io.text (the writers below us need it too); re-exported here
from wordvec.io.text import MAX_TOKEN_BYTES, WHITESPACE, WHITESPACE_BYTES, is_token, split_tokens  # noqa: F401

log = logging.getLogger(__name__)

DEFAULT_BLOCK_SIZE = 2 << 20
REPLACEMENT = "\ufffd"
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".lzma")


@functools.cache
def decompression_errors():
    """What a decompressor raises on a damaged, truncated or fake compressed file. The
    decompressors' modules are imported with the first compressed file (or error), not
    with this module: ~1.8 ms of every process that reads only plain text (``predict``)."""
    import lzma
    import zlib
    return (OSError, EOFError, lzma.LZMAError, zlib.error)


def _open_compressed(path, suffix):
    if suffix == ".gz":
        import gzip  # see decompression_errors
        return gzip.open(path, "rb")
    if suffix == ".bz2":
        import bz2
        return bz2.open(path, "rb")
    import lzma
    return lzma.open(path, "rb")


def open_binary(path):
    """Open a plain or compressed (.gz, .bz2, .xz) file for reading bytes.

    A damaged, truncated or fake compressed file raises ``WordvecError`` naming the file
    on the read that finds out, whoever reads (corpus, task data, LM text).
    """
    suffix = Path(path).suffix.lower()
    if suffix not in COMPRESSED_SUFFIXES:
        return open(path, "rb")
    return _CheckedReader(_open_compressed(path, suffix), path)


def open_text(path):
    """Open a plain or compressed file for reading as UTF-8 text; undecodable bytes raise
    ``FormatError`` naming the file (not a bare ``UnicodeDecodeError``)."""
    return _CheckedText(open_binary(path), path)


class DocumentTypeError(WordvecError, TypeError):
    """A corpus iterable's document that is not a list of tokens (a ``TypeError``, as gensim's)."""


class CorpusTypeError(WordvecError, TypeError):
    """A corpus argument of the wrong type, or two corpora at once (a ``TypeError``, as gensim's)."""


class _CheckedReader(io.BufferedIOBase):
    """A decompressing reader whose failures become one-sentence ``WordvecError``s."""

    def __init__(self, raw, path):
        super().__init__()
        self._raw, self._path = raw, path

    def _failed(self, error):
        kind = Path(self._path).suffix.lower()
        if isinstance(error, EOFError):
            return WordvecError(f"cannot read {self._path}: the {kind} file is truncated")
        reason = " ".join(str(error).split()) or type(error).__name__
        return WordvecError(f"cannot read {self._path}: not a valid {kind} file ({reason})")

    def read(self, size=-1):
        try:
            return self._raw.read(size)
        except decompression_errors() as error:
            raise self._failed(error) from None

    def read1(self, size=-1):
        try:
            return self._raw.read1(size)
        except decompression_errors() as error:
            raise self._failed(error) from None

    def readable(self):
        return True

    def close(self):
        self._raw.close()
        super().close()


class _CheckedText(io.TextIOWrapper):
    """UTF-8 text whose undecodable bytes raise ``FormatError`` naming the file."""

    def __init__(self, binary, path):
        super().__init__(binary, encoding="utf-8")
        self._path = path

    def _failed(self, error):
        return FormatError(self._path, None, f"not valid UTF-8 text ({error.reason})")

    def __next__(self):
        try:
            return super().__next__()
        except UnicodeDecodeError as error:
            raise self._failed(error) from None

    def read(self, size=-1):
        try:
            return super().read(size)
        except UnicodeDecodeError as error:
            raise self._failed(error) from None

    def readline(self, size=-1):
        try:
            return super().readline(size)
        except UnicodeDecodeError as error:
            raise self._failed(error) from None


def list_files(path):
    """The files a path stands for: itself, or every non-hidden file below a directory, sorted."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and not any(
            part.startswith(".") for part in p.relative_to(path).parts))
        if not files:
            raise WordvecError(f"corpus directory {path} contains no files")
        return files
    if not path.exists():
        raise WordvecError(f"corpus file {path} does not exist")
    return [path]


def _file_blocks(path, block_size, byte_range=None):
    """Yield byte blocks of one file (or of its bytes ``start <= b < end`` when ``byte_range``
    is given: a piece of a plain file cut at whitespace, see ``wordvec.distributed.pieces``),
    each ending on whitespace; the last ends with a newline.

    A token that does not end within a block (a file with no whitespace at all) is kept
    only as far as the tokenizer reads it (``MAX_TOKEN_BYTES``, plus a few bytes so the
    cut falls on a character boundary); the rest of it is skipped, so memory stays at a
    few blocks whatever the file holds.
    """
    carry = b""
    skipping = False  # inside a token already cut short: drop bytes up to the next whitespace
    with open_binary(path) as handle:
        remaining = None
        if byte_range is not None:
            handle.seek(byte_range[0])
            remaining = byte_range[1] - byte_range[0]
        while True:
            size = block_size if remaining is None else min(block_size, remaining)
            if remaining is not None:
                remaining -= size
            try:
                data = handle.read(size) if size else b""
            except decompression_errors() as error:
                raise WordvecError(f"cannot read {path}: {error}") from None
            if not data:
                break
            if skipping:
                first = min((i for i in map(data.find, WHITESPACE_BYTES) if i >= 0), default=-1)
                if first < 0:
                    continue
                data, skipping = data[first:], False
            data = carry + data
            cut = max(map(data.rfind, WHITESPACE_BYTES))
            if cut < 0:
                if len(data) > MAX_TOKEN_BYTES + 4:
                    carry, skipping = _character_prefix(data, MAX_TOKEN_BYTES + 4), True
                else:
                    carry = data  # the token may still end in the next block
                continue
            carry = data[cut + 1:]
            yield data[:cut + 1]
    yield carry + b"\n"


def _character_prefix(data, size):
    """``data[:size]`` shortened to end on a UTF-8 character boundary."""
    end = min(size, len(data))
    while 0 < end < len(data) and (data[end] & 0xC0) == 0x80:
        end -= 1
    return data[:end]


def truncate_token(token):
    """A token (bytes) as the tokenizer names it: its first MAX_TOKEN_BYTES bytes, cut at a
    character boundary (``kernels.tokens.key_end``)."""
    return token if len(token) <= MAX_TOKEN_BYTES else _character_prefix(token, MAX_TOKEN_BYTES)


def _prefetch(blocks, depth=2):
    """Run the generator ``blocks`` on a background thread, ``depth`` items ahead."""
    import queue  # here: ~0.5 ms of every process that reads a file without prefetching (predict)
    items = queue.Queue(maxsize=depth)
    stop = threading.Event()
    done = object()

    def produce():
        try:
            for item in blocks:
                while not stop.is_set():
                    try:
                        items.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            items.put(done)
        except BaseException as error:  # hand any failure to the consumer
            items.put(error)

    thread = threading.Thread(target=produce, name="wordvec-reader", daemon=True)
    thread.start()
    try:
        while True:
            item = items.get()
            if item is done:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()


class Corpus:
    """A re-iterable stream of documents (lists of tokens).

    ``source`` is a path (plain, .gz, .bz2 or .xz file, or a directory of such files) or
    a re-iterable collection of token lists (a list, or an object whose ``__iter__``
    starts over).  A one-shot iterator such as a generator is refused: training reads
    the corpus several times, and a generator would silently be empty after the first.
    """

    def __init__(self, source, lowercase=False, max_document_length=10_000, block_size=DEFAULT_BLOCK_SIZE,
                 byte_range=None):
        if max_document_length < 1:
            raise WordvecError(f"max_document_length must be at least 1, not {max_document_length}")
        self.lowercase = bool(lowercase)
        self.max_document_length = int(max_document_length)
        self.block_size = int(block_size)
        self.decode_errors = 0
        if isinstance(source, (str, os.PathLike)):
            self.paths = list_files(source)
            self.documents = None
            # (start, end): read only these bytes of a single plain file (a piece of it)
            self.byte_range = None if byte_range is None else (int(byte_range[0]), int(byte_range[1]))
            if self.byte_range is not None and len(self.paths) != 1:
                raise WordvecError("a byte range can only be read from a single file")
        elif isinstance(source, Corpus):
            raise WordvecError("source is already a Corpus; pass it directly instead of wrapping it")
        else:
            try:
                iterator = iter(source)
            except TypeError:
                raise CorpusTypeError(
                    f"a corpus must be a file path, a directory or an iterable of token lists, "
                    f"not {type(source).__name__}") from None
            if iterator is source:
                raise WordvecError(
                    "the corpus is a one-shot iterator (e.g. a generator), but training reads it "
                    "once per epoch; pass a list, a file path, or an object whose __iter__ "
                    "restarts (gensim would silently train on nothing after the first pass)")
            self.paths = []
            self.documents = source
            self.byte_range = None

    @property
    def is_text(self):
        """True when the corpus is read from files (and so can use the byte-level kernels)."""
        return self.documents is None

    def __repr__(self):
        what = ", ".join(map(str, self.paths[:3])) + ("..." if len(self.paths) > 3 else "")
        return f"Corpus({what or 'in-memory documents'}, lowercase={self.lowercase})"

    def __str__(self):
        """The corpus in a sentence's words: its file, or how many files, or "the documents given"."""
        if not self.paths:
            return "the in-memory corpus"
        if len(self.paths) == 1:
            return str(self.paths[0])
        return f"{self.paths[0]} and {len(self.paths) - 1} more file{'s' if len(self.paths) > 2 else ''}"

    # -- byte blocks (fast path for files) ---------------------------------------------

    def blocks(self):
        """Yield clean UTF-8 byte blocks of the text, each ending on whitespace.

        Every file ends with a newline so documents never run across files.  Invalid
        UTF-8 is replaced and counted in ``self.decode_errors``.
        """
        if not self.is_text:
            raise WordvecError("byte blocks exist only for corpora read from files")
        self.decode_errors = 0
        for path in self.paths:
            errors_before = self.decode_errors
            for block in _prefetch(_file_blocks(path, self.block_size, self.byte_range)):
                yield self._clean(block)
            if self.decode_errors > errors_before:
                log.warning("%s: replaced %d byte sequences that are not valid UTF-8 with U+FFFD",
                            path, self.decode_errors - errors_before)

    def _clean(self, block):
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            text = block.decode("utf-8", errors="replace")
            self.decode_errors += text.count(REPLACEMENT) - block.count(REPLACEMENT.encode("utf-8"))
            block = text.encode("utf-8")
        if self.lowercase:
            lowered = text.lower()
            if lowered != text:
                block = lowered.encode("utf-8")
        return block

    # -- documents ---------------------------------------------------------------------

    def __iter__(self):
        if self.is_text:
            yield from self._text_documents()
        else:
            yield from self._iterable_documents()

    def _split(self, tokens):
        limit = self.max_document_length
        for start in range(0, len(tokens), limit):
            yield tokens[start:start + limit]

    def _text_documents(self):
        limit = self.max_document_length
        pending = []  # tokens of a line that continues into the next block
        for block in self.blocks():
            lines = block.split(b"\n")
            for number, line in enumerate(lines):
                tokens = pending + [truncate_token(token).decode("utf-8") for token in line.split()]
                pending = []
                last = number == len(lines) - 1
                while len(tokens) >= limit:
                    yield tokens[:limit]
                    tokens = tokens[limit:]
                if last:
                    pending = tokens  # the line goes on in the next block
                elif tokens:
                    yield tokens
        if pending:
            yield pending

    def _iterable_documents(self):
        for number, document in enumerate(self.documents):
            if isinstance(document, (str, bytes)):
                raise DocumentTypeError(
                    f"document {number} is a string, but a corpus iterable must yield lists of "
                    f"tokens (e.g. text.split()); to read a file, pass its path")
            if iter(document) is document:  # read once per epoch: a generator would be empty after the first
                raise DocumentTypeError(
                    f"document {number} is a one-shot iterator ({type(document).__name__}), but a corpus "
                    f"iterable must yield lists of tokens, which every epoch reads again")
            tokens = [str(token) for token in document]
            if self.lowercase:
                tokens = [token.lower() for token in tokens]
            if tokens:
                yield from self._split(tokens)

    def fingerprint_parts(self):
        """What identifies this corpus's content on disk: paths, sizes, mtimes, options."""
        files = []
        for path in self.paths:
            stat = os.stat(path)
            files.append([str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns])
        parts = {"files": files, "lowercase": self.lowercase,
                 "max_document_length": self.max_document_length}
        if self.byte_range is not None:
            parts["byte_range"] = list(self.byte_range)
        return parts
