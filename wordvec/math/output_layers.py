"""The output layers every model trains, in NumPy: (h, output parameters, what to predict)
-> (loss, dL/dh, dL/dW_out), one function per layer, as fastText's ``loss.h`` has one class
per loss.  word2vec, subwords and Doc2Vec (``math/word2vec.py``, ``math/subword.py``,
``math/doc2vec.py``) and the classifier (``math/classifier.py``) take theirs from here.

Huffman codes have one meaning here, word2vec.c's and ``data/huffman.py``'s: at inner node
n_l the walk to the word takes the branch with probability σ(θ_l·h) where code c_l = 0
and 1 - σ(θ_l·h) where c_l = 1 (code 1: "the sigmoid says no").  fastText's classifier
reads the same bits the other way round; ``math/classifier.py`` passes the complement.

Every layer is a sum of logistic regressions or one softmax, so each gradient has the form
(prediction - label) times the input of the score (seed 004 sections 1-2).
"""

import numpy as np


def log_sigmoid(x):
    """log sigma(x) = -log(1 + exp(-x)), stable for any float (no overflow, no log(0))."""
    return -np.logaddexp(0.0, -np.asarray(x, dtype=np.float64))


def sigmoid(x):
    """sigma(x) = 1 / (1 + exp(-x)) = (tanh(x/2) + 1) / 2: no overflow at any x, and the
    dtype of ``x`` kept (the one sigmoid of the references, the LSTM and prediction)."""
    return 0.5 * (np.tanh(0.5 * x) + 1.0)


# ----------------------------------------------------------------------------------------
# Output layers: (h, output parameters, what to predict) -> (loss, dL/dh, dL/dW_out)
# ----------------------------------------------------------------------------------------


def softmax_output(h, W_out, target):
    """Full softmax cross-entropy: loss = -log softmax(W_out h)[target].

    Seed 004 section 1 (softmax loss and gradients), with x_i = w_i^T r̂:
        dJ/dr̂ = W^T (ŷ - y)            (1.1)
        dJ/dW = (ŷ - y) r̂^T           (1.2)
    and seed 001 sections 1.3-1.4 (e_j = y_j - t_j, EH = sum_j e_j v'_j).
    The loss uses log-sum-exp, so large scores cannot overflow.
    Shapes: h (D,), W_out (V, D) -> loss, dh (D,), dW_out (V, D).
    """
    scores = W_out @ h                                   # x_i = w_i^T h          (V,)
    log_norm = np.logaddexp.reduce(scores)
    loss = log_norm - scores[target]                     # -log ŷ_target
    error = np.exp(scores - log_norm)                    # ŷ
    error[target] -= 1.0                                 # e = ŷ - y
    dh = W_out.T @ error                                 # (1.1)
    dW_out = np.outer(error, h)                          # (1.2)
    return float(loss), dh, dW_out


def negative_sampling_output(h, W_out, target, negatives):
    """Negative-sampling loss: -log σ(w_t^T h) - Σ_k log σ(-w_k^T h).

    Seed 004 section 2 (negative sampling loss and gradient):
        dJ/dr̂ = -(1 - p_i) w_i + Σ_k (1 - q_k) w_k            (2.1)
        dJ/dw_i = -(1 - p_i) r̂,   dJ/dw_k = (1 - q_k) r̂        (2.2)
    where p_i = σ(w_i^T r̂), q_k = σ(-w_k^T r̂).  Seed 002 "Negative Sampling" gives the
    objective.  As seed 004 insists, a negative equal to the target (or a repeated
    negative) gets *both* updates: the per-term row gradients are summed with
    ``np.add.at``.  Each term is a logistic regression with label 1 (target) or 0
    (negative): dJ/dx = σ(x) - label.
    Shapes: h (D,), W_out (V, D), negatives (K,) -> loss, dh (D,), dW_out (V, D).
    """
    rows = np.concatenate(([target], np.asarray(negatives, dtype=np.int64)))
    labels = np.zeros(rows.size)
    labels[0] = 1.0
    scores = W_out[rows] @ h                             # x for each term   (K+1,)
    signs = 2.0 * labels - 1.0                           # +1 target, -1 negatives
    loss = -np.sum(log_sigmoid(signs * scores))
    dscores = sigmoid(scores) - labels                   # dJ/dx per term
    dh = W_out[rows].T @ dscores                         # (2.1)
    dW_out = np.zeros_like(W_out)
    np.add.at(dW_out, rows, np.outer(dscores, h))        # (2.2), repeats summed
    return float(loss), dh, dW_out


def hierarchical_softmax_output(h, W_inner, points, codes):
    """Hierarchical softmax: -log P(word | h) = -Σ_l log σ((1 - 2 c_l) θ_l^T h).

    Seed 002 "Hierarchical Softmax": P(word) is the probability of the random walk from
    the root of the Huffman tree to the word's leaf; at inner node n_l (vector θ_l =
    W_inner[points[l]]) the walk takes branch c_l = codes[l] with probability
    σ(θ_l^T h) if c_l = 0 and σ(-θ_l^T h) = 1 - σ(θ_l^T h) if c_l = 1 (word2vec.c's
    convention: label 1 - c_l).  Each node is a logistic regression, so, as for
    negative sampling (seed 004 section 2), dJ/dx_l = σ(x_l) - (1 - c_l),
    dJ/dh = Σ_l dJ/dx_l θ_l and dJ/dθ_l = dJ/dx_l h.
    Shapes: h (D,), W_inner (V-1, D), points (L,), codes (L,) -> loss, dh, dW_inner.
    """
    points = np.asarray(points, dtype=np.int64)
    labels = 1.0 - np.asarray(codes, dtype=np.float64)
    scores = W_inner[points] @ h                         # (L,)
    loss = -np.sum(log_sigmoid((2.0 * labels - 1.0) * scores))
    dscores = sigmoid(scores) - labels
    dh = W_inner[points].T @ dscores
    dW_inner = np.zeros_like(W_inner)
    np.add.at(dW_inner, points, np.outer(dscores, h))    # a path never repeats a node
    return float(loss), dh, dW_inner


def one_vs_all_output(h, W_out, targets):
    """One independent logistic loss per label, label j positive iff j is in ``targets``:
    L = -Σ_j [t_j log σ(x_j) + (1 - t_j) log σ(-x_j)], x_j = W_out[j]·h (the classifier's
    (C4) in ``math/classifier.py``); dL/dx_j = σ(x_j) - t_j, so
    dL/dh = W_out^T (σ(x) - t) and dL/dW_out = (σ(x) - t) h^T.
    Shapes: h (D,), W_out (C, D), targets (T,) -> loss, dh (D,), dW_out (C, D).
    """
    t = np.zeros(W_out.shape[0])
    t[np.asarray(targets, dtype=np.int64)] = 1.0
    scores = W_out @ h
    loss = -np.sum(log_sigmoid((2.0 * t - 1.0) * scores))
    error = sigmoid(scores) - t
    return float(loss), W_out.T @ error, np.outer(error, h)
