"""Compiled loops of static sentence models: pooling (every thread), the Hogwild epoch
toward a teacher's sentence vectors, and the contrastive step on pairs.  Each performs
the update of ``wordvec.math.static`` (equations P, N, T1, T2, C there); the tests hold
them to it.

Sentences are flat: sentence s has token ids ``ids[offsets[s]:offsets[s+1]]``.
"""

from typing import NamedTuple

import numba
import numpy as np


class Rows(NamedTuple):
    """The trainable parameters: E (V x D float32) and w (V float32)."""
    E: np.ndarray
    weights: np.ndarray


class Sentences(NamedTuple):
    """Flat token ids (int32) and their offsets (int64, one more than sentences)."""
    ids: np.ndarray
    offsets: np.ndarray


class TeacherRun(NamedTuple):
    """One epoch toward the teacher: targets (n x D float32, already projected), the order
    of the sentences, the learning rate falling linearly from alpha to min_alpha over the
    epoch, the loss (0 cosine, 1 mse) and whether the weights learn."""
    targets: np.ndarray
    order: np.ndarray
    alpha: float
    min_alpha: float
    mse: bool
    train_weights: bool


# ----------------------------------------------------------------------------- pooling


@numba.njit(nogil=True, cache=True, parallel=True)
def pool(sentences, rows, dims, normalize, out):
    """(P) on the first ``dims`` columns into ``out`` (n x dims float32), then each row made
    unit if ``normalize`` (a zero row stays zero).  Sentences are spread over the threads."""
    ids, offsets = sentences
    E, weights = rows
    n = offsets.shape[0] - 1
    for s in numba.prange(n):
        start, stop = offsets[s], offsets[s + 1]
        for i in range(dims):
            out[s, i] = 0.0
        for t in range(start, stop):
            j = ids[t]
            c = weights[j]
            for i in range(dims):
                out[s, i] += c * E[j, i]
        if stop > start:
            scale = 1.0 / (stop - start)
            norm = 0.0
            for i in range(dims):
                out[s, i] *= scale
                norm += out[s, i] * out[s, i]
            if normalize and norm > 0.0:
                inverse = 1.0 / (np.sqrt(norm) + 1e-32)
                for i in range(dims):
                    out[s, i] *= inverse


# ----------------------------------------------------------------------------- toward the teacher


@numba.njit(nogil=True, cache=True)
def teacher_sentence(ids, start, stop, y, rows, alpha, mse, train_weights, scratch):
    """One SGD step of (P) + (T1)/(T2) on the sentence ``ids[start:stop]``, in place, every
    term at the parameters before the step (as ``math.static.teacher_step``).  ``scratch``
    is (v, g, dw): float64 arrays of length D, D and at least the sentence's length.
    Returns the loss (0 and no step for an empty sentence, or one that pools to zero under
    the cosine loss)."""
    E, weights = rows
    v, g, dw = scratch
    D = E.shape[1]
    n = stop - start
    if n == 0:
        return 0.0
    for i in range(D):
        v[i] = 0.0
    for t in range(start, stop):
        j = ids[t]
        for i in range(D):
            v[i] += weights[j] * E[j, i]
    v_norm2 = 0.0
    for i in range(D):
        v[i] /= n
        v_norm2 += v[i] * v[i]
    loss = 0.0
    if mse:
        for i in range(D):
            g[i] = v[i] - y[i]
            loss += 0.5 * g[i] * g[i]
    else:
        if v_norm2 == 0.0:
            return 0.0
        y_norm2 = 0.0
        dot = 0.0
        for i in range(D):
            y_norm2 += y[i] * y[i]
            dot += v[i] * y[i]
        v_norm, y_norm = np.sqrt(v_norm2), np.sqrt(y_norm2)
        cosine = dot / (v_norm * y_norm)
        loss = 1.0 - cosine
        for i in range(D):  # (T1)
            g[i] = -(y[i] / y_norm - cosine * v[i] / v_norm) / v_norm
    scatter(ids, start, stop, rows, alpha, train_weights, g, dw)
    return loss


@numba.njit(nogil=True, cache=True)
def scatter(ids, start, stop, rows, alpha, train_weights, g, dw):
    """The chain of (P) from dL/dv = ``g`` of the sentence ``ids[start:stop]`` as an SGD step:
    the weight gradients first (reading the rows before they move, into ``dw``), then the
    rows (with the weights before they move), then the weights."""
    E, weights = rows
    D = E.shape[1]
    n = stop - start
    if train_weights:
        for t in range(start, stop):
            j = ids[t]
            dot = 0.0
            for i in range(D):
                dot += E[j, i] * g[i]
            dw[t - start] = dot / n
    for t in range(start, stop):
        j = ids[t]
        step = alpha * weights[j] / n
        for i in range(D):
            E[j, i] -= step * g[i]
    if train_weights:
        for t in range(start, stop):
            weights[ids[t]] -= alpha * dw[t - start]


@numba.njit(nogil=True, cache=True, parallel=True)
def teacher_epoch(sentences, rows, run, threads, max_length):
    """One Hogwild epoch: the sentences in ``run.order`` split into ``threads`` contiguous
    shares, each thread stepping through its share with ``teacher_sentence`` while the
    others write the same rows; the learning rate falls linearly with each thread's
    progress.  Returns the summed loss."""
    ids, offsets = sentences
    D = rows.E.shape[1]
    n = run.order.shape[0]
    losses = np.zeros(threads)
    for k in numba.prange(threads):
        scratch = (np.zeros(D), np.zeros(D), np.zeros(max(max_length, 1)))
        first, last = k * n // threads, (k + 1) * n // threads
        for position in range(first, last):
            progress = (position - first) / max(last - first, 1)
            alpha = run.alpha - (run.alpha - run.min_alpha) * progress
            s = run.order[position]
            losses[k] += teacher_sentence(ids, offsets[s], offsets[s + 1], run.targets[s], rows, alpha,
                                          run.mse, run.train_weights, scratch)
    return losses.sum()


# ----------------------------------------------------------------------------- contrastive pairs


@numba.njit(nogil=True, cache=True)
def contrastive(anchors, positives, scale, sizes, grad_a, grad_p):
    """(C) summed over the Matryoshka ``sizes``: fills dL/danchors and dL/dpositives
    (B x D float64, zeroed here) and returns the loss.  Rows must not be zero."""
    B = anchors.shape[0]
    grad_a[:] = 0.0
    grad_p[:] = 0.0
    total = 0.0
    for k in sizes:
        a_norm = np.sqrt((anchors[:, :k] ** 2).sum(axis=1))
        p_norm = np.sqrt((positives[:, :k] ** 2).sum(axis=1))
        a_hat = anchors[:, :k] / a_norm.reshape(B, 1)
        p_hat = positives[:, :k] / p_norm.reshape(B, 1)
        S = scale * (a_hat @ p_hat.T)
        G = np.empty((B, B))
        for i in range(B):
            top = S[i].max()
            z = np.exp(S[i] - top).sum()
            log_z = top + np.log(z)
            total += (log_z - S[i, i]) / B
            for j in range(B):
                G[i, j] = (np.exp(S[i, j] - log_z) - (1.0 if i == j else 0.0)) / B
        g_a = scale * (G @ p_hat)
        g_p = scale * (G.T @ a_hat)
        for i in range(B):
            along_a = 0.0
            along_p = 0.0
            for d in range(k):
                along_a += g_a[i, d] * a_hat[i, d]
                along_p += g_p[i, d] * p_hat[i, d]
            for d in range(k):
                grad_a[i, d] += (g_a[i, d] - along_a * a_hat[i, d]) / a_norm[i]
                grad_p[i, d] += (g_p[i, d] - along_p * p_hat[i, d]) / p_norm[i]
    return total


@numba.njit(nogil=True, cache=True)
def scatter_batch(sentence_sets, grad_sets, rows, alpha, train_weights, dw):
    """The SGD step of a batch of pairs from the pooled vectors' gradients: every weight
    gradient first (rows before they move, summed into ``dw``, V float64, zeroed here),
    then every row step (weights before they move), then the weights."""
    E, weights = rows
    D = E.shape[1]
    dw[:] = 0.0
    for side in range(len(sentence_sets)):
        ids, offsets = sentence_sets[side]
        grads = grad_sets[side]
        if train_weights:
            for s in range(offsets.shape[0] - 1):
                n = offsets[s + 1] - offsets[s]
                for t in range(offsets[s], offsets[s + 1]):
                    j = ids[t]
                    dot = 0.0
                    for i in range(D):
                        dot += E[j, i] * grads[s, i]
                    dw[j] += dot / n
    for side in range(len(sentence_sets)):
        ids, offsets = sentence_sets[side]
        grads = grad_sets[side]
        for s in range(offsets.shape[0] - 1):
            n = offsets[s + 1] - offsets[s]
            for t in range(offsets[s], offsets[s + 1]):
                j = ids[t]
                step = alpha * weights[j] / n
                for i in range(D):
                    E[j, i] -= step * grads[s, i]
    if train_weights:
        for side in range(len(sentence_sets)):
            ids, offsets = sentence_sets[side]
            for t in range(ids.shape[0]):
                j = ids[t]
                if dw[j] != 0.0:
                    weights[j] -= alpha * dw[j]
                    dw[j] = 0.0
