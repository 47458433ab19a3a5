"""fastText's supervised dictionary as data: words, labels, counts, n-gram settings, and
the encoded documents (:class:`Encoded`). NumPy only, no compiled code, so that reading a
model and predicting with it (``wordvec.models.classifier.predict``) never loads Numba;
``wordvec.data.labels`` builds dictionaries and encodes text with compiled scanners,
``wordvec.data.label_stream`` encodes text for prediction with NumPy.
"""

from dataclasses import dataclass
from functools import cached_property
from itertools import islice

import numpy as np

from wordvec.errors import WordvecError
from wordvec.io.text import joined_lines
from wordvec.memory import check_allocation

EOS = "</s>"


def to_bytes(token):
    return token.encode("utf-8", "surrogateescape")


def encoded_tokens(tokens):
    """The str tokens as bytes (``to_bytes``), encoded in one call: joined by newlines,
    which a dictionary's tokens never hold (one that does is encoded token by token).
    Token by token, 150k words took ~15 ms of every ``predict``."""
    if not tokens:
        return []
    encoded = to_bytes("\n".join(tokens)).split(b"\n")
    return encoded if len(encoded) == len(tokens) else [to_bytes(t) for t in tokens]


def to_text(token):
    return token.decode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class LabelDictionary:
    """fastText's supervised Dictionary: words, labels, counts and the n-gram settings."""
    words: list
    word_counts: np.ndarray
    labels: list
    label_counts: np.ndarray
    ntokens: int
    label_prefix: str = "__label__"
    word_ngrams: int = 1
    bucket: int = 0
    minn: int = 0
    maxn: int = 0
    prune_index: dict = None  # bucket -> kept n-gram row (quantized with a cutoff), or None
    # int32[bucket]: the input row of every bucket when training kept only the rows it used
    # (``compact_buckets``): the unused buckets share one zero row, the last; or None
    row_of_bucket: np.ndarray = None

    @property
    def nwords(self):
        return len(self.words)

    @property
    def n_buckets(self):
        """Input rows after the words: ``bucket``, the kept n-grams when pruned, or the used
        buckets and the zero row when compact."""
        if self.row_of_bucket is not None:
            return int(self.row_of_bucket.max(initial=self.nwords - 1)) + 1 - self.nwords
        return len(self.prune_index) if self.prune_index is not None else self.bucket

    @property
    def n_rows(self):
        return self.nwords + self.n_buckets

    @cached_property
    def token_bytes(self):
        """The words' then the labels' bytes (``to_bytes``), as a list; a model read from a
        fastText file has them from the file."""
        return encoded_tokens(list(self.words) + list(self.labels))

    @cached_property
    def joined_tokens(self):
        """(data, starts, ends): the words' then the labels' bytes joined by newlines, token i
        being ``data[starts[i]:ends[i]]`` (for lookups and hashes over all tokens at once)."""
        return joined_lines(self.token_bytes)

    @cached_property
    def word_index(self):
        return dict(zip(self.token_bytes, range(self.nwords)))

    @cached_property
    def label_index(self):
        return dict(zip(islice(self.token_bytes, self.nwords, None), range(len(self.labels))))

    @cached_property
    def bucket_rows(self):
        """int32[bucket]: the input row of each n-gram bucket (-1: pruned away)."""
        if self.row_of_bucket is not None:
            return self.row_of_bucket
        if self.nwords + self.bucket >= 2 ** 31:  # rows are int32 in the compiled loops
            raise WordvecError(f"--bucket {self.bucket:,} and {self.nwords:,} words make more input rows than "
                               f"{2 ** 31 - 1:,}")
        check_allocation(4 * self.bucket, f"the n-gram bucket table of --bucket {self.bucket:,}")
        if self.prune_index is None:
            return np.arange(self.nwords, self.nwords + self.bucket, dtype=np.int32)
        rows = np.full(self.bucket, -1, dtype=np.int32)
        for b, r in self.prune_index.items():
            rows[b] = self.nwords + r
        return rows

    def forget_lookups(self):
        """Drop the word/label -> id maps (rebuilt when next needed): training holds them
        only while encoding (15 MB for 150k words)."""
        for name in ("word_index", "label_index", "token_bytes", "joined_tokens"):
            self.__dict__.pop(name, None)


@dataclass(frozen=True)
class Encoded:
    rows: np.ndarray            # int32: input rows of all documents
    row_offsets: np.ndarray     # int64[n_docs + 1]
    labels: np.ndarray          # int32: label ids of all documents
    label_offsets: np.ndarray   # int64[n_docs + 1]
    doc_tokens: np.ndarray      # int64[n_docs]: tokens read (words, labels, EOS), as fastText counts

    @property
    def n_docs(self):
        return len(self.doc_tokens)

    def reordered(self, order):
        """These documents in the order ``order`` (a permutation of their numbers)."""
        order = np.asarray(order, dtype=np.int64)
        check_allocation(4 * (len(self.rows) + len(self.labels)) + 24 * len(order), "the documents in a new order")
        rows, row_offsets = _csr_reordered(self.rows, self.row_offsets, order)
        labels, label_offsets = _csr_reordered(self.labels, self.label_offsets, order)
        return Encoded(rows, row_offsets, labels, label_offsets, self.doc_tokens[order])


def _csr_reordered(values, offsets, order, block_values=1 << 22):
    """``values`` split at ``offsets``, the pieces laid out again in the order ``order``:
    gathered a block of documents at a time, so that the index array stays small."""
    lengths = np.diff(offsets)[order]
    new_offsets = np.zeros(len(order) + 1, dtype=np.int64)
    np.cumsum(lengths, out=new_offsets[1:])
    out = np.empty(new_offsets[-1], dtype=values.dtype)
    begin = 0
    while begin < len(order):
        end = max(begin + 1, int(np.searchsorted(new_offsets, new_offsets[begin] + block_values, side="right")) - 1)
        end = min(end, len(order))
        starts = offsets[order[begin:end]] - new_offsets[begin:end]
        index = np.repeat(starts, lengths[begin:end]) + np.arange(new_offsets[begin], new_offsets[end])
        out[new_offsets[begin]:new_offsets[end]] = values[index]
        begin = end
    return out, new_offsets
