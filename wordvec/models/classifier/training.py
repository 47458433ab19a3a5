"""The training run of the classifier: fastText's Hogwild threads, learning-rate decay,
initialisation and progress line, around the compiled SGD (``wordvec.kernels.classifier``).

``run_epochs`` trains any object with ``W_in``, ``W_out``, ``config``, ``loss_code``,
``hs_tree()`` and ``history`` (a ``Classifier``); ``valid``, when given, is a function
of the model returning its validation P@1 after each epoch; ``stop``, when given, a
function asked between pieces of an epoch whether to give up (:class:`TrainingStopped`).
"""

import threading
import time
from dataclasses import replace
from functools import partial

import numba
import numpy as np

from wordvec.data import labels as label_data
from wordvec.errors import WordvecError
from wordvec.kernels import classifier as kernels
from wordvec.kernels import loader
from wordvec import progress
from wordvec.memory import check_allocation


def load_kernels(config):
    """Load the compiled kernels of a training run with ``config`` (reading and encoding the
    text, initialisation, both epoch kernels: threads, and streams interleaved on one
    thread, as which one runs depends on the corpus's size, not known yet) through the one
    loader (``wordvec.kernels.loader``), which then hands LLVM's pages back
    (``wordvec.memory``): loading them touches ~50 MB of LLVM, which otherwise stays
    resident beside the data (genre unigrams' peak: 242 -> ~195 MB). Called before the
    text is read."""
    loader.load_kernels(partial(label_data.warm_up, config.word_ngrams, config.minn, config.maxn, config.label),
                        kernels.warm_up)


# With a stop function, an epoch runs in compiled calls of this many tokens per thread, and
# stop is asked before each: a few milliseconds each at dim 100, a fraction of a second at
# dim 1000 with word and character n-grams.
STOP_CHECK_TOKENS = 50_000
# ... and the input matrix is filled this many values at a time (a fraction of a second).
FILL_CHECK_VALUES = 1 << 24


class TrainingStopped(Exception):
    """Training gave up because its ``stop`` function said so; ``tokens``: the tokens
    trained (all threads) before it did, of ``total`` (None: it stopped before training)."""

    def __init__(self, tokens=0, total=None):
        super().__init__("training stopped before it began" if total is None
                         else f"training stopped after {tokens:,} of {total:,} tokens")
        self.tokens, self.total = tokens, total


def check_stop(stop):
    """Raise :class:`TrainingStopped` when ``stop`` (None: never) says to."""
    if stop is not None and stop():
        raise TrainingStopped()


def uniform_rows(n_rows, dim, seed, sources=None, stop=None):
    """fastText's initialisation, U(-1/dim, 1/dim), in float32, filled on all cores: row k
    gets the values of matrix row ``sources[k]`` (default: its own); rows past the sources
    are zero. With ``stop`` (as ``run_epochs``'), filled ``FILL_CHECK_VALUES`` values at a
    time, ``stop`` asked before each (a row's values depend on its source row only)."""
    check_allocation(4 * n_rows * dim, f"a matrix of {n_rows:,} rows (words, labels, --bucket) x {dim} (--dim)")
    sources = np.arange(n_rows, dtype=np.int64) if sources is None else np.asarray(sources, dtype=np.int64)
    W = np.empty((n_rows, dim), dtype=np.float32)
    W[len(sources):] = 0.0
    block = max(1, len(sources) if stop is None else FILL_CHECK_VALUES // dim)
    for begin in range(0, len(sources), block):
        check_stop(stop)
        kernels.uniform_fill(W[begin:begin + block], sources[begin:begin + block], 1.0 / dim, seed)
    return W


def compact_buckets(dictionary, encoded):
    """Keep only the n-gram buckets some training bag uses; returns (dictionary, sources).

    A bucket no training document uses gets no gradient: fastText's file keeps its random
    start. Here it is not stored at all: ``encoded.rows`` is renumbered in place to words,
    then the used buckets in order, and the dictionary's ``row_of_bucket`` sends every
    unused bucket to one zero row after them; ``sources`` is the full-matrix row each
    stored row starts from (the zero row excluded). With ``--word-ngrams 2`` most of the
    2M buckets of a small corpus are unused (SST: 96 %; imdb: 35 %), and their rows are
    neither filled nor resident. The model is the same for every n-gram seen in training;
    an unseen one adds a zero row to a bag where fastText adds a random row of size 1/dim.
    ``sources`` is None (nothing changed) without buckets, or when nearly all are used."""
    nwords, bucket = dictionary.nwords, dictionary.bucket
    if bucket == 0 or dictionary.prune_index is not None or dictionary.row_of_bucket is not None:
        return dictionary, None
    # a flag per row, then int32 row numbers of every bucket and row: 9 bytes a bucket
    check_allocation(9 * (nwords + bucket), f"the n-gram bucket table of --bucket {bucket:,}")
    bags = encoded.rows[:encoded.row_offsets[-1]]
    used = np.zeros(nwords + bucket, dtype=bool)
    used[bags] = True
    used_buckets = np.flatnonzero(used[nwords:])
    if len(used_buckets) > 0.9 * bucket:
        return dictionary, None
    row_of_bucket = np.full(bucket, nwords + len(used_buckets), dtype=np.int32)
    row_of_bucket[used_buckets] = nwords + np.arange(len(used_buckets), dtype=np.int32)
    bags[:] = np.concatenate([np.arange(nwords, dtype=np.int32), row_of_bucket])[bags]
    return replace(dictionary, row_of_bucket=row_of_bucket), np.concatenate([np.arange(nwords), nwords + used_buckets])


def thread_starts(doc_tokens, n_threads):
    """Where each thread starts reading: at t / n_threads of the tokens (fastText starts
    thread t at t / n_threads of the file's bytes)."""
    cumulative = np.cumsum(doc_tokens)
    total = cumulative[-1] if len(cumulative) else 0
    return [0, *np.searchsorted(cumulative, [total * t / n_threads for t in range(1, n_threads)],
                                side="right").tolist()]


def drift_positions(positions, n_docs, rng):
    """Send every thread but the first to a random document (uniform, from ``rng``).

    fastText's threads are never re-synchronised: they race at uneven speeds (time slices,
    other work on the cores) with no barrier between epochs, so after a while their
    distance in the file is arbitrary and which documents meet in the shared matrices
    changes from epoch to epoch. wordvec's compiled threads run in step and meet at every
    epoch's end, so without this every epoch would merge the same two document orders.
    Simulated step by step (benchmarks/diagnostics/diag_classify_schedule.py, 10 seeds, record
    classify-schedule-20261126.json), that repetition gives SST-2 / SST-5 unigrams P@1
    79.5 / 39.3, this move 80.0 / 40.0, fastText's schedule with its threads racing
    80.1 / 39.3 (a random walk of ±√(documents per thread) instead, tried first, helped
    SST-2 but not SST-5)."""
    if len(positions) > 1:
        positions[1:] = rng.integers(n_docs, size=len(positions) - 1)


# Below this many tokens per thread per epoch, the threads' streams run interleaved on one
# thread (kernels.train_interleaved) instead of on OS threads (see run_epochs).
INTERLEAVE_BELOW = 200_000


def run_epochs(model, encoded, valid=None, interleave_below=None, stop=None):
    """Hogwild SGD as fastText's trainThread: thread t starts at t / n of the data and reads
    on, wrapping around at the end, until every thread has read its share (epochs × tokens
    / threads); so each thread sees the whole data, as in fastText, not a fixed part of it.
    Before each later epoch every thread but the first moves to a random document
    (``drift_positions``): fastText's unsynchronised threads end up at arbitrary distances.
    One "epoch" below is 1 / epochs of every thread's share (for the loss and validation).

    Small corpora (under ``interleave_below`` tokens per thread per epoch, by default
    ``INTERLEAVE_BELOW``) run the same streams interleaved by token clock on one thread
    (``kernels.train_interleaved``): the order threads running at one pace per token would
    give, and the order the simulation of this schedule trains in. Real threads do not get there on so short an epoch:
    logged 2-thread runs (benchmarks/diagnostics/diag_classify_schedule.py --overlap, record
    classify-thread-overlap-20261126.json, 3 seeds × 9 epochs) merged only 70-75 % of an
    SST unigram epoch's documents with the other thread's (an epoch: 74-90k tokens per
    thread, 8-11 ms; 5 of 27 epochs merged none: one thread ran after the other), and
    imdb's first 1000 documents (125k tokens per thread) 56 % (7 of 27 epochs none); from
    246k tokens per thread (imdb's first 2000 documents) every epoch merged, and the full
    imdb (2.4M) 96 %. Large corpora keep their parallel threads.

    ``stop`` (a function without arguments) is asked before every ``STOP_CHECK_TOKENS``
    tokens per thread; once it returns true, training ends with :class:`TrainingStopped`
    and the model is left half trained. Without it an epoch is one compiled call; with it
    the same model comes out when it never stops (the kernels give the same documents the
    same learning rates however an epoch is cut), except for threads running at once,
    whose Hogwild races differ from run to run anyway."""
    config = model.config
    tree = model.hs_tree()
    interleave_below = INTERLEAVE_BELOW if interleave_below is None else interleave_below
    tokens_per_epoch = int(encoded.doc_tokens.sum())
    if tokens_per_epoch == 0 or len(encoded.labels) == 0:
        raise WordvecError("the training data has no labelled documents")
    total = config.epoch * tokens_per_epoch
    positions = np.array(thread_starts(encoded.doc_tokens, config.threads), dtype=np.int64)
    share = tokens_per_epoch / config.threads
    progress = ProgressLine(total, config.threads, config.lr, enabled=config.verbose > 0)
    states = np.arange(1, config.threads + 1, dtype=np.uint64) + np.uint64(config.seed * 7919)
    drift = np.random.default_rng(config.seed)
    try:
        for epoch in range(config.epoch):
            started = time.perf_counter()
            if epoch > 0:
                drift_positions(positions, len(encoded.doc_tokens), drift)
            budgets = np.full(config.threads, int(round(share * (epoch + 1))) - int(round(share * epoch)), np.int64)
            counters = [np.zeros(config.threads), np.zeros(config.threads, np.int64),
                        np.zeros(config.threads, np.int64)]
            stopped = _run_streams(model, encoded, tree, positions, budgets, epoch * tokens_per_epoch, total, states,
                                   counters, progress, interleaved=share < interleave_below, stop=stop)
            if stopped:
                raise TrainingStopped(epoch * tokens_per_epoch + int(counters[2].sum()), total)
            loss = float(counters[0].sum() / max(1, counters[1].sum()))
            if not np.isfinite(loss):
                raise WordvecError(f"the loss diverged in epoch {epoch + 1} (lr {config.lr} is too high)")
            record = {"epoch": epoch + 1, "loss": loss, "seconds": time.perf_counter() - started}
            if valid is not None:
                record["valid_p@1"] = valid(model)
            model.history.append(record)
    finally:
        progress.close()


def _run_streams(model, encoded, tree, positions, budgets, tokens_before, total, states, counters, progress,
                 interleaved=False, stop=None):
    """One epoch of all threads in one compiled call (run in a worker thread: the kernel
    releases the GIL, so this thread can refresh the progress line meanwhile); with
    ``interleaved``, all streams on that one thread, merged by token clock. With ``stop``,
    the epoch runs in calls of ``STOP_CHECK_TOKENS`` tokens per thread, ``stop()`` asked
    before each; returns whether it said to stop."""
    failure, stopped = [], []
    train = kernels.train_interleaved if interleaved else kernels.train_streams
    arguments = (kernels.Matrices(model.W_in, model.W_out),
                 kernels.Documents(encoded.rows, encoded.row_offsets, encoded.labels, encoded.label_offsets,
                                   encoded.doc_tokens),
                 kernels.make_outputs(model.loss_code, tree),
                 kernels.make_schedule(model.config.lr, tokens_before, total))

    def train_in_pieces():
        # one budget for every stream, rising by a piece a call: the interleaved order holds
        reached = 0
        while (counters[2] < budgets).any():
            if stop():
                stopped.append(True)
                return
            reached += STOP_CHECK_TOKENS
            train(*arguments, kernels.Streams(positions, np.minimum(budgets, reached), states),
                  kernels.Counters(*counters))

    def work():
        try:
            if not interleaved:
                numba.set_num_threads(min(len(positions), numba.config.NUMBA_NUM_THREADS))
            if stop is None:
                train(*arguments, kernels.Streams(positions, budgets, states), kernels.Counters(*counters))
            else:
                train_in_pieces()
        except BaseException as error:  # re-raised in the calling thread
            failure.append(error)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)
        progress.show(tokens_before + counters[2].sum(), counters[0].sum(), counters[1].sum())
    if failure:
        raise failure[0]
    return bool(stopped)


class ProgressLine:
    """fastText's progress line: Progress, words/sec/thread, lr, loss (on stderr)."""

    def __init__(self, total, n_threads, lr, enabled=True):
        self.total, self.n_threads, self.lr = total, n_threads, lr
        self.enabled = progress.drawn(enabled, terminal_only=False)
        self.started = time.perf_counter()
        self.bar = None
        if self.enabled:
            self.bar = progress.bar(100, "", enabled=True, terminal_only=False, leave=True, bar_format="{desc}")

    def show(self, done, loss, examples):
        if self.bar is None:
            return
        seconds = max(time.perf_counter() - self.started, 1e-9)
        self.bar.set_description_str(
            f"Progress: {100.0 * done / self.total:5.1f}% words/sec/thread: {done / seconds / self.n_threads:8.0f} "
            f"lr: {self.lr * max(0.0, 1 - done / self.total):9.6f} avg.loss: {loss / max(1, examples):9.6f}",
            refresh=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()
