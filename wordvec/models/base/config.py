"""What every model's configuration shares.

Each model's hyperparameters are one frozen dataclass beside the model
(``word2vec/config.py``: ``Word2VecConfig``; ``count/config.py``: ``GloVeConfig``,
``PPMISVDConfig``; ``classifier/config.py``; ...), with gensim's names where gensim has the
model, checked once when the config is made by a table of ranges (``checks``, the ranges
of ``wordvec.limits``, the same sentences as the command line).  This module holds what
they have in common: a model keeps its config as ``model.config`` and shows each field as
an attribute (``shows_config``); its saved ``model.json``, a checkpoint's option check and
``hyperparameters()`` are the config's fields in order (``dataclasses.asdict``); the
constructors take the fields as keyword arguments or a config, not both (``config_from``),
so gensim users' code and the saved files are unchanged.

``available_cores`` and ``library_workers`` are the two defaults for the number of
training threads, computed in ``wordvec.data.parallel`` (which reads a corpus with the
same threads) and nowhere else:

* the command line (``wordvec train``) trains with every core this process may run on
  (``available_cores``): a user at a shell wants the machine;
* the Python API (``Word2Vec(workers=None)``) takes at most 2 (``library_workers``):
  code that embeds a model in a larger program should not take every core unasked.
"""

import dataclasses

from wordvec.data.corpus import Corpus
from wordvec.data.parallel import available_cores, library_threads
from wordvec.errors import WordvecError


def library_workers():
    """``Word2Vec(workers=None)``'s threads: at most 2 (see the module docstring)."""
    return library_threads()


def corpus_with_options(source, lowercase, max_document_length):
    """``source`` as a ``Corpus`` read with a model's options; a ``Corpus`` given is used as
    it is (the caller opened it once for several uses), if its options are the model's."""
    if not isinstance(source, Corpus):
        return Corpus(source, lowercase=lowercase, max_document_length=max_document_length)
    if (source.lowercase, source.max_document_length) != (bool(lowercase), int(max_document_length)):
        raise WordvecError(f"the corpus was opened with lowercase={source.lowercase}, max_document_length="
                           f"{source.max_document_length}; the model asks for {lowercase}, {max_document_length}")
    return source


def config_from(config_class, config, hyperparameters):
    """A model constructor's config: ``config`` as given, or ``config_class(**hyperparameters)``."""
    if config is not None and hyperparameters:
        raise WordvecError("pass either a config or hyperparameters by name, not both")
    return config if config is not None else config_class(**hyperparameters)


def resolve_fields(config, **values):
    """Set fields of a frozen config in ``__post_init__`` (defaults that depend on others)."""
    for name, value in values.items():
        object.__setattr__(config, name, value)


def shows_config(config_class, except_fields=()):
    """Class decorator: every field of ``config_class`` (but ``except_fields``, names the
    model uses for something else) as an attribute of the model
    (``model.window`` is ``model.config.window``).  Assigning one (``model.eig = 1.0``, as
    code written for the mutable models does) replaces the frozen config by a checked copy
    with that field changed."""
    def decorate(model_class):
        for field in dataclasses.fields(config_class):
            if field.name not in except_fields:
                setattr(model_class, field.name, _config_field(field.name))
        model_class.config_class = config_class
        return model_class
    return decorate


def _config_field(name):
    def get(model):
        return getattr(model.config, name)

    def set_(model, value):
        model.config = dataclasses.replace(model.config, **{name: value})  # __post_init__ checks it

    return property(get, set_, doc=f"``config.{name}``")


def hyperparameters(config):
    """The config as the JSON-ready dict saved in ``model.json`` (fields in order)."""
    return dataclasses.asdict(config)
