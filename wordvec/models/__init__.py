"""Trainable models: one module per model (word2vec, glove, svd, window, rnnlm,
attention_lm, ...).  Import a model from its module or from the front door,
``from wordvec import Word2Vec`` (see docs/architecture.md)."""
