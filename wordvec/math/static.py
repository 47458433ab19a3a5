"""Static sentence models, reference math: pooling, the loss toward a teacher's sentence
vectors, and the in-batch contrastive loss on pairs, each with its hand-derived gradient.

Shapes: V vocabulary, D vector size, n_s tokens of sentence s, B pairs in a batch.

    E   V x D   one vector per token (row j is E_j)
    w   V       one weight per token

Pooling (Model2Vec's ``encode``: the weighted rows are averaged over the token count, not
over the weights), for a sentence with token ids t_1..t_n:

    v = (1/n) sum_i w_{t_i} E_{t_i}                                               (P)

so dv/dE_j = (c_j w_j / n) I and dv/dw_j = (c_j / n) E_j, with c_j the count of j in the
sentence: a row's gradient is the pooled vector's gradient scaled by its share (seed 001's
CBOW, where the hidden vector is a mean of input rows and dL/dh flows back to each of them).

Unit vectors: u = x / |x| has du/dx = (I - u u^T) / |x|, so a gradient g on u becomes

    dL/dx = (g - (g . u) u) / |x|                                                 (N)

Toward the teacher (the Tokenlearn objective), y the teacher's sentence vector after the
same projection as the rows:

    cosine:  L = 1 - v . y / (|v| |y|),   dL/dv = -(ŷ - (ŷ . v̂) v̂) / |v|        (T1)
    mse:     L = 1/2 |v - y|^2,            dL/dv = v - y                            (T2)

(T1) is (N) with g = -ŷ.  Contrastive on pairs (sentence-transformers'
MultipleNegativesRankingLoss, seed 004 section 1's softmax cross-entropy with the scores
below as logits), for each Matryoshka size k, â_i / p̂_j the first k dimensions of anchor
i / positive j made unit:

    S_ij = s â_i . p̂_j,    L_k = (1/B) sum_i (logsumexp_j S_ij - S_ii)           (C)
    dL_k/dS_ij = (softmax_j(S_i.)_j - δ_ij) / B = G_ij
    dL_k/dâ_i = s sum_j G_ij p̂_j,   dL_k/dp̂_j = s sum_i G_ij â_i

then (N) back to the first k dimensions of a_i and p_j; L = sum_k L_k.
"""

import numpy as np


def pool(ids, offsets, weights, E):
    """(P) for every sentence: sentence s has tokens ``ids[offsets[s]:offsets[s+1]]``;
    an empty sentence pools to zeros."""
    out = np.zeros((len(offsets) - 1, E.shape[1]), dtype=np.float64)
    for s in range(len(offsets) - 1):
        tokens = ids[offsets[s]:offsets[s + 1]]
        if len(tokens):
            out[s] = (weights[tokens][:, None] * E[tokens]).sum(axis=0) / len(tokens)
    return out


def normalize_backward(x, g):
    """(N): the gradient on x of a loss whose gradient on x/|x| is g."""
    norm = np.linalg.norm(x)
    u = x / norm
    return (g - (g @ u) * u) / norm


def teacher_loss(v, y, loss="cosine"):
    """(T1) or (T2): (loss, dL/dv) of one pooled vector v against the teacher's y."""
    if loss == "cosine":
        v_norm, y_norm = np.linalg.norm(v), np.linalg.norm(y)
        value = 1.0 - (v @ y) / (v_norm * y_norm)
        return value, normalize_backward(v, -y / y_norm)
    difference = v - y
    return 0.5 * difference @ difference, difference


def rows_backward(tokens, weights, E, grad_v):
    """Chain (P): dense (dL/dE, dL/dw) from dL/dv of one sentence with ids ``tokens``."""
    grad_E, grad_w = np.zeros_like(E), np.zeros_like(weights)
    n = len(tokens)
    for t in tokens:
        grad_E[t] += weights[t] / n * grad_v
        grad_w[t] += E[t] @ grad_v / n
    return grad_E, grad_w


def teacher_example(tokens, y, weights, E, loss="cosine"):
    """Loss and dense gradients (dL/dE, dL/dw) of one sentence toward its teacher vector."""
    v = pool(tokens, np.array([0, len(tokens)]), weights, E)[0]
    value, grad_v = teacher_loss(v, y, loss)
    grad_E, grad_w = rows_backward(tokens, weights, E, grad_v)
    return value, grad_E, grad_w


def teacher_step(tokens, y, weights, E, alpha, loss="cosine", train_weights=True):
    """The SGD step the compiled kernel takes on one sentence, in place:
    E <- E - alpha dL/dE, w <- w - alpha dL/dw (every term at the parameters before the
    step); returns the loss.  A sentence with no tokens, or that pools to zero under the
    cosine loss, takes no step."""
    if len(tokens) == 0:
        return 0.0
    v = pool(tokens, np.array([0, len(tokens)]), weights, E)[0]
    if loss == "cosine" and not np.any(v):
        return 0.0
    value, grad_E, grad_w = teacher_example(tokens, y, weights, E, loss)
    E -= alpha * grad_E
    if train_weights:
        weights -= alpha * grad_w
    return value


def contrastive_loss(anchors, positives, scale, sizes):
    """(C) summed over the Matryoshka sizes: (loss, dL/danchors, dL/dpositives), B x D each."""
    B = anchors.shape[0]
    total = 0.0
    grad_a, grad_p = np.zeros_like(anchors), np.zeros_like(positives)
    for k in sizes:
        a, p = anchors[:, :k], positives[:, :k]
        a_norm = np.linalg.norm(a, axis=1, keepdims=True)
        p_norm = np.linalg.norm(p, axis=1, keepdims=True)
        a_hat, p_hat = a / a_norm, p / p_norm
        S = scale * a_hat @ p_hat.T
        top = S.max(axis=1, keepdims=True)
        log_z = top[:, 0] + np.log(np.exp(S - top).sum(axis=1))
        total += (log_z - np.diag(S)).sum() / B
        G = (np.exp(S - log_z[:, None]) - np.eye(B)) / B
        g_a_hat, g_p_hat = scale * G @ p_hat, scale * G.T @ a_hat
        grad_a[:, :k] += (g_a_hat - (g_a_hat * a_hat).sum(axis=1, keepdims=True) * a_hat) / a_norm
        grad_p[:, :k] += (g_p_hat - (g_p_hat * p_hat).sum(axis=1, keepdims=True) * p_hat) / p_norm
    return total, grad_a, grad_p


def pairs_example(anchor_ids, anchor_offsets, positive_ids, positive_offsets, weights, E, scale, sizes):
    """Loss and dense (dL/dE, dL/dw) of one batch of pairs: pooled by (P), scored by (C)."""
    anchors = pool(anchor_ids, anchor_offsets, weights, E)
    positives = pool(positive_ids, positive_offsets, weights, E)
    value, grad_a, grad_p = contrastive_loss(anchors, positives, scale, sizes)
    grad_E, grad_w = np.zeros_like(E), np.zeros_like(weights)
    for ids, offsets, grads in ((anchor_ids, anchor_offsets, grad_a), (positive_ids, positive_offsets, grad_p)):
        for s in range(len(offsets) - 1):
            g_E, g_w = rows_backward(ids[offsets[s]:offsets[s + 1]], weights, E, grads[s])
            grad_E += g_E
            grad_w += g_w
    return value, grad_E, grad_w


def pairs_step(batch, weights, E, alpha, scale, sizes, train_weights=True):
    """The SGD step of one batch, in place (all gradients at the parameters before the
    step); ``batch`` is (anchor_ids, anchor_offsets, positive_ids, positive_offsets)."""
    value, grad_E, grad_w = pairs_example(*batch, weights, E, scale, sizes)
    E -= alpha * grad_E
    if train_weights:
        weights -= alpha * grad_w
    return value
