"""fastText's autotune in its Python module: ``train_supervised(autotuneValidationFile=...,
autotuneMetric=..., autotunePredictions=..., autotuneDuration=..., autotuneModelSize=...)``.

The search is ``wordvec.models.classifier.autotune`` (the one the command lines run); this
module reads fastText's arguments into it and gives back fastText's model object. As in
fastText, a searched argument given by name or position (``epoch``, ``lr``, ``dim``,
``wordNgrams``, ``loss``, ``bucket``, ``minn``, ``maxn``) is kept as given.
"""

import os
import sys

from wordvec.fasttext.model import FastTextModel
from wordvec.fasttext.options import (SNAKE_CASE, SUPERVISED_DEFAULTS, SUPERVISED_NAMES, FastTextError,
                                      fasttext_errors, read_args, training_input)
from wordvec.fasttext.training import supervised_config, train_supervised_args
from wordvec.models.classifier import autotune as search

# fastText's argument name -> the classifier config's
SEARCHED_ARGS = {"epoch": "epoch", "lr": "lr", "dim": "dim", "wordNgrams": "word_ngrams", "loss": "loss",
                 "bucket": "bucket", "minn": "minn", "maxn": "maxn"}


def train_supervised(*kargs, **kwargs):
    """Train a classifier on a file of lines ``__label__x words ...``; fastText's arguments
    (with ``autotuneValidationFile``: the settings found by :func:`autotune`)."""
    args = read_args(kargs, kwargs, SUPERVISED_NAMES, SUPERVISED_DEFAULTS)
    if args["autotuneValidationFile"]:
        given = set(SUPERVISED_NAMES[:len(kargs)]) | {SNAKE_CASE.get(name, name) for name in kwargs}
        return autotune(args, given)
    return train_supervised_args(args)


def autotune(args, given=()):
    """The best model found within ``autotuneDuration`` seconds (fastText's train with
    autotune); ``given``: the argument names set by the caller, which are not searched."""
    path = training_input(args)
    if not os.path.isfile(args["autotuneValidationFile"]):
        raise FastTextError(f"{args['autotuneValidationFile']} cannot be opened for validation!")
    settings = search.AutotuneSettings(
        validation=args["autotuneValidationFile"], metric=args["autotuneMetric"],
        predictions=_whole(args["autotunePredictions"], "autotunePredictions"),
        duration=args["autotuneDuration"], model_size=str(args["autotuneModelSize"] or ""),
        fixed=frozenset(SEARCHED_ARGS[name] for name in given if name in SEARCHED_ARGS))
    report = _report if args["verbose"] > 0 else None
    with fasttext_errors():
        if isinstance(settings.duration, bool) or not isinstance(settings.duration, (int, float)):
            raise FastTextError(f"autotuneDuration must be a number of seconds, not {settings.duration!r}")
        tuned = search.autotune(supervised_config(args), path, settings,
                                on_trial=report)
    if report is not None:
        print(file=sys.stderr)
    config = tuned.config
    final = dict(args, lr=config.lr, dim=config.dim, epoch=config.epoch, wordNgrams=config.word_ngrams,
                 minn=config.minn, maxn=config.maxn, bucket=config.bucket, loss=config.loss, thread=config.threads,
                 autotuneValidationFile="")
    return FastTextModel(tuned.model, config.loss, {"ws": args["ws"], "neg": args["neg"], "t": args["t"]}, final)


def parse_metric(metric):
    """(kind, label or None, value in [0, 1]) of fastText's autotuneMetric string."""
    with fasttext_errors():
        return search.parse_metric(metric)


def parse_size(size):
    """Bytes of fastText's autotuneModelSize ('2M', '500K', '1G' or a number); None when empty."""
    with fasttext_errors():
        return search.parse_size(size)


def _whole(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise FastTextError(f"{name} must be a whole number, not {value!r}")
    return value


def _report(trial):
    print(search.progress_line(trial), end="", file=sys.stderr, flush=True)
