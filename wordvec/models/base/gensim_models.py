"""gensim's pickled models (Word2Vec, FastText, Doc2Vec, Phrases; 3.x and 4.x) as plain fields
for wordvec's classes, read without running code (``wordvec.io.gensim_pickle``).  Each
class's ``load`` builds itself from them when handed a pickle: ``Word2Vec``/``FastText`` in
``word2vec_io``, ``Doc2Vec`` and ``Phrases`` in their modules.
"""

import numpy as np

from wordvec.data.vocab import Vocabulary
from wordvec.errors import FormatError, WordvecError
from wordvec.io.gensim_pickle import GensimObject, read_gensim
from wordvec.vectors.gensim_keyed import MALFORMED, keyed_fields, word_rows, words_and_counts

WORD2VEC_SETTINGS = ("vector_size", "window", "min_count", "sg", "hs", "negative", "ns_exponent", "cbow_mean",
                     "sample", "alpha", "min_alpha", "epochs", "seed")


def read_model(path, kinds, mmap=None):
    """The top object of a gensim save whose class is one of ``kinds`` (names), else a refusal
    naming both."""
    top = read_gensim(path, mmap_mode=mmap)
    found = top.name if isinstance(top, GensimObject) else type(top).__name__
    if found not in kinds:
        raise WordvecError(f"{path} is a gensim save of a {found}, not of a {' or '.join(kinds)}")
    return top


def fields_of(path, top, build):
    """``build(top)``, a missing or malformed attribute refused in one sentence."""
    try:
        return build(top)
    except WordvecError:
        raise
    except MALFORMED as error:
        raise FormatError(path, None, f"a gensim {top.name} without the attributes wordvec needs "
                                      f"({type(error).__name__}: {error})") from None


def settings(top, names=WORD2VEC_SETTINGS):
    """The hyperparameters gensim's model and wordvec's share, by gensim's names."""
    state = top.state
    found = {name: state[name] for name in names if state.get(name) is not None}
    if "vector_size" in names and "vector_size" not in found and state.get("layer1_size"):
        found["vector_size"] = state["layer1_size"]
    return found


def word_model_fields(top):
    """{"settings", "vocab", "W_in", "syn1neg", "syn1", "corpus_count", "corpus_total_words",
    "keyed"}: a Word2Vec, FastText or Doc2Vec's word side (gensim before 1.0 kept the word
    vectors on the model itself)."""
    state = top.state
    kv = state.get("wv") if isinstance(state.get("wv"), GensimObject) else top
    words, counts = words_and_counts(kv)
    keyed = keyed_fields(kv)
    rows = keyed["subword"]["word_rows"] if keyed["subword"] else word_rows(kv)
    return {"settings": settings(top), "vocab": vocabulary(words, counts), "keyed": keyed,
            "W_in": np.ascontiguousarray(rows, dtype=np.float32),
            "syn1neg": state.get("syn1neg"), "syn1": state.get("syn1"), "lockf": lock_factors(top, kv),
            "corpus_count": state.get("corpus_count"), "corpus_total_words": state.get("corpus_total_words")}


def lock_factors(top, kv):
    """gensim's ``vectors_lockf`` (4.x on ``wv``, 3.x on the model's ``trainables``, before 3.x
    the model's ``syn0_lockf``) as saved, or None."""
    for holder, name in ((kv, "vectors_lockf"), (top.state.get("trainables"), "vectors_lockf"), (top, "syn0_lockf")):
        value = holder.state.get(name) if isinstance(holder, GensimObject) else None
        if isinstance(value, np.ndarray) and value.ndim == 1 and value.size:
            return value
    return None


def vocabulary(words, counts):
    if counts is None or not counts.any():
        counts = np.arange(len(words), 0, -1, dtype=np.int64)  # gensim's order, counts unknown
    return Vocabulary(words, counts, corpus_tokens=int(counts.sum()), min_count=1)


def rows_or_zeros(array, rows, D):
    """gensim's output rows where they have the shape wordvec's model needs, else zeros."""
    if isinstance(array, np.ndarray) and array.shape == (rows, D):
        return np.ascontiguousarray(array, dtype=np.float32)
    return np.zeros((rows, D), np.float32)


def document_tags(top, rows):
    """gensim 4's document keys, or gensim 3's int rows followed by its string tags."""
    dv = top.state.get("dv") or top.state.get("docvecs")
    tags, _ = words_and_counts(dv)
    if not tags:
        strings = [text(t) for t in dv.state.get("offset2doctag") or []]
        tags = list(range(rows - len(strings))) + strings
    if len(tags) != rows:
        raise ValueError(f"{len(tags)} tags for {rows} document vectors")
    return [int(t) if isinstance(t, (int, np.integer)) else t for t in tags]


def document_rows(top):
    dv = top.state.get("dv") or top.state.get("docvecs")
    return np.ascontiguousarray(word_rows(dv), dtype=np.float32)


def phrases_fields(top):
    """gensim's Phrases (counts) or FrozenPhrases/Phraser (phrasegrams) as plain fields."""
    state = top.state
    delimiter = text(state.get("delimiter", "_"))
    fields = {"min_count": state["min_count"], "threshold": state["threshold"], "delimiter": delimiter,
              "scoring": state.get("scoring", "default"),
              "connector_words": frozenset(map(text, state.get("connector_words") or state.get("common_terms") or ())),
              "max_vocab_size": state.get("max_vocab_size", 40000000), "min_reduce": int(state.get("min_reduce", 1)),
              "corpus_word_count": int(state.get("corpus_word_count", 0))}
    if "vocab" in state:
        fields["vocab"] = {text(k): int(v) for k, v in state["vocab"].items()}
    if "phrasegrams" in state:
        fields["phrasegrams"] = {
            delimiter.join(map(text, key)) if isinstance(key, tuple) else text(key):
                float(value[-1] if isinstance(value, tuple) else value)
            for key, value in state["phrasegrams"].items()}
    return fields


def text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
