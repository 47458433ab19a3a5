"""Data-parallel training on Ray: word2vec (every objective) and GloVe.

Each worker is a Ray actor holding a full replica of the parameters and a fixed shard of
the data (word2vec: a contiguous range of whole documents; GloVe: a random share of the
non-zeros of X).  It trains its shard with the models' own compiled kernels (one thread
per actor), in rounds: after every ``sync_every`` words (GloVe: entries) per worker, the
driver combines the replicas and sends every worker the synchronised parameters.
word2vec also synchronises its ``hot_rows`` busiest rows of each matrix in between,
every ``hot_sync_every`` words: partial rounds (``train_word2vec``).

Two ways to combine (``sync``):

* ``"sparse-sum"`` (default): each worker sends the delta (trained - synchronised) of
  the rows it touched, as (row ids, rows); the driver adds the deltas, as Hogwild
  threads would, and sends back the new values of the union of touched rows.  Bytes
  per round follow the rows actually touched.  On wordbench-10m (CBOW, 2 workers) this
  gave 24.0% analogy against 20.2% for the mean below and 26.2% for one process at
  1M words per sync, 25.3% at 100k, and 25.35% with the default hot rows; on
  the 417-word synthetic corpus, where every row is hot, adding overshoots (loss 2.52
  against 2.31).  GloVe always adds: its workers train different entries of X with
  AdaGrad, and the summed accumulators are those of one run (averaging halved the
  steps: loss 0.093 instead of 0.077 after 6 epochs).
* ``"sparse"``: the same sparse deltas, averaged over the workers that touched a row
  (word2vec; a row only one worker touched keeps that worker's whole step), so a row
  every worker moves gets the mean of their steps: half the updates with 2 workers.
* ``"average"``: model averaging; each worker sends its whole replica, the driver sends
  back the mean.  Bytes per round are the whole model, twice per worker, and a row only
  one worker touched moves by 1/W of its step.

Learning-rate schedule (word2vec): the single-process one, alpha decaying linearly over
the global word count.  The workers move through their shards in lockstep, so when a
worker is at fraction f of its shard in epoch e, the corpus-wide position is
e * N + f * N; each chunk trains at that position.  Per-chunk random states come from
``schedule.chunk_seed`` with corpus-wide chunk numbers, and each epoch visits a shard's
chunks in a fresh seeded order (``shuffle``).

Fault tolerance: a worker that dies (its process killed, its node lost) makes
``ray.get`` raise ``RayActorError``; the driver starts a new actor from its own copy of
the last synchronised parameters and has it redo that worker's round (same chunks, same
random states), so the run goes on and ends exactly where it would have.
"""

import logging
import math
import os
import time

import numpy as np

from wordvec.data import schedule
from wordvec.distributed import (DEFAULT_HOT_ROWS, DEFAULT_SYNC, DEFAULT_SYNC_EVERY, GLOVE_SYNC_EVERY,
                                 SYNC_MODES, cluster, require_ray)
from wordvec.data.encode import EncodedCorpus
from wordvec.data.vocab import Vocabulary
from wordvec.errors import TrainingError, WordvecError
from wordvec.kernels import glove as glove_kernels
from wordvec.kernels import sync as sync_kernels
from wordvec.math.row_deltas import as_rows, reference_row_deltas
from wordvec.models.word2vec import epochs as word2vec_epochs
from wordvec.models.count.glove import PARAMETERS, train_entries
from wordvec.models.word2vec.model import Word2Vec
from wordvec.models.word2vec.epochs import load_kernels

log = logging.getLogger(__name__)

MAX_RESTARTS = 3  # per worker and round


# -- replicas (the actors' logic; plain classes, made remote by ``_start``) ------------

def row_deltas(current, base):
    """``wordvec.math.row_deltas.reference_row_deltas``, compiled (``wordvec.kernels.sync``)."""
    rows = np.empty(len(current), np.int32)
    deltas = np.empty_like(current)
    k = sync_kernels.touched_row_deltas(as_rows(current), as_rows(base), rows, as_rows(deltas))
    return rows[:k], deltas[:k]  # views of the first k rows: only those are serialised


def add_row_deltas(array, rows, deltas, divisor):
    """``wordvec.math.row_deltas.reference_add_row_deltas``, compiled (``wordvec.kernels.sync``)."""
    sync_kernels.add_row_deltas(as_rows(array), rows, as_rows(deltas), divisor)


def hot_row_deltas(current, base, hot):
    """``reference_row_deltas`` restricted to the rows ``hot`` (sorted int32 ids)."""
    rows, deltas = reference_row_deltas(current[hot], base[hot])
    return hot[rows], deltas


class Replica:
    """A replica of the parameters ``params`` (name -> array, updated in place by the
    subclass's ``_train``) and a copy ``base`` of them as last synchronised.  ``hot``
    (name -> sorted row ids, optional): the rows a partial round synchronises."""

    def __init__(self, params, sync, hot=None):
        self.params = params
        self.base = {name: array.copy() for name, array in params.items()}
        self.sync = sync
        self.hot = hot

    def pid(self):
        return os.getpid()

    def train_round(self, update, epoch, round_index, rounds, full=True):
        """Apply the last synchronisation ``update``, train this round; return what the
        driver combines (every row's, or with ``full=False`` the hot rows' only), the
        summed loss and (words or entries, examples)."""
        self._apply(update)
        loss, stats = self._train(epoch, round_index, rounds)
        return self._outgoing(full or self.hot is None), loss, stats

    def _apply(self, update):
        if update is None:
            return
        for name, (rows, values) in update.items():
            where = Ellipsis if rows is None else rows
            self.base[name][where] = values
            self.params[name][where] = values  # rows this worker did not touch are equal already

    def _outgoing(self, full):
        if not full:  # the other rows keep their drift from base for the next full round
            if self.sync == "average":
                return {name: (self.hot[name], array[self.hot[name]]) for name, array in self.params.items()}
            return {name: hot_row_deltas(array, self.base[name], self.hot[name])
                    for name, array in self.params.items()}
        if self.sync == "average":
            return {name: (None, array) for name, array in self.params.items()}
        return {name: row_deltas(array, self.base[name]) for name, array in self.params.items()}


class Word2VecReplica(Replica):
    def __init__(self, hyperparameters, vocabulary, shard, plan, params, sync, hot_rows=0):
        load_kernels(text=False, vector_size=hyperparameters["vector_size"])
        words, counts, corpus_tokens, min_count = vocabulary
        model = Word2Vec(**hyperparameters, progress=False)
        model.set_vocabulary(Vocabulary(words, counts, corpus_tokens=corpus_tokens, min_count=min_count))
        for name, values in params.items():
            getattr(model, name)[...] = values
        model.planned_words = plan["planned_words"]
        self.model, self.plan, self.shard = model, plan, shard
        self.trainer = model.chunk_trainer(EncodedCorpus(shard["ids"], shard["offsets"]))
        self._epoch_plan = (None, None, None)
        hot = self._hot_rows(hot_rows, params) if hot_rows else None
        super().__init__({name: getattr(model, name) for name in params}, sync, hot)

    def _hot_rows(self, n, params):
        """The ``n`` rows of each matrix that take the most updates: the most frequent
        words' (the vocabulary is sorted by count: the first rows, which also draw most
        negatives), and the inner nodes on the most frequent words' Huffman paths."""
        hot = {name: np.arange(min(n, len(params[name])), dtype=np.int32) for name in params}
        if "W_inner" in params:  # a node's updates: the counts of the words whose path holds it
            t = self.trainer
            on_path = np.arange(t.points.shape[1]) < t.lengths[:, None]
            word_counts = np.broadcast_to(self.model.vocab.counts[:, None], t.points.shape)
            usage = np.bincount(t.points[on_path], weights=word_counts[on_path], minlength=len(params["W_inner"]))
            hot["W_inner"] = np.sort(np.argsort(-usage, kind="stable")[:n]).astype(np.int32)
        return hot

    def _chunks_of(self, epoch):
        """(order, starting position within the shard of each chunk) for ``epoch``."""
        if self._epoch_plan[0] != epoch:
            sizes = self.trainer.chunk_sizes
            if self.model.shuffle:
                order = schedule.chunk_order(self.shard["order_seed"], epoch, sizes.size)
            else:
                order = np.arange(sizes.size, dtype=np.int64)
            self._epoch_plan = (epoch, order, schedule.positions_in_epoch(sizes, order))
        return self._epoch_plan[1], self._epoch_plan[2]

    def _train(self, epoch, round_index, rounds):
        order, positions = self._chunks_of(epoch)
        bounds, N = self.trainer.bounds, self.plan["corpus_words"]
        shard_words = max(1, int(self.trainer.chunk_sizes.sum()))
        loss, stats = 0.0, np.zeros(2, np.int64)
        for index in order.tolist():
            position = int(positions[index])
            if position * rounds // shard_words != round_index:
                continue
            words_before = epoch * N + position * N // shard_words  # the global schedule
            seed = schedule.chunk_seed(self.model.seed, epoch, self.shard["first_chunk"] + index)
            chunk_loss, chunk_stats = self.trainer.train_documents_at(
                bounds[index], bounds[index + 1], words_before, seed)
            loss += chunk_loss
            stats += chunk_stats
        return loss, stats


class GloVeReplica(Replica):
    def __init__(self, entries, options, params, sync):
        self.kernels = glove_kernels
        self.entries = np.array(entries)  # writable: one kernel signature with the model's own
        self.as_float = self.entries.view(np.float32)
        self.order = np.empty(len(self.entries), np.int32)
        self.options, self._shuffled_for = options, None
        super().__init__({name: np.array(values) for name, values in params.items()}, sync)

    def _train(self, epoch, round_index, rounds):
        if self._shuffled_for != epoch:
            self.kernels.shuffle_order(self.order, self.options["order_seed"], epoch)
            self._shuffled_for = epoch
        n, p = len(self.order), self.params
        loss, updates = train_entries(
            glove_kernels.Entries(self.entries, self.as_float, self.order), n * round_index // rounds,
            n * (round_index + 1) // rounds, glove_kernels.Parameters(*(p[name] for name in PARAMETERS)),
            glove_kernels.Parameters(*(p[f"gradsq_{name}"] for name in PARAMETERS)),
            self.options["learning_rate"], self.options["grad_clip"])
        return loss, np.array([updates, updates], np.int64)


# -- the driver ------------------------------------------------------------------------

def combine(base, results, sync, deltas="mean"):
    """Fold the workers' round results into ``base`` (in place, in worker order) and
    return the update every worker applies: name -> (rows or None for all, values).
    Sparse ``deltas`` of a row are averaged over the workers that touched it ("mean") or
    added ("sum")."""
    update = {}
    for name, array in base.items():
        if sync == "average":  # every worker sends the same rows: all (None), or the hot ones
            rows = results[0][name][0]
            where = Ellipsis if rows is None else rows
            total = np.zeros(array[where].shape, np.float64)
            for outgoing in results:
                total += outgoing[name][1]
            array[where] = total / len(results)
            update[name] = (rows, array if rows is None else array[rows])
        else:
            touched_by = np.zeros(len(array), np.float32)
            for outgoing in results:
                touched_by[outgoing[name][0]] += 1
            divisor = touched_by if deltas == "mean" else np.ones(len(array), np.float32)
            for outgoing in results:
                add_row_deltas(array, *outgoing[name], divisor)
            union = np.flatnonzero(touched_by).astype(np.int32)
            update[name] = (union, array[union])
    return update


def message_bytes(message):
    """Bytes of the arrays in one worker's result or one update (what crosses the network)."""
    return sum((0 if rows is None else rows.nbytes) + values.nbytes for rows, values in message.values())


class DataParallelRun:
    """Rounds of training on Ray actors, with synchronisation and restarts of dead workers.

    ``start(worker, base)`` creates worker ``worker``'s actor from parameters ``base``;
    ``on_round(run, info)`` (optional) is called after every synchronisation."""

    def __init__(self, start, n_workers, base, sync, on_round=None, deltas="mean"):
        self.ray = require_ray()
        self.start, self.base, self.sync, self.on_round = start, base, sync, on_round
        self.deltas = deltas
        self.actors = [start(w, base) for w in range(n_workers)]
        self.restarts = 0
        self.bytes_up = self.bytes_down = self.syncs = 0
        self._update_ref = None
        # since the last full round: the parameters it left (None: ``base``, no partial
        # round since) and the partial rounds' calls, which a restarted worker replays
        self._last_full = None
        self._partial_rounds = []

    def worker_pids(self):
        return self.ray.get([actor.pid.remote() for actor in self.actors])

    def round(self, epoch, round_index, rounds, full=True):
        """Train one round on every worker and synchronise every row (``full``) or the
        workers' hot rows only; returns (loss, stats summed)."""
        from ray.exceptions import RayActorError

        call = (self._update_ref, epoch, round_index, rounds, full)
        refs = [actor.train_round.remote(*call) for actor in self.actors]
        results, loss, stats = [], 0.0, np.zeros(2, np.int64)
        for worker, ref in enumerate(refs):
            for attempt in range(MAX_RESTARTS + 1):
                try:
                    outgoing, worker_loss, worker_stats = cluster.get(ref)
                    break
                except RayActorError as error:
                    if attempt == MAX_RESTARTS:
                        raise TrainingError(f"worker {worker} died {attempt + 1} times in epoch {epoch + 1}, "
                                            f"round {round_index + 1}; giving up") from None
                    log.warning("worker %d died in epoch %d, round %d (%s); restarting it from the last "
                                "synchronised parameters", worker, epoch + 1, round_index + 1,
                                type(error).__name__)
                    self.restarts += 1
                    ref = self._restart(worker, call)
            results.append(outgoing)
            loss += worker_loss
            stats += worker_stats
        self.bytes_up += sum(message_bytes(r) for r in results)
        if full:
            self._last_full, self._partial_rounds = None, []
        else:
            if self._last_full is None:  # base is still what the last full round left
                self._last_full = {name: array.copy() for name, array in self.base.items()}
            self._partial_rounds.append(call)
        update = combine(self.base, results, self.sync, self.deltas)
        del results
        self.bytes_down += message_bytes(update) * len(self.actors)
        self.syncs += 1
        self._update_ref = self.ray.put(update)
        if self.on_round is not None:
            self.on_round(self, {"epoch": epoch, "round": round_index})
        return loss, stats

    def _restart(self, worker, call):
        """A new actor for ``worker`` in the state its predecessor had when it started
        ``call``: the parameters of the last full round, then the partial rounds since
        (their results dropped: the driver has them), then ``call`` itself, whose result
        ref is returned.  Every chunk's schedule and random state are fixed, so it ends
        exactly where the dead one would have."""
        start_from = self.base if self._last_full is None else self._last_full
        actor = self.actors[worker] = self.start(worker, start_from)
        for replayed in self._partial_rounds:  # an actor runs its calls in order
            actor.train_round.remote(*replayed)
        return actor.train_round.remote(*call)  # its update only sets rows to values they have

    def close(self):
        for actor in self.actors:
            self.ray.kill(actor)


def plan_workers(workers_per_node):
    """Node ids, one per worker: ``workers_per_node`` (default: its CPUs) on every live node."""
    placement = []
    for node, cpus in cluster.worker_nodes():
        n = cpus if workers_per_node is None else workers_per_node
        if n > cpus:
            raise WordvecError(f"--workers-per-node {n} is more than the {cpus} CPUs of Ray node {node[:8]}")
        placement += [node] * n
    return placement


def _check_sync(sync, sync_every):
    if sync not in SYNC_MODES:
        raise WordvecError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")
    if not isinstance(sync_every, (int, np.integer)) or sync_every < 1:
        raise WordvecError(f"sync_every must be a positive whole number, not {sync_every!r}")


def _remote(cls, node):
    ray = require_ray()
    return ray.remote(num_cpus=1, max_restarts=0)(cls).options(scheduling_strategy=cluster.on_node(node, soft=True))


def _sync_info(run, before):
    up, down, syncs = (run.bytes_up - before[0], run.bytes_down - before[1], run.syncs - before[2])
    return {"syncs": syncs, "sync_bytes": up + down, "bytes_per_sync": (up + down) / max(1, syncs),
            "restarts": run.restarts}


def _round_plan(sync_every, hot_rows, hot_sync_every):
    """(words per worker in a round, every how many rounds one is full) for word2vec."""
    if not isinstance(hot_rows, (int, np.integer)) or hot_rows < 0:
        raise WordvecError(f"hot_rows must be a whole number of rows, 0 for none, not {hot_rows!r}")
    if not hot_rows:
        return sync_every, 1
    if hot_sync_every is None:
        hot_sync_every = max(1, sync_every // 10)
    if not isinstance(hot_sync_every, (int, np.integer)) or not 1 <= hot_sync_every <= sync_every:
        raise WordvecError(f"hot_sync_every must be a whole number of words from 1 to sync_every "
                           f"({sync_every}), not {hot_sync_every!r}")
    return hot_sync_every, max(1, round(sync_every / hot_sync_every))


def train_word2vec(model, encoded, workers_per_node=None, sync=DEFAULT_SYNC, sync_every=DEFAULT_SYNC_EVERY,
                   on_round=None, hot_rows=DEFAULT_HOT_ROWS, hot_sync_every=None):
    """Train ``model`` (a ``Word2Vec`` with its vocabulary set) for ``model.epochs`` epochs
    on ``encoded`` with Ray workers; fills ``model.history`` like ``Word2Vec.train``.

    Every row is synchronised each ``sync_every`` words per worker.  With ``hot_rows``
    n > 0 (0: off) the n rows of each matrix that take the most updates
    (``Word2VecReplica._hot_rows``) are synchronised more often, every ``hot_sync_every``
    words (default: a tenth of ``sync_every``): they are where the replicas drift apart
    fastest, and a few thousand rows cost little to send."""
    ray = require_ray()
    _check_sync(sync, sync_every)
    round_words, full_every = _round_plan(sync_every, hot_rows, hot_sync_every)
    placement = plan_workers(workers_per_node)
    N = encoded.num_tokens
    if N == 0:
        raise TrainingError("the corpus has no words of the vocabulary: an epoch would train nothing")
    offsets = np.asarray(encoded.offsets, dtype=np.int64)
    chunk_bounds = schedule.chunk_bounds(offsets, word2vec_epochs.CHUNK_WORDS)  # read at call time: tests shrink it
    n_chunks = chunk_bounds.size - 1
    W = min(len(placement), n_chunks)
    # shard s: chunks cuts[s]..cuts[s+1]-1, about N / W tokens each
    chunk_starts = offsets[chunk_bounds[:-1]]
    cuts = np.unique(np.concatenate([[0], np.searchsorted(chunk_starts, np.arange(1, W) * N / W), [n_chunks]]))
    W = cuts.size - 1
    model.planned_words = model.epochs * N
    plan = {"planned_words": model.planned_words, "corpus_words": N}
    vocabulary = ray.put((model.vocab.words, model.vocab.counts, model.vocab.corpus_tokens, model.vocab.min_count))
    hyperparameters = model.hyperparameters()
    shards = []
    for s in range(W):
        d0, d1 = int(chunk_bounds[cuts[s]]), int(chunk_bounds[cuts[s + 1]])
        ids = np.ascontiguousarray(encoded.ids[offsets[d0]:offsets[d1]])
        shards.append(ray.put({"ids": ids, "offsets": offsets[d0:d1 + 1] - offsets[d0],
                               "first_chunk": int(cuts[s]),
                               "order_seed": schedule.chunk_seed(model.seed, 0, schedule.ORDER_STREAM - 1 - s)}))
    base = {name: getattr(model, name) for name in ("W_in", "W_out", "W_inner") if getattr(model, name).shape[0]}
    shard_words = max(int(offsets[chunk_bounds[cuts[s + 1]]] - offsets[chunk_bounds[cuts[s]]]) for s in range(W))
    rounds = max(1, math.ceil(shard_words / round_words))

    def start(worker, params):
        return _remote(Word2VecReplica, placement[worker]).remote(
            hyperparameters, vocabulary, shards[worker], plan, params, sync, hot_rows)

    log.info("training %s on %d tokens x %d epochs with %d Ray workers, %s sync every %d words per worker, "
             "%d hot rows every %d (%d rounds per epoch)", model.describe(), N, model.epochs, W, sync, sync_every,
             hot_rows, round_words, rounds)
    run = DataParallelRun(start, W, base, sync, on_round, deltas="sum" if sync == "sparse-sum" else "mean")
    try:
        for epoch in range(model.epochs_trained, model.epochs):
            started, before = time.perf_counter(), (run.bytes_up, run.bytes_down, run.syncs)
            loss, stats = 0.0, np.zeros(2, np.int64)
            for r in range(rounds):  # an epoch ends on a full round: the model is whole
                full = (r + 1) % full_every == 0 or r == rounds - 1
                round_loss, round_stats = run.round(epoch, r, rounds, full)
                loss, stats = loss + round_loss, stats + round_stats
            if not math.isfinite(loss):
                raise TrainingError(f"training diverged (the loss became {loss}) in epoch {epoch + 1}; "
                                    f"try a smaller alpha than {model.alpha}")
            seconds = time.perf_counter() - started
            words, examples = int(stats[0]), int(stats[1])
            model.trained_words += words
            model.epochs_trained += 1
            info = {"epoch": model.epochs_trained, "loss": loss / max(1, examples), "examples": examples,
                    "words": words, "seconds": seconds, "words_per_sec": words / max(seconds, 1e-9),
                    "alpha": schedule.learning_rate(model.alpha, model.min_alpha, model.trained_words,
                                                    model.planned_words),
                    "workers": W, "sync": sync, "hot_rows": hot_rows,
                    "hot_sync_every": round_words if hot_rows else None, **_sync_info(run, before)}
            log.info("epoch %d: loss %.4f per example, %.0f words/s, %d syncs, %.1f MB per sync, %d restarts",
                     info["epoch"], info["loss"], info["words_per_sec"], info["syncs"],
                     info["bytes_per_sync"] / 1e6, run.restarts)
            model.history.append(info)
    finally:
        run.close()
    model._wv = None
    return model


def train_glove(model, workers_per_node=None, sync=DEFAULT_SYNC, sync_every=GLOVE_SYNC_EVERY, on_round=None):
    """Train ``model`` (a ``GloVe`` with its co-occurrences set) for its remaining epochs
    with Ray workers, each on a random share of the non-zeros of X."""
    ray = require_ray()
    _check_sync(sync, sync_every)
    placement = plan_workers(workers_per_node)
    entries = model.entries()
    shuffled = np.empty(len(entries), np.int32)
    glove_kernels.shuffle_order(shuffled, model.seed, -1)  # a random share for each worker
    W = min(len(placement), len(entries))
    cuts = np.linspace(0, len(entries), W + 1).astype(np.int64)
    shares = [ray.put(entries[np.sort(shuffled[cuts[s]:cuts[s + 1]])]) for s in range(W)]
    del entries
    base = {name: model.params[name] for name in PARAMETERS}
    base.update({f"gradsq_{name}": model.gradsq[name] for name in PARAMETERS})
    rounds = max(1, math.ceil(int(np.diff(cuts).max()) / sync_every))

    def start(worker, params):
        options = {"learning_rate": model.learning_rate, "grad_clip": model.grad_clip,
                   "order_seed": (int(model.seed) * 1_000_003 + worker + 1) % (1 << 63)}
        return _remote(GloVeReplica, placement[worker]).remote(shares[worker], options, params, sync)

    epochs = model.epochs - model.epochs_trained
    if epochs < 1:
        raise WordvecError(f"the {model.epochs} planned epochs are done")
    # AdaGrad: the workers' deltas (of parameters and of the squared-gradient sums) come
    # from different entries of X and add up, as in one Hogwild run
    run = DataParallelRun(start, W, base, sync, on_round, deltas="sum")
    try:
        for epoch in range(model.epochs_trained, model.epochs):
            started, before = time.perf_counter(), (run.bytes_up, run.bytes_down, run.syncs)
            loss, updates = 0.0, 0
            for r in range(rounds):
                round_loss, round_stats = run.round(epoch, r, rounds)
                loss, updates = loss + round_loss, updates + int(round_stats[0])
            if not math.isfinite(loss) or updates == 0:
                raise TrainingError(f"training diverged in epoch {epoch + 1}; "
                                    f"try a smaller learning_rate than {model.learning_rate}")
            seconds = time.perf_counter() - started
            model.epochs_trained += 1
            info = {"epoch": model.epochs_trained, "loss": loss / updates, "updates": updates,
                    "seconds": seconds, "updates_per_sec": updates / max(seconds, 1e-9),
                    "workers": W, "sync": sync, **_sync_info(run, before)}
            log.info("epoch %d: loss %.5f, %.2fM updates/s, %d syncs, %.1f MB per sync", info["epoch"],
                     info["loss"], info["updates_per_sec"] / 1e6, info["syncs"], info["bytes_per_sync"] / 1e6)
            model.history.append(info)
    finally:
        run.close()
    model._wv = None
    return model
