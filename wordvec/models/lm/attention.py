"""Causal self-attention language model: a small Transformer decoder, by hand.

    X_0    = E[ids] + P[0..T-1]                  (B, T, D)  token + position vectors (seed 002)
    X_l    = Block_l(X_{l-1}),  l = 1..L          (B, T, D)  causal self-attention + FFN,
                                                            both residual, pre-norm
    H      = LN_f(X_L)                            (B, T, D)
    logits = H W_out^T + b_y                      (B*T, V)   W_out = E when tied (seed 003)
    J      = mean cross-entropy of the targets

The math lives in :mod:`wordvec.math.attention`; this module wires it up and gives the
model the interface the existing trainer (:mod:`wordvec.models.lm.training`), the
checkpoints and the CLI use for the RNN/LSTM models.  Unlike those it carries no state
from one segment to the next: a segment of at most ``context`` tokens is the whole
context its positions see (``initial_state`` is empty; when sampling, the state is the
token history, and the model re-reads the last ``context`` tokens at every step).
"""

import numpy as np

from wordvec.models.base import estimate
from wordvec.errors import WordvecError
from wordvec.math.attention import (
    BLOCK_PARAMS,
    init_block_params,
    layer_norm_backward,
    layer_norm_forward,
    position_backward,
    position_forward,
    transformer_block_backward,
    transformer_block_forward,
)
from wordvec.math.softmax_ce import (
    IGNORE,
    dropout_backward,
    dropout_forward,
    embedding_backward,
    embedding_forward,
    linear_backward,
    linear_forward,
    softmax_cross_entropy_backward,
    softmax_cross_entropy_forward,
)
from wordvec.models.base.config import config_from
from wordvec.models.lm.base import LanguageModel
from wordvec.models.lm.config import ATTENTION_CELLS, AttentionLMConfig
from wordvec.models.lm.training import batchify



class AttentionLM(LanguageModel):
    """A word- or character-level causal self-attention LM with hand-written gradients.

    Hyperparameters: ``embedding_size`` D (the model width), ``hidden_size`` F (the
    position-wise feed-forward width), ``blocks`` L, ``context`` C (position vectors,
    so the longest segment it can read), ``tie_embeddings`` (seed 003), ``dropout``
    (on the input vectors and the final hidden states), ``seed``, ``dtype``.
    """

    def __init__(self, vocab, config=None, **hyperparameters):
        """``hyperparameters``: the fields of :class:`AttentionLMConfig` by name, or one ``config``."""
        self.config = config_from(AttentionLMConfig, config, hyperparameters)
        self.vocab = vocab
        estimate.check_fits(self.estimate_memory(), "lower the sizes, the blocks or the context")
        self.params = self._init_params(len(vocab), np.random.default_rng(self.config.seed))
        self.history = []  # one dict per epoch (see lm_training)
        self.steps = []  # one (update, loss, gradient norm before clipping) per update
        self.training_state = {}

    def estimate_memory(self, batch_size=32, optimizer="adam"):
        """What this model and its training allocate: a :class:`wordvec.models.base.estimate.MemoryEstimate`."""
        c = self.config
        return estimate.attention_lm(len(self.vocab), c.hidden_size, c.embedding_size, c.blocks,
                                     c.context, c.tie_embeddings, np.dtype(c.dtype).itemsize,
                                     batch_size, optimizer)

    def _init_params(self, V, rng):
        c = self.config
        D, F, L, dtype = c.embedding_size, c.hidden_size, c.blocks, np.dtype(c.dtype)
        params = {"embedding": rng.uniform(-0.1, 0.1, (V, D)).astype(dtype),
                  "position": rng.uniform(-0.1, 0.1, (c.context, D)).astype(dtype)}
        for layer in range(L):
            block = init_block_params(D, F, rng, dtype, n_blocks=L)
            params.update({f"block{layer}.{name}": block[name] for name in BLOCK_PARAMS})
        params["lnf_g"], params["lnf_b"] = np.ones(D, dtype=dtype), np.zeros(D, dtype=dtype)
        if not c.tie_embeddings:
            params["W_y"] = rng.uniform(-0.1, 0.1, (V, D)).astype(dtype)
        params["b_y"] = np.zeros(V, dtype=dtype)
        return params

    def _block(self, arrays, layer):
        """Block ``layer``'s entries of ``arrays`` (params or grads) under their short names."""
        return {name: arrays[f"block{layer}.{name}"] for name in BLOCK_PARAMS}

    def initial_state(self, B):
        """Nothing is carried from segment to segment: ().  (Sampling keeps its token
        history in the state :meth:`step_logits` returns.)"""
        return ()

    # ------------------------------------------------------------ forward / backward
    def _forward(self, inputs, rng=None):
        """inputs int (B, T), T <= context -> (logits (B*T, V) in batch-major order, cache).

        The logits live in a buffer the next call overwrites."""
        p, c = self.params, self.config
        B, T = inputs.shape
        if T > c.context:
            raise WordvecError(f"a segment of {T} tokens is longer than the model's context of {c.context} "
                               f"positions; use --bptt {c.context} or less")
        rate = c.dropout if rng is not None else 0.0
        X, mask_x = dropout_forward(position_forward(embedding_forward(p["embedding"], inputs), p["position"]),
                                    rate, rng)
        block_caches = []
        for layer in range(c.blocks):
            X, cache = transformer_block_forward(X, self._block(p, layer))
            block_caches.append(cache)
        Hn, ln_cache = layer_norm_forward(X, p["lnf_g"], p["lnf_b"])
        Hd, mask_h = dropout_forward(Hn, rate, rng)
        Hflat = Hd.reshape(B * T, -1)
        logits = linear_forward(Hflat, p[self.output_name], p["b_y"], out=self._logits_buffer(B * T))
        return logits, (mask_x, block_caches, ln_cache, mask_h, Hflat)

    def loss_and_grads(self, inputs, targets, state=None, rng=None, grads=None):
        """inputs, targets int (B, T) -> (loss, count, grads, new_state); as RNNLM's.

        ``state`` is ignored and an empty history returned: each segment is its own
        context.  Dropout is applied when ``rng`` is given and the model's dropout > 0.
        """
        p, c = self.params, self.config
        B, T = inputs.shape
        logits, (mask_x, block_caches, ln_cache, mask_h, Hflat) = self._forward(inputs, rng)
        target_ids = targets.reshape(-1)
        loss, probs, count = softmax_cross_entropy_forward(logits, target_ids)

        grads = self._zeroed_grads(grads)
        dlogits = softmax_cross_entropy_backward(probs, target_ids, count)
        dH = linear_backward(dlogits, Hflat, p[self.output_name], grads[self.output_name], grads["b_y"])
        dX = layer_norm_backward(dropout_backward(dH.reshape(B, T, -1), mask_h), p["lnf_g"], grads["lnf_g"],
                                 grads["lnf_b"], ln_cache)
        for layer in reversed(range(c.blocks)):
            dX = transformer_block_backward(dX, self._block(p, layer), self._block(grads, layer),
                                            block_caches[layer])
        dX = dropout_backward(dX, mask_x)
        position_backward(grads["position"], dX)
        embedding_backward(grads["embedding"], inputs, dX)
        return loss, count, grads, self.initial_state(B)

    def sequence_loss(self, inputs, targets):
        """Forward only, no dropout: (B, T) ids -> (summed nats, count)."""
        logits, _ = self._forward(inputs)
        loss, _, count = softmax_cross_entropy_forward(logits, targets.reshape(-1))
        return loss * count, count

    def step_logits(self, ids, state):
        """Append ids int (B,) to the token history in ``state`` ((history (B, t),), or ()
        at the start) -> (logits (B, V) of the next token, (new history,)).

        The model re-reads the last ``context`` tokens (no key/value cache: sampling is
        not where the time goes)."""
        past = state[0] if state else np.zeros((len(ids), 0), dtype=np.int64)
        history = np.concatenate([past, ids[:, None]], axis=1)[:, -self.config.context:]
        logits, _ = self._forward(history)
        T = history.shape[1]
        return logits.reshape(history.shape[0], T, -1)[:, -1].copy(), (history,)  # (logits is a reused buffer)

    # ------------------------------------------------------------ use
    def evaluate(self, stream, batch_size=16, bptt=None):
        """Cross-entropy (nats/token) of a token-id stream: (cross_entropy, tokens scored).

        As RNNLM.evaluate (``batch_size`` contiguous pieces, every token scored once),
        but with no state to carry the windows overlap: the targets t..t+C/2 are scored
        by a window that starts C/2 tokens earlier, so every token but the first C/2 of
        a piece sees at least C/2 tokens of context (C = context).  ``bptt`` is ignored.
        """
        inputs, targets = batchify(stream, batch_size, pad=True)
        C = self.config.context
        stride, L = max(1, C // 2), inputs.shape[1]
        total, count = 0.0, 0
        for start in range(0, L, stride):
            low, high = max(0, start + stride - C), min(L, start + stride)
            scored = targets[:, low:high].copy()
            scored[:, : start - low] = IGNORE  # already scored by the previous window
            nats, n = self.sequence_loss(inputs[:, low:high], scored)
            total, count = total + nats, count + n
        return total / max(count, 1), count

    def attention_weights(self, ids):
        """ids int (T,) -> alpha (blocks, T, T): who each position attends to, per block."""
        ids = np.asarray(ids, dtype=np.int64)[None, -self.config.context:]
        X = position_forward(embedding_forward(self.params["embedding"], ids), self.params["position"])
        weights = []
        for layer in range(self.config.blocks):
            X, (_, attention_cache, _, _) = transformer_block_forward(X, self._block(self.params, layer))
            _, _, _, _, alpha, _ = attention_cache  # (X, Q, K, V, alpha (B, T, T), scale)
            weights.append(alpha[0])
        return np.stack(weights)


__all__ = ["AttentionLM", "ATTENTION_CELLS"]
