"""Vanilla (Elman) recurrent cell and backpropagation through time, by hand.

Seed 002, "Recurrent Neural Networks":

    z<t> = W_aa a<t-1> + W_ax x<t> + b_a,    a<t> = tanh(z<t>)   (or ReLU(z<t>))

written for a batch of B row vectors: Z = A_prev W_aa^T + X W_ax^T + b_a.  The matrices
keep the seed's orientation, so the seed's BPTT update
``dW_aa += diag[tanh'(z<t>)] d (a<t-1>)^T`` reads here as ``dW_aa += dZ^T A_prev``.

Parameters (dict): W_ax (H, D), W_aa (H, H), b_a (H,).  Gradients go into a dict of
same-shaped buffers with ``+=`` (zeroed once per step by the caller).
"""

import numpy as np

ACTIVATIONS = ("tanh", "relu")


def init_rnn_params(D, H, rng, dtype=np.float64, identity_init=False, recurrent_scale=1.0):
    """W_ax ~ N(0, 1/D), W_aa ~ N(0, 1/H) * recurrent_scale (or recurrent_scale * I), b_a = 0.

    Seed 002, "Solution to the Exploding & Vanishing Gradients": identity initialisation
    of W_aa (with ReLU, Le et al. 2015's IRNN) keeps gradients from vanishing early on;
    ``recurrent_scale`` > 1 makes them explode (the clipping experiment).
    """
    W_aa = np.eye(H) if identity_init else rng.normal(0.0, 1.0 / np.sqrt(H), (H, H))
    return {
        "W_ax": rng.normal(0.0, 1.0 / np.sqrt(D), (H, D)).astype(dtype),
        "W_aa": (recurrent_scale * W_aa).astype(dtype),
        "b_a": np.zeros(H, dtype=dtype),
    }


def rnn_cell_forward(x, a_prev, params, activation="tanh"):
    """x (B, D), a_prev (B, H) -> a (B, H).   a<t> = tanh(W_aa a<t-1> + W_ax x<t> + b_a)."""
    z = a_prev @ params["W_aa"].T + x @ params["W_ax"].T + params["b_a"]
    return np.tanh(z) if activation == "tanh" else np.maximum(z, 0.0)


def rnn_cell_backward(da, x, a_prev, a, params, grads, activation="tanh"):
    """da (B, H) = dJ/da<t> (all paths) -> (da_prev (B, H), dx (B, D)); grads += this step's.

    Seed 002, "Recursive Formulation for Simple RNN" (one iteration of the loop):
        dz        = diag[tanh'(z<t>)] d          tanh'(z) = 1 - a^2;  ReLU'(z) = [a > 0]
        dW_aa    += dz (a<t-1>)^T                dW_ax += dz (x<t>)^T;   db_a += dz
        d_prev    = W_aa^T dz                    (the recursion's next d, before adding
                                                  the next step's own dJ<t-1>/da<t-1>)
    """
    dz = da * (1.0 - a * a) if activation == "tanh" else da * (a > 0.0)
    grads["W_aa"] += dz.T @ a_prev
    grads["W_ax"] += dz.T @ x
    grads["b_a"] += dz.sum(axis=0)
    return dz @ params["W_aa"], dz @ params["W_ax"]


def rnn_forward(X, a0, params, activation="tanh"):
    """X (T, B, D), a0 (B, H) -> A (T, B, H), the hidden state at every step.

    The cache for backward is (X, a0, A): the cell needs only its input, previous state
    and output.
    """
    T, B, _ = X.shape
    A = np.empty((T, B, a0.shape[1]), dtype=np.result_type(X, a0))
    a = a0
    for t in range(T):
        a = A[t] = rnn_cell_forward(X[t], a, params, activation)
    return A


def rnn_backward(dA, X, a0, A, params, grads, activation="tanh"):
    """dA (T, B, H) = dJ<t>/da<t> from the output layer -> (dX (T, B, D), da0 (B, H)).

    Seed 002's loop "iterate over t = T, ..., 1: d <- W_aa^T diag[tanh'(z<t+1>)] d_prev +
    dJ<t>/da<t>; dW_aa += ...; dW_ax += ...": the gradients of all time steps accumulate
    into the same W_aa, W_ax, b_a buffers.
    """
    T = X.shape[0]
    dX = np.empty_like(X)
    d_next = np.zeros_like(a0)  # d_prev of the seed: nothing flows back from beyond T
    for t in reversed(range(T)):
        a_prev = A[t - 1] if t > 0 else a0
        d_next, dX[t] = rnn_cell_backward(dA[t] + d_next, X[t], a_prev, A[t], params, grads, activation)
    return dX, d_next
