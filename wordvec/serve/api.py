"""The explorer's JSON API, independent of HTTP: parameters in, (status, JSON object) out.

Every answer comes from the same ``KeyedVectors`` methods the CLI uses
(``most_similar``, ``analogy``, ``similarity``) and the report's PCA
(``wordvec.vectors.projection``).  Bad requests get a 4xx status and ``{"error": sentence}``;
unknown words get 404 with ``suggestions`` (vocabulary words that start the same way).

    GET /api/info                                   vocabulary size, dimensions, limits
    GET /api/neighbours?word=W&topn=10              nearest words by cosine
    GET /api/analogy?a=A&b=B&c=C&method=3cosadd&topn=5    A : B :: C : ?  (or 3cosmul)
    GET /api/similarity?word1=W1&word2=W2           cosine similarity of two words
    GET /api/complete?prefix=P&limit=10             vocabulary words starting with P, most frequent first
    GET /api/map?n=500                              the top N words on their first two principal components
"""

import bisect

import numpy as np

from wordvec.errors import VocabularyError, WordvecError
from wordvec.serve.cache import BytesLRU
from wordvec.vectors.projection import explained_variance, pca_2d

MAX_TOPN = 100
MAX_MAP_WORDS = 5000
MAP_CACHE_BYTES = 32 << 20  # the maps kept (one of 5,000 words: ~0.5 MB), least recently used dropped
MAX_COMPLETIONS = 50
MAX_WORD_LENGTH = 1000


APPROXIMATE_FROM = 500000  # words: above this an exact neighbours query takes ~0.1 s or more


class BadRequest(WordvecError):
    """A request the API refuses, with its HTTP status."""

    def __init__(self, message, status=400, **extra):
        super().__init__(message)
        self.status, self.extra = status, extra


class ExplorerAPI:
    """Answers the API's questions about one ``KeyedVectors`` (thread-safe: read-only after init)."""

    def __init__(self, kv, source=""):
        self.kv, self.source = kv, str(source)
        # neighbours from the approximate index (wordvec index) once exact search gets slow
        self.approximate = getattr(kv, "ann_index", None) is not None and len(kv) >= APPROXIMATE_FROM
        kv.most_similar(positive=[kv.index_to_key[0]], topn=1)  # norms once here, not by the first requests at once
        self._sorted = sorted(range(len(kv)), key=kv.index_to_key.__getitem__)
        self._sorted_words = [kv.index_to_key[i] for i in self._sorted]
        self._maps = BytesLRU(MAP_CACHE_BYTES)
        self.routes = {"info": self.info, "neighbours": self.neighbours, "analogy": self.analogy,
                       "similarity": self.similarity, "complete": self.complete, "map": self.map}

    def handle(self, endpoint, params):
        """(status, JSON-able dict) for ``/api/<endpoint>`` with string ``params``."""
        route = self.routes.get(endpoint)
        if route is None:
            return 404, {"error": f"no API endpoint /api/{endpoint}; see /api/info"}
        try:
            return 200, route(_Params(params, self.kv))
        except BadRequest as error:
            return error.status, {"error": str(error), **error.extra}

    # -- endpoints ---------------------------------------------------------------------

    def info(self, params):
        params.done()
        return {"source": self.source, "words": len(self.kv), "dimensions": self.kv.vector_size,
                "counts": self.kv.counts is not None, "max_topn": MAX_TOPN,
                "max_map_words": min(MAX_MAP_WORDS, len(self.kv)), "analogy_methods": ["3cosadd", "3cosmul"],
                "approximate_neighbours": self.approximate}

    def neighbours(self, params):
        word, topn = params.word("word"), params.integer("topn", 10, 1, MAX_TOPN)
        params.done()
        pairs = self._known(lambda: self.kv.most_similar(positive=[word], topn=topn, approximate=self.approximate), word)
        return {"word": word, "neighbours": _pairs(pairs)}

    def analogy(self, params):
        a, b, c = params.word("a"), params.word("b"), params.word("c")
        method = params.choice("method", "3cosadd", ("3cosadd", "3cosmul"))
        topn = params.integer("topn", 5, 1, MAX_TOPN)
        params.done()
        pairs = self._known(lambda: self.kv.analogy(a, b, c, topn=topn, method=method), a, b, c)
        return {"a": a, "b": b, "c": c, "method": method, "answers": _pairs(pairs)}

    def similarity(self, params):
        first, second = params.word("word1"), params.word("word2")
        params.done()
        value = self._known(lambda: self.kv.similarity(first, second), first, second)
        return {"word1": first, "word2": second, "similarity": round(value, 6)}

    def complete(self, params):
        prefix = params.text("prefix")
        limit = params.integer("limit", 10, 1, MAX_COMPLETIONS)
        params.done()
        return {"prefix": prefix, "words": self.completions(prefix, limit)}

    def map(self, params):
        n = params.integer("n", 500, 2, MAX_MAP_WORDS)
        params.done()
        n = min(n, len(self.kv))
        return self._maps.get_or_make(n, lambda: self._map(n))  # one PCA per size, however many tabs ask

    def _map(self, n):
        rows = self._top_rows(n)
        vectors = np.asarray(self.kv.vectors[rows])
        coords = pca_2d(vectors)
        return {"n": n, "words": [self.kv.index_to_key[i] for i in rows],
                "x": np.round(coords[:, 0], 5).tolist(), "y": np.round(coords[:, 1], 5).tolist(),
                "explained_variance": round(explained_variance(vectors, coords), 4)}

    # -- shared steps -----------------------------------------------------------------------

    def completions(self, prefix, limit):
        """Up to ``limit`` words starting with ``prefix``, most frequent (first in the table) first."""
        start = bisect.bisect_left(self._sorted_words, prefix)
        stop = bisect.bisect_left(self._sorted_words, prefix + "\U0010ffff")
        rows = sorted(self._sorted[start:min(stop, start + 20_000)])  # bounded work for a 1-letter prefix
        return [self.kv.index_to_key[i] for i in rows[:limit]]

    def near_misses(self, word, limit=8):
        """Completions of the longest prefix of ``word`` that has any ("kng" -> king, kind ...)."""
        for end in range(len(word), 0, -1):
            found = self.completions(word[:end], limit)
            if found:
                return found
        return []

    def _top_rows(self, n):
        if self.kv.counts is None:
            return np.arange(n)
        return np.sort(np.argsort(-np.asarray(self.kv.counts), kind="stable")[:n])

    def _known(self, query, *words):
        for word in words:
            if word not in self.kv:  # subword vectors hold every word with n-grams, as `wordvec similar` answers
                lower = word.lower()
                suggestions = ([lower] if lower != word and lower in self.kv else []) + self.near_misses(word)
                raise BadRequest(f"{word!r} is not in the vocabulary", 404,
                                 word=word, suggestions=list(dict.fromkeys(suggestions))[:8])
        try:
            return query()
        except VocabularyError as error:
            raise BadRequest(str(error), 404) from None


def _pairs(pairs):
    return [{"word": word, "score": round(float(score), 6)} for word, score in pairs]


class _Params:
    """Typed access to a request's string parameters; unknown leftovers are an error."""

    def __init__(self, params, vocabulary=()):
        if not isinstance(params, dict):
            raise BadRequest("parameters must be a JSON object or a query string")
        self.params, self.used, self.vocabulary = params, set(), vocabulary

    def _raw(self, name):
        self.used.add(name)
        value = self.params.get(name)
        if value is None:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise BadRequest(f"parameter {name!r} must be a string or a number")
        return value

    def text(self, name):
        value = self._raw(name)
        if value is None:
            raise BadRequest(f"missing parameter {name!r}")
        if len(value) > MAX_WORD_LENGTH:
            raise BadRequest(f"parameter {name!r} is longer than {MAX_WORD_LENGTH} characters")
        return value

    def word(self, name):
        """The word as given if the vocabulary has it (a character model's " "), else stripped."""
        value = self.text(name)
        if value in self.vocabulary:
            return value
        if not value.strip():
            raise BadRequest(f"parameter {name!r} is empty: type a word")
        return value.strip()

    def integer(self, name, default, low, high):
        value = self._raw(name)
        if value is None or value == "":
            return default
        try:
            number = int(value)
        except ValueError:
            raise BadRequest(f"parameter {name!r} must be a whole number, not {value[:40]!r}") from None
        if not low <= number <= high:
            raise BadRequest(f"parameter {name!r} must be between {low} and {high}, not {number}")
        return number

    def choice(self, name, default, options):
        value = self._raw(name)
        if value is None or value == "":
            return default
        if value.lower() not in options:
            raise BadRequest(f"parameter {name!r} must be one of {', '.join(options)}, not {value[:40]!r}")
        return value.lower()

    def done(self):
        unknown = sorted(set(self.params) - self.used)
        if unknown:
            raise BadRequest(f"unknown parameter {unknown[0][:40]!r}")
