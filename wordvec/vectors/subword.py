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
from pathlib import Path

import numpy as np

from wordvec.io import formats
from wordvec.errors import FormatError, VocabularyError, WordvecError
from wordvec.io.gensim_pickle import is_pickle
from wordvec.vectors import gensim_keyed
from wordvec.vectors.keyed import KeyedVectors

SUBWORD_META = "subwords.json"
NGRAM_VECTORS = "ngram_vectors.npy"
FORMAT = "wordvec-subwords"


def _subword_kernels():
    """``wordvec.kernels.subword`` (the compiled composition), imported on first use, as :func:`_subword`."""
    from wordvec.kernels import subword

    return subword


def _subword():
    """``wordvec.data.subword`` (compiled n-gram hashing), imported on first use: importing
    this module comes with every ``load_vectors``, which needs no Numba for a small file."""
    from wordvec.data import subword

    return subword


class SubwordKeyedVectors(KeyedVectors):
    """``KeyedVectors`` of composed vocabulary vectors, plus the n-gram rows for unseen words."""

    def __init__(self, words, vectors, vectors_ngrams, min_n, max_n, bucket, counts=None):
        super().__init__(words, vectors, counts=counts)
        _subword().check_ngram_settings(min_n, max_n, bucket)
        ngrams = np.asarray(vectors_ngrams, dtype=np.float32)
        if ngrams.shape != (bucket, self.vector_size):
            raise WordvecError(f"vectors_ngrams must have shape {(bucket, self.vector_size)} "
                               f"(bucket x vector size), not {ngrams.shape}")
        self.vectors_ngrams, self.min_n, self.max_n, self.bucket = ngrams, int(min_n), int(max_n), int(bucket)

    def __repr__(self):
        return (f"SubwordKeyedVectors({len(self)} words, {self.vector_size} dimensions, "
                f"{self.bucket} n-gram buckets, n = {self.min_n}..{self.max_n})")

    def has_vector(self, word):
        if word in self.key_to_index:
            return True
        return isinstance(word, str) and len(_subword().ngram_buckets(word, self.min_n, self.max_n, self.bucket)) > 0

    def __contains__(self, word):
        """True when a vector can be given (gensim's FastText answers True for unseen words too)."""
        return self.has_vector(word)

    def get_sentence_vector(self, sentence):
        """gensim's FastText sentence vector: the mean of the words' unit vectors (``get_mean_vector``)."""
        return self.get_mean_vector(sentence)

    def get_vector(self, word, norm=False):
        """The vector of ``word``: its composed vector if in the vocabulary, else the mean of
        its n-gram rows (fastText's vector for an unseen word)."""
        if word in self.key_to_index:
            return super().get_vector(word, norm=norm)
        if not isinstance(word, str) or not word:
            raise VocabularyError(f"word {word!r} is not in the vocabulary")
        rows = _subword().ngram_buckets(word, self.min_n, self.max_n, self.bucket)
        if rows.size == 0:
            raise VocabularyError(f"word {word!r} is not in the vocabulary and has no character "
                                  f"{self.min_n}..{self.max_n}-grams to build a vector from")
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
        save, plus the n-gram rows and their settings."""
        formats.write_native(path, self.index_to_key, self.vectors, self.counts,
                             extra_arrays={NGRAM_VECTORS: self.vectors_ngrams, **(extra_arrays or {})},
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
        _subword().check_ngram_settings(subword["min_n"], subword["max_n"], subword["bucket"])
        offsets, ids = _subword().ngram_table(words, subword["min_n"], subword["max_n"], subword["bucket"])
        vectors = np.empty_like(word_rows)
        _subword_kernels().compose_vectors(word_rows, subword["ngrams"], offsets, ids, True, vectors)
        keyed = cls(words, vectors, subword["ngrams"], subword["min_n"], subword["max_n"], subword["bucket"],
                    counts=fields["counts"])
        keyed.vectors_vocab = word_rows
        return keyed

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
        _subword().check_ngram_settings(min_n, max_n, bucket)
        ngrams = formats.read_model_array(path, NGRAM_VECTORS, shape=(bucket, vectors.shape[1]))
        return cls(words, vectors, ngrams, min_n, max_n, bucket, counts=counts)
