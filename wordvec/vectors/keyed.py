"""KeyedVectors: a word -> vector table with cosine queries, analogies and file formats.

Attribute and method names follow gensim 4 (``index_to_key``, ``key_to_index``,
``vectors``, ``most_similar``, ``similarity`` ...) so code can move between the two.

Every query is one matrix product against the cached unit-norm matrix ``U`` (V x D):
for a query direction q, the cosines with all words are ``U @ q``.  Analogies
("a is to b as c is to ?", Levy & Goldberg 2014):

    3CosAdd:  argmax_w  cos(w, b) - cos(w, a) + cos(w, c)
              (computed as gensim does: cosine with unit(u_b + u_c - u_a))
    3CosMul:  argmax_w  s(w, b) * s(w, c) / (s(w, a) + epsilon),  s = (cos + 1) / 2

with the question words themselves excluded from the answers.  ``epsilon`` defaults to
Levy & Goldberg's 1e-3; gensim's ``most_similar_cosmul`` uses 1e-6.
"""

import logging
from numbers import Integral

import numpy as np

from wordvec.io import formats
from wordvec.errors import VocabularyError, WordvecError

logger = logging.getLogger(__name__)

ANALOGY_METHODS = ("3cosadd", "3cosmul")


def unit_rows(matrix):
    """Rows scaled to unit length (zero rows stay zero), float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1).astype(np.float32)


class KeyedVectors:
    """Word vectors: ``vectors[i]`` (float32, V x D) belongs to ``index_to_key[i]``.

    ``counts`` (optional int64[V]) are corpus frequencies; words are usually sorted by
    descending count, which is what ``restrict_vocab`` (the first N words) relies on.
    The unit-norm matrix is computed on the first query and cached; assigning
    ``kv.vectors`` clears the cache, and after changing it in place call ``reset_norms()``.
    """

    def __init__(self, words, vectors, counts=None):
        words = list(words)
        if isinstance(vectors, np.memmap) and vectors.dtype == np.float32:
            matrix = vectors  # keep a memory-mapped array mapped
        else:
            matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2:
            raise WordvecError(f"vectors must be a 2-D array (words x dimensions), got shape {matrix.shape}")
        if matrix.shape[0] != len(words):
            raise WordvecError(f"{len(words)} words but {matrix.shape[0]} vectors")
        self.index_to_key = words
        self.key_to_index = {word: i for i, word in enumerate(words)}
        if len(self.key_to_index) != len(words):
            seen = set()
            repeated = next(w for w in words if w in seen or seen.add(w))
            raise WordvecError(f"the word {repeated!r} appears more than once")
        if counts is not None:
            counts = np.asarray(counts, dtype=np.int64)
            if counts.shape != (len(words),):
                raise WordvecError(f"{len(words)} words but {counts.size} counts")
        self.counts = counts
        self.vectors = matrix

    # -- the table ---------------------------------------------------------------------

    @property
    def vectors(self):
        return self._vectors

    @vectors.setter
    def vectors(self, matrix):
        self._vectors = matrix
        self.reset_norms()

    def reset_norms(self):
        """Forget the cached unit-norm matrix (call after editing ``vectors`` in place)."""
        self._unit = None

    @property
    def vector_size(self):
        return self._vectors.shape[1]

    @property
    def norms(self):
        return np.linalg.norm(self._vectors, axis=1)

    @property
    def unit_vectors(self):
        """V x D float32 matrix of unit-length rows (cached)."""
        if self._unit is None:
            self._unit = unit_rows(self._vectors)
        return self._unit

    def __len__(self):
        return len(self.index_to_key)

    def __contains__(self, word):
        return word in self.key_to_index

    def __iter__(self):
        return iter(self.index_to_key)

    def __repr__(self):
        return f"KeyedVectors({len(self)} words, {self.vector_size} dimensions)"

    def get_index(self, word):
        """Row of ``word``; raises VocabularyError naming the word if it is unknown."""
        try:
            return self.key_to_index[word]
        except (KeyError, TypeError):
            raise VocabularyError(f"word {word!r} is not in the vocabulary") from None

    def get_vector(self, word, norm=False):
        """The vector of ``word`` (unit length if ``norm``)."""
        i = self.get_index(word)
        return self.unit_vectors[i] if norm else self._vectors[i]

    def __getitem__(self, words):
        if isinstance(words, str):
            return self.get_vector(words)
        return np.stack([self.get_vector(w) for w in words])

    # -- queries -----------------------------------------------------------------------

    def _query_terms(self, terms, default_weight):
        """Normalise a gensim-style positive/negative argument to [(word or None, vector, weight)]."""
        if terms is None:
            return []
        if isinstance(terms, (str, np.ndarray)):
            terms = [terms]
        out = []
        for term in terms:
            weight = default_weight
            if isinstance(term, tuple):
                term, weight = term
            if isinstance(term, np.ndarray):
                if term.shape != (self.vector_size,):
                    raise WordvecError(f"a query vector must have {self.vector_size} values, got shape {term.shape}")
                out.append((None, term.astype(np.float32), float(weight)))
            else:
                out.append((term, self.get_vector(term, norm=True), float(weight)))
        return out

    def _top(self, scores, topn, exclude, offset=0):
        """Best ``topn`` (word, score) pairs of a score vector, skipping rows in ``exclude``."""
        if topn is None:
            return scores
        if isinstance(topn, Integral) and topn < 1:
            return []
        k = min(len(scores), topn + len(exclude))
        best = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        best = best[np.argsort(-scores[best], kind="stable")]
        result = [(self.index_to_key[i + offset], float(scores[i])) for i in best if i + offset not in exclude]
        return result[:topn]

    def _restricted_units(self, restrict_vocab):
        if restrict_vocab is None:
            return self.unit_vectors
        return self.unit_vectors[: max(0, int(restrict_vocab))]

    def most_similar(self, positive=None, negative=None, topn=10, restrict_vocab=None):
        """Words closest in cosine to the mean of the unit ``positive`` minus ``negative`` terms.

        Terms are words or vectors (or ``(term, weight)`` pairs), as in gensim; the query
        words themselves are not returned.  ``restrict_vocab=N`` searches only the first N
        words; ``topn=None`` returns the array of all cosines.
        """
        terms = self._query_terms(positive, 1.0) + self._query_terms(negative, -1.0)
        if not terms:
            raise WordvecError("most_similar needs at least one word or vector")
        mean = sum(weight * vector for _, vector, weight in terms) / sum(abs(w) for _, _, w in terms)
        mean = unit_rows(mean)
        scores = self._restricted_units(restrict_vocab) @ mean
        exclude = {self.key_to_index[word] for word, _, _ in terms if word in self.key_to_index}
        return self._top(scores, topn, exclude)

    def most_similar_cosmul(self, positive=None, negative=None, topn=10, restrict_vocab=None, epsilon=1e-3):
        """3CosMul: rank words by prod (1+cos)/2 over ``positive`` / (prod over ``negative`` + epsilon).

        Unlike gensim's method of the same name, ``restrict_vocab`` is honoured.
        """
        pos = self._query_terms(positive, 1.0)
        neg = self._query_terms(negative, -1.0)
        if not pos:
            raise WordvecError("most_similar_cosmul needs at least one positive word or vector")
        units = self._restricted_units(restrict_vocab)
        shifted = (1.0 + units @ np.stack([v for _, v, _ in pos + neg], axis=1)) / 2.0  # V x terms
        scores = shifted[:, : len(pos)].prod(axis=1) / (shifted[:, len(pos):].prod(axis=1) + epsilon)
        exclude = {self.key_to_index[word] for word, _, _ in pos + neg if word in self.key_to_index}
        return self._top(scores, topn, exclude)

    def similar_by_vector(self, vector, topn=10, restrict_vocab=None):
        """Words closest in cosine to ``vector``."""
        return self.most_similar(positive=[np.asarray(vector, dtype=np.float32)], topn=topn,
                                 restrict_vocab=restrict_vocab)

    def similar_by_word(self, word, topn=10, restrict_vocab=None):
        return self.most_similar(positive=[word], topn=topn, restrict_vocab=restrict_vocab)

    def analogy(self, a, b, c, topn=1, method="3cosadd", restrict_vocab=None, epsilon=1e-3):
        """``a`` is to ``b`` as ``c`` is to ?  Returns [(word, score)] best first."""
        method = method.lower()
        if method == "3cosadd":
            return self.most_similar(positive=[b, c], negative=[a], topn=topn, restrict_vocab=restrict_vocab)
        if method == "3cosmul":
            return self.most_similar_cosmul(positive=[b, c], negative=[a], topn=topn,
                                            restrict_vocab=restrict_vocab, epsilon=epsilon)
        raise WordvecError(f"unknown analogy method {method!r}; choose one of {', '.join(ANALOGY_METHODS)}")

    def similarity(self, word1, word2):
        """Cosine similarity of two words."""
        return float(self.get_vector(word1, norm=True) @ self.get_vector(word2, norm=True))

    def n_similarity(self, words1, words2):
        """Cosine between the means of two word lists."""
        if not words1 or not words2:
            raise WordvecError("n_similarity needs two non-empty word lists")
        mean1, mean2 = self[list(words1)].mean(axis=0), self[list(words2)].mean(axis=0)
        return float(unit_rows(mean1) @ unit_rows(mean2))

    def doesnt_match(self, words):
        """The word least similar to the mean of the (unit) vectors of ``words``."""
        words = list(words)
        if not words:
            raise WordvecError("doesnt_match needs at least one word")
        units = np.stack([self.get_vector(w, norm=True) for w in words])
        scores = units @ unit_rows(units.mean(axis=0))
        return words[int(np.argmin(scores))]

    # -- files -------------------------------------------------------------------------

    def save(self, path):
        """Native save: a directory (e.g. ``name.wv``) with vectors.npy + vocab.json, atomically."""
        formats.write_native(path, self.index_to_key, self._vectors, self.counts)

    @classmethod
    def load(cls, path, mmap_mode=None):
        """Load a native save; ``mmap_mode="r"`` maps the vectors instead of reading them."""
        return cls(*formats.read_native(path, mmap_mode=mmap_mode))

    def save_word2vec_format(self, path, binary=False):
        """word2vec C format, text (default) or binary; loads in gensim and the C tools."""
        if binary:
            formats.write_word2vec_binary(path, self.index_to_key, self._vectors)
        else:
            formats.write_word2vec_text(path, self.index_to_key, self._vectors)

    @classmethod
    def load_word2vec_format(cls, path, binary=None):
        """word2vec text or binary; ``binary=None`` decides by extension (.bin) or by content."""
        if binary is None:
            binary = formats.detect_format(path) == "binary"
        reader = formats.read_word2vec_binary if binary else formats.read_word2vec_text
        return cls(*reader(path))
