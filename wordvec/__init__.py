"""wordvec: word embeddings with hand-derived gradients and fast compiled kernels.

The front door: every name a user needs, importable from here,

    from wordvec import Word2Vec, KeyedVectors, load_vectors, evaluate
    model = Word2Vec(corpus_file="corpus.txt", sg=1, vector_size=100)
    print(evaluate(model.wv)["analogy"]["total"])

each one the object its own module defines (``wordvec.Word2Vec is
wordvec.models.word2vec.model.Word2Vec``), so deep imports keep working.  A name is imported
on first use (the module ``__getattr__`` below): ``import wordvec`` alone loads no NumPy
and no Numba, 2-10 ms, where resolving the whole table takes 1.1-1.2 s (measured
2026-11-25 on the shared 2-core machine at load 3.4; Numba's import alone is 0.5-0.7 s).
docs/architecture.md says where each module sits.
"""

import importlib

__version__ = "0.1.0"

# name -> (module, attribute there); the order of __all__
_FRONT_DOOR = {
    # models
    "Word2Vec": ("wordvec.models.word2vec.model", "Word2Vec"),
    "FastText": ("wordvec.models.word2vec.fasttext", "FastText"),
    "GloVe": ("wordvec.models.count.glove", "GloVe"),
    "PPMISVD": ("wordvec.models.count.svd", "PPMISVD"),
    "WindowClassifier": ("wordvec.models.window.model", "WindowClassifier"),
    "RNNLM": ("wordvec.models.lm.rnn", "RNNLM"),
    "AttentionLM": ("wordvec.models.lm.attention", "AttentionLM"),
    "Doc2Vec": ("wordvec.models.doc2vec.model", "Doc2Vec"),
    # static sentence models (Model2Vec's kind; the `static` extra: tokenizers, safetensors)
    "StaticModel": ("wordvec.models.static.model", "StaticModel"),
    # fastText's supervised classifier (its train_supervised) and its files (gensim's names)
    "Classifier": ("wordvec.models.classifier.model", "Classifier"),
    "train_supervised": ("wordvec.models.classifier.model", "train_supervised"),
    "load_facebook_model": ("wordvec.models.word2vec.fasttext", "load_facebook_model"),
    "load_facebook_vectors": ("wordvec.models.word2vec.fasttext", "load_facebook_vectors"),
    # gensim's Phrases (sentences in memory); phrase_corpus: the compiled one, file to file
    "Phrases": ("wordvec.models.phrases.model", "Phrases"),
    "FrozenPhrases": ("wordvec.models.phrases.model", "FrozenPhrases"),
    "phrase_corpus": ("wordvec.data.phrases", "phrase_corpus"),
    # gensim's pickled saves, read as data (nothing in the file is run)
    "load_gensim": ("wordvec.models.gensim_load", "load_gensim"),
    # gensim's streamed corpora
    "LineSentence": ("wordvec.data.sentences", "LineSentence"),
    "PathLineSentences": ("wordvec.data.sentences", "PathLineSentences"),
    "TaggedDocument": ("wordvec.data.sentences", "TaggedDocument"),
    "TaggedLineDocument": ("wordvec.data.sentences", "TaggedLineDocument"),
    # vectors
    "KeyedVectors": ("wordvec.vectors.keyed", "KeyedVectors"),
    "SubwordKeyedVectors": ("wordvec.vectors.subword", "SubwordKeyedVectors"),
    "load_vectors": ("wordvec.vectors.files", "load_vectors"),
    "save_vectors": ("wordvec.vectors.files", "save_vectors"),
    # evaluation on the bundled analogy and similarity sets (or your files)
    "evaluate": ("wordvec.vectors.evaluate", "evaluate_all"),
    "evaluate_analogies": ("wordvec.vectors.evaluate", "evaluate_analogies"),
    "evaluate_similarity": ("wordvec.vectors.evaluate", "evaluate_similarity"),
    "format_report": ("wordvec.vectors.evaluate", "format_report"),
    # errors: every refusal of bad input is a WordvecError, one sentence
    "WordvecError": ("wordvec.errors", "WordvecError"),
    "FormatError": ("wordvec.errors", "FormatError"),
}

__all__ = list(_FRONT_DOOR)


def __getattr__(name):
    if name not in _FRONT_DOOR:
        raise AttributeError(f"module 'wordvec' has no attribute {name!r}")
    module, attribute = _FRONT_DOOR[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
