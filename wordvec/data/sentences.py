"""gensim's streamed corpora: ``LineSentence``, ``PathLineSentences``, ``TaggedDocument`` and
``TaggedLineDocument``, with gensim's names, arguments and behaviour.

Each is restartable (every ``iter()`` reads its source again from the start), splits a line
on whitespace as Python's ``str.split()`` does, and reads plain or compressed files (.gz,
.bz2, .xz) through ``wordvec.data.corpus.open_binary``.  A line that is not UTF-8 raises
``FormatError`` (a ``ValueError``, as gensim's ``UnicodeDecodeError`` is) naming the file
and line; a source that is neither a file name nor a readable file object is refused in
one sentence.
"""

import collections
import itertools
import os

from wordvec.data.corpus import open_binary
from wordvec.errors import FormatError, WordvecError

MAX_WORDS_IN_BATCH = 10_000  # gensim's max_sentence_length default


class SourceError(WordvecError, ValueError):
    """A corpus source that is neither a file, a directory nor a file object."""


def _decoded(line, where, number):
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(where, number, f"bytes that are not UTF-8 ({error.reason})") from None


def _pieces(tokens, length):
    for start in range(0, len(tokens), length):
        yield tokens[start:start + length]


def _lines(source, limit):
    """(where, line number, line) of a file name or of an open file (rewound first)."""
    if hasattr(source, "seek") and hasattr(source, "__iter__"):
        source.seek(0)
        where = getattr(source, "name", "the file object")
        for number, line in enumerate(itertools.islice(source, limit), 1):
            yield where, number, line
        return
    if not isinstance(source, (str, bytes, os.PathLike)):
        raise SourceError(f"a corpus source must be a file name or an open file, not {type(source).__name__}")
    with open_binary(source) as lines:
        for number, line in enumerate(itertools.islice(lines, limit), 1):
            yield source, number, line


class LineSentence:
    """One sentence per line of a file (or open file object), words split on whitespace;
    lines longer than ``max_sentence_length`` words come as several sentences."""

    def __init__(self, source, max_sentence_length=MAX_WORDS_IN_BATCH, limit=None):
        self.source = source
        self.max_sentence_length = max_sentence_length
        self.limit = limit

    def __iter__(self):
        for where, number, line in _lines(self.source, self.limit):
            yield from _pieces(_decoded(line, where, number).split(), self.max_sentence_length)


class PathLineSentences:
    """``LineSentence`` over every file of a directory in file name order (not recursing), or
    over one file; ``limit`` lines of each file."""

    def __init__(self, source, max_sentence_length=MAX_WORDS_IN_BATCH, limit=None):
        self.source = source
        self.max_sentence_length = max_sentence_length
        self.limit = limit
        if os.path.isfile(source):
            self.input_files = [source]
        elif os.path.isdir(source):
            self.source = os.path.join(source, "")
            self.input_files = sorted(self.source + name for name in os.listdir(self.source))
        else:
            raise SourceError(f"{source} is neither a file nor a directory")

    def __iter__(self):
        for path in self.input_files:
            yield from LineSentence(path, self.max_sentence_length, self.limit)


class TaggedDocument(collections.namedtuple("TaggedDocument", "words tags")):
    """A document for ``Doc2Vec``: its ``words`` (a list of str) and its ``tags`` (a list of
    str or int tags; an int tag is the document vector's row)."""

    def __str__(self):
        return f"{type(self).__name__}<{self.words}, {self.tags}>"


class TaggedLineDocument:
    """One ``TaggedDocument`` per line of a file, tagged ``[line number]`` counting from 0."""

    def __init__(self, source):
        self.source = source

    def __iter__(self):
        for where, number, line in _lines(self.source, None):
            yield TaggedDocument(_decoded(line, where, number).split(), [number - 1])
