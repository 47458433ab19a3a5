"""fastText's autotune: search the supervised settings that score best on a validation
file within a time budget, then train the final model with them (and, with a model size,
quantize it to fit).

As fastText's (autotune.cc): the first trial uses the given settings; each later one
draws epoch, lr, dim, wordNgrams and bucket around the best so far, log-normally
(wordNgrams: normally), with a spread shrinking linearly from the start of the budget
to its end; a trial that scores no better is forgotten. The metric is
``autotuneMetric``: ``f1`` (all labels), ``f1:LABEL``, ``precisionAtRecall:P[:LABEL]``,
``recallAtPrecision:P[:LABEL]`` (P in percent), over the top ``autotunePredictions``
labels of each validation line. ``autotuneModelSize`` ("2M", "500K", or bytes) quantizes
the final model (qnorm, retrain) with the largest cutoff whose ``.ftz`` fits.
"""

import math
import os
import sys
import tempfile
import time

import numpy as np

from wordvec.fasttext.options import (SUPERVISED_DEFAULTS, SUPERVISED_NAMES, FastTextError, read_args,
                                      training_input, uses_buckets)
from wordvec.fasttext.training import load_model, train_supervised_args

# (name, lowest, highest, spread at the start, spread at the end, on a linear scale)
SEARCH = (("epoch", 1, 100, 2.8, 2.5, False), ("lr", 0.01, 5.0, 1.9, 1.0, False), ("dim", 1, 1000, 1.4, 0.3, False),
          ("wordNgrams", 1, 5, 4.3, 2.4, True), ("bucket", 10_000, 10_000_000, 2.0, 1.5, False))
DSUBS = (2, 4, 8)
MIN_CUTOFF = 256  # fastText's kCutoffLimit


def parse_metric(metric):
    """(kind, label or None, value in [0, 1]) of fastText's autotuneMetric string."""
    if metric == "f1":
        return "f1", None, 0.0
    if metric.startswith("f1:") and len(metric) > 3:
        return "f1", metric[3:], 0.0
    for kind in ("precisionAtRecall", "recallAtPrecision"):
        if metric.startswith(kind + ":"):
            value, _, label = metric[len(kind) + 1:].partition(":")
            try:
                return kind, label or None, float(value) / 100.0
            except ValueError:
                break
    raise FastTextError(f"Unknown autotune metric {metric!r} (f1, f1:LABEL, precisionAtRecall:P[:LABEL] or "
                        "recallAtPrecision:P[:LABEL])")


def parse_size(size):
    """Bytes of fastText's autotuneModelSize ('2M', '500K', '1G' or a number); None when empty."""
    text = str(size).strip()
    if not text:
        return None
    units = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}
    try:
        return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)
    except (ValueError, KeyError):
        raise FastTextError(f"Unable to parse the model size {size!r} (e.g. 2M, 500K)") from None


def score(model, valid, metric, k):
    """The validation score of ``model`` by the parsed ``metric``."""
    kind, label, value = metric
    meter = model.get_meter(valid, k)
    label_id = model.get_label_id(label) if label else -1
    if label and label_id < 0:
        raise FastTextError(f"the autotune metric's label {label!r} is not a label of the training data")
    if kind == "precisionAtRecall":
        return meter.precision_at_recall(value, label)
    if kind == "recallAtPrecision":
        return meter.recall_at_precision(value, label)
    scores = meter.m
    pairs = scores.score_vs_true(label_id)
    predicted = sum(1 for s, _ in pairs if s >= 0)
    hits = sum(1 for s, gold in pairs if s >= 0 and gold == 1.0)
    gold = scores.total_gold if label_id < 0 else int(scores.gold[label_id])
    return 2.0 * hits / (predicted + gold) if predicted + gold else 0.0


def _draw(best, progress, rng):
    args = dict(best)
    for name, low, high, start, end, linear in SEARCH:
        spread = start + (end - start) * progress
        if linear:
            value = best[name] + rng.normal(0.0, spread)
        else:
            value = math.exp(math.log(max(best[name], low)) + rng.normal(0.0, math.log(max(spread, 1.0001))))
        value = min(max(value, low), high)
        args[name] = value if name == "lr" else int(round(value))
    return args


def train_supervised(*kargs, **kwargs):
    """Train a classifier on a file of lines ``__label__x words ...``; fastText's arguments
    (with ``autotuneValidationFile``: the settings found by :func:`autotune`)."""
    args = read_args(kargs, kwargs, SUPERVISED_NAMES, SUPERVISED_DEFAULTS)
    if args["autotuneValidationFile"]:
        return autotune(args)
    return train_supervised_args(args)


def autotune(args):
    """The best model found within ``autotuneDuration`` seconds (fastText's train with autotune)."""
    valid = args["autotuneValidationFile"]
    if not os.path.isfile(valid):
        raise FastTextError(f"{valid} cannot be opened for validation!")
    training_input(args)
    metric = parse_metric(args["autotuneMetric"])
    k = int(args["autotunePredictions"])
    if k == 0 or k < -1:
        raise FastTextError("autotunePredictions must be 1 or higher (or -1: all labels)")
    size = parse_size(args["autotuneModelSize"])
    duration = float(args["autotuneDuration"])
    rng = np.random.default_rng(int(args["seed"]))
    quiet = dict(args, verbose=0, autotuneValidationFile="")
    best, best_score, trials, started = None, -1.0, 0, time.perf_counter()
    while trials == 0 or time.perf_counter() - started < duration:
        progress = min(1.0, (time.perf_counter() - started) / max(duration, 1e-9))
        trial = quiet if best is None else _draw(best, progress, rng)
        if not uses_buckets(trial):
            trial = dict(trial, bucket=args["bucket"])
        trials += 1
        try:
            value = score(train_supervised_args(trial), valid, metric, k)
        except FastTextError:
            if best is None:
                raise
            continue
        if value > best_score:
            best, best_score = trial, value
        if args["verbose"] > 0:
            print(f"Trial {trials}: score {value:.6f} (best {best_score:.6f})", file=sys.stderr)
    final = dict(best, verbose=args["verbose"], autotuneValidationFile="")
    model = train_supervised_args(final)
    if size is not None:
        model = _fit_size(model, final, size)
    model.set_args(dict(final, loss=args["loss"]))
    return model


def _fit_size(model, args, size):
    """Quantize ``model`` (qnorm, retrain) with the largest cutoff whose .ftz is ``size`` bytes at most."""
    with tempfile.TemporaryDirectory() as folder:
        dense = os.path.join(folder, "dense.bin")
        model.save_model(dense)
        dim, n_out = model.get_dimension(), model.get_output_matrix().shape[0]
        dsub = next((d for d in DSUBS if dim % d == 0), 2)
        budget = size - 107 - 4 * 256 * dim - (21 + 4 * n_out * dim)
        cutoff = max(MIN_CUTOFF, budget // (max(1, dim // dsub) + 1 + 10))
        while True:
            trial = load_model(dense)
            trial.quantize(input=args["input"], cutoff=int(cutoff), retrain=True, qnorm=True, dsub=dsub,
                           epoch=args["epoch"], lr=args["lr"], thread=args["thread"])
            path = os.path.join(folder, "model.ftz")
            trial.save_model(path)
            if os.path.getsize(path) <= size or cutoff <= MIN_CUTOFF:
                if os.path.getsize(path) > size:
                    raise FastTextError(f"no quantized model fits in {size} bytes (the smallest is "
                                        f"{os.path.getsize(path)} bytes)")
                return trial
            cutoff = max(MIN_CUTOFF, int(cutoff * size / os.path.getsize(path) * 0.95))
