"""gensim's public names that wordvec answers, and the switch that puts wordvec's objects in
their place inside the installed gensim package, so that gensim's own test modules, imported
afterwards, test wordvec's classes (``from gensim.models.word2vec import Word2Vec`` and
``word2vec.Word2Vec`` both give wordvec's).

Only the classes and functions a user imports are redirected; gensim's helpers that the tests
use on their own (``gensim.utils``, ``gensim.test.utils``, scorers) stay gensim's.  A name that
wordvec does not provide yet is replaced by ``_missing``, whose every use raises, so a test of
it fails rather than silently testing gensim.
"""

import importlib

# (gensim module, name) -> (wordvec module, name)
REDIRECTS = {
    ("gensim.models.word2vec", "Word2Vec"): ("wordvec.models.word2vec.model", "Word2Vec"),
    ("gensim.models.word2vec", "LineSentence"): ("wordvec.data.sentences", "LineSentence"),
    ("gensim.models.word2vec", "PathLineSentences"): ("wordvec.data.sentences", "PathLineSentences"),
    ("gensim.models.keyedvectors", "KeyedVectors"): ("wordvec.vectors.keyed", "KeyedVectors"),
    ("gensim.models.fasttext", "FastText"): ("wordvec.models.word2vec.fasttext", "FastText"),
    ("gensim.models.fasttext", "FastTextKeyedVectors"): ("wordvec.vectors.subword", "SubwordKeyedVectors"),
    ("gensim.models.fasttext", "load_facebook_model"): ("wordvec.models.word2vec.fasttext", "load_facebook_model"),
    ("gensim.models.fasttext", "load_facebook_vectors"): ("wordvec.models.word2vec.fasttext", "load_facebook_vectors"),
    ("gensim.models.fasttext", "save_facebook_model"): ("wordvec.models.word2vec.fasttext", "save_facebook_model"),
    ("gensim.models.doc2vec", "Doc2Vec"): ("wordvec.models.doc2vec.model", "Doc2Vec"),
    ("gensim.models.doc2vec", "TaggedDocument"): ("wordvec.data.sentences", "TaggedDocument"),
    ("gensim.models.doc2vec", "TaggedLineDocument"): ("wordvec.data.sentences", "TaggedLineDocument"),
    ("gensim.models.phrases", "Phrases"): ("wordvec.models.phrases.model", "Phrases"),
    ("gensim.models.phrases", "FrozenPhrases"): ("wordvec.models.phrases.model", "FrozenPhrases"),
    ("gensim.models.phrases", "original_scorer"): ("wordvec.models.phrases.model", "original_scorer"),
    ("gensim.models.phrases", "npmi_scorer"): ("wordvec.models.phrases.model", "npmi_scorer"),
    ("gensim.models.phrases", "ENGLISH_CONNECTOR_WORDS"): ("wordvec.models.phrases.model", "ENGLISH_CONNECTOR_WORDS"),
}
# gensim re-exports under other module paths the tests also import from
ALIASES = {
    ("gensim.models", "Word2Vec"): ("gensim.models.word2vec", "Word2Vec"),
    ("gensim.models", "KeyedVectors"): ("gensim.models.keyedvectors", "KeyedVectors"),
    ("gensim.models", "FastText"): ("gensim.models.fasttext", "FastText"),
    ("gensim.models", "Doc2Vec"): ("gensim.models.doc2vec", "Doc2Vec"),
    ("gensim.models.fasttext", "KeyedVectors"): ("gensim.models.keyedvectors", "KeyedVectors"),
    ("gensim.models.doc2vec", "KeyedVectors"): ("gensim.models.keyedvectors", "KeyedVectors"),
    ("gensim.models.word2vec", "KeyedVectors"): ("gensim.models.keyedvectors", "KeyedVectors"),
    ("gensim.models.phrases", "Phraser"): ("gensim.models.phrases", "FrozenPhrases"),
}


class _missing:
    """A gensim name wordvec does not provide: any use raises."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("wordvec does not provide this gensim name")

    def __init_subclass__(cls, **kwargs):
        raise NotImplementedError("wordvec does not provide this gensim name")


def wordvec_object(module, name):
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return _missing


def install():
    """Put wordvec's objects in gensim's modules; returns {gensim name: wordvec object}."""
    placed = {}
    for (gensim_module, name), (module, attribute) in REDIRECTS.items():
        value = wordvec_object(module, attribute)
        setattr(importlib.import_module(gensim_module), name, value)
        placed[f"{gensim_module}.{name}"] = value
    for (gensim_module, name), (source_module, source_name) in ALIASES.items():
        value = placed[f"{source_module}.{source_name}"]
        setattr(importlib.import_module(gensim_module), name, value)
    return placed
