"""From ``wordvec train``'s flags to a model's config, through one table.

Every field of a model's config (``wordvec.models.base.config``) takes its value from the flag
of the same name (``--vector-size`` -> ``vector_size``) unless ``FROM_FLAGS`` below says
otherwise: a flag with another name or meaning, a default that differs by model (GloVe's
window 10 and 15 epochs), or ``KEEP_DEFAULT`` for a field no flag sets.  Shared by the
local run (``wordvec.cli.train.command``) and the Ray path (``wordvec.cli.ray_run``).
"""

import dataclasses
import importlib

from wordvec.data.corpus import Corpus
from wordvec.errors import WordvecError

WORD2VEC_MODELS = ("sg", "cbow")
COUNT_MODELS = ("glove", "svd")
# The model class of each --model, by module and name: a run imports only its own model's
# module, as the command line imports only its command's (the count models load SciPy,
# ~0.2 s of every word2vec run otherwise).
MODELS = {"sg": ("wordvec.models.word2vec.model", "Word2Vec"), "cbow": ("wordvec.models.word2vec.model", "Word2Vec"),
          "glove": ("wordvec.models.count.glove", "GloVe"), "svd": ("wordvec.models.count.svd", "PPMISVD")}
DEFAULT_WINDOW = {"sg": 5, "cbow": 5, "glove": 10, "svd": 5}
DEFAULT_EPOCHS = {"sg": 5, "cbow": 5, "glove": 15}
DEFAULT_WEIGHTING = {"glove": "harmonic", "svd": "uniform"}
KEEP_DEFAULT = object()  # no flag sets this field: the config's default


def negative_from_flags(args):
    """``--negative`` trains negative sampling; with ``--loss hs`` an explicit
    ``--negative N`` (N > 0) trains both output layers together, as the C tool and gensim
    do (``hs=1, negative=N``); without it, hierarchical softmax alone."""
    if args.loss == "hs":
        return args.negative or 0
    if args.loss != "ns":
        return 0
    return 5 if args.negative is None else args.negative


# config field -> its value from the parsed flags, where it is not simply the flag of that name
FROM_FLAGS = {
    "window": lambda args: args.window or DEFAULT_WINDOW[args.model],
    "epochs": lambda args: args.epochs or DEFAULT_EPOCHS[args.model],
    "sg": lambda args: int(args.model == "sg"),
    "hs": lambda args: int(args.loss == "hs"),
    "negative": negative_from_flags,
    "loss": lambda args: "softmax" if args.loss == "softmax" else None,
    "cbow_mean": lambda args: 0 if args.cbow_sum else 1,
    "shuffle": lambda args: not args.no_shuffle,
    "shared_negatives": lambda args: KEEP_DEFAULT,
    "symmetric": lambda args: not args.asymmetric,
    "weighting": lambda args: args.weighting or DEFAULT_WEIGHTING[args.model],
    "output": lambda args: args.glove_output,
    "grad_clip": lambda args: KEEP_DEFAULT,
    "sorted_vocab": lambda args: KEEP_DEFAULT,
    "max_final_vocab": lambda args: KEEP_DEFAULT,
    "shrink_windows": lambda args: KEEP_DEFAULT,
    "solver": lambda args: args.svd_solver,
}


def config_from_flags(args):
    """The config of the model ``--model`` names, every field from the table above."""
    config_class = model_class(args.model).config_class
    values = {}
    for field in dataclasses.fields(config_class):
        value = FROM_FLAGS[field.name](args) if field.name in FROM_FLAGS else getattr(args, field.name)
        if value is not KEEP_DEFAULT:
            values[field.name] = value
    return config_class(**values)


def model_from_flags(args):
    """The untrained model ``--model`` names, configured by the flags (checked here, before
    any file is read), with this run's settings."""
    return model_class(args.model)(config=config_from_flags(args), **run_settings(args))


def model_class(name):
    """The class of the model ``--model NAME`` trains."""
    module, attribute = MODELS[name]
    return getattr(importlib.import_module(module), attribute)


def run_settings(args):
    """This run's settings of a model (not part of what it learns, not saved with it)."""
    return {"progress": not args.no_progress, "memory_check": not args.no_memory_check}


def open_corpus(args):
    """The corpus, opened once for every use of this run (counting, training, fingerprint)."""
    return Corpus(args.corpus, lowercase=args.lowercase, max_document_length=args.max_document_length)
