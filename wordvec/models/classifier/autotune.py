"""fastText's autotune (autotune.cc) for the classifier: the settings that score best on a
validation file within a time budget, then the final model trained with them and, with a
model size, quantized to fit it. ``wordvec classify train --autotune-validation``,
``wordvec fasttext supervised -autotune-validation`` and
``wordvec.fasttext.train_supervised(autotuneValidationFile=...)`` all run :func:`autotune`.

The search (fastText's ``AutotuneStrategy::ask``): the first trial is the given config;
each later one draws around the best so far. A spread σ stays at its start value for the
first quarter of the budget, shrinks linearly to its end value at three quarters and
stays there; a multiplied setting is the best one times 2^N(0, σ), an added one the best
plus N(0, σ), each truncated to a whole number (lr excepted) and clipped to its range:

    epoch        × 2^N   σ 2.8 -> 2.5   [1, 100]
    lr           × 2^N   σ 1.9 -> 1.0   [0.01, 5]
    dim          × 2^N   σ 1.4 -> 0.3   [1, 1000]
    word_ngrams  + N     σ 4.3 -> 2.4   [1, 5]
    dsub         2^(best exponent + N), σ 2.0 -> 1.0, exponent [1, 4] (quantization only)
    minn         index of (0, 2, 3) + N, σ 4.0 -> 1.4; maxn = minn + 3 (0 when minn is 0)
    bucket       × 2^N   σ 2.0 -> 1.5   [10 000, 10 000 000]; 0 without word or character n-grams
    loss         softmax

A setting given by hand (``AutotuneSettings.fixed``) is kept as given, as fastText keeps
the arguments named on its command line. A trial that scores no better than the best is
forgotten; a later one that fails (a model size it cannot meet, settings refused, too
much memory) is skipped, as fastText skips one that diverges or cannot allocate. With
a model size every trial is quantized (qnorm, retrain) before it is scored, as fastText
does, with the largest cutoff whose ``.ftz`` is at most that size (fastText estimates the
cutoff from 10 bytes a word and can write a larger file; here the bytes each cutoff would
write are counted from the rows it keeps, their words' UTF-8 included, before quantizing,
so one quantization suffices and the file is never larger than asked). The metric
(``AutotuneSettings.metric``): ``f1`` (over all labels), ``f1:LABEL``,
``precisionAtRecall:P[:LABEL]`` and ``recallAtPrecision:P[:LABEL]`` (P in percent), over
the top ``predictions`` labels of each validation line (fastText's ``Meter``:
``wordvec.models.classifier.curves``).

One departure from fastText's search, so that the budget's end is not spent on a trial
the budget would stop: from the second trial on, a draw predicted to end after the budget
is drawn again (up to ``MAX_DRAWS`` times; when none is predicted to end in time the search
ends there). The prediction (:class:`TrialCost`) scales the trials finished so far: their
training seconds per epoch × dim × input rows per token, the rest (reading, scoring, and
with a model size the quantization's k-means) per dim × rows clustered.

The budget is kept as fastText keeps it: a trial still training when it ends is stopped
and discarded, neither scored nor counted, and the search ends; the final training with
the best settings comes after the budget, as in fastText. A trial asks the clock between
the steps of reading the data (the longest, encoding, took up to 9 s on genre with
character and word n-grams), between blocks of filling the input matrix and every
``training.STOP_CHECK_TOKENS`` tokens per thread of its epochs (hundredths of a second
apart at dim 100); its quantization's k-means and its scoring are not cut short. The
budget starts once the compiled kernels are loaded (fastText has none to load); the
training file is then read once (its tokens scanned, within the budget) and every trial
builds its dictionary and bags from that scan (fastText reads the file in every trial).
The first trial always starts; when no trial finishes in time, the search ends with "no
trial could be trained: give a longer autotune duration" (fastText: "Didn't have enough
time to train once").
"""

import logging
import math
import os
import re
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from wordvec.data.labels import scan_text
from wordvec.errors import WordvecError
from wordvec.memory import check_allocation
from wordvec.models.classifier.curves import ALL_LABELS, file_label_scores
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.quantize import select_rows
from wordvec.models.classifier.training import TrainingStopped, load_kernels

METRIC_KINDS = ("f1", "precisionAtRecall", "recallAtPrecision")
METRIC_FORMS = "f1, f1:LABEL, precisionAtRecall:P[:LABEL] or recallAtPrecision:P[:LABEL]"
SIZE_UNITS = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}
PERCENT = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")  # ASCII digits only, as C's strtof reads them
WHOLE = re.compile(r"[0-9]+")
MINN_CHOICES = (0, 2, 3)
MIN_CUTOFF = 256  # fastText's kCutoffLimit: a model size that needs fewer rows is not met
DEFAULT_DSUB = 2
SEARCHED = ("epoch", "lr", "dim", "word_ngrams", "dsub", "minn", "maxn", "bucket", "loss")


class Metric(NamedTuple):
    """A parsed metric string: its kind, its label (None: all labels) and P as a fraction."""
    kind: str
    label: str
    value: float


def parse_metric(metric):
    """The :class:`Metric` of fastText's metric string, or one sentence naming the forms."""
    text = str(metric)
    if text == "f1":
        return Metric("f1", None, 0.0)
    if text.startswith("f1:") and len(text) > 3:
        return Metric("f1", text[3:], 0.0)
    for kind in METRIC_KINDS[1:]:
        if text.startswith(kind + ":"):
            value, colon, label = text[len(kind) + 1:].partition(":")
            if not PERCENT.fullmatch(value) or colon and not label or not 0.0 <= float(value) <= 100.0:
                break
            return Metric(kind, label or None, float(value) / 100.0)
    raise WordvecError(f"Unknown autotune metric {text!r} ({METRIC_FORMS}, P a percentage)")


def parse_size(size):
    """Bytes of fastText's model size ('2M', '500K', '1G' or a number of bytes); None when empty."""
    text = str(size if size is not None else "").strip()
    if not text:
        return None
    multiplier = SIZE_UNITS.get(text[-1].lower(), 1)
    digits = text[:-1] if text[-1].lower() in SIZE_UNITS else text
    if not WHOLE.fullmatch(digits) or int(digits) * multiplier < 1:
        raise WordvecError(f"Unable to parse the model size {size!r}: a whole number of bytes, "
                           "optionally followed by K, M or G (e.g. 2M, 500K)")
    return int(digits) * multiplier


@dataclass(frozen=True)
class AutotuneSettings:
    """What fastText's ``-autotune-*`` arguments say: the validation file, the metric
    string, the labels predicted per validation line (-1: all), the budget in seconds, the
    model size ('' : not quantized) and the searched settings given by hand (``SEARCHED``
    names, kept as given)."""
    validation: str
    metric: str = "f1"
    predictions: int = 1
    duration: float = 300.0
    model_size: str = ""
    fixed: frozenset = frozenset()

    def checked(self, label_prefix="__label__"):
        """(Metric, size in bytes or None), or one sentence naming the first bad setting or
        what is wrong with the validation file."""
        parsed = self.parsed()
        check_validation_file(self.validation, label_prefix)
        return parsed

    def parsed(self):
        """(Metric, size in bytes or None), or one sentence naming the first bad setting
        (no file is read)."""
        metric = parse_metric(self.metric)
        size = parse_size(self.model_size)
        if isinstance(self.predictions, bool) or not isinstance(self.predictions, (int, np.integer)) or not (
                self.predictions >= 1 or self.predictions == -1):
            raise WordvecError(f"the autotune predictions must be a whole number >= 1 (or -1: all labels), "
                               f"not {self.predictions!r}")
        if not isinstance(self.duration, (int, float)) or not math.isfinite(self.duration) or self.duration <= 0:
            raise WordvecError(f"the autotune duration must be a number of seconds > 0, not {self.duration!r}")
        unknown = set(self.fixed) - set(SEARCHED)
        if unknown:
            raise WordvecError(f"{sorted(unknown)[0]!r} is not a setting autotune searches ({', '.join(SEARCHED)})")
        return metric, size


def check_validation_file(path, label_prefix):
    """One sentence for a validation file that is missing, not a file, or holds no label."""
    if path is None or not os.path.exists(path):
        raise WordvecError(f"validation file {path} does not exist")
    if not os.path.isfile(path):
        raise WordvecError(f"validation file {path} is not a file")
    prefix = label_prefix.encode("utf-8")
    with open(path, "rb") as handle:
        for line in handle:
            if any(token.startswith(prefix) for token in line.split()):
                return
    raise WordvecError(f"validation file {path} has no labelled line (no word starting with "
                       f"{label_prefix!r}): autotune scores the predictions against its labels")


class Tuned(NamedTuple):
    """What :func:`autotune` gives: the final model, its config, the dsub it was quantized
    with (None: not quantized), the best validation score and the number of trials."""
    model: Classifier
    config: object
    dsub: int
    score: float
    trials: int


class Trial(NamedTuple):
    """What ``on_trial`` is told after each trial: its number, its score (None: skipped),
    the best score so far (None: none yet), the seconds spent and the budget; and once
    more when the budget stops a trial, with the number of trials finished and no score
    (the progress line's last state, as fastText's timer prints it)."""
    number: int
    score: float
    best: float
    elapsed: float
    duration: float


def progress_line(trial):
    """fastText's autotune progress line (``Autotune::printInfo``), starting with a carriage
    return: "\\rProgress:  42.0% Trials:   17 Best score:  0.912345 ETA:   0h 2m54s"."""
    percent = min(100.0, trial.elapsed * 100.0 / trial.duration)
    best = "unknown" if trial.best is None else f"{trial.best:.6f}"
    eta = int(max(trial.duration - trial.elapsed, 0.0))
    return (f"\rProgress: {percent:5.1f}% Trials: {trial.number:4d} Best score: {best:>9} "
            f"ETA: {eta // 3600:3d}h{eta % 3600 // 60:2d}m{eta % 60:2d}s")


def summary(found, settings):
    """One line: the trials, the best score and the settings chosen (and those kept as given)."""
    c = found.config
    chosen = (f"epoch {c.epoch} lr {c.lr:.6g} dim {c.dim} word_ngrams {c.word_ngrams} minn {c.minn} maxn {c.maxn} "
              f"bucket {c.bucket} loss {c.loss}" + (f" dsub {found.dsub}" if found.size is not None else ""))
    kept = f"; kept as given: {', '.join(sorted(settings.fixed))}" if settings.fixed else ""
    return (f"autotune: {found.trials} trials, best {settings.metric} {found.score:.6f} on {settings.validation}; "
            f"chosen: {chosen}{kept}")


def autotune(config, train, settings, valid=None, on_trial=None):
    """The best model found within ``settings.duration`` seconds of trials (fastText's train
    with autotune): :func:`search`, then :func:`final_model`. Returns :class:`Tuned`."""
    return final_model(search(config, train, settings, on_trial), train, valid)


class Found(NamedTuple):
    """What :func:`search` found: the best trial's config (with the given verbosity), its
    dsub, its score, the number of trials and the model size in bytes (None: none)."""
    config: object
    dsub: int
    score: float
    trials: int
    size: int


def search(config, train, settings, on_trial=None, clock=time.perf_counter):
    """Trials for ``settings.duration`` seconds of ``clock``, starting from ``config`` (the
    given settings) on the training file ``train``; ``on_trial(Trial)`` follows them. A
    draw predicted to end after the budget is drawn again (:func:`_draw_in_time`); the
    trial training when the time is up is stopped and discarded.
    Returns :class:`Found`, or one sentence when no trial could be scored."""
    metric, size = settings.checked(config.label)
    verbose, config = config.verbose, replace(config.checked(), verbose=0)
    if config.word_ngrams <= 1 and config.maxn == 0:
        config = replace(config, bucket=0)  # as fastText's arguments: no n-grams, no buckets
    rng = np.random.default_rng(config.seed)
    strategy = _Search(config, settings.fixed)
    load_kernels(config)
    best, best_score, trials, too_large, started = None, None, 0, 0, clock()
    text = scan_text(train)  # read once: every trial and its retraining train on it

    def spent():
        return clock() - started >= settings.duration

    cost = TrialCost(size)
    while trials == 0 or not spent():
        progress = min(1.0, (clock() - started) / settings.duration)
        drawn = _draw_in_time(strategy, progress, rng, cost, started + settings.duration - clock())
        if drawn is None:  # every draw would be stopped by the budget: the search ends now
            if on_trial is not None:
                on_trial(Trial(trials, None, best_score, clock() - started, settings.duration))
            break
        trial, dsub = drawn
        trials += 1
        trial_started, real_started = clock(), time.perf_counter()
        try:
            with _quiet_logs():
                model = _trained(trial, text, size, dsub, stop=spent)
            value = score(model, settings.validation, metric, settings.predictions)
            cost.observe(trial, model, clock() - trial_started, time.perf_counter() - real_started)
        except TrainingStopped:
            trials -= 1  # discarded, as fastText's abort discards the trial it cuts short
            if on_trial is not None:
                on_trial(Trial(trials, None, best_score, clock() - started, settings.duration))
            break
        except _Skipped:
            value, too_large = None, too_large + 1
        except WordvecError:
            if trials == 1:
                raise  # the given settings themselves: the user's to fix
            value = None
        if value is not None and (best_score is None or value > best_score):
            best, best_score = (trial, dsub), value
            strategy.keep(trial, dsub)
        if on_trial is not None:
            on_trial(Trial(trials, value, best_score, clock() - started, settings.duration))
    if best is None:
        raise WordvecError(f"no trial met the model size of {size} bytes: give a larger model size"
                           if too_large else "no trial could be trained: give a longer autotune duration")
    return Found(replace(best[0], verbose=verbose), best[1], best_score, trials, size)


# Draws of one trial at most before the search gives up on finding one that fits the budget
MAX_DRAWS = 100
# The k-means of a quantization runs on at most this many rows (product_quantizer's max_points)
KMEANS_ROWS = 256 * 256


def _draw_in_time(strategy, progress, rng, cost, seconds_left):
    """The next trial's (config, dsub): the first of up to ``MAX_DRAWS`` draws that
    ``cost`` predicts to end within ``seconds_left``; None when none does."""
    for _ in range(MAX_DRAWS):
        trial, dsub = strategy.ask(progress, rng)
        if cost.predict(trial, dsub) <= seconds_left:
            return trial, dsub
    return None


def bag_rows(config):
    """Input rows per token of a training bag, roughly: the word, its word n-grams and,
    with character n-grams, about 4 for each n-gram length (a word of ~5 characters)."""
    return config.word_ngrams + (4 * (config.maxn - config.minn + 1) if config.maxn else 0)


class TrialCost:
    """The seconds a trial will take, predicted from those finished so far (0 before the
    first): training seconds per epoch × dim × ``bag_rows`` (twice with a model size: the
    retraining after the cutoff), and the rest (reading, scoring; with a model size the
    quantization's k-means, per dim × rows it clusters) at the rates of the trials so far,
    pooled. The rows a model size leaves are estimated as fastText does
    (getCutoffForFileSize, 10 bytes a word: more rows than are kept, words being longer)."""

    def __init__(self, size):
        self.size, self.n_labels = size, None
        self.train_seconds = self.train_units = self.rest_seconds = self.rest_units = 0.0
        self.trials = 0

    def _train_units(self, config):
        return config.epoch * config.dim * bag_rows(config) * (1 if self.size is None else 2)

    def _rest_units(self, dim, rows):
        return 1.0 if self.size is None else dim * min(rows, KMEANS_ROWS)

    def estimated_rows(self, dim, dsub):
        """fastText's cutoff for the model size, at least 1."""
        dsub = min(dsub, dim)
        budget = self.size - 107 - 4 * 256 * dim - (21 + 4 * self.n_labels * dim)
        return max(1, budget // (-(-dim // dsub) + 1 + 10))

    def observe(self, config, model, seconds, real_seconds):
        """Learn from a finished trial: its config, the model it made, its ``seconds`` by the
        search's clock; the share of its ``real_seconds`` that its epochs took (their
        ``history``) is its share of training."""
        share = min(1.0, sum(epoch.get("seconds", 0.0) for epoch in model.history) / max(real_seconds, 1e-9))
        training = share * seconds
        self.n_labels = model.W_out.shape[0]
        self.train_seconds += training
        self.train_units += self._train_units(config)
        self.rest_seconds += max(0.0, seconds - training)
        self.rest_units += self._rest_units(config.dim, model.W_in.shape[0])
        self.trials += 1

    def predict(self, config, dsub):
        """Seconds the trial ``config`` (quantized with ``dsub``) is expected to take."""
        if self.trials == 0:
            return 0.0
        train = self.train_seconds / max(self.train_units, 1.0) * self._train_units(config)
        rows = None if self.size is None else self.estimated_rows(config.dim, dsub)
        rest = self.rest_seconds / max(self.rest_units, 1e-9) * self._rest_units(config.dim, rows)
        return train + rest


def final_model(found, train, valid=None):
    """The model trained again with the settings ``found`` (quantized to its size);
    ``valid``: a file scored after every epoch (its history). Returns :class:`Tuned`."""
    model = _trained(found.config, train, found.size, found.dsub, valid)
    return Tuned(model, model.config, found.dsub if found.size is not None else None, found.score, found.trials)


@contextmanager
def _quiet_logs():
    """wordvec's log lines at WARNING and above only: a trial's reading and compiling notes
    would break the progress line."""
    logger = logging.getLogger("wordvec")
    level = logger.level
    logger.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        logger.setLevel(level)


class _Skipped(Exception):
    """A trial whose model cannot be made to fit the model size."""


def _trained(config, train, size, dsub, valid=None, stop=None):
    """A model trained with ``config`` (quantized to ``size`` bytes when given); ``stop``:
    as ``Classifier.fit``'s, for the training and the retraining after the cutoff."""
    model = Classifier(config=config).fit(train, valid, stop=stop)
    return model if size is None else fit_size(model, train, size, dsub, stop=stop)


def score(model, valid, metric, k):
    """The validation score of a trained ``model`` by a parsed :class:`Metric`."""
    label_id = ALL_LABELS
    if metric.label is not None:
        labels = list(model.dictionary.labels)
        if metric.label not in labels:
            raise WordvecError(f"the autotune metric's label {metric.label!r} is not a label of the training data")
        label_id = labels.index(metric.label)
    scores = file_label_scores(model, valid, k)
    if metric.kind == "precisionAtRecall":
        return scores.precision_at_recall(label_id, metric.value)
    if metric.kind == "recallAtPrecision":
        return scores.recall_at_precision(label_id, metric.value)
    pairs = scores.score_vs_true(label_id)
    predicted = sum(1 for s, _ in pairs if s >= 0)
    hits = sum(1 for s, gold in pairs if s >= 0 and gold == 1.0)
    gold = scores.total_gold if label_id == ALL_LABELS else int(scores.gold[label_id])
    return 2.0 * hits / (predicted + gold) if predicted + gold else 0.0


def fit_size(model, train, size, dsub=DEFAULT_DSUB, stop=None):
    """``model`` quantized (qnorm, retrained on ``train``) with the largest cutoff whose
    ``.ftz`` is ``size`` bytes at most (:func:`largest_cutoff`, computed before quantizing,
    so one quantization suffices); ``_Skipped`` when even MIN_CUTOFF rows do not fit.
    ``stop``: as ``Classifier.fit``'s, for the retraining."""
    dim = model.W_in.shape[1]
    dsub = min(dsub, dim)
    check_allocation(4 * dim * (model.dictionary.nwords + model.dictionary.bucket), "quantizing a trial")
    cutoff = largest_cutoff(model, size, dsub)
    if cutoff <= MIN_CUTOFF:
        raise _Skipped()
    config = model.config
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.ftz")
        while True:  # once: the cutoff is exact; a written file over the size lowers it again
            small = model.quantize(cutoff=int(cutoff), retrain=True, qnorm=True, dsub=dsub, input=train,
                                   epoch=config.epoch, lr=config.lr, threads=config.threads, stop=stop)
            small.save(path)
            written = os.path.getsize(path)
            if written <= size:
                return small
            if cutoff <= MIN_CUTOFF:
                raise _Skipped()
            cutoff = max(MIN_CUTOFF, int(cutoff * size / written * 0.95))


# The bytes of a quantized classifier's .ftz that do not depend on its cutoff, past the
# labels and matrices (fastText 0.9.2's saveModel: wordvec.io.fasttext_bin): magic,
# version, 12 int args and a double (64), the dictionary's header (28), the input matrix's
# flag and header (1 + 21), its product quantizer's header (16), the norms' quantizer's
# header and 256 centroids (16 + 1024), the output matrix's flag and header (1 + 16).
FTZ_FIXED_BYTES = 64 + 28 + 1 + 21 + 16 + 16 + 4 * 256 + 1 + 16


def ftz_bytes(model, dsub, order):
    """The size of the .ftz of ``model`` quantized (qnorm, ``dsub``) with cutoff c, for c =
    1 .. len(order), ``order`` being the rows as the cutoff keeps them (``select_rows``):
    a kept word costs its entry (UTF-8 bytes, a 0, its count and type: 10 bytes more), a
    kept n-gram row its prune-index pair (8), every kept row its codes and norm code."""
    d = model.dictionary
    dim, n_out = model.W_in.shape[1], model.W_out.shape[0]
    fixed = (FTZ_FIXED_BYTES + sum(len(label.encode("utf-8", "surrogateescape")) + 10 for label in d.labels)
             + 4 * 256 * dim + 4 * n_out * dim)
    word_bytes = np.array([len(word.encode("utf-8", "surrogateescape")) + 10 for word in d.words], dtype=np.int64)
    per_row = np.where(order < d.nwords, word_bytes[np.minimum(order, d.nwords - 1)], 8)
    return fixed + np.cumsum(per_row + -(-dim // dsub) + 1)


def largest_cutoff(model, size, dsub):
    """The largest cutoff (at most the model's rows) whose quantized .ftz is ``size``
    bytes at most (:func:`ftz_bytes`); 0 when not even one row fits."""
    full = model.expanded()
    order = select_rows(full.dictionary, full.W_in, full.W_in.shape[0])
    return int(np.searchsorted(ftz_bytes(full, dsub, order), size, side="right"))


class _Search:
    """fastText's ``AutotuneStrategy``: the best settings so far and the draws around them."""

    def __init__(self, config, fixed):
        self.fixed = frozenset(fixed)
        self.best, self.first = config, True
        self.best_minn_index = MINN_CHOICES.index(config.minn) if config.minn in MINN_CHOICES else 0
        self.best_dsub_exponent, self.best_bucket = 1, 2_000_000
        self.given_bucket = config.bucket
        self.keep(config, DEFAULT_DSUB)

    def keep(self, config, dsub):
        self.best = config
        self.best_minn_index = MINN_CHOICES.index(config.minn) if config.minn in MINN_CHOICES else 0
        self.best_dsub_exponent = int(math.log2(dsub))
        if config.bucket:
            self.best_bucket = config.bucket

    def ask(self, progress, rng):
        """(config, dsub) of the next trial; ``progress`` in [0, 1] is the budget spent."""
        if self.first:
            self.first = False
            return self.best, DEFAULT_DSUB
        best, fixed, changes = self.best, self.fixed, {}

        def draw(name, value, low, high, start, end, linear):
            if name in fixed:
                return value
            sigma = start - (start - end) / 0.5 * min(0.5, max(progress - 0.25, 0.0))
            step = rng.normal(0.0, sigma)
            drawn = value + step if linear else value * 2.0 ** step
            drawn = drawn if name == "lr" else int(drawn)  # fastText's static_cast truncates
            return min(max(drawn, low), high)

        changes["epoch"] = draw("epoch", best.epoch, 1, 100, 2.8, 2.5, False)
        changes["lr"] = draw("lr", best.lr, 0.01, 5.0, 1.9, 1.0, False)
        changes["dim"] = draw("dim", best.dim, 1, 1000, 1.4, 0.3, False)
        changes["word_ngrams"] = draw("word_ngrams", best.word_ngrams, 1, 5, 4.3, 2.4, True)
        dsub = DEFAULT_DSUB if "dsub" in fixed else 2 ** draw("dsub", self.best_dsub_exponent, 1, 4, 2.0, 1.0, True)
        if "minn" not in fixed:
            changes["minn"] = MINN_CHOICES[draw("minn", self.best_minn_index, 0, len(MINN_CHOICES) - 1, 4.0, 1.4,
                                                True)]
        minn = changes.get("minn", best.minn)
        if "maxn" not in fixed:
            changes["maxn"] = 0 if minn == 0 else minn + 3
        if "bucket" in fixed:
            changes["bucket"] = self.given_bucket
        else:
            changes["bucket"] = draw("bucket", self.best_bucket, 10_000, 10_000_000, 2.0, 1.5, False)
        if changes["word_ngrams"] <= 1 and changes.get("maxn", best.maxn) == 0:
            changes["bucket"] = 0
        if "loss" not in fixed:
            changes["loss"] = "softmax"
        return replace(best, **changes), dsub
