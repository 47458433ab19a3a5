"""The classifier's prediction in NumPy (``wordvec.math.classifier`` (C1)-(C4) forward only).

A document's label scores are linear in its hidden vector h = (1/|B|) Σ_{r∈B} W_in[r]
(C1), so they are the mean of its rows' scores:

    W_out h = (1/|B|) Σ_{r∈B} W_out W_in[r]                                        (P1)

which lets a model score every word row once and a document sum a few numbers per row
instead of ``dim`` (exact in real numbers; in float64 the two differ by rounding,
~1e-16; :func:`segment_sums` does the sums). Then

  softmax  p = softmax(W_out h)                                                     (C2)
  hs       p(y) = Π_l σ(s_l W_out[n_l] · h) over y's Huffman path                    (C3)
           (fastText's predict adds 1e-5 inside each factor's log: ``offset``)
  ova      p_j = σ(W_out[j] · h), each label on its own                              (C4)

fastText's ova prediction reads σ from a 512-step float32 table (loss.cc), and a score
near a step lands on one side or the other depending on float32 rounding; to print its
figures, :func:`fasttext_ova` computes h and the dot products in float32, row after row
and term after term, as fastText does (the compiled ``kernels.classifier.fasttext_scores``).
"""

import numpy as np

from wordvec.math.output_layers import sigmoid

SIGMOID_TABLE_SIZE, MAX_SIGMOID = 512, 8.0


def segment_sums(values, offsets, axis):
    """float64 sums of ``values`` along ``axis`` over the segments [offsets[d], offsets[d+1])
    (offsets start at 0), in order; zeros for an empty segment. Along axis 1 when the
    values are scores (a row per label: summing along a contiguous axis is ~8x faster than
    across 2-14 columns), along axis 0 for vectors (rows of ``dim`` values)."""
    n = len(offsets) - 1
    shape = list(values.shape)
    shape[axis] = n
    out = np.zeros(shape, dtype=np.float64)
    filled = np.flatnonzero(np.diff(offsets) > 0)
    if len(filled):
        # reduceat over the non-empty starts only: each sums up to the next one, i.e. its own segment
        sums = np.add.reduceat(values, offsets[filled], axis=axis, dtype=np.float64)
        if axis == 0:
            out[filled] = sums
        else:
            out[:, filled] = sums
    return out


def softmax(scores):
    """(C2) row by row."""
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return p


def hs_probabilities(node_scores, points, codes, lengths, offset=0.0):
    """(C3): p[d, y] = Π_l (σ(u) if code_l = 1 else 1 - σ(u)) + offset, u = node_scores[d, n_l]."""
    q = sigmoid(node_scores)
    p = np.ones((node_scores.shape[0], len(lengths)), dtype=np.float64)
    for level in range(points.shape[1]):
        on_path = np.flatnonzero(lengths > level)
        factor = q[:, points[on_path, level]]
        factor = np.where(codes[on_path, level] == 1, factor, 1.0 - factor) + offset
        p[:, on_path] *= factor
    return p


def table_sigmoid(x):
    """fastText's σ lookup (loss.cc): 0 below -8, 1 above 8, else the float32 value of σ at
    the table point i = int((x + 8) · 32) of 513 points over [-8, 8], t_i = i · 16 / 512 - 8
    (as float32); a non-finite x gives NaN (the caller reports the model as damaged)."""
    x = np.asarray(x, dtype=np.float64)
    finite = np.isfinite(x)
    inside = np.clip(np.where(finite, x, 0.0), -MAX_SIGMOID, MAX_SIGMOID)
    i = ((inside + MAX_SIGMOID) * SIGMOID_TABLE_SIZE / MAX_SIGMOID / 2).astype(np.int64)
    t = ((i * 2 * MAX_SIGMOID) / SIGMOID_TABLE_SIZE - MAX_SIGMOID).astype(np.float32)
    value = (1.0 / (1.0 + np.exp(-t.astype(np.float64)))).astype(np.float32).astype(np.float64)
    value = np.where(x < -MAX_SIGMOID, 0.0, np.where(x > MAX_SIGMOID, 1.0, value))
    return np.where(finite, value, np.nan)


def fasttext_ova(bag_rows, row_offsets, W_out):
    """(C4) through fastText's σ table, with float32 arithmetic in fastText's order:
    h = (Σ rows, in bag order) · float32(1/|B|), then d_j = Σ_k W_out[j, k] h_k term by term.
    ``bag_rows``: float32[bag positions, dim] (CSR ``row_offsets``); a document without
    rows gets h = 0."""
    counts = np.diff(row_offsets)
    h = np.zeros((len(counts), bag_rows.shape[1]), dtype=np.float32)
    filled = np.flatnonzero(counts > 0)
    if len(filled):
        h[filled] = np.add.reduceat(bag_rows, row_offsets[filled] - row_offsets[0], axis=0)
        scale = (1.0 / counts[filled]).astype(np.float32)  # fastText: real(1.0 / real(n))
        h[filled] *= scale[:, None]
    d = np.zeros((len(counts), W_out.shape[0]), dtype=np.float32)
    for k in range(W_out.shape[1]):
        d += W_out[None, :, k] * h[:, k, None]
    return table_sigmoid(d)
