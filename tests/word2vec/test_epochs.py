"""The threaded-epoch driver (wordvec.models.base.epochs) that word2vec, its subword model,
GloVe and the deterministic mode share."""

import random
import threading
import time

import pytest

from wordvec.models.base.epochs import ThreadedEpoch


def run(order, workers, done=0, checkpoint=None, fail_at=None):
    trained, recorded, main = [], [], threading.main_thread()
    lock = threading.Lock()

    def train_unit(index):
        time.sleep(random.Random(index).random() * 0.002)  # units finish out of order
        if index == fail_at:
            raise RuntimeError(f"unit {index} failed")
        with lock:
            trained.append(index)
        return float(index), (1, 1)

    def record(index, loss, stats):
        assert threading.current_thread() is main  # the caller's bookkeeping never races
        recorded.append(index)

    ThreadedEpoch(order=order, train_unit=train_unit, workers=workers, record=record, done=done,
                  checkpoint=checkpoint).run()
    return trained, recorded


@pytest.mark.parametrize("workers", [1, 3])
def test_every_unit_is_trained_and_recorded_once(workers):
    order = random.Random(1).sample(range(40), 40)
    trained, recorded = run(order, workers)
    assert sorted(trained) == sorted(recorded) == list(range(40))
    if workers == 1:
        assert trained == recorded == order  # one thread: the order itself


def test_a_resumed_epoch_trains_only_the_units_after_the_checkpoint():
    order = list(range(20))[::-1]
    trained, _ = run(order, workers=2, done=7)
    assert sorted(trained) == sorted(order[7:])


def test_a_checkpoint_holds_exactly_a_prefix_of_the_order():
    order = random.Random(2).sample(range(60), 60)
    saves = []

    class EveryFive:
        def __init__(self):
            self.seen = []

        def due(self, index):
            self.seen.append(index)
            return len(self.seen) % 5 == 0

        def save(self, done):
            saves.append((done, sorted(self.seen)))

    run(order, workers=3, checkpoint=EveryFive())
    assert saves
    for done, seen in saves:  # nothing in flight, nothing beyond the prefix
        assert seen == sorted(order[:done])


def test_an_error_in_a_thread_stops_the_epoch_and_reaches_the_caller():
    before = threading.active_count()
    with pytest.raises(RuntimeError, match="unit 13 failed"):
        run(list(range(50)), workers=3, fail_at=13)
    assert threading.active_count() == before  # every thread joined
