"""One threaded epoch, for every model that trains units of work in threads (word2vec and
its subword model, and Doc2Vec: chunks of documents; GloVe: shares of the non-zeros of X; the
deterministic mode of ``wordvec.models.word2vec.sync``: fixed shards).

The pattern, in one place:

* the units still to train (an epoch resumed from a checkpoint starts past the ones it
  holds) are handed out one at a time, in order, to ``workers`` threads (Hogwild: the
  kernels update shared arrays without locks);
* every finished unit comes back to the main thread through one queue, as
  ``(index, loss, stats)`` or ``(index, error, None)``; the main thread ``record``\\ s it
  (losses, progress, a divergence check), so the caller's bookkeeping never races;
* when a checkpoint falls due (``checkpoint.due``), no new unit starts until the units in
  flight are back and ``checkpoint.save`` has written the model at a position that is a
  prefix of the order -- exactly what resume needs;
* on an error or Ctrl-C every thread is stopped and joined before the error goes on.

A model supplies ``train_unit(index) -> (loss, stats)`` or, for fixed shards, its own
thread targets (``targets``).
"""

import dataclasses
import queue
import threading


class _Handout:
    """The units in order, given to threads one at a time; ``handed`` counts them."""

    def __init__(self, units, handed):
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.handed = handed
        self._units = iter(units)

    def next(self):
        with self.lock:
            index = None if self.stop.is_set() else next(self._units, None)
            self.handed += index is not None
            return index


def _pulling_workers(handout, train_unit, results, count):
    """``count`` thread targets that train the units of ``handout`` until none is left."""
    def work():
        while True:
            index = handout.next()
            if index is None:
                return
            try:
                loss, stats = train_unit(index)
            except BaseException as error:  # hand it to the main thread
                results.put((index, error, None))
                return
            results.put((index, loss, stats))

    return [work] * count


@dataclasses.dataclass
class ThreadedEpoch:
    """``order``: the epoch's units (indices) in the order they are handed out;
    ``done``: how many of them a checkpoint already holds; ``record(index, loss, stats)``
    runs in the main thread for each finished unit and returns an exception that ends the
    epoch, or None; ``checkpoint``: None, or an object with ``due(index) -> bool`` (called
    for every recorded unit) and ``save(done)`` (the first ``done`` units of ``order``
    are trained, no other); ``targets(results, stop)``: the threads' own targets and a
    function that releases them when the epoch stops early (fixed shards)."""

    order: list
    train_unit: object = None
    workers: int = 1
    record: object = None
    done: int = 0
    checkpoint: object = None
    targets: object = None

    def run(self):
        """Train the units; raises the first error (from a thread, ``record`` or a save)."""
        handout = _Handout(self.order[self.done:], self.done)
        results = queue.Queue()
        if self.targets is None:
            count = min(self.workers, len(self.order))
            targets, release = _pulling_workers(handout, self.train_unit, results, count), handout.stop.set
        else:
            targets, release = self.targets(results, handout.stop)
        threads = [threading.Thread(target=target, daemon=True) for target in targets]
        for thread in threads:
            thread.start()
        completed = False
        try:
            failure = self._collect(handout, results)
            completed = failure is None
        finally:
            handout.stop.set()
            if not completed:  # else fixed shards finish their last merge
                release()
            for thread in threads:
                thread.join()
        if failure is not None:
            raise failure

    def _collect(self, handout, results):
        """Record every unit as it comes back, checkpointing when one falls due; returns
        the error that ended the epoch, or None."""
        received, failure = self.done, None
        while received < len(self.order) and failure is None:
            index, failure = self._receive(results)
            received += 1
            if failure is None and self.checkpoint is not None and self.checkpoint.due(index):
                with handout.lock:  # no unit starts until the checkpoint is written
                    while received < handout.handed and failure is None:  # the units in flight
                        index, failure = self._receive(results)
                        received += 1
                        if failure is None:
                            self.checkpoint.due(index)
                    if failure is None:
                        self.checkpoint.save(received)
        return failure

    def _receive(self, results):
        """(index, error or None) of the next finished unit, recorded."""
        index, loss, stats = results.get()
        if stats is None:
            return index, loss  # the thread's exception
        return index, self.record(index, loss, stats)
