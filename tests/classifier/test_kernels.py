"""The compiled classifier step equals the NumPy reference step (wordvec.math.classifier)."""

import numpy as np
import pytest

from wordvec.data.huffman import build_huffman
from wordvec.kernels import classifier as K
from wordvec.kernels.random import lcg31_next
from wordvec.math import classifier as C

N_WORDS, BUCKET, D, LABELS = 6, 7, 5, 4
TREE = build_huffman([8, 5, 2, 1])
# Bags as fastText builds them: words, then word n-gram / char n-gram rows (N_WORDS + id).
BAGS = [[0, 3, 5], [1, N_WORDS + 2, 4, N_WORDS + 6], [2, N_WORDS + 0, N_WORDS + 0, 2, N_WORDS + 5, 1]]


def _matrices(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.normal(scale=0.5, size=(N_WORDS + BUCKET, D)).astype(dtype),
            rng.normal(scale=0.5, size=(LABELS, D)).astype(dtype))


def _reference_labels(loss, doc_labels):
    if loss == "ova":
        return {"targets": doc_labels}
    if loss == "softmax":
        return {"target": doc_labels[0]}
    n = TREE.lengths[doc_labels[0]]
    return {"points": TREE.points[doc_labels[0], :n], "codes": TREE.codes[doc_labels[0], :n]}


def _outputs(loss):
    return K.make_outputs(K.LOSS_CODES[loss], TREE)


def _kernel_step(W_in, W_out, rows, doc_labels, loss, lr):
    rows = np.asarray(rows, dtype=np.int32)
    labels = np.asarray(doc_labels, dtype=np.int32)
    scratch = K.Scratch(np.zeros(D), np.zeros(D), np.zeros(LABELS))
    return K.document_step(K.Matrices(W_in, W_out), rows, 0, len(rows), labels, 0, len(labels), _outputs(loss), lr,
                           np.array([7], np.uint64), scratch)


@pytest.mark.parametrize("loss", ["softmax", "hs", "ova"])
@pytest.mark.parametrize("bag", range(len(BAGS)))
def test_document_step_equals_reference(loss, bag):
    doc_labels = [2, 0] if loss == "ova" else [bag % LABELS]
    W_in, W_out = _matrices(bag)
    R_in, R_out = W_in.copy(), W_out.copy()
    got = _kernel_step(W_in, W_out, BAGS[bag], doc_labels, loss, 0.3)
    expected = C.sgd_step(R_in, R_out, BAGS[bag], 0.3, loss, **_reference_labels(loss, doc_labels))
    assert got == pytest.approx(expected, rel=1e-10)
    np.testing.assert_allclose(W_in, R_in, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(W_out, R_out, rtol=1e-10, atol=1e-12)
    assert not np.allclose(W_in, _matrices(bag)[0])  # the step moved something


def _corpus(n_docs, seed):
    rng = np.random.default_rng(seed)
    bags = [rng.integers(0, N_WORDS + BUCKET, size=rng.integers(1, 6)) for _ in range(n_docs)]
    labels = [[int(rng.integers(0, LABELS))] for _ in range(n_docs)]
    bags[3] = np.zeros(0, np.int64)  # a document with no known token: skipped
    return bags, labels


def _csr(lists):
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(x) for x in lists])
    data = np.concatenate([np.asarray(x, dtype=np.int32) for x in lists]) if offsets[-1] else np.zeros(0, np.int32)
    return data, offsets


def _documents(bags, labels, tokens):
    """The documents as the kernels take them (``K.Documents``)."""
    return K.Documents(*_csr(bags), *_csr(labels), tokens)


def _streams(positions, budgets, states):
    return K.Streams(np.array(positions, np.int64), np.array(budgets, np.int64), np.array(states, np.uint64))


def _counters(n):
    return K.Counters(np.zeros(n), np.zeros(n, np.int64), np.zeros(n, np.int64))


@pytest.mark.parametrize("loss", ["softmax", "hs", "ova"])
def test_train_range_equals_reference_steps_with_decaying_lr(loss):
    bags, labels = _corpus(12, 5)
    tokens = np.array([len(b) + 2 for b in bags], dtype=np.int64)
    documents = _documents(bags, labels, tokens)
    W_in, W_out = _matrices(9)
    R_in, R_out = W_in.copy(), W_out.copy()
    total, before, lr0 = 3 * int(tokens.sum()), 40, 0.4
    loss_sum, examples, seen, next_doc = K.train_range(
        K.Matrices(W_in, W_out), documents, 0, len(bags), 10**9, _outputs(loss), K.make_schedule(lr0, before, total),
        1, np.array([1], np.uint64))
    expected, done = 0.0, 0
    for bag, doc_labels, n in zip(bags, labels, tokens):
        lr = lr0 * (1 - (before + done) / total)
        done += n
        if len(bag):
            expected += C.sgd_step(R_in, R_out, bag, lr, loss, **_reference_labels(loss, doc_labels))
    assert (examples, seen, next_doc) == (11, tokens.sum(), len(bags))
    assert loss_sum == pytest.approx(expected, rel=1e-10)
    np.testing.assert_allclose(W_in, R_in, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(W_out, R_out, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("loss", ["softmax", "hs", "ova"])
def test_predict_all_equals_reference_probabilities(loss):
    bags, _ = _corpus(6, 11)
    bags = [b for b in bags if len(b)]
    rows, row_offsets = _csr(bags)
    W_in, W_out = _matrices(12)
    out = np.zeros((len(bags), LABELS))
    K.predict_all(W_in, W_out, rows, row_offsets, K.LOSS_CODES[loss], TREE.points, TREE.codes, TREE.lengths,
                  LABELS, False, out)
    for d, bag in enumerate(bags):
        if loss == "hs":
            expected = C.hs_label_probabilities(W_in, W_out, bag, TREE.points, TREE.codes, TREE.lengths)
        else:
            expected = C.predict_scores(W_in, W_out, bag, loss)
        np.testing.assert_allclose(out[d], expected, rtol=1e-10)


def test_float32_step_is_close_to_the_float64_reference():
    W_in, W_out = _matrices(13, np.float32)
    R_in, R_out = W_in.astype(np.float64), W_out.astype(np.float64)
    rows, labels = BAGS[2], [1]
    rows32 = np.asarray(rows, np.int32)
    scratch = K.Scratch(np.zeros(D, np.float32), np.zeros(D, np.float32), np.zeros(LABELS))
    K.document_step(K.Matrices(W_in, W_out), rows32, 0, len(rows), np.array(labels, np.int32), 0, 1,
                    _outputs("softmax"), 0.5, np.array([3], np.uint64), scratch)
    C.sgd_step(R_in, R_out, rows, 0.5, "softmax", target=1)
    np.testing.assert_allclose(W_in, R_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(W_out, R_out, rtol=1e-5, atol=1e-6)


def test_uniform_fill_is_uniform_and_reproducible():
    W = np.empty((9000, 7), dtype=np.float32)
    every_row = np.arange(9000, dtype=np.int64)
    K.uniform_fill(W, every_row, 0.25, 3)
    assert W.min() >= -0.25 and W.max() < 0.25
    assert abs(W.mean()) < 0.005 and abs(W.var() - 0.25 ** 2 / 3) < 0.002  # U(-b, b): variance b²/3
    again = np.empty_like(W)
    K.uniform_fill(again, every_row, 0.25, 3)
    np.testing.assert_array_equal(W, again)
    K.uniform_fill(again, every_row, 0.25, 4)
    assert not np.array_equal(W, again)
    # another seed, another matrix: not this one with its values shifted by a column
    # (seed + 1 once continued seed's stream one value on: every seed trained the same model)
    for shift in range(-2, 3):
        flat, other = W.ravel(), again.ravel()
        a, b = (flat[shift:], other[:len(other) - shift]) if shift >= 0 else (flat[:shift], other[-shift:])
        assert abs(np.corrcoef(a, b)[0, 1]) < 0.05, shift


def test_uniform_fill_of_some_rows_stores_their_values_in_order_and_leaves_the_rest():
    W = np.empty((9000, 7), dtype=np.float32)
    K.uniform_fill(W, np.arange(9000, dtype=np.int64), 0.25, 3)
    some = np.array([8999, 0, 4095, 4096, 17], dtype=np.int64)
    part = np.zeros((7, 7), dtype=np.float32)
    K.uniform_fill(part, some, 0.25, 3)
    np.testing.assert_array_equal(part[:5], W[some])
    assert not part[5:].any()


def test_train_range_stops_at_its_token_budget():
    bags, labels = _corpus(12, 6)
    tokens = np.full(12, 5, dtype=np.int64)
    W_in, W_out = _matrices(10)
    result = K.train_range(K.Matrices(W_in, W_out), _documents(bags, labels, tokens), 2, 12, 12, _outputs("softmax"),
                           K.make_schedule(0.1, 0, 100), 1, np.array([1], np.uint64))
    assert result[2:] == (15, 5)  # three documents of 5 tokens reach the budget of 12


def test_one_stream_equals_train_range_wrapping_around():
    bags, labels = _corpus(10, 7)
    tokens = np.array([len(b) + 2 for b in bags], dtype=np.int64)
    documents = _documents(bags, labels, tokens)
    W_in, W_out = _matrices(14)
    R_in, R_out = W_in.copy(), W_out.copy()
    budget, start, total = int(tokens.sum()) + 7, 6, 2 * int(tokens.sum())
    counters, streams = _counters(1), _streams([start], [budget], [5])
    K.train_streams(K.Matrices(W_in, W_out), documents, _outputs("softmax"), K.make_schedule(0.3, 0, total), streams,
                    counters)
    reference, state = K.Matrices(R_in, R_out), np.array([5], np.uint64)
    first = K.train_range(reference, documents, start, 10, budget, _outputs("softmax"), K.make_schedule(0.3, 0, total),
                          1, state)
    second = K.train_range(reference, documents, 0, 10, budget - first[2], _outputs("softmax"),
                           K.make_schedule(0.3, first[2], total), 1, state)
    assert counters.tokens[0] == first[2] + second[2] >= budget and streams.positions[0] == second[3]
    np.testing.assert_allclose(W_in, R_in, rtol=1e-12)
    np.testing.assert_allclose(W_out, R_out, rtol=1e-12)


def _stream_steps(tokens, position, budget, lr0, tokens_before, total, n_streams):
    """One stream of train_streams, alone: its (document, lr, tokens) steps, wrapping at the end."""
    steps, done = [], 0
    while done < budget:
        position = 0 if position >= len(tokens) else position
        steps.append((position, lr0 * max(0.0, 1 - (tokens_before + n_streams * done) / total), int(tokens[position])))
        done += int(tokens[position])
        position += 1
    return steps, position


def _token_clock_merge(streams):
    """The sequential merge of the schedule simulation (benchmarks/diagnostics/diag_classify_schedule.py):
    the stream that has read the fewest tokens goes next, ties to the lower stream."""
    merged, heads, clock = [], [0] * len(streams), [0] * len(streams)
    while any(heads[t] < len(s) for t, s in enumerate(streams)):
        t = min((u for u, s in enumerate(streams) if heads[u] < len(s)), key=lambda u: clock[u])
        doc, lr, n = streams[t][heads[t]]
        merged.append((t, doc, lr))
        heads[t] += 1
        clock[t] += n
    return merged


@pytest.mark.parametrize("loss", ["softmax", "hs", "ova"])
def test_interleaved_streams_take_the_token_clock_merge_of_reference_steps(loss):
    """Three streams (one wrapping around, budgets unequal, documents of uneven length):
    the kernel trains exactly the merged steps, each with its stream's lr and random state."""
    bags, labels = _corpus(14, 8)
    labels[5] = [1, 3]  # softmax and hs draw one of several labels with the stream's random state
    tokens = np.array([len(b) + 1 + (i % 4) for i, b in enumerate(bags)], dtype=np.int64)
    W_in, W_out = _matrices(15)
    R_in, R_out = W_in.copy(), W_out.copy()
    starts, budgets = [0, 9, 4], [30, 27, 12]
    total, before, lr0 = 4 * int(tokens.sum()), 50, 0.4
    streams, counters = _streams(starts, budgets, [11, 12, 13]), _counters(3)
    K.train_interleaved(K.Matrices(W_in, W_out), _documents(bags, labels, tokens), _outputs(loss),
                        K.make_schedule(lr0, before, total), streams, counters)
    positions = streams.positions
    solo = [_stream_steps(tokens, s, b, lr0, before, total, 3) for s, b in zip(starts, budgets)]
    merged = _token_clock_merge([steps for steps, _ in solo])
    assert len({t for t, _, _ in merged[:6]}) == 3  # the streams really alternate
    assert positions.tolist() == [end for _, end in solo]
    assert counters[2].tolist() == [sum(n for _, _, n in steps) for steps, _ in solo]
    expected, reference_states = np.zeros(3), [np.array([s], np.uint64) for s in (11, 12, 13)]
    for t, d, lr in merged:
        if not len(bags[d]):
            continue
        if loss == "ova":
            expected[t] += C.sgd_step(R_in, R_out, bags[d], lr, loss, targets=labels[d])
        else:
            pick = labels[d][0]
            if len(labels[d]) > 1:  # the stream's own LCG, as the kernel draws it
                pick = labels[d][lcg31_next(reference_states[t]) % len(labels[d])]
            expected[t] += C.sgd_step(R_in, R_out, bags[d], lr, loss, **_reference_labels(loss, [pick]))
    np.testing.assert_allclose(counters[0], expected, rtol=1e-10)
    np.testing.assert_allclose(W_in, R_in, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(W_out, R_out, rtol=1e-9, atol=1e-12)


def test_one_interleaved_stream_equals_train_streams():
    bags, labels = _corpus(10, 9)
    tokens = np.array([len(b) + 2 for b in bags], dtype=np.int64)
    documents = _documents(bags, labels, tokens)
    W_in, W_out = _matrices(16)
    R_in, R_out = W_in.copy(), W_out.copy()
    budget = int(tokens.sum()) + 7
    schedule = K.make_schedule(0.3, 10, 3 * int(tokens.sum()))
    one, other = _streams([6], [budget], [5]), _streams([6], [budget], [5])
    counted = _counters(1)
    K.train_interleaved(K.Matrices(W_in, W_out), documents, _outputs("softmax"), schedule, one, counted)
    K.train_streams(K.Matrices(R_in, R_out), documents, _outputs("softmax"), schedule, other, _counters(1))
    assert one.positions[0] == other.positions[0] and counted.tokens[0] >= budget
    np.testing.assert_allclose(W_in, R_in, rtol=1e-12)
    np.testing.assert_allclose(W_out, R_out, rtol=1e-12)


def _fasttext_sigmoid(x):
    """loss.cc's table, transcribed: t[i] = σ(i·16/512 − 8) in float32, index int((x + 8)·32)."""
    table = [np.float32(1 / (1 + np.exp(-(np.float32(i * 16.0) / 512 - 8)))) for i in range(513)]
    return 0.0 if x < -8 else 1.0 if x > 8 else float(table[int((x + 8) * 512 / 8 / 2)])


def test_table_sigmoid_is_fasttexts():
    for x in np.concatenate([np.linspace(-9, 9, 301), [-8.0, 8.0, 0.0, 7.99, -7.99]]):
        assert K.table_sigmoid(x) == pytest.approx(_fasttext_sigmoid(x), abs=1e-7)


@pytest.mark.parametrize("loss", ["hs", "ova"])
def test_predict_with_fasttexts_table(loss):
    bags, _ = _corpus(5, 12)
    bags = [b for b in bags if len(b)]
    rows, row_offsets = _csr(bags)
    W_in, W_out = _matrices(15)
    out = np.zeros((len(bags), LABELS))
    K.predict_all(W_in, W_out, rows, row_offsets, K.LOSS_CODES[loss], TREE.points, TREE.codes, TREE.lengths,
                  LABELS, True, out)
    for d, bag in enumerate(bags):
        u = W_out @ C.hidden(W_in, bag)
        q = np.array([_fasttext_sigmoid(x) for x in u]) if loss == "ova" else C.sigmoid(u)  # hs: exact σ
        if loss == "ova":
            expected = q
        else:
            expected = [np.prod([(q[n] if c else 1 - q[n]) + 1e-5 for n, c in
                                 zip(TREE.points[y, :TREE.lengths[y]], TREE.codes[y, :TREE.lengths[y]])])
                        for y in range(LABELS)]
        np.testing.assert_allclose(out[d], expected, rtol=1e-6)
