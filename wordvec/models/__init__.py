"""Trainable models.  ``from wordvec.models import Word2Vec`` imports lazily, so that
importing one model does not load (or compile) the others."""


def __getattr__(name):
    if name == "Word2Vec":
        from wordvec.models.word2vec import Word2Vec

        return Word2Vec
    raise AttributeError(f"module 'wordvec.models' has no attribute {name!r}")
