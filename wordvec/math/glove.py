"""GloVe: weighted least squares on log co-occurrence counts (reference NumPy code).

Implements seed 002 (``../shared/seeds/002_*``), section "Global Vectors for Word
Representation (GloVe)", the final objective, with the biases and the weighting function
of Pennington, Socher & Manning (2014)::

    J = sum_{(i,j): X_ij > 0} f(X_ij) (w_i . w~_j + b_i + b~_j - log X_ij)^2
    f(x) = min(1, (x / x_max) ** power)

Shapes: W, W~ are V x D (word and context vectors), b, b~ are V; the non-zero entries
of X come as rows int[nnz], cols int[nnz], x float[nnz].

``glove_loss_and_gradients`` is the textbook loss and its exact gradient (checked
against finite differences).  ``glove_adagrad_step`` is one stochastic step on one
entry exactly as the compiled kernel performs it, which is the AdaGrad variant of the
Stanford ``glove.c`` (version 1.2), kept so that ``learning_rate`` means what ``-eta``
means there and results match the reference tool:

* it follows g = the gradient of J_ij / 2 (so g_w = f diff w~_j, g_b = f diff);
* vector gradients are clipped to +-``grad_clip`` and scaled: s = learning_rate * g;
  the step is s / sqrt(G) with G the accumulator *before* adding s^2 (G starts at 1.0),
  so G sums squared *scaled* gradients and late steps tend to g / sqrt(sum g^2);
* bias steps are g_b / sqrt(G_b) with G_b += g_b^2 -- no learning rate, as in glove.c.
"""

import numpy as np


def glove_weight(x, x_max, power, dtype=np.float64):
    """f(x) = (x / x_max)^power, capped at 1.  x: float[nnz] -> float[nnz], computed in
    ``dtype`` (the model packs its float32 counts' weights in float32)."""
    x = np.asarray(x, dtype=dtype)
    return np.minimum(1.0, (x / x_max) ** power)


def glove_loss_and_gradients(W, W_context, b, b_context, rows, cols, x, x_max, power):
    """J and dJ/d(W, W~, b, b~) over the given non-zero entries.

    W, W_context: V x D; b, b_context: V; rows, cols: int[nnz]; x: float[nnz] > 0.
    Returns (J, {"W": V x D, "W_context": V x D, "b": V, "b_context": V}).
    """
    f = glove_weight(x, x_max, power)                                   # nnz
    diff = (np.einsum("nd,nd->n", W[rows], W_context[cols])
            + b[rows] + b_context[cols] - np.log(x))                  # nnz
    J = float(np.sum(f * diff**2))
    g = 2.0 * f * diff                                                  # dJ/d(diff), nnz
    grads = {name: np.zeros_like(array) for name, array in
             (("W", W), ("W_context", W_context), ("b", b), ("b_context", b_context))}
    np.add.at(grads["W"], rows, g[:, None] * W_context[cols])           # repeated rows add
    np.add.at(grads["W_context"], cols, g[:, None] * W[rows])
    np.add.at(grads["b"], rows, g)
    np.add.at(grads["b_context"], cols, g)
    return J, grads


def glove_adagrad_step(params, sq, i, j, x_ij, x_max, power, learning_rate, grad_clip=100.0):
    """One AdaGrad step on entry (i, j); updates ``params`` and ``sq`` in place.

    params / sq: dicts with "W", "W_context" (V x D) and "b", "b_context" (V); sq holds
    the AdaGrad accumulators of each parameter.  Returns the entry's reported loss
    0.5 * f * diff^2 (what glove.c sums and divides by nnz to print its "cost"), or 0.0
    without any update when that is not finite.
    """
    W, C, b, c = params["W"], params["W_context"], params["b"], params["b_context"]
    f = glove_weight(x_ij, x_max, power)
    diff = W[i] @ C[j] + b[i] + c[j] - np.log(x_ij)
    fdiff = f * diff                                                 # d(J_ij/2)/d(diff)
    if not np.isfinite(fdiff):  # glove.c skips such an entry (a diverging step)
        return 0.0
    step_w = learning_rate * np.clip(fdiff * C[j], -grad_clip, grad_clip)   # eta * dJ_ij/2 / dw_i
    step_c = learning_rate * np.clip(fdiff * W[i], -grad_clip, grad_clip)   # eta * dJ_ij/2 / dw~_j
    W[i] -= step_w / np.sqrt(sq["W"][i])
    C[j] -= step_c / np.sqrt(sq["W_context"][j])
    sq["W"][i] += step_w**2
    sq["W_context"][j] += step_c**2
    b[i] -= fdiff / np.sqrt(sq["b"][i])                  # d(J_ij/2)/db_i = fdiff
    c[j] -= fdiff / np.sqrt(sq["b_context"][j])
    sq["b"][i] += fdiff**2
    sq["b_context"][j] += fdiff**2
    return 0.5 * fdiff * diff
