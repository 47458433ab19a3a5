"""The word2vec C tool's own output files, byte for byte, and its vocabulary file.

word2vec.c writes (``TrainModel``):

    vectors, text    "V D\\n", then per word: "word " + ("%lf " per value) + "\\n"
    vectors, binary  "V D\\n", then per word: "word " + D float32 (machine order) + "\\n"
    classes          per word: "word class\\n" (``-classes K``)
    vocabulary       per word: "word count\\n" (``-save-vocab``; read back by ``-read-vocab``)

``%lf`` prints the float32 value widened to a double with six decimals, which Python's
``format(float(x), "f")`` reproduces exactly.  All writes are atomic.  The vocabulary
reader is strict where the C tool is lax: a line that is not "word count" (a count a
whole number >= 0) is refused naming the file and line.
"""

import numpy as np

from wordvec.errors import DecodingError, FormatError
from wordvec.io.atomic import atomic_write



def _header(words, vectors):
    return f"{len(words)} {vectors.shape[1]}\n".encode("utf-8")


def write_vectors(path, words, vectors, binary=False):
    """``words`` and their ``vectors`` (V x D) as word2vec.c writes them (text or binary)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    with atomic_write(path, "wb") as handle:
        handle.write(_header(words, vectors))
        for word, row in zip(words, vectors):
            handle.write(word.encode("utf-8") + b" ")
            if binary:
                handle.write(row.astype("=f4").tobytes())
            else:
                handle.write("".join(f"{float(value):f} " for value in row).encode("ascii"))
            handle.write(b"\n")


def write_classes(path, words, classes):
    """"word class" lines (word2vec.c's ``-classes`` output)."""
    with atomic_write(path, "w", encoding="utf-8") as handle:
        handle.writelines(f"{word} {int(label)}\n" for word, label in zip(words, classes))


def write_vocab(path, words, counts):
    """"word count" lines (word2vec.c's ``-save-vocab``)."""
    with atomic_write(path, "w", encoding="utf-8") as handle:
        handle.writelines(f"{word} {int(count)}\n" for word, count in zip(words, counts))


def read_vocab(path, unicode_errors="strict"):
    """(words, counts) of a "word count" file, in file order; a repeated word adds up its
    counts (as the C tool's AddWordToVocab does not: it keeps both, which no model can use).
    A word that is not UTF-8 is refused (``DecodingError``), or with gensim's
    ``unicode_errors="replace"`` / ``"ignore"`` decoded so."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise FormatError(path, None, f"cannot read the vocabulary file ({error.strerror or error})") from None
    counts = {}
    for line_no, raw in enumerate(data.split(b"\n"), start=1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise FormatError(path, line_no, f"expected 'word count', found {len(fields)} fields")
        try:
            word = fields[0].decode("utf-8", errors=unicode_errors)
        except UnicodeDecodeError as error:
            raise DecodingError(path, line_no, "the word is not valid UTF-8", error) from None
        if not fields[1].isdigit() or len(fields[1]) > 18:
            raise FormatError(path, line_no, f"the count of {word!r} is not a whole number below 10^18")
        counts[word] = counts.get(word, 0) + int(fields[1])
    if not counts:
        raise FormatError(path, None, "the vocabulary file lists no words")
    return list(counts), np.array(list(counts.values()), dtype=np.int64)
