"""gensim's pickled KeyedVectors (3.x and 4.x, FastTextKeyedVectors included) as plain
fields, from the data ``wordvec.io.gensim_pickle`` reads (no code run): the words in gensim's
row order, their counts (gensim 4's ``'count'`` attribute, gensim 3's ``Vocab.count``), the
vectors, other per-word attributes, and for subword vectors the word and n-gram rows and
n-gram settings.  ``KeyedVectors.load`` / ``SubwordKeyedVectors.load`` build themselves from
these fields when handed a pickle; whole models are ``wordvec.models.base.gensim_models``.
"""

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io.gensim_pickle import GensimObject, read_gensim

KEYED_CLASSES = ("KeyedVectors", "Word2VecKeyedVectors", "EuclideanKeyedVectors", "FastTextKeyedVectors",
                 "Doc2VecKeyedVectors")
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def read_keyed(path, mmap=None):
    """The fields (:func:`keyed_fields`) of a gensim KeyedVectors save, or of a model's ``wv``."""
    top = read_gensim(path, mmap_mode=mmap)
    if isinstance(top, GensimObject) and top.name not in KEYED_CLASSES and isinstance(top.get("wv"), GensimObject):
        top = top.get("wv")
    if not isinstance(top, GensimObject) or top.name not in KEYED_CLASSES:
        found = top.name if isinstance(top, GensimObject) else type(top).__name__
        raise WordvecError(f"{path} is a gensim save of a {found}, not of KeyedVectors")
    try:
        return keyed_fields(top)
    except WordvecError:
        raise
    except MALFORMED as error:
        raise FormatError(path, None, f"a gensim {top.name} without the attributes wordvec needs "
                                      f"({type(error).__name__}: {error})") from None


def words_and_counts(kv):
    """(words in row order, counts or None) of a gensim 4 or 3 KeyedVectors."""
    state = kv.state
    if state.get("index_to_key") is not None:
        words = list(state["index_to_key"])
        counts = (state.get("expandos") or {}).get("count")
        return words, None if counts is None else np.asarray(counts, dtype=np.int64)
    words = list(state.get("index2word") or state.get("index2entity") or [])
    vocab = state.get("vocab") or {}
    counts = [vocab[w].get("count", 0) if isinstance(vocab.get(w), GensimObject) else 0 for w in words]
    return words, np.asarray(counts, dtype=np.int64)


def word_rows(kv):
    """The word (or document) rows of a gensim KeyedVectors of any version."""
    state = kv.state
    for name in ("vectors", "syn0", "vectors_vocab", "vectors_docs", "doctag_syn0"):
        if isinstance(state.get(name), np.ndarray):
            return state[name]
    raise ValueError("no vectors")


def keyed_fields(kv):
    """{"words", "counts", "vectors", "expandos", "subword"}: ``subword`` is None, or the
    {"word_rows", "ngrams", "min_n", "max_n", "bucket"} of FastTextKeyedVectors (whose
    ``vectors`` gensim recomputes on load: None here)."""
    words, counts = words_and_counts(kv)
    state = kv.state
    subword = None
    if kv.name == "FastTextKeyedVectors" or isinstance(state.get("vectors_ngrams"), np.ndarray):
        bucket = int(state["bucket"])
        subword = {"word_rows": np.asarray(state["vectors_vocab"], np.float32),
                   "ngrams": unpacked_ngrams(np.asarray(state["vectors_ngrams"], np.float32), bucket,
                                            state.get("hash2index")),
                   "min_n": int(state["min_n"]), "max_n": int(state["max_n"]), "bucket": bucket}
        vectors = None
    else:
        vectors = word_rows(kv)
        if vectors.dtype not in (np.float32, np.float16):
            vectors = vectors.astype(np.float32)
    expandos = {name: values for name, values in (state.get("expandos") or {}).items()
                if name != "count" and isinstance(values, np.ndarray) and values.shape[:1] == (len(words),)}
    return {"words": words, "counts": counts, "vectors": vectors, "expandos": expandos, "subword": subword}


def unpacked_ngrams(ngrams, bucket, hash2index):
    """gensim 3.x's FastTextKeyedVectors kept only the n-gram rows training used, packed,
    with ``hash2index`` (bucket -> packed row): the ``bucket`` rows they stand for, the
    buckets without a row zero.  Rows already one per bucket are returned as they are."""
    if not isinstance(hash2index, dict) or ngrams.ndim != 2 or len(ngrams) == bucket:
        return ngrams
    pairs = np.array(list(hash2index.items()), dtype=np.int64).reshape(-1, 2)
    buckets, rows = pairs[:, 0], pairs[:, 1]
    if (len(pairs) != len(ngrams) or (len(pairs) and (buckets.min() < 0 or buckets.max() >= bucket))
            or np.unique(buckets).size != len(buckets) or not np.array_equal(np.sort(rows), np.arange(len(rows)))):
        raise ValueError(f"hash2index does not map {len(ngrams)} packed n-gram rows into {bucket} buckets")
    full = np.zeros((bucket, ngrams.shape[1]), dtype=np.float32)
    full[buckets] = ngrams[rows]
    return full
