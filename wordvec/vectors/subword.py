"""SubwordKeyedVectors: word vectors that also answer for words never seen in training.

A subword model (``Word2Vec(..., subwords=True)``, fastText's model) keeps, besides the
vocabulary's vectors, one row per hashed character n-gram (``vectors_ngrams``,
``bucket`` x D).  A vocabulary word's vector is the mean of its own row and its n-gram
rows (``vectors`` holds these composed vectors, as gensim's ``FastTextKeyedVectors``
does); an out-of-vocabulary word's vector is the mean of its n-gram rows alone, as in
fastText (``getWordVector``) and gensim.  So ``kv["unseenword"]``,
``kv.similarity("colour", "colourless")`` and ``kv.most_similar("misspeling")`` work
for any word with at least one n-gram (any word, when ``min_n <= 3``).

``"unseen" in kv`` is True, as in gensim's ``FastTextKeyedVectors``: ``in`` means "a vector
can be given" (``has_vector``: the word is in the vocabulary or has at least one n-gram).
"In the vocabulary" is ``has_index_for(word)`` / ``word in kv.key_to_index``; the
evaluations count coverage by the vocabulary, as gensim's do.

Native save: the vectors directory (``vectors.npy`` + ``vocab.json``, readable as plain
``KeyedVectors``) plus ``ngram_vectors.npy`` and ``subwords.json``.  Text and binary
exports (``.vec``/``.bin``) hold the composed vocabulary vectors.
"""

import json
import logging
from numbers import Integral
from pathlib import Path

import numpy as np

from wordvec.io import formats
from wordvec.errors import FormatError, VocabularyError, WordvecError
from wordvec.io.gensim_pickle import is_pickle
from wordvec.vectors import gensim_keyed
from wordvec.vectors.keyed import KeyedVectors

logger = logging.getLogger(__name__)

SUBWORD_META = "subwords.json"
NGRAM_VECTORS = "ngram_vectors.npy"
WORD_ROWS = "word_vectors.npy"  # vectors_vocab, the words' own rows (a model's save writes the same file)
FORMAT = "wordvec-subwords"


def _subword_kernels():
    """``wordvec.kernels.subword`` (the compiled composition), imported on first use, as :func:`_subword`."""
    from wordvec.kernels import subword

    return subword


def check_settings(min_n, max_n, bucket):
    """Raise WordvecError unless the n-gram settings are usable: fastText's (``1 <= min_n <=
    max_n``, ``bucket >= 1``) or none at all (``bucket`` 0, or ``max_n < min_n``), as gensim takes them."""
    if bucket == 0 or (isinstance(max_n, Integral) and isinstance(min_n, Integral) and 0 <= max_n < min_n):
        for name, value in (("min_n", min_n), ("max_n", max_n), ("bucket", bucket)):
            if not isinstance(value, Integral) or value < 0:
                raise WordvecError(f"{name} must be a whole number, not {value!r}")
        return
    _subword().check_ngram_settings(min_n, max_n, bucket)


def _subword():
    """``wordvec.data.subword`` (compiled n-gram hashing), imported on first use: importing
    this module comes with every ``load_vectors``, which needs no Numba for a small file."""
    from wordvec.data import subword

    return subword


class SubwordKeyedVectors(KeyedVectors):
    """``KeyedVectors`` of composed vocabulary vectors, plus the n-gram rows for unseen words.

    Two constructors, as one class (gensim's name is ``FastTextKeyedVectors``):

        SubwordKeyedVectors(words, vectors, vectors_ngrams, min_n, max_n, bucket, counts=None,
                            vectors_vocab=None)
        SubwordKeyedVectors(vector_size, min_n, max_n, bucket, count=0, dtype=np.float32)   # gensim's

    The first holds trained vectors: ``vectors`` the composed vocabulary vectors,
    ``vectors_vocab`` the words' own trained rows (gensim's name; fastText's word part of
    the input matrix), given or else recovered from the composition.  The second is gensim's
    empty table of ``count`` free slots that ``add_vector(s)`` fills, with zero n-gram rows.

    ``bucket=0`` (or ``max_n < min_n``) means no n-grams, as gensim's FastText with
    ``bucket=0`` or ``max_n=0``: only vocabulary words have vectors, ``in`` means "in the
    vocabulary", an unseen word raises ``KeyError``.
    """

    def __init__(self, *args, **kwargs):
        gensim_style = (args and isinstance(args[0], Integral)) or "vector_size" in kwargs
        (self._init_gensim if gensim_style else self._init_trained)(*args, **kwargs)

    def _init_trained(self, words, vectors, vectors_ngrams, min_n, max_n, bucket, counts=None, vectors_vocab=None):
        super().__init__(words, vectors, counts=counts)
        self._set_ngrams(vectors_ngrams, min_n, max_n, bucket)
        self._vectors_vocab = None
        if vectors_vocab is not None:
            self.vectors_vocab = vectors_vocab

    def _init_gensim(self, vector_size, min_n, max_n, bucket, count=0, dtype=np.float32):
        super().__init__(vector_size=vector_size, count=count, dtype=dtype)
        check_settings(min_n, max_n, bucket)
        self._set_ngrams(np.zeros((bucket, self.vector_size), dtype=np.float32), min_n, max_n, bucket)
        self._vectors_vocab = np.zeros((int(count), self.vector_size), dtype=dtype)

    def _set_ngrams(self, vectors_ngrams, min_n, max_n, bucket):
        check_settings(min_n, max_n, bucket)
        ngrams = np.asarray(vectors_ngrams, dtype=np.float32)
        if ngrams.shape != (bucket, self.vector_size):
            raise WordvecError(f"vectors_ngrams must have shape {(bucket, self.vector_size)} "
                               f"(bucket x vector size), not {ngrams.shape}")
        self.vectors_ngrams, self.min_n, self.max_n, self.bucket = ngrams, int(min_n), int(max_n), int(bucket)

    def __repr__(self):
        return (f"SubwordKeyedVectors({len(self)} words, {self.vector_size} dimensions, "
                f"{self.bucket} n-gram buckets, n = {self.min_n}..{self.max_n})")

    @property
    def uses_ngrams(self):
        """Whether unseen words get vectors from n-grams (``bucket > 0`` and ``min_n <= max_n``)."""
        return self.bucket > 0 and self.min_n <= self.max_n

    @property
    def vectors_vocab(self):
        """The vocabulary words' own trained rows (gensim's ``vectors_vocab``): ``vectors``
        holds each composed with its n-gram rows.  Where they were not given (a save or a
        KeyedVectors built from composed vectors) or no longer match the vocabulary (keys
        added since), they are recovered from the composition: a word's own row is
        (1 + n) x its vector minus the sum of its n n-gram rows."""
        if self._vectors_vocab is None or len(self._vectors_vocab) != len(self):
            return self._own_rows()
        return self._vectors_vocab

    @vectors_vocab.setter
    def vectors_vocab(self, rows):
        rows = np.asarray(rows)
        if rows.shape != (len(self), self.vector_size):
            raise WordvecError(f"vectors_vocab must have shape {(len(self), self.vector_size)} "
                               f"(words x vector size), not {rows.shape}")
        self._vectors_vocab = rows

    def _own_rows(self):
        vectors = np.asarray(self.vectors, dtype=np.float64)
        if not self.uses_ngrams or not len(self):
            return vectors.astype(np.float32)
        offsets, ids = _subword().ngram_table(self.index_to_key, self.min_n, self.max_n, self.bucket)
        sizes = np.diff(offsets)
        sums = np.zeros_like(vectors)
        np.add.at(sums, np.repeat(np.arange(len(self)), sizes), self.vectors_ngrams[ids])
        return ((1 + sizes)[:, None] * vectors - sums).astype(np.float32)

    def adjust_vectors(self):
        """gensim's: compose ``vectors`` again from ``vectors_vocab`` and ``vectors_ngrams``
        (each word's own row and its n-gram rows, averaged), after either was changed."""
        if not self.uses_ngrams or not len(self):
            return
        own = np.ascontiguousarray(self.vectors_vocab, dtype=np.float32)
        offsets, ids = _subword().ngram_table(self.index_to_key, self.min_n, self.max_n, self.bucket)
        composed = np.empty_like(own)
        _subword_kernels().compose_vectors(own, self.vectors_ngrams, offsets, ids, True, composed)
        self._vectors_vocab = own
        self.vectors = composed

    @property
    def compatible_hash(self):
        """gensim's flag for n-grams hashed as fastText hashes them: always so here."""
        return True

    @property
    def vectors_vocab_lockf(self):
        """gensim's experimental per-row learning factors, at their no-op default (one 1.0):
        wordvec trains every row."""
        return np.ones(1, dtype=np.float32)

    @property
    def vectors_ngrams_lockf(self):
        """As :attr:`vectors_vocab_lockf`, for the n-gram rows."""
        return np.ones(1, dtype=np.float32)

    def has_vector(self, word):
        if word in self.key_to_index:
            return True
        return (self.uses_ngrams and isinstance(word, str)
                and len(_subword().ngram_buckets(word, self.min_n, self.max_n, self.bucket)) > 0)

    def __contains__(self, word):
        """True when a vector can be given (gensim's FastText answers True for unseen words too)."""
        return self.has_vector(word)

    def get_sentence_vector(self, sentence):
        """gensim's FastText sentence vector: the mean of the words' unit vectors (``get_mean_vector``)."""
        return self.get_mean_vector(sentence)

    def get_vector(self, word, norm=False):
        """The vector of ``word``: its composed vector if in the vocabulary, else the mean of
        its n-gram rows (fastText's vector for an unseen word), or, for a word without any
        n-gram (``""``, or shorter than ``min_n`` - 2), the zero vector fastText and gensim
        give (with a warning in the log, as gensim's)."""
        if word in self.key_to_index:
            return super().get_vector(word, norm=norm)
        if not isinstance(word, str) or not self.uses_ngrams:
            raise VocabularyError(f"word {word!r} is not in the vocabulary")
        rows = _subword().ngram_buckets(word, self.min_n, self.max_n, self.bucket)
        if rows.size == 0:
            logger.warning("word %r is not in the vocabulary and has no character %d..%d-grams: its vector is "
                           "zero", word, self.min_n, self.max_n)
            return np.zeros(self.vector_size, dtype=np.float32)
        vector = self.vectors_ngrams[rows].mean(axis=0, dtype=np.float64).astype(np.float32)
        if norm:
            length = np.linalg.norm(vector)
            vector = vector / length if length > 0 else vector
        return vector

    # -- files -------------------------------------------------------------------------

    def subword_settings(self):
        return {"format": FORMAT, "version": 1, "min_n": self.min_n, "max_n": self.max_n,
                "bucket": self.bucket}

    def save(self, path, extra_arrays=None, extra_json=None):
        """Native save (a directory), atomically: the composed vectors as a plain vectors
        save, plus the n-gram rows, their settings and, where known, ``vectors_vocab``."""
        own_rows = {WORD_ROWS: self._vectors_vocab} if self._vectors_vocab is not None and len(
            self._vectors_vocab) == len(self) else {}
        formats.write_native(path, self.index_to_key, self.vectors, self.counts,
                             extra_arrays={NGRAM_VECTORS: self.vectors_ngrams, **own_rows, **(extra_arrays or {})},
                             extra_json={SUBWORD_META: self.subword_settings(), **(extra_json or {})})

    @staticmethod
    def is_saved_at(path):
        return (Path(path) / SUBWORD_META).is_file()

    @classmethod
    def from_gensim_fields(cls, fields, path):
        """gensim's FastTextKeyedVectors: the vocabulary vectors composed as gensim composes
        them (the word's row and its n-gram rows, averaged)."""
        subword = fields["subword"]
        if subword is None:
            raise WordvecError(f"{path} holds gensim's plain KeyedVectors (no n-gram rows): load them with "
                               "KeyedVectors.load")
        words, word_rows = fields["words"], subword["word_rows"]
        min_n, max_n, bucket = subword["min_n"], subword["max_n"], subword["bucket"]
        check_settings(min_n, max_n, bucket)
        vectors = word_rows
        if bucket > 0 and min_n <= max_n:
            offsets, ids = _subword().ngram_table(words, min_n, max_n, bucket)
            vectors = np.empty_like(word_rows)
            _subword_kernels().compose_vectors(word_rows, subword["ngrams"], offsets, ids, True, vectors)
        return cls(words, vectors, subword["ngrams"], min_n, max_n, bucket, counts=fields["counts"],
                   vectors_vocab=word_rows)

    @classmethod
    def load(cls, path, mmap_mode=None, mmap=None):
        """A native save, or a gensim pickle read as data (``wordvec.vectors.gensim_keyed``)."""
        mmap_mode = mmap_mode or mmap
        if is_pickle(path):
            return cls.from_gensim_fields(gensim_keyed.read_keyed(path, mmap_mode), path)
        words, vectors, counts = formats.read_native(path, mmap_mode=mmap_mode)
        meta_path = Path(path) / SUBWORD_META
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT:
                raise ValueError
            min_n, max_n, bucket = meta["min_n"], meta["max_n"], meta["bucket"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            raise FormatError(meta_path, None, "not a wordvec subword description") from None
        check_settings(min_n, max_n, bucket)
        ngrams = formats.read_model_array(path, NGRAM_VECTORS, shape=(bucket, vectors.shape[1]))
        own_rows = None
        if (Path(path) / WORD_ROWS).is_file():
            own_rows = formats.read_model_array(path, WORD_ROWS, shape=vectors.shape)
        return cls(words, vectors, ngrams, min_n, max_n, bucket, counts=counts, vectors_vocab=own_rows)
