"""Tagged documents for paragraph vectors: one document per line, row i for line i.

Unlike ``wordvec.data.corpus.Corpus`` (which skips empty lines and splits long ones, as
a word corpus should), a document file keeps every line as one document, so the
document vectors line up with the lines: ``model.dv.vectors[i]`` is line i, an empty
line included (its vector is trained on nothing and stays at its random start).

Tags: ``"line"`` (the default): document i is tagged by its line number; ``"first-token"``:
each line's first token is its tag and the rest its words (several lines may share a
tag, as in gensim, and then train one row).

Tokens follow wordvec's one definition (``wordvec.io.text``): ASCII whitespace splits,
tokens longer than 100 bytes are cut at a character boundary, bytes that are not UTF-8
become U+FFFD.  Files are read twice (count, then encode), never held whole in memory;
plain, .gz, .bz2 and .xz files alike (``wordvec.data.corpus.open_binary``).
"""

import collections
from dataclasses import dataclass

import numpy as np

from wordvec.data.corpus import MAX_TOKEN_BYTES, open_binary, truncate_token
from wordvec.data.vocab import Vocabulary
from wordvec.errors import TrainingError, WordvecError

TAG_MODES = ("line", "first-token")


@dataclass
class EncodedDocuments:
    """Documents as vocabulary ids: document d is ``ids[offsets[d]:offsets[d+1]]``,
    trained into row ``rows[d]`` of the document matrix, whose keys are ``tags``."""
    ids: np.ndarray      # int32[N tokens], words outside the vocabulary dropped
    offsets: np.ndarray  # int64[n_docs + 1]
    rows: np.ndarray     # int64[n_docs]
    tags: list           # the tag of each row: int (line numbers, gensim's int tags) or str

    @property
    def num_tokens(self):
        return int(self.ids.shape[0])


def check_tag_mode(tags):
    if tags not in TAG_MODES:
        raise WordvecError(f"tags must be one of {', '.join(TAG_MODES)}, not {tags!r}")


def _lines_of(source):
    """Each document as a list of bytes tokens: a file's lines, or an iterable of token lists."""
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        with open_binary(source) as handle:
            for line in handle:
                yield line.split()
        return
    for number, document in enumerate(source):
        if isinstance(document, (str, bytes)):
            raise WordvecError(f"document {number} is a string, but documents must be lists of "
                               "tokens (e.g. text.split()); to read a file, pass its path")
        yield [str(token).encode("utf-8") for token in document]


def _split_tag(tokens, tags, number, source):
    if tags == "line":
        return None, tokens
    if not tokens:
        raise WordvecError(f"{source}, line {number + 1}: empty, but --tags first-token needs a tag first")
    return tokens[0].decode("utf-8", errors="replace"), tokens[1:]


def count_words(source, tags="line"):
    """{word (str): count} over all documents, tags excluded, and the number of documents."""
    check_tag_mode(tags)
    counts = collections.Counter()
    documents = 0
    for number, tokens in enumerate(_lines_of(source)):
        counts.update(_split_tag(tokens, tags, number, source)[1])
        documents += 1
    words = collections.Counter()
    for token, count in counts.items():  # merge what names the same word after cutting/decoding
        words[truncate_token(token).decode("utf-8", errors="replace")] += count
    return words, documents


def build_vocabulary(source, tags="line", min_count=5):
    """The vocabulary of the words seen ``min_count`` times (descending count)."""
    counts, documents = count_words(source, tags)
    return _vocabulary(source, counts, documents, min_count)


def _vocabulary(source, counts, documents, min_count):
    """The vocabulary of ``counts``; empty when no word occurs ``min_count`` times: the
    documents still have their rows, and training refuses it (as gensim, a RuntimeError)."""
    if documents == 0:
        raise TrainingError(f"{_name(source)} has no documents: nothing to train document vectors on")
    return Vocabulary.from_counts(counts, min_count=min_count, corpus_tokens=sum(counts.values()))


def read_documents(source, tags="line", min_count=5):
    """(vocabulary, :class:`EncodedDocuments`) of ``source``, reading it once: the same as
    :func:`build_vocabulary` then :func:`encode_documents`, which read it twice.

    The one pass numbers each distinct token in first-seen order and keeps the documents
    as those numbers; the counts are then a ``bincount``, and the vocabulary ids a lookup
    table over the distinct tokens.  Holds the documents' token numbers (4 bytes a
    token), which encoding makes anyway.
    """
    check_tag_mode(tags)
    first_seen = _FirstSeenIds()
    numbers, lengths, rows, tag_rows = [], [], [], {}
    for number, tokens in enumerate(_lines_of(source)):
        tag, words = _split_tag(tokens, tags, number, source)
        numbers.extend(map(first_seen.__getitem__, words))
        lengths.append(len(words))
        rows.append(number if tag is None else tag_rows.setdefault(tag, len(tag_rows)))
    numbers = np.array(numbers, dtype=np.int32)
    names = [truncate_token(token).decode("utf-8", errors="replace") for token in first_seen]
    counts = collections.Counter()
    for name, count in zip(names, np.bincount(numbers, minlength=len(names)).tolist()):
        counts[name] += count  # in first-seen order, as count_words: the same ties
    vocab = _vocabulary(source, counts, len(lengths), min_count)
    to_vocab = np.array([vocab.index.get(name, -1) for name in names] or [-1], dtype=np.int32)[numbers]
    kept = to_vocab >= 0
    ends = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=ends[1:])
    offsets = np.concatenate(([0], np.cumsum(kept, dtype=np.int64)))[ends]
    keys = list(range(len(rows))) if tags == "line" else list(tag_rows)
    return vocab, EncodedDocuments(to_vocab[kept], offsets, np.array(rows, dtype=np.int64), keys)


def encode_documents(source, vocab, tags="line", byte_ids=None):
    """:class:`EncodedDocuments` of ``source``: every line a document, unknown words dropped.
    ``byte_ids``: :func:`vocabulary_byte_ids` of ``vocab``, made once by a caller that encodes
    many small sources against one vocabulary (building it costs a pass over the vocabulary)."""
    check_tag_mode(tags)
    byte_ids = vocabulary_byte_ids(vocab) if byte_ids is None else byte_ids
    ids, lengths, rows, tag_rows = [], [], [], {}
    for number, tokens in enumerate(_lines_of(source)):
        tag, words = _split_tag(tokens, tags, number, source)
        before = len(ids)
        ids.extend([i for i in map(byte_ids.__getitem__, words) if i >= 0])
        lengths.append(len(ids) - before)
        rows.append(number if tag is None else tag_rows.setdefault(tag, len(tag_rows)))
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    keys = list(range(len(rows))) if tags == "line" else list(tag_rows)
    return EncodedDocuments(np.array(ids, dtype=np.int32), offsets, np.array(rows, dtype=np.int64), keys)


def vocabulary_byte_ids(vocab):
    """The table :func:`encode_documents` looks tokens up in: UTF-8 bytes -> vocabulary id."""
    byte_ids = _ByteIds((word.encode("utf-8"), i) for i, word in enumerate(vocab.words))
    byte_ids.vocab = vocab
    return byte_ids


class _FirstSeenIds(dict):
    """bytes token -> its number in first-seen order (a new token gets the next one)."""

    def __missing__(self, token):
        self[token] = number = len(self)
        return number


class _ByteIds(dict):
    """bytes token -> vocabulary id, -1 for an unknown word.  A miss may still be a long
    or undecodable token of a known word (the vocabulary holds cut, decoded words)."""

    def __missing__(self, token):
        if len(token) > MAX_TOKEN_BYTES or not token.isascii():
            return self.vocab.index.get(truncate_token(token).decode("utf-8", errors="replace"), -1)
        return -1


def _name(source):
    return str(source) if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__") else "the documents"
