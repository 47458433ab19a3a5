"""fastText's supervised classifier (Joulin et al. 2017, "Bag of Tricks"), reference math in NumPy.

Seed 000 writes the embedding layer as h = (I ⊗ E) x: a one-hot input x picks rows of
the input matrix E. A document is a *bag* B of rows (its words, its hashed word n-grams
and, optionally, the words' character n-grams; repeats kept), and fastText feeds the
mean of those rows, i.e. x is the bag's count vector divided by |B|:

    h = (1 / |B|) Σ_{r ∈ B} W_in[r]                                          (C1)

Seed 002's output layers then score the labels from h:

  softmax  p = softmax(W_out h),   L = -log p_y                               (C2)
           dL/dh = W_out^T (p - e_y),   dL/dW_out = (p - e_y) h^T
  hs       L = -Σ_l log σ(s_l · W_out[n_l] · h),  s_l = +1 if code_l else -1  (C3)
           over the inner nodes n_l on label y's Huffman path (fastText's sign
           convention: code 1 = the right child = "σ says yes", the opposite of
           word2vec's); dL/dh = Σ_l (σ(s_l u_l) - 1) s_l W_out[n_l]
  ova      L = -Σ_j [t_j log σ(W_out[j]·h) + (1 - t_j) log(1 - σ(W_out[j]·h))]   (C4)
           one independent logistic loss per label j, t_j = 1 for the document's
           labels; dL/dh = Σ_j (σ_j - t_j) W_out[j]

and by the chain rule through (C1), every occurrence of a row in the bag gets

    dL/dW_in[r] = (1 / |B|) dL/dh                                             (C5)

fastText's update for supervised models is exactly the SGD step on (C5) (Model::update
divides the hidden gradient by the bag size only when ``model == sup``), with the output
gradient computed from W_out *before* W_out moves. :func:`sgd_step` is that step; the
compiled kernel (``wordvec.kernels.classifier``) is held to it.

Losses reported during training are these exact -log p (fastText adds 1e-5 inside its
log; the difference is below the printed digits once p > 0.01).
"""

import numpy as np

from wordvec.math.output_layers import (  # noqa: F401  (softmax_output and sigmoid: used as C.name)
    hierarchical_softmax_output,
    one_vs_all_output,
    sigmoid,
    softmax_output,
)


def hidden(W_in, rows):
    """h = mean of W_in[rows] (C1); ``rows`` may repeat."""
    return W_in[np.asarray(rows, dtype=np.int64)].mean(axis=0)


def hs_output(h, W_out, points, codes):
    """(C3) along one Huffman path: the shared layer, with fastText's reading of the tree's
    bits (code 1 = "σ says yes") turned into ``output_layers``' by taking the complement."""
    return hierarchical_softmax_output(h, W_out, points, 1 - np.asarray(codes, dtype=np.int64))


def ova_output(h, W_out, targets):
    """(C4) for the label set ``targets``."""
    return one_vs_all_output(h, W_out, targets)


def output_layer(loss, W_out, target=None, targets=None, points=None, codes=None):
    """The output layer named ``loss`` ('softmax', 'hs', 'ova') as a function of h:
    one strategy object per loss, as in fastText's loss.h."""
    if loss == "softmax":
        return lambda h: softmax_output(h, W_out, target)
    if loss == "hs":
        return lambda h: hs_output(h, W_out, points, codes)
    if loss == "ova":
        return lambda h: ova_output(h, W_out, targets)
    raise ValueError(f"unknown loss {loss!r}")


def document_loss(W_in, W_out, rows, loss, **labels):
    """Loss and gradients (dW_in, dW_out) of one document: (C1) -> output layer -> (C5)."""
    rows = np.asarray(rows, dtype=np.int64)
    h = hidden(W_in, rows)
    value, dh, dW_out = output_layer(loss, W_out, **labels)(h)
    dW_in = np.zeros_like(W_in)
    np.add.at(dW_in, rows, dh / len(rows))                  # (C5), repeats summed
    return value, dW_in, dW_out


def sgd_step(W_in, W_out, rows, lr, loss, **labels):
    """fastText's supervised update, in place: W -= lr dL/dW for both matrices (the
    gradients taken at the old W_out). Returns the loss before the step."""
    value, dW_in, dW_out = document_loss(W_in, W_out, rows, loss, **labels)
    W_in -= lr * dW_in
    W_out -= lr * dW_out
    return value


def predict_scores(W_in, W_out, rows, loss):
    """Label probabilities of one document: softmax (C2), or independent σ for ova.
    (hs probabilities are path products; see ``hs_label_probabilities``.)"""
    h = hidden(W_in, rows)
    scores = W_out @ h
    if loss == "ova":
        return sigmoid(scores)
    p = np.exp(scores - scores.max())
    return p / p.sum()


def hs_label_probabilities(W_in, W_out, rows, points, codes, lengths):
    """p(label | h) = Π_l σ(s_l u_l) for every label (C3): sums to 1 over the labels."""
    h = hidden(W_in, rows)
    out = np.ones(len(lengths))
    for label, length in enumerate(lengths):
        for node, code in zip(points[label, :length], codes[label, :length]):
            sign = 1.0 if code else -1.0
            out[label] *= sigmoid(sign * (W_out[node] @ h))
    return out
