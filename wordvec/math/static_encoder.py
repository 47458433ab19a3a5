"""The teacher's forward pass: a BERT transformer encoder in NumPy (inference only).

Seed 002's "Transformer model" with BERT's choices (Devlin et al. 2019; the post-LN
encoder of Vaswani et al. 2017), on a padded batch of token ids X (B x L) and its mask M:

    H0 = LN(E_tok[X] + E_pos[0..L-1] + E_type[0])                                 (E)
    per layer, per head h (d_h = D / heads):
        Q = H W_q^T + b_q,  K = H W_k^T + b_k,  V = H W_v^T + b_v
        A_h = softmax(Q_h K_h^T / sqrt(d_h) + m),   m_j = min_float where M_j = 0   (A)
        H' = LN(H + concat_h(A_h V_h) W_o^T + b_o)                                   (R1)
        H  = LN(H' + gelu(H' W_i^T + b_i) W_2^T + b_2)                              (R2)
    LN(x) = g (x - mean x) / sqrt(var x + eps) + b,  gelu(x) = x Phi(x)            (L)

and the sentence vector (sentence-transformers' Pooling + Normalize) is the masked mean
of the last H over the tokens, optionally made unit.  ``weights`` is a dict with the HF
``BertModel`` tensor names (``encoder.layer.N.attention.self.query.weight``, ...).
"""

import numpy as np
from scipy.special import erf

from wordvec.blas import blas_threads


def layer_norm(x, gain, bias, eps):
    """(L), over the last axis."""
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * gain + bias


def gelu(x, kind="gelu"):
    """gelu: x Phi(x) (erf); gelu_new: its tanh approximation; relu."""
    if kind == "gelu":
        return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)).astype(x.dtype))
    if kind in ("gelu_new", "gelu_pytorch_tanh"):
        return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))
    return np.maximum(x, 0)


def linear(x, weights, name):
    """x W^T + b over the last axis, as one 2-D product (NumPy's stacked matmul with a
    transposed operand leaves BLAS: ~100x slower on a B x L x D batch)."""
    flat = x.reshape(-1, x.shape[-1]) @ weights[name + ".weight"].T + weights[name + ".bias"]
    return flat.reshape(*x.shape[:-1], flat.shape[-1])


def attention(H, mask_bias, weights, prefix, heads):
    """(A) for one layer: the heads' attention-weighted values, concatenated (B x L x D)."""
    B, L, D = H.shape
    d = D // heads
    scale = np.float32(1.0 / np.sqrt(d))

    def heads_of(name, order):
        projected = linear(H, weights, prefix + "attention.self." + name).reshape(B, L, heads, d)
        return np.ascontiguousarray(projected.transpose(order))

    Q, K_T, V = heads_of("query", (0, 2, 1, 3)), heads_of("key", (0, 2, 3, 1)), heads_of("value", (0, 2, 1, 3))
    with blas_threads(1):
        context = _short(Q, K_T, V, mask_bias, scale) if L <= SHORT else _long(Q, K_T, V, mask_bias, scale)
    return np.ascontiguousarray(context.transpose(0, 2, 1, 3)).reshape(B, L, D)


# Products of the heads on one BLAS thread (OpenBLAS's threads took 52 ms for a 256 x 32 by
# 32 x 256 product on a busy 2-core machine, 0.35 ms on one): stacked for short sequences
# (B x heads tiny products), one 2-D product per sentence and head for long ones (NumPy's
# stacked product was 9x slower than that loop at 32 x 12 heads x 256 tokens).
SHORT = 16


def _softmax_rows(scores):
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores


def _short(Q, K_T, V, mask_bias, scale):
    return _softmax_rows(Q @ K_T * scale + mask_bias[:, None, None, :]) @ V


def _long(Q, K_T, V, mask_bias, scale):
    context = np.empty_like(Q)
    for b in range(Q.shape[0]):
        for h in range(Q.shape[1]):
            context[b, h] = _softmax_rows(Q[b, h] @ K_T[b, h] * scale + mask_bias[b]) @ V[b, h]
    return context


def encoder(ids, mask, weights, config):
    """The last hidden states (B x L x D) of the padded batch ``ids`` with ``mask`` (1 for a
    token, 0 for padding); ``config`` is the HF config dict (hidden_size, heads, layers, ...)."""
    eps = config.get("layer_norm_eps", 1e-12)
    heads, layers = config["num_attention_heads"], config["num_hidden_layers"]
    act = config.get("hidden_act", "gelu")
    dtype = weights["embeddings.word_embeddings.weight"].dtype
    L = ids.shape[1]
    H = (weights["embeddings.word_embeddings.weight"][ids]
         + weights["embeddings.position_embeddings.weight"][:L][None]
         + weights["embeddings.token_type_embeddings.weight"][0])
    H = layer_norm(H, weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"], eps)
    mask_bias = np.where(mask > 0, 0.0, np.finfo(dtype).min).astype(dtype)
    for n in range(layers):
        p = f"encoder.layer.{n}."
        context = attention(H, mask_bias, weights, p, heads)
        H = layer_norm(H + linear(context, weights, p + "attention.output.dense"),
                       weights[p + "attention.output.LayerNorm.weight"],
                       weights[p + "attention.output.LayerNorm.bias"], eps)
        inner = gelu(linear(H, weights, p + "intermediate.dense"), act)
        H = layer_norm(H + linear(inner, weights, p + "output.dense"),
                       weights[p + "output.LayerNorm.weight"], weights[p + "output.LayerNorm.bias"], eps)
    return H


def mean_pool(hidden, mask, normalize):
    """The masked mean over tokens of ``hidden`` (B x L x D), unit vectors if ``normalize``."""
    mask = mask.astype(hidden.dtype)[:, :, None]
    pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
    if normalize:
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return pooled
