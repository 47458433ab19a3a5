"""fastText's training arguments as its Python module reads them: the defaults of
``train_supervised`` and ``train_unsupervised``, its positional order, its snake_case
aliases, and its errors (``TypeError`` for an unknown or repeated argument,
``ValueError`` for a bad value)."""

import os
from contextlib import contextmanager
from itertools import chain

from wordvec.errors import WordvecError


class FastTextError(WordvecError, ValueError):
    """Bad input through ``wordvec.fasttext``: a ``ValueError``, as fastText raises it."""


@contextmanager
def fasttext_errors():
    """Re-raise wordvec's errors as fastText's exception type (ValueError), same sentence."""
    try:
        yield
    except FastTextError:
        raise
    except WordvecError as error:
        raise FastTextError(str(error)) from None


UNSUPERVISED_DEFAULTS = {
    "model": "skipgram", "lr": 0.05, "dim": 100, "ws": 5, "epoch": 5, "minCount": 5, "minCountLabel": 0,
    "minn": 3, "maxn": 6, "neg": 5, "wordNgrams": 1, "loss": "ns", "bucket": 2_000_000,
    "thread": max(1, (os.cpu_count() or 2) - 1), "lrUpdateRate": 100, "t": 1e-4, "label": "__label__",
    "verbose": 2, "pretrainedVectors": "", "seed": 0, "autotuneValidationFile": "", "autotuneMetric": "f1",
    "autotunePredictions": 1, "autotuneDuration": 60 * 5, "autotuneModelSize": "",
}
# shuffle (wordvec's, last: fastText's positional order holds): False reads the training
# lines in the file's order, as fastText does; True (the default) in an order drawn from seed
SUPERVISED_DEFAULTS = dict(UNSUPERVISED_DEFAULTS, lr=0.1, minCount=1, minn=0, maxn=0, loss="softmax",
                           model="supervised", shuffle=True)

SUPERVISED_NAMES = ("input", "lr", "dim", "ws", "epoch", "minCount", "minCountLabel", "minn", "maxn", "neg",
                    "wordNgrams", "loss", "bucket", "thread", "lrUpdateRate", "t", "label", "verbose",
                    "pretrainedVectors", "seed", "autotuneValidationFile", "autotuneMetric",
                    "autotunePredictions", "autotuneDuration", "autotuneModelSize", "shuffle")
UNSUPERVISED_NAMES = ("input", "model", "lr", "dim", "ws", "epoch", "minCount", "minCountLabel", "minn", "maxn",
                      "neg", "wordNgrams", "loss", "bucket", "thread", "lrUpdateRate", "t", "label", "verbose",
                      "pretrainedVectors")
SNAKE_CASE = {"min_count": "minCount", "word_ngrams": "wordNgrams", "lr_update_rate": "lrUpdateRate",
              "label_prefix": "label", "pretrained_vectors": "pretrainedVectors"}
MODELS = ("cbow", "skipgram", "supervised")
LOSSES = ("ns", "hs", "softmax", "ova")


def read_args(positional, keywords, names, defaults):
    """fastText's ``read_args``: the arguments by name, with the defaults filled in."""
    values = {}
    for name, value in chain(zip(names, positional), keywords.items()):
        name = SNAKE_CASE.get(name, name)
        if name not in names:
            raise TypeError(f"unexpected keyword argument '{name}'")
        if name in values:
            raise TypeError(f"multiple values for argument '{name}'")
        values[name] = value
    if len(positional) > len(names):
        raise TypeError(f"takes at most {len(names)} positional arguments ({len(positional)} given)")
    checked(values)
    return {**defaults, **values}


def checked(values):
    if "model" in values and values["model"] not in MODELS:
        raise FastTextError("Unrecognized model name")
    if "loss" in values and values["loss"] not in LOSSES:
        raise FastTextError("Unrecognized loss name")
    return values


def training_input(args):
    """The training file, or fastText's sentence when it cannot be opened."""
    path = args.get("input")
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise FastTextError(f"{path} cannot be opened for training!")
    return os.fspath(path)


def uses_buckets(args):
    """fastText's ``_build_args``: no n-gram rows without word n-grams or character n-grams."""
    return args["wordNgrams"] > 1 or args["maxn"] > 0
