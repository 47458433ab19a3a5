"""Compiled SGD for fastText's supervised classifier (``wordvec.math.classifier``).

One call trains a contiguous range of documents with Hogwild updates (``nogil``: several
Python threads run it at once on the shared float32 matrices, without locks, as
fastText's threads do). The documents are pre-encoded once (``wordvec.data.labels``):
their input rows in CSR form (``rows[row_offsets[d]:row_offsets[d+1]]``, words, word
n-grams and character n-grams already resolved to matrix rows) and their labels
(``labels[label_offsets[d]:label_offsets[d+1]]``), so an epoch is pure arithmetic;
fastText re-reads and re-hashes its text file every epoch.

The kernels take their arguments grouped in named tuples (Numba compiles them into plain
structs, unpacked once per call), as ``wordvec.kernels.word2vec``'s: :data:`Documents` (the
encoded corpus), :data:`Matrices`, :data:`Outputs` (the loss and its label tree),
:data:`Schedule` (the learning rate's decay), :data:`Streams` (each thread's place, token
budget and random state) and :data:`Counters` (what each thread reports), and one
document's scratch vectors, :data:`Scratch`.

Per document (math (C1)-(C5)): h = mean of the rows; the output layer adds
``-lr dL/dh`` into ``grad`` and steps W_out (with the W_out row *before* its step, as
fastText does); every input row then gets ``grad / |B|``.
"""

from collections import namedtuple

import numba
import numpy as np

from wordvec.kernels.random import lcg31_next, mix64

SOFTMAX, HS, OVA = 0, 1, 2
LOSS_CODES = {"softmax": SOFTMAX, "hs": HS, "ova": OVA}

jit = numba.njit(nogil=True, cache=True, fastmath=True, error_model="numpy")

# int32 input rows of all bags (CSR by int64 row_offsets), int32 labels (CSR by int64
# label_offsets), int64 tokens read per document
Documents = namedtuple("Documents", "rows row_offsets labels label_offsets doc_tokens")
Matrices = namedtuple("Matrices", "W_in W_out")               # the trained float32 matrices
Outputs = namedtuple("Outputs", "loss_kind points codes lengths")  # a LOSS_CODES value, the labels' Huffman paths
# lr = lr0 (1 - (tokens_before + tokens read since) / total_tokens), fastText's linear decay
Schedule = namedtuple("Schedule", "lr0 tokens_before total_tokens")
# per thread: int64 document, int64 tokens of the epoch to reach (counted in Counters.tokens), uint64 state
Streams = namedtuple("Streams", "positions budgets states")
# per thread: float64 loss and int64 examples added to, int64 tokens read in the epoch so far
Counters = namedtuple("Counters", "loss examples tokens")
Scratch = namedtuple("Scratch", "h grad scores")               # one document's hidden vector, gradient, label scores


def make_schedule(lr0, tokens_before, total_tokens):
    """A :data:`Schedule` with the types the compiled kernels are specialised for."""
    return Schedule(float(lr0), int(tokens_before), int(total_tokens))


def make_outputs(loss_kind, tree):
    """The :data:`Outputs` of a loss code and a label tree (``wordvec.data.huffman``)."""
    return Outputs(int(loss_kind), tree.points, tree.codes, tree.lengths)


@numba.njit(nogil=True, cache=True, parallel=True)
def uniform_fill(W, rows, bound, seed):
    """W[k, j] ~ U(-bound, bound), fastText's initialisation, with the values of matrix row
    ``rows[k]`` for k < len(rows) (rows after those are left as they are), on all cores.
    Counter-based: value j of row r is splitmix64 of the position (r mod 4096) dim + j + 1
    in stream (seed, r // 4096), so it depends neither on the number of threads nor on
    which other rows are filled, nor where row r is stored. A stream starts at a mix of
    the seed (seed + 1 must not be seed's stream one value on: that made every seed's
    matrix the same up to a shift of its columns, and so the same trained model)."""
    dim = W.shape[1]
    block = 4096
    golden = np.uint64(0x9E3779B97F4A7C15)
    start = mix64(np.uint64(seed) * golden + golden)
    for k in numba.prange(rows.shape[0]):
        r = rows[k]
        state = start + np.uint64(r // block) * np.uint64(0xBF58476D1CE4E5B9) + np.uint64((r % block) * dim) * golden
        for j in range(dim):
            state += golden
            z = mix64(state)
            u = np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)  # [0, 1)
            W[k, j] = (2.0 * u - 1.0) * bound


@jit
def log_sigmoid_pair(u):
    """(σ(u), -log σ(u)) computed without overflow for either sign of u."""
    if u >= 0:
        e = np.exp(-u)
        return 1.0 / (1.0 + e), np.log1p(e)
    e = np.exp(u)
    return e / (1.0 + e), -u + np.log1p(e)


@jit
def mean_of_rows(W_in, rows, begin, end, h):
    h[:] = 0.0
    for i in range(begin, end):
        row = W_in[rows[i]]
        for j in range(h.shape[0]):
            h[j] += row[j]
    h *= 1.0 / (end - begin)


@jit
def dot(a, b):
    total = 0.0
    for j in range(a.shape[0]):
        total += a[j] * b[j]
    return total


@jit
def step_both(alpha, W_out, row, h, grad):
    """grad += alpha W_out[row] (the old row), then W_out[row] += alpha h; no temporaries."""
    out_row = W_out[row]
    for j in range(h.shape[0]):
        grad[j] += alpha * out_row[j]
        out_row[j] += alpha * h[j]


@jit
def logistic_row(W_out, row, h, positive, lr, grad):
    """One binary logistic loss on ``W_out[row]``: -log σ(±u); steps grad and the row."""
    u = dot(W_out[row], h)
    q, minus_log_q = log_sigmoid_pair(u)
    if positive:
        loss = minus_log_q
        alpha = lr * (1.0 - q)
    else:
        loss = minus_log_q + u  # -log(1 - σ(u)) = -log σ(u) + u
        alpha = -lr * q
    step_both(alpha, W_out, row, h, grad)
    return loss


@jit
def softmax_layer(W_out, h, target, lr, grad, scores):
    """(C2): p = softmax(W_out h); grad += -lr dL/dh; W_out -= lr dL/dW_out."""
    n = W_out.shape[0]
    top = -np.inf
    for i in range(n):
        scores[i] = dot(W_out[i], h)
        top = max(top, scores[i])
    total = 0.0
    for i in range(n):
        scores[i] = np.exp(scores[i] - top)
        total += scores[i]
    loss = -np.log(scores[target] / total)
    for i in range(n):
        alpha = lr * ((1.0 if i == target else 0.0) - scores[i] / total)
        step_both(alpha, W_out, i, h, grad)
    return loss


@jit
def hs_layer(W_out, h, points, codes, length, lr, grad):
    """(C3) along one label's path: code 1 = positive (fastText's convention)."""
    loss = 0.0
    for l in range(length):
        loss += logistic_row(W_out, points[l], h, codes[l] == 1, lr, grad)
    return loss


@jit
def ova_layer(W_out, h, labels, begin, end, lr, grad):
    """(C4): one logistic loss per label, positive for the document's labels."""
    loss = 0.0
    for j in range(W_out.shape[0]):
        positive = False
        for i in range(begin, end):
            if labels[i] == j:
                positive = True
        loss += logistic_row(W_out, j, h, positive, lr, grad)
    return loss


@jit
def document_step(matrices, rows, row_begin, row_end, labels, label_begin, label_end, outputs, lr, state, scratch):
    """One document's SGD step (the reference ``sgd_step``) on the bag
    ``rows[row_begin:row_end]`` and labels ``labels[label_begin:label_end]``; returns its loss."""
    W_in, W_out = matrices
    loss_kind, points, codes, lengths = outputs
    h, grad, scores = scratch
    mean_of_rows(W_in, rows, row_begin, row_end, h)
    grad[:] = 0.0
    if loss_kind == OVA:
        loss = ova_layer(W_out, h, labels, label_begin, label_end, lr, grad)
    else:
        pick = label_begin
        if label_end - label_begin > 1:  # fastText draws one of several labels uniformly
            pick += lcg31_next(state) % (label_end - label_begin)
        target = labels[pick]
        if loss_kind == SOFTMAX:
            loss = softmax_layer(W_out, h, target, lr, grad, scores)
        else:
            loss = hs_layer(W_out, h, points[target], codes[target], lengths[target], lr, grad)
    grad *= 1.0 / (row_end - row_begin)
    for i in range(row_begin, row_end):
        row = W_in[rows[i]]
        for j in range(grad.shape[0]):
            row[j] += grad[j]
    return loss


@jit
def train_document(matrices, documents, d, outputs, lr, state, scratch):
    """Document ``d``'s step (``document_step``); returns (loss, examples): (0, 0) for a
    document with no input row or no label, which is skipped, as fastText does."""
    r0, r1 = documents.row_offsets[d], documents.row_offsets[d + 1]
    l0, l1 = documents.label_offsets[d], documents.label_offsets[d + 1]
    if r1 == r0 or l1 == l0:
        return 0.0, 0
    return document_step(matrices, documents.rows, r0, r1, documents.labels, l0, l1, outputs, lr, state,
                         scratch), 1


@jit
def new_scratch(matrices):
    """Zeroed :data:`Scratch` for the matrices' vector size and labels."""
    D = matrices.W_in.shape[1]
    return Scratch(np.zeros(D, dtype=matrices.W_in.dtype), np.zeros(D, dtype=matrices.W_in.dtype),
                   np.zeros(matrices.W_out.shape[0], dtype=np.float64))


@jit
def train_range(matrices, documents, doc_begin, doc_end, token_budget, outputs, schedule, n_threads, state):
    """Train documents from ``doc_begin`` on, until ``token_budget`` tokens are read or
    ``doc_end`` is reached; returns (loss sum, examples, tokens, next document).

    The learning rate decays linearly as fastText's: lr0 (1 - progress) with progress =
    tokens trained by all threads / (epochs × tokens per epoch); this thread's tokens are
    counted ``n_threads`` times, as the others advance at the same pace. Documents with
    no input row or no label are skipped (counted as tokens, as fastText does).
    """
    lr0, tokens_before, total_tokens = schedule
    doc_tokens = documents.doc_tokens
    scratch = new_scratch(matrices)
    loss, examples, tokens = 0.0, 0, 0
    d = doc_begin
    while d < doc_end and tokens < token_budget:
        progress = (tokens_before + n_threads * tokens) / total_tokens
        lr = lr0 * max(0.0, 1.0 - progress)
        tokens += doc_tokens[d]
        step_loss, step_examples = train_document(matrices, documents, d, outputs, lr, state, scratch)
        loss += step_loss
        examples += step_examples
        d += 1
    return loss, examples, tokens, d


SIGMOID_TABLE_SIZE, MAX_SIGMOID = 512, 8.0


@jit
def table_sigmoid(x):
    """fastText's σ for prediction (loss.cc): 0 below -8, 1 above 8, else the float32
    table entry int((x + 8) · 32) of σ at 513 points over [-8, 8]."""
    if x < -MAX_SIGMOID:
        return 0.0
    if x > MAX_SIGMOID:
        return 1.0
    i = np.int64((x + MAX_SIGMOID) * SIGMOID_TABLE_SIZE / MAX_SIGMOID / 2)
    t = np.float32(np.float32(i * 2 * MAX_SIGMOID) / SIGMOID_TABLE_SIZE - MAX_SIGMOID)
    return np.float64(np.float32(1.0 / (1.0 + np.exp(-np.float64(t)))))


@jit
def document_scores(W_in, W_out, rows, begin, end, loss_kind, table, h, out):
    """Label scores of one document for prediction: softmax probabilities, σ per label
    (ova), or σ of every inner node (hs; paths are combined by the caller); ``table``:
    σ as fastText's lookup table instead of exact. ``h`` is float64 scratch of size dim."""
    h[:] = 0.0
    for i in range(begin, end):
        row = W_in[rows[i]]
        for j in range(h.shape[0]):
            h[j] += row[j]
    if end > begin:
        h *= 1.0 / (end - begin)
    n = W_out.shape[0]
    if not np.isfinite(np.sum(h)):  # a non-finite input row: say so instead of scoring it
        out[:] = np.nan
        return
    top = -np.inf
    for i in range(n):
        out[i] = dot(W_out[i], h)
        top = max(top, out[i])
    if loss_kind == SOFTMAX:
        total = 0.0
        for i in range(n):
            out[i] = np.exp(out[i] - top)
            total += out[i]
        out *= 1.0 / total
    elif table:
        for i in range(n):
            out[i] = table_sigmoid(out[i])
    else:
        for i in range(n):
            out[i] = 1.0 / (1.0 + np.exp(-out[i]))


@jit
def hs_path_probabilities(node_sigmoid, points, codes, lengths, offset, out):
    """p(label) = Π (σ(±u) + offset) over its path, from σ(u) of every inner node
    (offset 0: the model's probability; 1e-5: fastText's exp(Σ log(σ + 1e-5)))."""
    for label in range(lengths.shape[0]):
        p = 1.0
        for l in range(lengths[label]):
            q = node_sigmoid[points[label, l]]
            p *= (q if codes[label, l] == 1 else 1.0 - q) + offset
        out[label] = p


@numba.njit(nogil=True, cache=True, fastmath=False)
def fasttext_scores(W_in, W_out, rows, begin, end, h32, out):
    """σ-table scores as fastText computes them, operation for operation: the hidden vector
    and every dot product in float32, summed in order (no reassociation), so that a score
    lands on the same side of a table step as in fastText."""
    h32[:] = 0.0
    for i in range(begin, end):
        for j in range(h32.shape[0]):
            h32[j] = np.float32(h32[j] + np.float32(W_in[rows[i], j]))
    scale = np.float32(1.0 / (end - begin)) if end > begin else np.float32(1.0)
    for j in range(h32.shape[0]):
        h32[j] = np.float32(h32[j] * scale)
    for i in range(W_out.shape[0]):
        d = np.float32(0.0)
        for j in range(h32.shape[0]):
            d = np.float32(d + np.float32(np.float32(W_out[i, j]) * h32[j]))
        out[i] = table_sigmoid(d) if np.isfinite(d) else np.nan


@jit
def predict_all(W_in, W_out, rows, row_offsets, loss_kind, points, codes, lengths, n_labels, table, out):
    """Probabilities of every label for every document: ``out[d, label]``; with ``table``
    the figures fastText prints for the same model: ova through its σ table (computed as
    fastText does, :func:`fasttext_scores`), hs with its 1e-5 inside the path's logs (its
    tree search uses the exact σ)."""
    scores = np.zeros(W_out.shape[0], dtype=np.float64)
    h = np.zeros(W_in.shape[1], dtype=np.float64)
    h32 = np.zeros(W_in.shape[1], dtype=np.float32)
    for d in range(row_offsets.shape[0] - 1):
        if table and loss_kind == OVA:
            fasttext_scores(W_in, W_out, rows, row_offsets[d], row_offsets[d + 1], h32, scores)
        else:
            document_scores(W_in, W_out, rows, row_offsets[d], row_offsets[d + 1], loss_kind, False, h, scores)
        if loss_kind == HS:
            hs_path_probabilities(scores, points, codes, lengths, 1e-5 if table else 0.0, out[d])
        else:
            out[d, :] = scores[:n_labels]


@numba.njit(nogil=True, cache=True, parallel=True)
def train_streams(matrices, documents, outputs, schedule, streams, counters):
    """Hogwild: stream t (one per thread, all at once) reads from document ``positions[t]``
    on, wrapping around at the end (fastText's trainThread), until its tokens of the epoch,
    ``counters.tokens[t]``, reach ``budgets[t]``. Progress goes to ``counters.tokens[t]`` as
    it happens (the caller polls it for the progress line, and may train an epoch in
    several calls, each with a higher budget: the same documents at the same learning
    rates as one call); ``positions`` is advanced in place. Threads interleave document by
    document, as fastText's do, instead of one Python call after another, when the epoch is
    long enough for them to overlap in time (else ``train_interleaved``)."""
    positions, budgets, states = streams
    out_loss, out_examples, out_tokens = counters
    lr0, tokens_before, total_tokens = schedule
    n_streams = positions.shape[0]
    n_docs = documents.doc_tokens.shape[0]
    for t in numba.prange(n_streams):
        done = out_tokens[t]
        while done < budgets[t]:
            if positions[t] >= n_docs:
                positions[t] = 0
            part = train_range(matrices, documents, positions[t], n_docs, min(budgets[t] - done, 20000), outputs,
                               Schedule(lr0, tokens_before + n_streams * done, total_tokens), n_streams,
                               states[t:t + 1])
            positions[t] = part[3]
            done += part[2]
            out_loss[t] += part[0]
            out_examples[t] += part[1]
            out_tokens[t] += part[2]


@jit
def train_interleaved(matrices, documents, outputs, schedule, streams, counters):
    """``train_streams``'s streams on the calling thread, merged by token clock: the stream
    that has read the fewest tokens of the epoch (``counters.tokens``) trains its next
    document (ties: the lower stream). Each stream keeps everything ``train_streams``
    gives it: its position (wrapping around), token budget, learning rate from its own
    tokens × streams, and random state ``states[t]``; only the order of the documents
    differs, and it is the order threads running at the same pace per token would give,
    every run the same. An epoch trained in several calls, with budgets that are the same
    for every stream and rise from call to call, trains the same documents in the same
    order as one call.

    For epochs too short for threads to overlap: ``train_streams``' two threads train an
    SST epoch in 8-11 ms, and logged runs merged only 70-75 % of its documents with the
    other thread's, none at all in 5 of 27 epochs, one thread running after the other
    (figures and record in ``wordvec.models.classifier.training.run_epochs``)."""
    positions, budgets, states = streams
    out_loss, out_examples, out_tokens = counters
    lr0, tokens_before, total_tokens = schedule
    doc_tokens = documents.doc_tokens
    n_streams, n_docs = positions.shape[0], doc_tokens.shape[0]
    scratch = new_scratch(matrices)
    done = out_tokens
    while True:
        t = -1
        for s in range(n_streams):
            if done[s] < budgets[s] and (t < 0 or done[s] < done[t]):
                t = s
        if t < 0:
            return
        if positions[t] >= n_docs:
            positions[t] = 0
        d = positions[t]
        lr = lr0 * max(0.0, 1.0 - (tokens_before + n_streams * done[t]) / total_tokens)
        loss, examples = train_document(matrices, documents, d, outputs, lr, states[t:t + 1], scratch)
        positions[t] = d + 1
        out_loss[t] += loss
        out_examples[t] += examples
        done[t] += doc_tokens[d]


def empty_arguments(dim, threads):
    """Matrices, documents, outputs, schedule, streams and counters of the types training
    passes (``wordvec.models.classifier.training``), for ``threads`` streams with no token
    to read: the epoch kernels train nothing on them."""
    documents = Documents(np.zeros(1, np.int32), np.zeros(1, np.int64), np.zeros(1, np.int32),
                          np.zeros(1, np.int64), np.zeros(0, np.int64))
    matrices = Matrices(np.zeros((1, dim), np.float32), np.zeros((1, dim), np.float32))
    outputs = Outputs(SOFTMAX, np.zeros((1, 1), np.int32), np.zeros((1, 1), np.uint8), np.zeros(1, np.int32))
    streams = Streams(np.zeros(threads, np.int64), np.zeros(threads, np.int64), np.zeros(threads, np.uint64))
    counters = Counters(np.zeros(threads), np.zeros(threads, np.int64), np.zeros(threads, np.int64))
    return matrices, documents, outputs, make_schedule(0.1, 0, 1), streams, counters


def warm_up(dim=2, threads=1):
    """Load the initialisation and both epoch kernels (:func:`train_streams`, and
    :func:`train_interleaved`: which one an epoch runs depends on the corpus's size) on
    empty arguments (``wordvec.kernels.loader``); nothing is trained. The kernels take the
    vector size from the arrays: one specialisation serves every ``dim``."""
    matrices, documents, outputs, schedule, streams, counters = empty_arguments(dim, threads)
    uniform_fill(matrices.W_in[:0], np.zeros(0, np.int64), 1.0 / dim, 0)
    train_interleaved(matrices, documents, outputs, schedule, streams, counters)
    train_streams(matrices, documents, outputs, schedule, streams, counters)
