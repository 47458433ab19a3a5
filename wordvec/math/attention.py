"""Attention and causal self-attention, forward and backward by hand.

Seed 002, "Attention: in equations" and "Attention variants": a query s attends to
states h_1..h_N through scores e_i, weights alpha = softmax(e) and the output
a = sum_i alpha_i h_i.  Seed 002, "Self-Attention": queries, keys and values drawn from
one sequence, position vectors, a position-wise feed-forward network and the
look-ahead mask; the blocks are stacked as in the (pre-norm) Transformer decoder of the
notes' "Transformer model" header, with layer normalisation derived here.

Each ``*_forward`` sits beside its ``*_backward``; backward functions *add* (``+=``)
parameter gradients into buffers the caller zeroed once per step (as in softmax_ce.py)
and return the gradients of their inputs.  Shapes: B batch, N attended states, T
positions, d1 size of h, d2 size of s, d3 additive-attention size, D model width, F
feed-forward width.
"""

import numpy as np

from wordvec.math.softmax_ce import linear_backward, linear_forward


# ================================================================ seq2seq attention (seed 002)
# ---------------------------------------------------------------- scoring functions
# Written for M queries at once (s (B, M, d2): the decoder states of M steps), each
# scoring the same N states; M = 1 is the notes' one decoder step.
def dot_scores_forward(s, H, params):
    """s (B, M, d), H (B, N, d) -> (e (B, M, N), cache).

    Seed 002, "Attention variants", basic dot-product attention: e_i = s^T h_i.
    """
    return s @ H.swapaxes(1, 2), None


def dot_scores_backward(de, s, H, params, grads, cache):
    """de (B, M, N) -> (ds (B, M, d), dH (B, N, d)).   de_i/ds = h_i,  de_i/dh_i = s."""
    return de @ H, de.swapaxes(1, 2) @ s


def multiplicative_scores_forward(s, H, params):
    """s (B, M, d2), H (B, N, d1), W (d2, d1) -> (e (B, M, N), cache = u (B, M, d1)).

    Seed 002, "Attention variants", multiplicative attention: e_i = s^T W h_i,
    computed as u^T h_i with u^T = s^T W.
    """
    u = s @ params["W"]
    return u @ H.swapaxes(1, 2), u


def multiplicative_scores_backward(de, s, H, params, grads, u):
    """de (B, M, N) -> (ds (B, M, d2), dH (B, N, d1)); grads["W"] += sum s du^T.

    du = sum_i de_i h_i;  dW = s du^T (outer product, summed over queries and batch);
    ds = W du;  dh_i = sum over queries of de_i u.
    """
    du = de @ H
    grads["W"] += s.reshape(-1, s.shape[2]).T @ du.reshape(-1, du.shape[2])
    return du @ params["W"].T, de.swapaxes(1, 2) @ u


def additive_scores_forward(s, H, params):
    """s (B, M, d2), H (B, N, d1), W1 (d3, d1), W2 (d3, d2), v (d3,) ->
    (e (B, M, N), cache = tanh (B, M, N, d3)).

    Seed 002, "Attention variants", additive attention: e_i = v^T tanh(W1 h_i + W2 s).
    """
    z = (H @ params["W1"].T)[:, None, :, :] + (s @ params["W2"].T)[:, :, None, :]
    u = np.tanh(z)
    return u @ params["v"], u


def additive_scores_backward(de, s, H, params, grads, u):
    """de (B, M, N) -> (ds (B, M, d2), dH (B, N, d1)); grads W1, W2, v += this batch's.

    dv = sum_i de_i u_i;  dz_i = de_i v * (1 - u_i^2)  (tanh' = 1 - tanh^2);
    dW1 = sum_i dz_i h_i^T;  dh_i = W1^T dz_i;  dW2 = (sum_i dz_i) s^T;  ds = W2^T sum_i dz_i
    (W1 h_i is shared by all queries, W2 s by all i: their dz are summed first).
    """
    grads["v"] += np.einsum("bmn,bmnk->k", de, u)
    dz = de[..., None] * params["v"] * (1.0 - u * u)  # (B, M, N, d3)
    dz_h, dz_s = dz.sum(axis=1), dz.sum(axis=2)  # (B, N, d3), (B, M, d3)
    grads["W1"] += dz_h.reshape(-1, dz.shape[3]).T @ H.reshape(-1, H.shape[2])
    grads["W2"] += dz_s.reshape(-1, dz.shape[3]).T @ s.reshape(-1, s.shape[2])
    return dz_s @ params["W2"], dz_h @ params["W1"]


SCORES = {
    "dot": (dot_scores_forward, dot_scores_backward),
    "multiplicative": (multiplicative_scores_forward, multiplicative_scores_backward),
    "additive": (additive_scores_forward, additive_scores_backward),
}


def init_score_params(kind, d1, d2, d3, rng, dtype=np.float64):
    """Parameters of a scoring function: {} (dot), W (d2, d1), or W1 (d3, d1), W2 (d3, d2), v (d3,)."""
    if kind == "dot":
        return {}
    if kind == "multiplicative":
        return {"W": rng.normal(0.0, 1.0 / np.sqrt(d1), (d2, d1)).astype(dtype)}
    return {"W1": rng.normal(0.0, 1.0 / np.sqrt(d1), (d3, d1)).astype(dtype),
            "W2": rng.normal(0.0, 1.0 / np.sqrt(d2), (d3, d2)).astype(dtype),
            "v": rng.normal(0.0, 1.0 / np.sqrt(d3), d3).astype(dtype)}


# ---------------------------------------------------------------- softmax weights
def attention_softmax_forward(e, allowed=None):
    """e (..., N), allowed bool broadcastable to e or None -> alpha (..., N).

    Seed 002: alpha = softmax(e), a distribution over the N states.  Scores where
    ``allowed`` is False are set to -inf (the look-ahead mask), so their weight is 0.
    Every row must allow at least one state.
    """
    if allowed is not None:
        e = np.where(allowed, e, -np.inf)
    alpha = np.exp(e - e.max(axis=-1, keepdims=True))
    alpha /= alpha.sum(axis=-1, keepdims=True)
    return alpha


def attention_softmax_backward(dalpha, alpha):
    """dalpha (..., N) -> de (..., N) = alpha * (dalpha - sum_j alpha_j dalpha_j).

    The softmax Jacobian dalpha_i/de_j = alpha_i (delta_ij - alpha_j).  A masked score
    has alpha = 0, so it receives exactly zero gradient: nothing flows to the future.
    """
    return alpha * (dalpha - (alpha * dalpha).sum(axis=-1, keepdims=True))


# ---------------------------------------------------------------- weighted sum
def weighted_sum_forward(alpha, values):
    """alpha (..., M, N), values (..., N, d) -> out (..., M, d).

    Seed 002: a = sum_i alpha_i h_i (one row per query; M = 1 for a single decoder
    state, M = T for self-attention's output_i = sum_j alpha_ij v_j).
    """
    return alpha @ values


def weighted_sum_backward(dout, alpha, values):
    """dout (..., M, d) -> (dalpha (..., M, N), dvalues (..., N, d)).

    dalpha_ij = dout_i . v_j;   dv_j = sum_i alpha_ij dout_i.
    """
    return dout @ values.swapaxes(-1, -2), alpha.swapaxes(-1, -2) @ dout


# ---------------------------------------------------------------- one attention step
def attention_forward(s, H, params, kind="dot", allowed=None):
    """s (B, M, d2) queries, H (B, N, d1) states, kind in SCORES, allowed (M, N) bool or
    None -> (a (B, M, d1), alpha (B, M, N), cache).

    Seed 002, "Attention: in equations", for each query: e = score(s, h_1..h_N);
    alpha = softmax(e) (over the allowed states only); a = sum_i alpha_i h_i.  The
    caller concatenates [a; s] and proceeds.
    """
    e, score_cache = SCORES[kind][0](s, H, params)
    alpha = attention_softmax_forward(e, allowed)
    return weighted_sum_forward(alpha, H), alpha, (s, H, alpha, score_cache, kind)


def attention_backward(da, params, grads, cache):
    """da (B, M, d1) -> (ds (B, M, d2), dH (B, N, d1)); score parameters' grads += this batch's.

    H receives two gradients: as the values of the weighted sum and through the scores.
    """
    s, H, alpha, score_cache, kind = cache
    dalpha, dH = weighted_sum_backward(da, alpha, H)
    de = attention_softmax_backward(dalpha, alpha)
    ds, dH_scores = SCORES[kind][1](de, s, H, params, grads, score_cache)
    return ds, dH + dH_scores


# ================================================================ self-attention (seed 002)
def causal_mask(T):
    """(T, T) bool: allowed[i, j] = j <= i.

    Seed 002's look-ahead mask writes e_ij = q_i^T k_j if i > j, -inf if i <= j; taken
    literally position 1 could attend to nothing (its softmax would be 0/0).  Here the
    input at position i is token i and the model predicts token i+1, so position i may
    attend to itself and every earlier position: j <= i.  Only the future is masked.
    """
    return np.tril(np.ones((T, T), dtype=bool))


def causal_self_attention_forward(X, params):
    """X (B, T, D); W_q, W_k, W_v (D, D) -> (out (B, T, D), cache).

    Seed 002, "Self-Attention": q_i = W_q x_i, k_i = W_k x_i, v_i = W_v x_i;
    e_ij = q_i^T k_j / sqrt(D) for j <= i (-inf otherwise, the look-ahead mask);
    alpha_ij = softmax_j(e_ij);  output_i = sum_j alpha_ij v_j.
    The 1/sqrt(D) (Vaswani et al. 2017) keeps the scores' variance near 1 at any D;
    the notes' unscaled e_ij is the same model with W_q scaled by sqrt(D).
    """
    B, T, D = X.shape
    flat = X.reshape(B * T, D)
    Q = linear_forward(flat, params["W_q"]).reshape(B, T, D)
    K = linear_forward(flat, params["W_k"]).reshape(B, T, D)
    V = linear_forward(flat, params["W_v"]).reshape(B, T, D)
    scale = 1.0 / np.sqrt(D)
    E = (Q @ K.swapaxes(1, 2)) * scale  # (B, T, T): e_ij = q_i . k_j / sqrt(D)
    alpha = attention_softmax_forward(E, causal_mask(T))
    out = weighted_sum_forward(alpha, V)
    return out, (X, Q, K, V, alpha, scale)


def causal_self_attention_backward(dout, params, grads, cache):
    """dout (B, T, D) -> dX (B, T, D); grads W_q, W_k, W_v += this batch's.

    dalpha, dV from the weighted sum; dE = softmax' (zero where masked) * scale;
    dQ = dE K, dK = dE^T Q;  dW_q = sum dQ^T x (likewise k, v);
    dX = dQ W_q + dK W_k + dV W_v (x feeds all three projections).
    """
    X, Q, K, V, alpha, scale = cache
    B, T, D = X.shape
    dalpha, dV = weighted_sum_backward(dout, alpha, V)
    dE = attention_softmax_backward(dalpha, alpha) * scale
    dQ = dE @ K
    dK = dE.swapaxes(1, 2) @ Q
    flat = X.reshape(B * T, D)
    dX = linear_backward(dQ.reshape(B * T, D), flat, params["W_q"], grads["W_q"])
    dX += linear_backward(dK.reshape(B * T, D), flat, params["W_k"], grads["W_k"])
    dX += linear_backward(dV.reshape(B * T, D), flat, params["W_v"], grads["W_v"])
    return dX.reshape(B, T, D)


# ---------------------------------------------------------------- position vectors
def position_forward(X, P):
    """X (B, T, D) token vectors, P (C, D) learned position vectors, T <= C -> X + P[:T].

    Seed 002, "Self-Attention" (order): "represent each sequence index i as a vector of
    dimension d" and add it to the token's vector, so attention can tell positions apart.
    """
    return X + P[: X.shape[1]]


def position_backward(dP, dY):
    """dP (C, D) += sum over the batch of dY (B, T, D), row t for position t."""
    dP[: dY.shape[1]] += dY.sum(axis=0)


# ---------------------------------------------------------------- position-wise feed-forward
def feed_forward_forward(X, params):
    """X (N, D); W_1 (F, D), b_1 (F,), W_2 (D, F), b_2 (D,) -> (Y (N, D), cache).

    Seed 002, "Self-Attention" (nonlinearities): "apply the same feedforward network to
    each self-attention output": y_i = W_2 ReLU(W_1 x_i + b_1) + b_2, every position alike.
    """
    Z = linear_forward(X, params["W_1"], params["b_1"])
    R = np.maximum(Z, 0.0)
    return linear_forward(R, params["W_2"], params["b_2"]), (X, R)


def feed_forward_backward(dY, params, grads, cache):
    """dY (N, D) -> dX (N, D); W_1, b_1, W_2, b_2 grads += this batch's.   ReLU'(z) = [z > 0]."""
    X, R = cache
    dR = linear_backward(dY, R, params["W_2"], grads["W_2"], grads["b_2"])
    dZ = dR * (R > 0.0)
    return linear_backward(dZ, X, params["W_1"], grads["W_1"], grads["b_1"])


# ---------------------------------------------------------------- layer normalisation
def layer_norm_forward(X, g, b, eps=1e-5):
    """X (..., D), gain g (D,), bias b (D,) -> (Y (..., D), cache).

    Ba et al. 2016, per position: mu = mean_k x_k, sigma^2 = mean_k (x_k - mu)^2,
    xhat = (x - mu) / sqrt(sigma^2 + eps), y = g * xhat + b.
    """
    mu = X.mean(axis=-1, keepdims=True)
    centred = X - mu
    rstd = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps)
    xhat = centred * rstd
    return xhat * g + b, (xhat, rstd)


def layer_norm_backward(dY, g, dg, db, cache):
    """dY (..., D) -> dX (..., D); dg += sum dY * xhat, db += sum dY.

    Derivation (per position, r = 1/sqrt(sigma^2 + eps), D entries):
        dxhat = dY * g
        dxhat_k/dx_j = r (delta_kj - 1/D) - r xhat_k xhat_j / D
        dx_j  = r (dxhat_j - mean_k dxhat_k - xhat_j mean_k (dxhat_k xhat_k))
    (the mean is subtracted from every x, and sigma depends on every x through
    d sigma^2 / dx_j = 2 (x_j - mu) / D).
    """
    xhat, rstd = cache
    D = xhat.shape[-1]
    dg += (dY * xhat).reshape(-1, D).sum(axis=0)
    db += dY.reshape(-1, D).sum(axis=0)
    dxhat = dY * g
    return rstd * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                   - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))


# ---------------------------------------------------------------- one decoder block
BLOCK_PARAMS = ("ln1_g", "ln1_b", "W_q", "W_k", "W_v", "ln2_g", "ln2_b", "W_1", "b_1", "W_2", "b_2")


def init_block_params(D, F, rng, dtype=np.float64, n_blocks=1):
    """One block's parameters: gains 1, biases 0, weights N(0, 1/fan_in); the matrices
    that write into the residual stream (W_v, W_2) scaled by 1/sqrt(2 n_blocks) so its
    variance does not grow with depth (GPT-2's residual scaling)."""
    residual = 1.0 / np.sqrt(2.0 * n_blocks)
    normal = lambda fan_in, shape, scale=1.0: rng.normal(0.0, scale / np.sqrt(fan_in), shape).astype(dtype)  # noqa: E731
    return {
        "ln1_g": np.ones(D, dtype=dtype), "ln1_b": np.zeros(D, dtype=dtype),
        "W_q": normal(D, (D, D)), "W_k": normal(D, (D, D)), "W_v": normal(D, (D, D), residual),
        "ln2_g": np.ones(D, dtype=dtype), "ln2_b": np.zeros(D, dtype=dtype),
        "W_1": normal(D, (F, D)), "b_1": np.zeros(F, dtype=dtype),
        "W_2": normal(F, (D, F), residual), "b_2": np.zeros(D, dtype=dtype),
    }


def transformer_block_forward(X, params):
    """X (B, T, D) -> (Y (B, T, D), cache); params as in BLOCK_PARAMS.

    A pre-norm decoder block, both sublayers residual:
        H = X + SelfAttention(LN_1(X))          (causal, seed 002 "Self-Attention")
        Y = H + FFN(LN_2(H))                    (position-wise, applied to every t)
    """
    B, T, D = X.shape
    N1, ln1 = layer_norm_forward(X, params["ln1_g"], params["ln1_b"])
    A, attn = causal_self_attention_forward(N1, params)
    H = X + A
    N2, ln2 = layer_norm_forward(H, params["ln2_g"], params["ln2_b"])
    Fo, ffn = feed_forward_forward(N2.reshape(B * T, D), params)
    return H + Fo.reshape(B, T, D), (ln1, attn, ln2, ffn)


def transformer_block_backward(dY, params, grads, cache):
    """dY (B, T, D) -> dX (B, T, D); every block parameter's grad += this batch's.

    A residual passes its gradient straight through and adds the sublayer's:
    dH = dY + LN_2'(FFN'(dY)),  dX = dH + LN_1'(SelfAttention'(dH)).
    """
    ln1, attn, ln2, ffn = cache
    B, T, D = dY.shape
    dN2 = feed_forward_backward(dY.reshape(B * T, D), params, grads, ffn).reshape(B, T, D)
    dH = dY + layer_norm_backward(dN2, params["ln2_g"], grads["ln2_g"], grads["ln2_b"], ln2)
    dN1 = causal_self_attention_backward(dH, params, grads, attn)
    return dH + layer_norm_backward(dN1, params["ln1_g"], grads["ln1_g"], grads["ln1_b"], ln1)
