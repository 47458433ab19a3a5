"""Trainable models: one package per family (``word2vec``, ``classifier``, ``doc2vec``,
``count``, ``lm``, ``window``, ``phrases``), each independent of the others, on ``base``
(what they share); ``saved`` sits above them and tells saved models apart.  Import a model
from its family's ``model`` module or from the front door, ``from wordvec import Word2Vec``
(see docs/architecture.md)."""
