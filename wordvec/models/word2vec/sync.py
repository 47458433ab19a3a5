"""Reproducible multi-threaded word2vec training (``deterministic=True``).

Hogwild threads (the default) read and write the shared matrices while the other thread
is writing them, so what a thread reads depends on thread timing: two runs with the same
seed and ``workers > 1`` differ in the last bits, then everywhere.  This module trains
with the same kernels but without any shared writes:

* the epoch's chunk order (:mod:`wordvec.data.schedule`) is cut into *blocks* of
  ``SYNC_CHUNKS`` consecutive chunks (fewer when the epoch has fewer than
  ``workers x SYNC_CHUNKS`` chunks); a *round* is ``workers`` consecutive blocks, and
  worker k trains block k of every round (:func:`shard_rounds`: fixed shards, a pure
  function of the order and the number of workers);
* worker 0 trains in the model's matrices, worker k >= 1 in its private replica; all
  of them start the round from the same state B (the replicas and a base copy equal
  the model's matrices);
* at the end of a round every thread waits at a barrier, then the threads merge in
  parallel, each a disjoint band of rows, in a fixed order of workers:
  ``W <- W_0 + (R_1 - B) + ... + (R_{k} - B)`` (:func:`wordvec.kernels.word2vec.merge_replicas`),
  and B and every replica are reset to the merged W;
* a second barrier, and the next round starts.

Every float operation therefore has fixed operands whatever the timing, so the same seed
and the same number of workers give bitwise identical vectors (and losses).  It is a
different run from Hogwild's: within a round a worker does not see the others' updates
(each trains ``SYNC_CHUNKS`` x ~20k tokens on its own), and the updates of a row that
both touch are summed, as in model averaging by deltas.  ``workers=1`` is exactly the
default mode.  Extra memory: one base copy plus ``workers - 1`` replicas of each trained
matrix.  Cost and quality: ``benchmarks/README.md``.
"""

import threading

import numpy as np

from wordvec.kernels import word2vec as kernels

SYNC_CHUNKS = 10  # chunks (~20k tokens each) a worker trains between two merges


def shard_rounds(order, workers, chunks_per_block=SYNC_CHUNKS):
    """Rounds of an epoch: ``rounds[r][k]`` is the list of chunks worker k trains in
    round r (consecutive in ``order``; the last round may leave workers idle)."""
    order = [int(chunk) for chunk in order]
    blocks = [order[i:i + chunks_per_block] for i in range(0, len(order), chunks_per_block)]
    rounds = []
    for start in range(0, len(blocks), workers):
        taken = blocks[start:start + workers]
        rounds.append(taken + [[] for _ in range(workers - len(taken))])
    return rounds


class Replicas:
    """The model's matrices, one private replica per extra worker and the round's base."""

    def __init__(self, matrices, workers):
        self.matrices = matrices
        self.replicas = [np.stack([matrix] * (workers - 1)) for matrix in matrices]
        self.bases = [matrix.copy() for matrix in matrices]

    def of(self, worker):
        """The matrices worker ``worker`` trains in."""
        if worker == 0:
            return self.matrices
        return [replica[worker - 1] for replica in self.replicas]

    def merge(self, worker, workers):
        """Merge this worker's band of rows of every matrix (see the module docstring)."""
        for matrix, replica, base in zip(self.matrices, self.replicas, self.bases):
            rows = matrix.shape[0]
            begin, end = rows * worker // workers, rows * (worker + 1) // workers
            kernels.merge_replicas(matrix, replica, base, begin, end)


def shard_workers(runner, order, words_before, epoch, results, stop):
    """Thread targets for a deterministic epoch, and a function that releases them if the
    main thread stops early.  Each target puts ``(index, loss, stats)`` per chunk on
    ``results``, as the Hogwild workers do."""
    workers = runner.model.workers
    per_block = max(1, min(SYNC_CHUNKS, len(order) // workers))  # a small corpus: every worker busy
    rounds = shard_rounds(order, workers, per_block)
    replicas = Replicas(runner.trained_matrices(), workers)
    barrier = threading.Barrier(workers)

    def work(worker):
        matrices = replicas.of(worker)
        try:
            for shards in rounds:
                for index in shards[worker]:
                    if stop.is_set():
                        return
                    try:
                        loss, chunk_stats = runner._chunk(index, words_before[index], epoch, matrices)
                    except BaseException as error:  # hand it to the main thread
                        results.put((index, error, None))
                        barrier.abort()
                        return
                    results.put((index, loss, chunk_stats))
                barrier.wait()  # every worker has trained its block
                replicas.merge(worker, workers)
                barrier.wait()  # every band is merged: the next round starts from it
        except threading.BrokenBarrierError:
            return

    return [lambda worker=worker: work(worker) for worker in range(workers)], barrier.abort
