"""The one exception family users see.

Every error that comes from bad input (a missing file, a malformed vector file, an
empty corpus, an unknown word, a learning rate that diverges) is a ``WordvecError``
whose message is one readable sentence.  The CLI prints that sentence and exits
non-zero; library users can catch ``WordvecError`` to handle all of them at once.
"""


class WordvecError(Exception):
    """Bad input or an impossible request, explained in one sentence."""


class FormatError(WordvecError, ValueError):
    """A file is not in the format it claims to be; the message names file and line."""

    def __init__(self, path, line, problem):
        self.path, self.line, self.problem = str(path), line, problem
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}")


class VocabularyError(WordvecError, KeyError):
    """A word is not in the vocabulary, or the vocabulary is empty."""

    def __str__(self):  # KeyError would otherwise quote the message
        return str(self.args[0]) if self.args else ""


class TrainingError(WordvecError, RuntimeError):
    """Training cannot go on (NaN loss, an epoch with no words, ...)."""


class TruncatedError(FormatError, EOFError):
    """A file that ends before what its header announces (an ``EOFError`` too, as gensim's)."""


class DecodingError(FormatError, UnicodeDecodeError):
    """Bytes that are not UTF-8 where a word should be, with ``unicode_errors="strict"`` (a
    ``UnicodeDecodeError`` too, as gensim's); ``error`` is the decoder's own."""

    def __init__(self, path, line, problem, error):
        UnicodeDecodeError.__init__(self, error.encoding, error.object, error.start, error.end, error.reason)
        self.path, self.line, self.problem = str(path), line, problem
        where = f"{self.path}, line {line}" if line is not None else self.path
        self.message = f"{where}: {problem}"

    def __str__(self):
        return self.message
