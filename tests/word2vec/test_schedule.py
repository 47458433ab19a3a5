"""Schedule helpers: linear learning rate, chunking by documents, per-chunk seeds."""

import numpy as np
import pytest

from wordvec.data import schedule


def test_learning_rate_is_linear_then_flat():
    assert schedule.learning_rate(0.025, 0.0001, 0, 1000) == 0.025
    assert schedule.learning_rate(0.025, 0.0001, 500, 1000) == pytest.approx((0.025 + 0.0001) / 2)
    assert schedule.learning_rate(0.025, 0.0001, 1000, 1000) == pytest.approx(0.0001)
    assert schedule.learning_rate(0.025, 0.0001, 5000, 1000) == pytest.approx(0.0001)


def test_chunks_cover_every_document_once_without_splitting():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 3000, size=500)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    bounds = schedule.chunk_bounds(offsets, chunk_words=10_000)
    assert bounds[0] == 0 and bounds[-1] == 500 and np.all(np.diff(bounds) > 0)
    sizes = offsets[bounds[1:]] - offsets[bounds[:-1]]
    assert sizes.sum() == offsets[-1]
    assert np.all(sizes[:-1] <= 10_000 + 3000)  # a chunk overshoots by less than one document
    one_big = schedule.chunk_bounds(np.array([0, 50_000]), chunk_words=10_000)
    assert one_big.tolist() == [0, 1]
    assert schedule.chunk_bounds(np.array([0])).tolist() == [0]


def test_chunk_seeds_differ_and_repeat():
    seeds = {schedule.chunk_seed(1, e, c) for e in range(3) for c in range(100)}
    assert len(seeds) == 300 and 0 not in seeds
    assert schedule.chunk_seed(1, 2, 3) == schedule.chunk_seed(1, 2, 3) != schedule.chunk_seed(2, 2, 3)
    assert all(0 <= s < 2**64 for s in seeds)


def test_chunk_order_is_a_seeded_uniform_permutation():
    order = schedule.chunk_order(1, 0, 1000)
    assert sorted(order.tolist()) == list(range(1000))
    assert np.array_equal(order, schedule.chunk_order(1, 0, 1000))
    assert not np.array_equal(order, schedule.chunk_order(1, 1, 1000))
    assert not np.array_equal(order, schedule.chunk_order(2, 0, 1000))
    assert schedule.chunk_order(1, 0, 0).size == 0 and schedule.chunk_order(1, 0, 1).tolist() == [0]
    # each of the 24 orders of 4 chunks about equally often (expected 100 each)
    counts = {}
    for seed in range(60):
        for epoch in range(40):
            key = tuple(schedule.chunk_order(seed, epoch, 4))
            counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 24 and 60 < min(counts.values()) and max(counts.values()) < 140


def test_positions_in_epoch_count_the_tokens_trained_before_each_chunk():
    sizes = np.array([5, 1, 7, 3])
    assert schedule.positions_in_epoch(sizes, np.array([0, 1, 2, 3])).tolist() == [0, 5, 6, 13]
    assert schedule.positions_in_epoch(sizes, np.array([2, 0, 3, 1])).tolist() == [7, 15, 0, 12]
