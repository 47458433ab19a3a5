"""Long short-term memory cell and its backpropagation through time, by hand.

Seed 002, "Long Short-term Memory Cell", for a batch of B row vectors with
s = [a<t-1>, x<t>] (B, H + D) and one stacked weight matrix W = [W_f; W_i; W_c; W_o]
(4H, H + D), b = [b_f; b_i; b_c; b_o] (4H,):

    Gamma_f = sigma(gamma_f),  gamma_f = W_f s + b_f        (forget gate)
    Gamma_i = sigma(gamma_i),  gamma_i = W_i s + b_i        (input / update gate)
    c~      = tanh(z),         z       = W_c s + b_c        (candidate cell)
    c<t>    = Gamma_f * c<t-1> + Gamma_i * c~
    Gamma_o = sigma(gamma_o),  gamma_o = W_o s + b_o        (output gate)
    a<t>    = Gamma_o * tanh(c<t>)

Gradients go into same-shaped buffers with ``+=`` (zeroed once per step by the caller).
"""

import numpy as np

from wordvec.math.output_layers import sigmoid


def init_lstm_params(D, H, rng, dtype=np.float64, forget_bias=1.0):
    """W ~ U(-1/sqrt(H), 1/sqrt(H)) (4H, H + D), b = 0 except b_f = forget_bias.

    A positive forget-gate bias starts the cell remembering (Gers et al. 2000;
    Jozefowicz et al. 2015), so the c path carries gradient from the first step.
    """
    bound = 1.0 / np.sqrt(H)
    b = np.zeros(4 * H)
    b[:H] = forget_bias
    return {"W": rng.uniform(-bound, bound, (4 * H, H + D)).astype(dtype), "b": b.astype(dtype)}


def lstm_cell_forward(x, a_prev, c_prev, params):
    """x (B, D), a_prev (B, H), c_prev (B, H) -> (a, c, cache).

    cache = (s, Gamma_f, Gamma_i, c~, Gamma_o, c<t-1>, tanh(c<t>)), each (B, ·).
    """
    H = a_prev.shape[1]
    s = np.concatenate([a_prev, x], axis=1)  # [a<t-1>; x<t>]
    gates = s @ params["W"].T + params["b"]  # (B, 4H): gamma_f, gamma_i, z, gamma_o
    f = sigmoid(gates[:, :H])
    i = sigmoid(gates[:, H : 2 * H])
    c_tilde = np.tanh(gates[:, 2 * H : 3 * H])
    o = sigmoid(gates[:, 3 * H :])
    c = f * c_prev + i * c_tilde
    tanh_c = np.tanh(c)
    a = o * tanh_c
    return a, c, (s, f, i, c_tilde, o, c_prev, tanh_c)


def lstm_cell_backward(da, dc, cache, params, grads):
    """da, dc (B, H): dJ/da<t>, dJ/dc<t> from above and from step t+1 ->
    (da_prev (B, H), dc_prev (B, H), dx (B, D)); grads["W"], grads["b"] += this step's.

    Seed 002, "LSTM Recursive Formulation":
        dc_all   = dJ/dc<t> + dJ/da<t> diag[Gamma_o] diag[tanh'(c<t>)]
        dgamma_o = dJ/da<t> diag[tanh(c<t>)] diag[sigma'(gamma_o)]
        dgamma_f = dc_all diag[c<t-1>] diag[sigma'(gamma_f)]
        dgamma_i = dc_all diag[c~] diag[sigma'(gamma_i)]
        dz       = dc_all diag[Gamma_i] diag[tanh'(z)]
        dW_k    += dgamma_k^T [a<t-1>; x<t>]^T   for k in f, i, c, o
        dJ/dc<t-1> = dc_all diag[Gamma_f];   dJ/da<t-1> = sum_k dgamma_k W_k[:, :H]
    with sigma' = sigma (1 - sigma) and tanh' = 1 - tanh^2.
    """
    s, f, i, c_tilde, o, c_prev, tanh_c = cache
    H = f.shape[1]
    dc_all = dc + da * o * (1.0 - tanh_c * tanh_c)
    dgates = np.concatenate(
        [
            dc_all * c_prev * f * (1.0 - f),  # dgamma_f
            dc_all * c_tilde * i * (1.0 - i),  # dgamma_i
            dc_all * i * (1.0 - c_tilde * c_tilde),  # dz
            da * tanh_c * o * (1.0 - o),  # dgamma_o
        ],
        axis=1,
    )
    grads["W"] += dgates.T @ s
    grads["b"] += dgates.sum(axis=0)
    ds = dgates @ params["W"]
    return ds[:, :H], dc_all * f, ds[:, H:]


def lstm_forward(X, a0, c0, params):
    """X (T, B, D), a0, c0 (B, H) -> (A (T, B, H), c_T (B, H), caches: list of T cell caches)."""
    T, B, _ = X.shape
    A = np.empty((T, B, a0.shape[1]), dtype=np.result_type(X, a0))
    a, c, caches = a0, c0, []
    for t in range(T):
        a, c, cache = lstm_cell_forward(X[t], a, c, params)
        A[t] = a
        caches.append(cache)
    return A, c, caches


def lstm_backward(dA, caches, params, grads):
    """dA (T, B, H) = dJ<t>/da<t> from the output layer -> (dX (T, B, D), da0, dc0 (B, H)).

    Seed 002, "Gradient": dJ/dW = sum_t dJ<t>/dW, each step's contribution added into
    the same buffers while d(a) and d(c) flow from step t+1 back to step t.
    """
    T = dA.shape[0]
    da_next = np.zeros_like(dA[0])
    dc_next = np.zeros_like(dA[0])
    dX = None
    for t in reversed(range(T)):
        da_next, dc_next, dx = lstm_cell_backward(dA[t] + da_next, dc_next, caches[t], params, grads)
        if dX is None:
            dX = np.empty((T,) + dx.shape, dtype=dx.dtype)
        dX[t] = dx
    return dX, da_next, dc_next
