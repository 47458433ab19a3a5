"""What a model is configured with, in one place per model.

``Word2VecConfig``, ``GloVeConfig`` and ``PPMISVDConfig`` are frozen dataclasses holding
every hyperparameter of their model, with gensim's names (where gensim has the model)
and the models' defaults, checked once when the config is made (the ranges of
``wordvec.limits``, the same sentences as the command line).  A model keeps its config
as ``model.config`` and shows each field as a read-only attribute (``model.window``);
its saved ``model.json``, a checkpoint's option check and ``hyperparameters()`` are the
config's fields in order (``dataclasses.asdict``).  The model constructors still take
the fields as keyword arguments (``Word2Vec(corpus_file=..., sg=1, vector_size=300)``),
so gensim users' code and the saved files are unchanged.

``available_cores`` and ``library_workers`` are the two defaults for the number of
training threads, computed here and nowhere else:

* the command line (``wordvec train``) trains with every core this process may run on
  (``available_cores``): a user at a shell wants the machine;
* the Python API (``Word2Vec(workers=None)``) takes at most 2 (``library_workers``):
  code that embeds a model in a larger program should not take every core unasked.
"""

import dataclasses
import math
import os

from wordvec.data.cooccur import check_options, parse_memory
from wordvec.data.corpus import Corpus
from wordvec.data.subword import check_ngram_settings
from wordvec.errors import WordvecError
from wordvec.models.config_checks import WHOLE, WHOLE_OR_NONE, check_fields, is_number, need, one_of, positive_number

GLOVE_OUTPUTS = ("sum", "word")
SVD_TRANSFORMS = ("ppmi", "log", "raw")
SVD_SOLVERS = ("randomized", "arpack")


def available_cores():
    """The cores this process may run on (its CPU affinity; all CPUs where that is unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def library_workers():
    """``Word2Vec(workers=None)``'s threads: at most 2 (see the module docstring)."""
    return min(2, available_cores())


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


def _resolve(config, **values):
    """Set fields of a frozen config in ``__post_init__`` (defaults that depend on others)."""
    for name, value in values.items():
        object.__setattr__(config, name, value)


WORD2VEC_CHECKS = {
    "vector_size": WHOLE, "window": WHOLE, "min_count": WHOLE, "epochs": WHOLE, "workers": WHOLE,
    "max_document_length": WHOLE, "negative": WHOLE, "seed": WHOLE, "max_vocab_size": WHOLE_OR_NONE,
    "max_final_vocab": (lambda value: value is None or (isinstance(value, int) and value >= 1),
                        "max_final_vocab must be None or a positive integer, not {value!r}"),
    "loss": (lambda value: value in (None, "softmax"), "loss must be None, 'ns', 'hs' or 'softmax', not {value!r}"),
    "alpha": (lambda value: math.isfinite(value) and value > 0, "alpha must be a positive number, not {value}"),
    "sample": (lambda value: math.isfinite(value) and value >= 0, "sample must be >= 0, not {value}"),
    "ns_exponent": (math.isfinite, "ns_exponent must be a number, not {value}"),
}


@dataclasses.dataclass(frozen=True)
class Word2VecConfig:
    """``Word2Vec``'s hyperparameters (their meaning: the ``Word2Vec`` docstring).

    ``None`` means "depends on the others": ``ns_exponent`` 0.75 (0.5 with subwords),
    ``workers`` :func:`library_workers`, ``shared_negatives`` True (False with subwords).
    ``loss="ns"`` / ``"hs"`` are shorthands, stored as ``hs`` and ``negative``."""

    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    sg: int = 0
    hs: int = 0
    negative: int = 5
    ns_exponent: float = None
    cbow_mean: int = 1
    sample: float = 1e-3
    alpha: float = 0.025
    min_alpha: float = 0.0001
    epochs: int = 5
    workers: int = None
    seed: int = 1
    max_vocab_size: int = None
    loss: str = None
    lowercase: bool = False
    max_document_length: int = 10_000
    shared_negatives: bool = None
    shuffle: bool = True
    batched: bool = False
    deterministic: bool = False
    subwords: bool = False
    min_n: int = 3
    max_n: int = 6
    bucket: int = 2_000_000
    sorted_vocab: int = 1  # gensim's: 0 keeps words in order of first appearance
    max_final_vocab: int = None  # gensim's: raise min_count so that at most this many words remain
    shrink_windows: bool = True  # gensim's: sample each window's size in 1..window (False: always window)

    def __post_init__(self):
        hs, negative, loss = self.hs, self.negative, self.loss
        if loss == "ns":
            hs, loss = 0, None
        elif loss == "hs":
            hs, negative, loss = 1, 0, None
        _resolve(self, sg=int(self.sg), hs=int(hs), negative=negative, loss=loss, cbow_mean=int(self.cbow_mean),
                 min_count=1 if self.min_count == 0 else self.min_count,  # gensim's 0 keeps every word, as 1 does
                 # fastText's model draws noise from unigram^0.5 (the Word2Vec docstring)
                 ns_exponent=(0.5 if self.subwords else 0.75) if self.ns_exponent is None else self.ns_exponent,
                 workers=library_workers() if self.workers is None else self.workers,
                 # sharing hurts only fastText's direction (the Word2Vec docstring)
                 shared_negatives=bool(not self.subwords if self.shared_negatives is None else self.shared_negatives),
                 shuffle=bool(self.shuffle), batched=bool(self.batched), deterministic=bool(self.deterministic),
                 subwords=bool(self.subwords), sorted_vocab=int(self.sorted_vocab),
                 shrink_windows=bool(self.shrink_windows))
        self._validate()

    def _validate(self):
        check_fields(self, WORD2VEC_CHECKS)
        need(self.sg in (0, 1) and self.hs in (0, 1) and self.cbow_mean in (0, 1) and self.sorted_vocab in (0, 1),
              "sg, hs, cbow_mean and sorted_vocab must each be 0 or 1")
        need(self.loss == "softmax" or self.hs or self.negative > 0,
              "negative=0 with hs=0 leaves no output layer to train; set negative > 0 or hs=1")
        need(math.isfinite(self.min_alpha) and 0 <= self.min_alpha <= self.alpha,
              f"min_alpha must be between 0 and alpha ({self.alpha}), not {self.min_alpha}")
        need(not (self.batched and self.sg and self.negative > 0 and not self.shared_negatives),
              "batched=True shares one draw of negatives across each window, so it needs "
              "shared_negatives=True; pass batched=False to draw negatives per pair")
        need(not (self.subwords and (self.batched or self.deterministic)),
              "subwords=True has its own kernels, which have no batched or deterministic mode yet")
        if self.subwords:
            check_ngram_settings(self.min_n, self.max_n, self.bucket)


GLOVE_CHECKS = {
    "vector_size": WHOLE, "epochs": WHOLE, "workers": WHOLE, "min_count": WHOLE, "window": WHOLE, "seed": WHOLE,
    "max_document_length": WHOLE, "max_vocab_size": WHOLE_OR_NONE,
    **{name: (positive_number, name + " must be a number > 0, not {value!r}")
       for name in ("x_max", "power", "learning_rate", "grad_clip")},
    "output": one_of(GLOVE_OUTPUTS, "output must be 'sum' (W + W~) or 'word' (W), not {value!r}"),
}


@dataclasses.dataclass(frozen=True)
class GloVeConfig:
    """``GloVe``'s hyperparameters: ``x_max``, ``power`` (the paper's alpha) and
    ``learning_rate`` are glove.c's; ``window=10, epochs=15`` the project's benchmark's."""

    vector_size: int = 100
    window: int = 10
    x_max: float = 100.0
    power: float = 0.75
    learning_rate: float = 0.05
    epochs: int = 15
    min_count: int = 5
    symmetric: bool = True
    weighting: str = "harmonic"
    seed: int = 1
    workers: int = 2
    output: str = "sum"
    max_vocab_size: int = None
    memory: str = "2GB"
    grad_clip: float = 100.0
    lowercase: bool = False
    max_document_length: int = 10_000

    def __post_init__(self):
        check_fields(self, GLOVE_CHECKS)
        check_options(self.window, self.weighting)
        parse_memory(self.memory)


PPMI_SVD_CHECKS = {
    "vector_size": WHOLE, "min_count": WHOLE, "window": WHOLE, "seed": WHOLE, "power_iterations": WHOLE,
    "max_document_length": WHOLE, "max_vocab_size": WHOLE_OR_NONE,
    "cds": (lambda value: is_number(value) and 0 < value <= 1, "cds must be a number in (0, 1], not {value!r}"),
    "shift": (lambda value: is_number(value) and value >= 1,
              "shift (k, subtracting log k) must be a number >= 1, not {value!r}"),
    "eig": (lambda value: is_number(value) and math.isfinite(value),
            "eig must be a number (0, 0.5 and 1 are usual), not {value!r}"),
    "transform": one_of(SVD_TRANSFORMS, "transform must be one of {choices}, not {value!r}"),
    "solver": one_of(SVD_SOLVERS, "solver must be one of {choices}, not {value!r}"),
}


@dataclasses.dataclass(frozen=True)
class PPMISVDConfig:
    """``PPMISVD``'s hyperparameters (Levy, Goldberg and Dagan 2015's names: ``cds``,
    ``shift``, ``eig``, ``add_context``)."""

    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    cds: float = 0.75
    shift: float = 1.0
    eig: float = 0.5
    add_context: bool = False
    weighting: str = "uniform"
    transform: str = "ppmi"
    symmetric: bool = True
    solver: str = "randomized"
    power_iterations: int = 8
    seed: int = 1
    max_vocab_size: int = None
    memory: str = "2GB"
    lowercase: bool = False
    max_document_length: int = 10_000

    def __post_init__(self):
        check_fields(self, PPMI_SVD_CHECKS)
        check_options(self.window, self.weighting)
        parse_memory(self.memory)


def shows_config(config_class):
    """Class decorator: every field of ``config_class`` as an attribute of the model
    (``model.window`` is ``model.config.window``).  Assigning one (``model.eig = 1.0``, as
    code written for the mutable models does) replaces the frozen config by a checked copy
    with that field changed."""
    def decorate(model_class):
        for field in dataclasses.fields(config_class):
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
