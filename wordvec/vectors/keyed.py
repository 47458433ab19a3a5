"""KeyedVectors: a word -> vector table with cosine queries, analogies and file formats.

Attribute and method names follow gensim 4 (``index_to_key``, ``key_to_index``,
``vectors``, ``most_similar``, ``similarity`` ...) so code can move between the two.

Every query is one matrix product against the cached unit-norm matrix ``U`` (V x D):
for a query direction q, the cosines with all words are ``U @ q``.  Analogies
("a is to b as c is to ?", Levy & Goldberg 2014):

    3CosAdd:  argmax_w  cos(w, b) - cos(w, a) + cos(w, c)
              (computed as gensim does: cosine with unit(u_b + u_c - u_a))
    3CosMul:  argmax_w  s(w, b) * s(w, c) / (s(w, a) + epsilon),  s = (cos + 1) / 2

with the question words themselves excluded from the answers.  ``most_similar_cosmul``'s
``epsilon`` defaults to gensim's 1e-6; ``analogy`` and the evaluations keep Levy &
Goldberg's 1e-3.

Beyond queries, the rest of gensim 4.4's KeyedVectors API for static vectors is here with
gensim's signatures and defaults (``KeyedVectors(vector_size)``, ``add_vectors``,
``get_mean_vector``, ``distances``, ``rank``, ``evaluate_word_analogies`` ...; see
docs/migrating.md for what differs and why).
"""

import logging
import warnings
from numbers import Integral

import numpy as np

from wordvec.io import formats, word2vec_c
from wordvec.io.arrays import read_array
from wordvec.errors import VocabularyError, WordvecError
from wordvec.io.gensim_pickle import is_pickle
from wordvec.vectors import gensim_keyed
from wordvec.vectors import embed as pooling_module
from wordvec.vectors import gensim_eval, reading, search, wmd
from wordvec.vectors.unit import ANALOGY_METHODS, unit_rows
from wordvec.vectors.vecattrs import COUNT, VecAttrs
from wordvec.vectors.wordtable import WORD_SLOTS, WordTable, read_word_table

logger = logging.getLogger(__name__)

_KEY_TYPES = (str, Integral)  # a single key (gensim: a word or a row number), not a list of them


class LockFactors:
    """gensim's ``vectors_lockf`` held in one place: a model and every ``wv`` it hands out (it
    makes a new one after training) share one holder, so an array assigned to ``wv`` is the
    one the model trains with."""

    def __init__(self, factors=None):
        self.array = np.ones(1, dtype=np.float32) if factors is None else checked_lock_factors(factors)


def checked_lock_factors(factors):
    """``factors`` as a 1-D float32 array of finite values (the same array when it is one)."""
    try:
        array = np.asarray(factors, dtype=np.float32)
    except (TypeError, ValueError):
        raise WordvecError(f"vectors_lockf must be a 1-D array of numbers, not {type(factors).__name__}") from None
    if array.ndim != 1 or array.size == 0:
        raise WordvecError(f"vectors_lockf must be a 1-D array of at least one factor, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise WordvecError("vectors_lockf must hold finite factors (0.0 locks a row, 1.0 trains it)")
    return array


class EmptyWordListError(WordvecError, ZeroDivisionError):
    """``n_similarity`` of an empty word list: gensim's ZeroDivisionError, one sentence."""


class KeyedVectors:
    """Word vectors: ``vectors[i]`` (float32, V x D) belongs to ``index_to_key[i]``.

    ``counts`` (optional int64[V]) are corpus frequencies; words are usually sorted by
    descending count, which is what ``restrict_vocab`` (the first N words) relies on.
    The unit-norm matrix is computed on the first query and cached; assigning
    ``kv.vectors`` clears the cache, and after changing it in place call ``reset_norms()``.

    ``words`` may also be a ``WordTable`` (the file readers and the native format give
    one): the words then stay three flat arrays, looked up by a compiled hash, and the
    list ``index_to_key`` and dict ``key_to_index`` are built the first time code touches
    either (from then on the table is dropped and they are the vocabulary, as usual).
    """

    STORED_DTYPES = (np.float32, np.float16)  # kept as given (float16: half-size storage)

    def __init__(self, words=None, vectors=None, counts=None, *, count=0, dtype=np.float32, vector_size=None):
        self.counts = None
        self._expandos = VecAttrs(self)  # gensim's per-key attributes (get_vecattr / set_vecattr)
        if words is None and vector_size is not None:  # gensim's KeyedVectors(vector_size=N, count=0)
            words = vector_size
        if isinstance(words, Integral):  # gensim's KeyedVectors(vector_size, count=0): an empty table
            self._init_empty(int(words), int(vectors or count), dtype)
            return
        if vectors is None:
            raise WordvecError("KeyedVectors needs words and their vectors, or gensim's KeyedVectors(vector_size)")
        self._table = words if isinstance(words, WordTable) else None
        if self._table is None:
            words = list(words)
        if isinstance(vectors, np.ndarray) and vectors.dtype in self.STORED_DTYPES:
            matrix = vectors  # keep a memory-mapped array mapped, a float16 one half-size
        else:
            matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2:
            raise WordvecError(f"vectors must be a 2-D array (words x dimensions), got shape {matrix.shape}")
        if matrix.shape[0] != len(words):
            raise WordvecError(f"{len(words)} words but {matrix.shape[0]} vectors")
        if self._table is None:
            self._set_words(words)
        if counts is not None:
            counts = np.asarray(counts, dtype=np.int64)
            if counts.shape != (len(words),):
                raise WordvecError(f"{len(words)} words but {counts.size} counts")
        self.counts = counts
        self.vectors = matrix
        self.next_index = len(words)

    def _init_empty(self, vector_size, count, dtype):
        """``count`` free slots (key None) that ``add_vector`` fills in order, as gensim preallocates."""
        if vector_size < 1 or count < 0:
            raise WordvecError(f"KeyedVectors(vector_size={vector_size}, count={count}): "
                               "the size must be positive and the count not negative")
        self._table, self._index_to_key, self._key_to_index, self.counts = None, [None] * count, {}, None
        self.vectors = np.zeros((count, vector_size), dtype=dtype)
        self.next_index = 0

    # -- the words ---------------------------------------------------------------------

    def _set_words(self, words):
        self._index_to_key = words
        self._key_to_index = dict(zip(words, range(len(words))))  # (C speed for 3M words)
        if len(self._key_to_index) != len(words):
            seen = set()
            repeated = next(w for w in words if w in seen or seen.add(w))
            raise WordvecError(f"the word {repeated!r} appears more than once")

    def _lists(self):
        """From a word table to the list and dict (once; the table goes).  The list is in
        place before the table goes, and readers take the table into a local first, so a
        query in another thread (``wordvec serve``) sees one or the other, never neither."""
        table = self._table
        if table is not None:
            self._index_to_key, self._key_to_index, self._table = table.words(), None, None

    @property
    def index_to_key(self):
        self._lists()
        return self._index_to_key

    @index_to_key.setter
    def index_to_key(self, words):
        self._table, self._index_to_key, self._key_to_index = None, words, None

    @property
    def key_to_index(self):
        self._lists()
        if self._key_to_index is None:
            self._key_to_index = dict(zip(self._index_to_key, range(len(self._index_to_key))))
        return self._key_to_index

    @key_to_index.setter
    def key_to_index(self, mapping):
        self._lists()
        self._key_to_index = mapping

    @property
    def word_table(self):
        """The vocabulary's ``WordTable`` while it is one (not yet a list and dict), else None."""
        return self._table

    def _row_of(self, word):
        """Row of ``word`` or None (the table's hash, or the dict), without building either."""
        table = self._table
        if table is not None:
            if not isinstance(word, str):
                hash(word)  # an unhashable key is a TypeError, as with the dict
                return None
            row = table.find(word)
            return None if row < 0 else row
        return self.key_to_index.get(word)

    def _key_at(self, row):
        table = self._table
        return table.word(row) if table is not None else self._index_to_key[row]

    # -- the table ---------------------------------------------------------------------

    @property
    def vectors(self):
        return self._vectors

    @vectors.setter
    def vectors(self, matrix):
        self._vectors = matrix
        self.reset_norms()

    @property
    def vectors_lockf(self):
        """gensim's per-row learning-rate factors in training (float32): row i of ``vectors``
        trains at ``alpha * vectors_lockf[i % len(vectors_lockf)]``, so 0.0 locks a row; the
        default, one 1.0, trains every row as usual.  A model's ``wv`` shares its model's
        (:class:`LockFactors`); edit it in place or assign a new array before ``train``."""
        return self.lock_factors.array

    @vectors_lockf.setter
    def vectors_lockf(self, factors):
        self.lock_factors.array = checked_lock_factors(factors)

    @property
    def lock_factors(self):
        """The :class:`LockFactors` holding :attr:`vectors_lockf` (its own until a model shares one)."""
        holder = self.__dict__.get("_lock_factors")
        if holder is None:
            holder = self._lock_factors = LockFactors()
        return holder

    @lock_factors.setter
    def lock_factors(self, holder):
        self._lock_factors = holder

    def reset_norms(self):
        """Forget the cached unit-norm matrix (call after editing ``vectors`` in place)."""
        self._unit = None
        self._inverse_norms = None  # of the blocked search (wordvec.vectors.search)

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
        table = self._table
        return len(table) if table is not None else len(self._index_to_key)

    def __contains__(self, word):
        return self._row_of(word) is not None

    def __iter__(self):
        return iter(self.index_to_key)

    def __repr__(self):
        return f"KeyedVectors({len(self)} words, {self.vector_size} dimensions)"

    def get_index(self, word, default=None):
        """Row of ``word`` (a row number is taken as itself, as gensim does); ``default`` if
        unknown and given, else VocabularyError (a KeyError) naming the word."""
        try:
            row = self._row_of(word)
        except TypeError:
            row = None
        if row is not None:
            return row
        if isinstance(word, Integral) and 0 <= word < len(self):
            return int(word)
        if default is not None:
            return default
        raise VocabularyError(f"word {word!r} is not in the vocabulary")

    def get_vector(self, word, norm=False):
        """The vector of ``word`` (unit length if ``norm``), read-only as gensim's: writing
        into it would change the table behind the cached norms."""
        i = self.get_index(word)
        if norm and self._uses_blocks():  # one row, not the whole unit matrix
            row = unit_rows(self._rows(i, i + 1)[0])
        else:
            row = (self.unit_vectors[i] if norm else self._vectors[i]).view()
        row.flags.writeable = False
        return row

    def __getitem__(self, words):
        if isinstance(words, _KEY_TYPES):
            return self.get_vector(words)
        return np.stack([self.get_vector(w) for w in words])

    # -- queries -----------------------------------------------------------------------

    def _query_terms(self, terms, default_weight):
        """Normalise a gensim-style positive/negative argument to [(word or None, vector, weight)]."""
        if terms is None:
            return []
        if isinstance(terms, np.ndarray) and terms.ndim == 2:  # gensim: a matrix is one term per row
            terms = list(terms)
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
        result = [(self._key_at(i + offset), float(scores[i])) for i in best if i + offset not in exclude]
        return result[:topn]

    def _restricted_units(self, restrict_vocab):
        if restrict_vocab is None:
            return self.unit_vectors
        return self.unit_vectors[: max(0, int(restrict_vocab))]

    def most_similar(self, positive=None, negative=None, topn=10, restrict_vocab=None, approximate=False,
                     clip_start=0, clip_end=None):
        """Words closest in cosine to the mean of the unit ``positive`` minus ``negative`` terms.

        Terms are words or vectors (or ``(term, weight)`` pairs), as in gensim; the query
        words themselves are not returned.  ``restrict_vocab=N`` searches only the first N
        words; ``topn=None`` returns the array of all cosines.  ``approximate=True`` asks
        the attached approximate index (``wordvec.vectors.ann``) instead of every row.
        ``clip_start``/``clip_end`` (gensim's): only rows clip_start..clip_end-1 are answers.
        """
        if clip_start or clip_end is not None:
            return self._most_similar_clipped(positive, negative, topn, restrict_vocab, approximate,
                                              int(clip_start), clip_end)
        terms = self._query_terms(positive, 1.0) + self._query_terms(negative, -1.0)
        if not terms:
            raise WordvecError("most_similar needs at least one word or vector")
        mean = sum(weight * vector for _, vector, weight in terms) / sum(abs(w) for _, _, w in terms)
        mean = unit_rows(mean)
        exclude = {self._row_of(word) for word, _, _ in terms if word is not None} - {None}
        if topn is not None and (approximate or self._uses_blocks()):
            return self._search(mean[None, :], [sorted(exclude)], topn, restrict_vocab, approximate)[0]
        if topn is None and self._uses_blocks():
            n_rows = self._n_searched(restrict_vocab)
            return search.all_cosines(self._rows, n_rows, mean, self._norms_for(n_rows))
        scores = self._restricted_units(restrict_vocab) @ mean
        return self._top(scores, topn, exclude)

    def _most_similar_clipped(self, positive, negative, topn, restrict_vocab, approximate, clip_start, clip_end):
        """``most_similar`` over rows clip_start..clip_end-1: the search up to clip_end, the
        rows before clip_start dropped (asking for clip_start more, so topn remain)."""
        end = len(self) if clip_end is None else min(int(clip_end), len(self))
        if restrict_vocab is not None:
            end = min(end, int(restrict_vocab))
        found = self.most_similar(positive, negative, None if topn is None else topn + clip_start, end, approximate)
        if topn is None:
            return found[clip_start:]
        return [(key, score) for key, score in found if self.get_index(key) >= clip_start][:topn]

    # -- many queries at once, in blocks (wordvec.vectors.search) ------------------------

    def most_similar_batch(self, words, topn=10, restrict_vocab=None, approximate=False):
        """``[kv.most_similar(w, topn=topn) for w in words]`` as one blocked product (or one
        call of the approximate index): a list of [(word, cosine)] lists, one per word."""
        rows = [self.get_index(word) for word in words]
        queries = unit_rows(np.concatenate([self._rows(i, i + 1) for i in rows])) if rows else \
            np.zeros((0, self.vector_size), dtype=np.float32)
        return self._search(queries, [[i] for i in rows], topn, restrict_vocab, approximate)

    def _rows(self, start, stop):
        """float32 rows ``start:stop`` of the stored matrix (a compact subclass decodes its own)."""
        return np.asarray(self._vectors[start:stop], dtype=np.float32)

    def _uses_blocks(self):
        """Search block by block instead of through the cached unit matrix when that copy
        would cost a float32 matrix as big as (or bigger than) the stored one."""
        matrix = self._vectors
        return self._unit is None and (matrix.dtype != np.float32 or matrix.size > search.BIG_MATRIX)

    def _n_searched(self, restrict_vocab):
        return len(self) if restrict_vocab is None else min(len(self), max(0, int(restrict_vocab)))

    def _norms_for(self, n_rows):
        if self._inverse_norms is None:
            self._inverse_norms = search.norms_of(self._rows, len(self), self.vector_size)
        return self._inverse_norms[:n_rows]

    def _search(self, queries, excluded, topn, restrict_vocab, approximate):
        """Top ``topn`` per unit query row, skipping each query's ``excluded`` rows."""
        if isinstance(topn, Integral) and topn < 1:
            return [[] for _ in excluded]
        n_rows = self._n_searched(restrict_vocab)
        extra = max((len(e) for e in excluded), default=0)
        if approximate:
            index, scores = self._approximate_index().query(queries, topn + extra, n_rows)
        else:
            pairs = search.exclusion_pairs(excluded)
            cached = None if self._inverse_norms is None else self._inverse_norms[:n_rows]
            index, scores, norms = search.top_k(self._rows, n_rows, queries, topn + extra, cached, pairs)
            if cached is None and n_rows == len(self):
                self._inverse_norms = norms
        return [[(self._key_at(i), float(c)) for i, c in zip(row, cos) if i >= 0 and i not in skip][:topn]
                for row, cos, skip in zip(index.tolist(), scores.tolist(), map(set, excluded))]

    def _approximate_index(self):
        ann = getattr(self, "ann_index", None)
        if ann is None:
            raise WordvecError("approximate=True needs an approximate index: wordvec.vectors.ann.attach_index(kv, path) "
                               "(build one with `wordvec index VECTORS`)")
        return ann

    def most_similar_cosmul(self, positive=None, negative=None, topn=10, restrict_vocab=None, epsilon=1e-6):
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
        exclude = {self._row_of(word) for word, _, _ in pos + neg if word is not None} - {None}
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
        """Cosine between the means of two word lists (an empty list: gensim's ZeroDivisionError)."""
        if not len(words1) or not len(words2):
            raise EmptyWordListError("n_similarity needs two non-empty word lists (at least one of them is empty)")
        mean1, mean2 = self[list(words1)].mean(axis=0), self[list(words2)].mean(axis=0)
        return float(unit_rows(mean1) @ unit_rows(mean2))

    def embed(self, sentences, pooling="mean", counts=None, remove_pc=None, sif_a=1e-3):
        """Sentence vectors (n x D float32) of token lists: ``pooling`` "mean", "sif" (Arora
        et al. 2017, first component removed) or "zipf" (Model2Vec's PCA + log-rank weights);
        see ``wordvec.vectors.embed``.  ``counts``: {word: count} (default: the vectors' own)."""
        return pooling_module.embed(self, sentences, pooling=pooling, counts=counts, remove_pc=remove_pc,
                                    sif_a=sif_a)

    # -- gensim 4.4's remaining KeyedVectors API (names, signatures, defaults, return types) --

    def has_index_for(self, key):
        """True if ``key`` has its own row (for subword vectors ``in`` is wider: any word with n-grams)."""
        return self.get_index(key, -1) >= 0

    def similar_by_key(self, key, topn=10, restrict_vocab=None):
        return self.most_similar(positive=[key], topn=topn, restrict_vocab=restrict_vocab)

    def fill_norms(self, force=False):
        """Compute (and cache) the unit-norm matrix; ``force`` recomputes it."""
        if force:
            self.reset_norms()
        self.unit_vectors  # noqa: B018  (fills the cache)

    def get_normed_vectors(self):
        """A copy of all vectors scaled to unit length (V x D); zero rows stay zero."""
        return self.unit_vectors.copy()

    def unit_normalize_all(self):
        """Scale every vector to unit length in place (as gensim; training cannot sensibly go on)."""
        self._vectors[...] = unit_rows(self._vectors)
        self.reset_norms()

    def init_sims(self, replace=False):
        """gensim's deprecated spelling of ``fill_norms`` (``replace=True``: ``unit_normalize_all``)."""
        warnings.warn("Call to deprecated `init_sims` (Use fill_norms() instead.)", DeprecationWarning, stacklevel=2)
        self.fill_norms()
        if replace:
            logger.warning("destructive init_sims(replace=True) deprecated & no longer required for space-efficiency")
            self.unit_normalize_all()

    def word_vec(self, *args, **kwargs):
        """gensim's deprecated spelling of ``get_vector``."""
        warnings.warn("Call to deprecated `word_vec` (Use get_vector instead)", DeprecationWarning, stacklevel=2)
        return self.get_vector(*args, **kwargs)

    def get_mean_vector(self, keys, weights=None, pre_normalize=True, post_normalize=False, ignore_missing=True):
        """Weighted mean of the (unit, if ``pre_normalize``) vectors of ``keys`` (words, rows or
        vectors), divided by the sum of |weights| of the keys used; missing keys are skipped
        unless ``ignore_missing=False`` (then KeyError).  As gensim's, term by term."""
        if len(keys) == 0:
            raise ValueError("cannot compute mean with no input")
        dtype = self._vectors.dtype
        weights = np.ones(len(keys), dtype=dtype) if weights is None else np.asarray(weights, dtype=dtype)
        if len(keys) != weights.shape[0]:
            raise ValueError("keys and weights array must have same number of elements")
        mean = np.zeros(self.vector_size, dtype)
        total_weight = 0
        for key, weight in zip(keys, weights):
            if isinstance(key, np.ndarray):
                mean += weight * key
            elif key in self:
                mean += weight * self.get_vector(key, norm=pre_normalize)
            elif not ignore_missing:
                raise VocabularyError(f"Key '{key}' not present in vocabulary")
            else:
                continue
            total_weight += abs(weight)
        if total_weight > 0:
            mean = mean / total_weight
        return unit_rows(mean) if post_normalize else mean

    @staticmethod
    def cosine_similarities(vector_1, vectors_all):
        """Cosines between ``vector_1`` (D,) and each row of ``vectors_all`` (N x D)."""
        norm = np.linalg.norm(vector_1)
        all_norms = np.linalg.norm(vectors_all, axis=1)
        return np.dot(vectors_all, vector_1) / (norm * all_norms)

    def distances(self, word_or_vector, other_words=()):
        """Cosine distances (1 - cosine) from a word or vector to ``other_words`` (default: every word)."""
        vector = self.get_vector(word_or_vector) if isinstance(word_or_vector, _KEY_TYPES) else word_or_vector
        others = self._vectors if not other_words else self._vectors[[self.get_index(w) for w in other_words]]
        return 1 - self.cosine_similarities(vector, others)

    def distance(self, w1, w2):
        """Cosine distance, 1 - ``similarity(w1, w2)``; exactly 0 from a key to itself."""
        if isinstance(w1, _KEY_TYPES) and isinstance(w2, _KEY_TYPES) and self.get_index(w1) == self.get_index(w2):
            return 0.0
        return 1 - self.similarity(w1, w2)

    def closer_than(self, key1, key2):
        """All keys closer to ``key1`` than ``key2`` is (``key1`` itself excluded)."""
        all_distances = self.distances(key1)
        e1_index, e2_index = self.get_index(key1), self.get_index(key2)
        closer = np.where(all_distances < all_distances[e2_index])[0]
        return [self.index_to_key[i] for i in closer if i != e1_index]

    def words_closer_than(self, word1, word2):
        warnings.warn("Call to deprecated `words_closer_than` (Use closer_than instead)", DeprecationWarning,
                      stacklevel=2)
        return self.closer_than(word1, word2)

    def rank(self, key1, key2):
        """Rank of ``key2`` among all keys by distance from ``key1`` (1 = nearest)."""
        return len(self.closer_than(key1, key2)) + 1

    def most_similar_to_given(self, key1, keys_list):
        """The key of ``keys_list`` most similar to ``key1``."""
        return keys_list[int(np.argmax([self.similarity(key1, key) for key in keys_list]))]

    def relative_cosine_similarity(self, wa, wb, topn=10):
        """cos(wa, wb) / sum of the cosines of wa's ``topn`` neighbours (Leeuwenberg et al. 2016)."""
        sims = self.similar_by_word(wa, topn)
        if not sims:
            raise ValueError("Cannot calculate relative cosine similarity without any similar words.")
        return float(self.similarity(wa, wb)) / sum(sim for _, sim in sims)

    def rank_by_centrality(self, words, use_norm=True):
        """[(cosine with the centroid, word)], most central first; unknown words are logged and skipped."""
        used_words = [word for word in words if word in self]
        if len(used_words) != len(words):
            logger.warning("vectors for words %s are not present in the model, ignoring these words",
                           set(words) - set(used_words))
        if not used_words:
            raise ValueError("cannot select a word from an empty list")
        vectors = np.vstack([self.get_vector(word, norm=use_norm) for word in used_words]).astype(np.float32)
        mean = self.get_mean_vector(vectors, post_normalize=True)
        return sorted(zip(vectors @ mean, used_words), reverse=True)

    def doesnt_match(self, words):
        """The word farthest from the centroid of the unit vectors of ``words`` (gensim: unknown
        words are logged and skipped; ValueError if none is known)."""
        return self.rank_by_centrality(list(words))[-1][1]

    def wmdistance(self, document1, document2, norm=True):
        """Word Mover's Distance between two lists of words (gensim's; ``wordvec.vectors.wmd``)."""
        return wmd.wmdistance(self, document1, document2, norm=norm)

    def similarity_unseen_docs(self, *args, **kwargs):
        raise NotImplementedError("Call similarity_unseen_docs on a Doc2Vec model instead.")

    @staticmethod
    def log_accuracy(section):
        correct, incorrect = len(section["correct"]), len(section["incorrect"])
        if correct + incorrect > 0:
            logger.info("%s: %.1f%% (%i/%i)", section["section"], 100.0 * correct / (correct + incorrect),
                        correct, correct + incorrect)

    @staticmethod
    def log_evaluate_word_pairs(pearson, spearman, oov, pairs):
        logger.info("Pearson correlation coefficient against %s: %.4f", pairs, pearson[0])
        logger.info("Spearman rank-order correlation coefficient against %s: %.4f", pairs, spearman[0])
        logger.info("Pairs with unknown words ratio: %.1f%%", oov)

    # gensim 3's names, removed in gensim 4: the same AttributeError and pointer as gensim 4
    @property
    def vectors_norm(self):
        raise AttributeError("The `.vectors_norm` attribute is computed dynamically since Gensim 4.0.0. "
                             "Use `.get_normed_vectors()` instead.")

    @property
    def index2word(self):
        raise AttributeError("The index2word attribute has been replaced by index_to_key since Gensim 4.0.0.")

    @property
    def index2entity(self):
        raise AttributeError("The index2entity attribute has been replaced by index_to_key since Gensim 4.0.0.")

    @property
    def vocab(self):
        raise AttributeError("The vocab attribute was removed from KeyedVector in Gensim 4.0.0.\n"
                             "Use KeyedVector's .key_to_index dict, .index_to_key list, and methods "
                             ".get_vecattr(key, attr) and .set_vecattr(key, attr, new_val) instead.")

    # per-key extra attributes (gensim's "expandos"); "count" is the corpus frequency, ``counts``

    @property
    def expandos(self):
        """gensim's {attribute: array of one value per key}; ``"count"`` is ``counts``
        (``wordvec.vectors.vecattrs``)."""
        return self._expandos

    @expandos.setter
    def expandos(self, values):
        if values is self._expandos:
            return
        self._expandos = VecAttrs(self)
        if COUNT not in values:
            self.counts = None
        self._expandos.update(values)

    def add_lifecycle_event(self, event_name, log_level=logging.INFO, **event):
        """gensim's event log: ``event`` (with its name) is appended to ``lifecycle_events``
        and logged at ``log_level`` (False: not logged).  Kept in memory only: a save
        does not write it."""
        event = {"event": event_name, **event}
        if getattr(self, "lifecycle_events", None) is None:
            self.lifecycle_events = []
        self.lifecycle_events.append(event)
        if log_level:
            logger.log(log_level, "%s lifecycle event %s", type(self).__name__, event)

    def allocate_vecattrs(self, attrs=None, types=None):
        """Arrays for the extra attributes ``attrs`` (of ``types``), one value per key."""
        for attr, kind in zip(attrs or (), types or ()):
            if attr == COUNT:
                if self.counts is None:
                    self.counts = np.zeros(len(self), dtype=np.int64)
            elif attr not in self.expandos:
                self.expandos[attr] = np.zeros(len(self), dtype=kind)
        self._grow_attributes(len(self))

    def set_vecattr(self, key, attr, val):
        index = self.get_index(key)
        if attr == "count":
            if self.counts is None:
                self.counts = np.zeros(len(self), dtype=np.int64)
            self.counts[index] = val
            return
        if attr not in self.expandos:
            self.expandos[attr] = np.zeros(len(self), dtype=type(val))
        self.expandos[attr][index] = val

    def get_vecattr(self, key, attr):
        index = self.get_index(key)
        if attr == COUNT and self.counts is None:  # gensim's made-up counts of a vectors file
            return len(self) - index
        if attr not in self.expandos:
            raise KeyError(attr)
        return self.expandos[attr][index]

    def add_vector(self, key, vector):
        """Add one key: into the next preallocated slot (``KeyedVectors(size, count)``) if free,
        else appended (with gensim's warning).  Returns its row."""
        target = self.next_index
        if target >= len(self) or self.index_to_key[target] is not None:
            target = len(self)
            warnings.warn("Adding single vectors to a KeyedVectors which grows by one each time can be costly. "
                          "Consider adding in batches or preallocating to the required size.", UserWarning)
            self.add_vectors([key], [vector])
        else:
            self.index_to_key[target] = key
            self.key_to_index[key] = target
            self._vectors[target] = vector
            self.reset_norms()
        self.next_index = target + 1
        return target

    def add_vectors(self, keys, weights, extras=None, replace=False):
        """Append keys and their vectors; a key already present keeps its vector unless ``replace``."""
        if isinstance(keys, _KEY_TYPES):
            keys, weights = [keys], np.asarray(weights).reshape(1, -1)
        weights = np.asarray(weights)
        known = np.array([key in self.key_to_index for key in keys], dtype=bool)
        new_keys = [key for key, seen in zip(keys, known) if not seen]
        if len(set(new_keys)) != len(new_keys):
            raise WordvecError("add_vectors was given the same new key more than once")
        for key in new_keys:
            self.key_to_index[key] = len(self.index_to_key)
            self.index_to_key.append(key)
        grown = np.vstack((self._vectors, weights[~known].astype(self._vectors.dtype)))
        for attr, extra in (extras or {}).items():
            if attr not in self.expandos:
                self.expandos[attr] = np.zeros(len(grown) - len(new_keys), dtype=np.asarray(extra).dtype)
            self.expandos[attr] = np.concatenate((self.expandos[attr], np.asarray(extra)[~known]))
        self._grow_attributes(len(grown))
        if replace and known.any():
            grown[[self.key_to_index[key] for key, seen in zip(keys, known) if seen]] = weights[known]
        self.vectors = grown

    def _grow_attributes(self, size):
        """Counts and extra attributes padded with zeros to ``size`` rows."""
        if self.counts is not None and len(self.counts) < size:
            self.counts = np.concatenate((self.counts, np.zeros(size - len(self.counts), dtype=np.int64)))
        for attr, values in self.expandos.extra().items():
            if len(values) < size:
                self.expandos[attr] = np.concatenate((values, np.zeros(size - len(values), dtype=values.dtype)))

    def __setitem__(self, keys, weights):
        """``kv[key] = vector`` (or lists): add, replacing existing vectors (gensim's alias)."""
        if not isinstance(keys, list):
            keys, weights = [keys], np.asarray(weights).reshape(1, -1)
        self.add_vectors(keys, weights, replace=True)

    def vectors_for_all(self, keys, allow_inference=True, copy_vecattrs=False):
        """A new KeyedVectors with the vectors of ``keys`` (deduplicated, in order); keys without
        a vector are left out (subword vectors infer unseen words unless ``allow_inference=False``)."""
        keys = list(dict.fromkeys(keys))
        keep = [k for k in keys if (k in self if allow_inference else self.has_index_for(k))]
        vectors = np.stack([self.get_vector(k) for k in keep]) if keep else np.zeros((0, self.vector_size))
        result = KeyedVectors(keep, vectors)
        if copy_vecattrs:  # gensim's: every attribute, a key without a row of its own gets 0
            rows = np.array([self.get_index(k, -1) for k in keep], dtype=np.int64)
            own = rows >= 0
            attributes = {COUNT: self.counts} if self.counts is not None else {}
            attributes.update(self.expandos.extra())
            for attr, values in attributes.items():
                copied = np.zeros(len(keep), dtype=np.asarray(values).dtype)
                copied[own] = np.asarray(values)[rows[own]]
                result.expandos[attr] = copied
        return result

    def sort_by_descending_frequency(self):
        """Reorder rows by descending ``counts`` (ties: gensim's order, later rows first)."""
        if not len(self):
            return
        if self.counts is None:
            raise WordvecError("these vectors carry no word counts to sort by")
        order = np.lexsort((-np.arange(len(self)), -self.counts))
        self.index_to_key = [self.index_to_key[i] for i in order]
        self.key_to_index = {word: i for i, word in enumerate(self.index_to_key)}
        self.expandos = {attr: np.asarray(values)[order] for attr, values in self.expandos.items()}
        self.vectors = np.asarray(self._vectors)[order]

    def evaluate_word_analogies(self, analogies, restrict_vocab=300000, case_insensitive=True,
                                dummy4unknown=False, similarity_function="most_similar"):
        """gensim's analogy evaluation: (accuracy, sections); see ``wordvec.vectors.gensim_eval``."""
        return gensim_eval.evaluate_word_analogies(self, analogies, restrict_vocab, case_insensitive,
                                                   dummy4unknown, similarity_function)

    def evaluate_word_pairs(self, pairs, delimiter="\t", encoding="utf8", restrict_vocab=300000,
                            case_insensitive=True, dummy4unknown=False):
        """gensim's similarity evaluation: (pearson, spearman, oov_ratio); see ``wordvec.vectors.gensim_eval``."""
        return gensim_eval.evaluate_word_pairs(self, pairs, delimiter, encoding, restrict_vocab,
                                               case_insensitive, dummy4unknown)

    # -- files -------------------------------------------------------------------------

    def save(self, path, separately=None, sep_limit=None, ignore=frozenset(), pickle_protocol=None):
        """Native save: a directory (e.g. ``name.wv``) with vectors.npy + vocab.json, atomically
        (vectors whose words are still a ``WordTable`` keep them as arrays: version 2).
        gensim's pickling options (``separately``, ``sep_limit``, ``ignore``,
        ``pickle_protocol``) are taken and have no effect: the vectors are always their own
        ``.npy`` file, which ``load(path, mmap="r")`` maps."""
        if self._table is None:
            formats.write_native(path, self.index_to_key, self._vectors, self.counts)
        else:
            table = self._table
            formats.write_native(path, None, self._vectors, self.counts, word_arrays=(table.blob, table.offsets),
                                 extra_arrays={WORD_SLOTS: table.slots})

    @classmethod
    def load(cls, path, mmap_mode=None, mmap=None):
        """Load a native save; ``mmap_mode="r"`` (gensim's ``mmap="r"``) maps the vectors
        instead of reading them.  A gensim pickle is read as data (``wordvec.vectors.gensim_keyed``)."""
        mmap_mode = mmap_mode or mmap
        if is_pickle(path):
            return cls.from_gensim_fields(gensim_keyed.read_keyed(path, mmap_mode), path)
        arrays = read_word_table(path, mmap_mode)
        if arrays is None:
            return cls(*formats.read_native(path, mmap_mode=mmap_mode))
        table, counts, dims, directory = arrays
        vectors = read_array(directory / formats.NATIVE_VECTORS, (len(table), dims), finite=mmap_mode is None,
                             mmap_mode=mmap_mode)
        if vectors.dtype not in cls.STORED_DTYPES:
            vectors = vectors.astype(np.float32)
        return cls(table, vectors, counts)

    @classmethod
    def from_gensim_fields(cls, fields, path):
        """Vectors from a gensim save's fields (``wordvec.vectors.gensim_keyed.keyed_fields``)."""
        if fields["subword"] is not None:
            raise WordvecError(f"{path} holds gensim's FastTextKeyedVectors (subword vectors): load them with "
                               "SubwordKeyedVectors.load (gensim's FastTextKeyedVectors.load) or wordvec.load_gensim")
        keyed = cls(fields["words"], fields["vectors"], counts=fields["counts"])
        keyed.expandos.update(fields["expandos"])
        return keyed

    def save_word2vec_format(self, path, fvocab=None, binary=False, total_vec=None, write_header=True,
                             prefix="", append=False, sort_attr="count"):
        """word2vec C format, text (default) or binary; loads in gensim and the C tools.

        gensim's arguments: ``fvocab`` also writes "word count" lines; rows go in descending
        ``sort_attr`` order when the vectors carry it ("count": ``counts``), else in index
        order; ``write_header=False`` leaves out the "V D" line (text only); ``prefix`` goes
        before every word.  Appending to a file is refused: files are written whole, atomically."""
        if append or (total_vec is not None and total_vec != len(self)):
            raise WordvecError("save_word2vec_format writes one whole file: append=True and a total_vec "
                               "other than the number of vectors are not supported")
        if None in self.index_to_key:  # KeyedVectors(vector_size, count)'s slots not filled yet
            raise WordvecError(f"cannot save: {self.index_to_key.count(None)} of the {len(self)} rows have no key "
                               "(fill the slots of KeyedVectors(vector_size, count) with add_vector first)")
        order = self._save_order(sort_attr)
        words = [prefix + self.index_to_key[i] for i in (range(len(self)) if order is None else order)]
        vectors = self._vectors if order is None else np.asarray(self._vectors)[order]
        if binary and not write_header:
            raise WordvecError("write_header=False is for text files; the binary layout always has its header")
        if binary:
            formats.write_word2vec_binary(path, words, vectors)
        else:
            formats.write_word2vec_text(path, words, vectors, header=write_header)
        if fvocab is not None:
            counts = self.counts if self.counts is not None else np.zeros(len(self), dtype=np.int64)
            word2vec_c.write_vocab(fvocab, words, counts if order is None else counts[order])

    def _save_order(self, sort_attr):
        """Row order for saving: by descending attribute (stable), or None for index order."""
        values = self.counts if sort_attr == "count" else self.expandos.get(sort_attr)
        if values is None:
            return None
        return np.argsort(-np.asarray(values), kind="stable")

    @classmethod
    def load_word2vec_format(cls, fname, fvocab=None, binary=None, encoding="utf8", unicode_errors=None, limit=None,
                             datatype=None, no_header=False):
        """word2vec text or binary (gensim's arguments); ``binary=None`` decides by extension
        (.bin, also inside .gz/.bz2/.xz) or by content; ``limit=N`` the first N words;
        ``no_header`` GloVe text; ``datatype`` float32 (default) or float16; ``fvocab`` a
        "word count" file (``save_word2vec_format(fvocab=...)``, word2vec.c's -save-vocab)
        whose counts become ``counts`` (0 for a word it does not list); without one, the
        counts are gensim's made-up ones, descending from the number of words read.
        ``unicode_errors`` (gensim's): "strict" refuses a word that is not UTF-8 (a
        ``UnicodeDecodeError``), "ignore" drops its bad bytes, "replace" puts U+FFFD in
        their place; ``None`` (default) replaces them with a warning where gensim's default
        "strict" refuses the file.  Words are UTF-8 (``encoding``)."""
        if str(encoding).lower().replace("-", "").replace("_", "") != "utf8":
            raise WordvecError(f"encoding {encoding!r} is not supported: word2vec files are read as UTF-8")
        errors = "replace" if unicode_errors is None else unicode_errors
        if binary is None:
            binary = formats.detect_format(fname) == "binary"
        dtype = None if datatype is None else np.dtype(datatype).name
        listed = None if fvocab is None else dict(zip(*word2vec_c.read_vocab(fvocab, errors)))
        if binary:
            kv = cls(*reading.read_word2vec_binary(fname, limit=limit, dtype=dtype, unicode_errors=errors))
        else:
            kv = cls(*reading.read_word2vec_text(fname, header=not no_header, limit=limit, dtype=dtype,
                                                 unicode_errors=errors))
        if listed is not None:
            kv.counts = np.array([listed.get(word, 0) for word in kv.index_to_key], dtype=np.int64)
        else:  # gensim's made-up counts: the number of words read down to 1
            kv.counts = np.arange(len(kv), 0, -1, dtype=np.int64)
        return kv
