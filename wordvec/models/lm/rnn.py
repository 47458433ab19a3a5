"""Recurrent language model: embedding -> RNN or LSTM [-> attention] -> [projection] -> softmax.

    X      = E[ids]                              (T, B, D)  input embedding (seed 003 U)
    A      = cell(X, state)                      (T, B, H)  seed 002 RNN or LSTM
    F      = [attention(a_t, past a's); a_t]     (T, B, 2H) "lstm-attention" only, else F = A
    P      = F W_proj^T   (only if tied, F's width != D)  (T*B, D)
    logits = P W_out^T + b_y                     (T*B, V)   W_out = W_y (V, H or 2H), or E when tied
    J      = mean cross-entropy of the targets

"lstm-attention" is seed 002's seq2seq attention used by a decoder on its own history:
each hidden state a_t (the query s_t) attends to the hidden states a_j, j <= t, of its
segment and to the last ``memory`` ones of the previous segment (carried like the
hidden state, with no gradient: truncated BPTT), and [a; s] goes to the output layer.

Tying (seed 003, U = V = S) makes the output layer reuse E; since every backward
function adds into its gradient buffer, E simply receives the input-side and the
output-side gradient in the same buffer, no special case.  When H != D a projection
W_proj (D, H) maps the hidden state into the embedding space first.

Training lives in :mod:`wordvec.models.lm.training`; checkpoints in
:mod:`wordvec.models.lm.checkpoint`; the token vocabulary in :mod:`wordvec.data.lm_data`.
"""

import numpy as np


from wordvec.models.base import estimate
from wordvec.models.base.config import config_from
from wordvec.errors import WordvecError
from wordvec.math.attention import attention_backward, attention_forward, init_score_params
from wordvec.math.lstm import init_lstm_params, lstm_backward, lstm_cell_forward, lstm_forward
from wordvec.math.rnn import init_rnn_params, rnn_backward, rnn_cell_forward, rnn_forward
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
from wordvec.models.lm.attention import AttentionLM
from wordvec.models.lm.base import LanguageModel
from wordvec.models.lm.config import ATTENTION_CELLS, RNNLMConfig
from wordvec.models.lm.training import batchify



class RNNLM(LanguageModel):
    """A word- or character-level recurrent language model with hand-written gradients.

    ``vocab`` is a :class:`wordvec.data.lm_data.LMVocab` (or anything with ``len``).
    Hyperparameters: ``cell`` ("rnn" | "lstm" | "lstm-attention"), ``hidden_size`` H, ``embedding_size`` D,
    ``tie_embeddings`` (seed 003), ``activation`` ("tanh" | "relu", RNN only),
    ``identity_init`` (W_aa = I, RNN only), ``recurrent_scale`` (multiplies W_aa's init),
    ``dropout`` (on the embeddings and the hidden states), ``seed``, ``dtype``;
    "lstm-attention" only: ``attention_score`` (a key of math.attention.SCORES) and
    ``memory`` (past hidden states carried into the next segment).
    """

    def __init__(self, vocab, config=None, **hyperparameters):
        """``hyperparameters``: the fields of :class:`RNNLMConfig` by name, or one ``config``."""
        self.config = config_from(RNNLMConfig, config, hyperparameters)
        self.vocab = vocab
        estimate.check_fits(self.estimate_memory(), "lower hidden_size or embedding_size")
        self.params = self._init_params(len(vocab), np.random.default_rng(self.config.seed))
        self.history = []  # one dict per epoch (see lm_training)
        self.steps = []  # one (tokens seen, loss, gradient norm before clipping) per update
        self.training_state = {}  # optimizer name, its arrays, rng state, ... (lm_training)

    @classmethod
    def from_config(cls, vocab, config):
        """The attention LM shares the checkpoint format, and ``RNNLM.load`` is the one loader
        of both (the CLI's, the report's): config["cell"] tells them apart."""
        if config.get("cell") in ATTENTION_CELLS:
            return AttentionLM(vocab, **config)
        return cls(vocab, **config)

    def estimate_memory(self, batch_size=32, bptt=32, optimizer="adam"):
        """What this model and its training allocate (parameters, gradients, optimizer
        state, one BPTT window): a :class:`wordvec.models.base.estimate.MemoryEstimate`."""
        c = self.config
        return estimate.rnnlm(len(self.vocab), c.cell, c.hidden_size, c.embedding_size,
                              c.tie_embeddings, np.dtype(c.dtype).itemsize, batch_size, bptt, optimizer)

    # ------------------------------------------------------------ parameters
    def _init_params(self, V, rng):
        c = self.config
        D, H, dtype = c.embedding_size, c.hidden_size, np.dtype(c.dtype)
        params = {"embedding": rng.uniform(-0.1, 0.1, (V, D)).astype(dtype)}
        if c.cell == "rnn":
            params.update(init_rnn_params(D, H, rng, dtype, c.identity_init, c.recurrent_scale))
        else:
            params.update(init_lstm_params(D, H, rng, dtype))
        if self.attends:
            score = init_score_params(c.attention_score, H, H, H, rng, dtype)
            params.update({f"att.{name}": value for name, value in score.items()})
        F = self.feature_size
        if self.uses_projection:
            params["W_proj"] = rng.normal(0.0, 1.0 / np.sqrt(F), (D, F)).astype(dtype)
        if not c.tie_embeddings:
            params["W_y"] = rng.uniform(-0.1, 0.1, (V, F)).astype(dtype)
        params["b_y"] = np.zeros(V, dtype=dtype)
        return params

    @property
    def attends(self):
        return self.config.cell == "lstm-attention"

    @property
    def feature_size(self):
        """Size of what the output layer reads: H, or 2H for [attention output; a]."""
        return self.config.hidden_size * (2 if self.attends else 1)

    @property
    def uses_projection(self):
        return self.config.tie_embeddings and self.feature_size != self.config.embedding_size

    def initial_state(self, B):
        """Zero hidden state for B streams: (a,) for the RNN, (a, c) for the LSTM, each (B, H),
        and for "lstm-attention" (a, c, memory (B, 0, H)): no past states yet."""
        zeros = lambda: np.zeros((B, self.config.hidden_size), dtype=self.config.dtype)  # noqa: E731
        if self.attends:
            return zeros(), zeros(), np.zeros((B, 0, self.config.hidden_size), dtype=self.config.dtype)
        return (zeros(),) if self.config.cell == "rnn" else (zeros(), zeros())

    def _attend(self, A, memory):
        """A (T, B, H), memory (B, M, H) -> (F (T, B, 2H), new memory (B, <=memory, H), cache).

        Query t attends to the memory and to a_1..a_t (an attention step of seed 002 for
        every t at once, the future masked): F_t = [sum_j alpha_tj h_j; a_t].
        """
        T, M = A.shape[0], memory.shape[1]
        S = A.transpose(1, 0, 2)  # (B, T, H) the queries s_t = a_t
        states = np.concatenate([memory, S], axis=1)  # (B, M + T, H)
        allowed = np.arange(M + T)[None, :] <= M + np.arange(T)[:, None]
        att, _, cache = attention_forward(S, states, self._score_params(self.params), self.config.attention_score,
                                          allowed)
        F = np.concatenate([att, S], axis=2).transpose(1, 0, 2)
        keep = self.config.memory
        new_memory = states[:, states.shape[1] - keep :].copy() if keep else states[:, :0].copy()
        return F, new_memory, (cache, M)

    def _attend_backward(self, dF, grads, cache):
        """dF (T, B, 2H) -> dA (T, B, H): through the attention output and straight to a_t."""
        att_cache, M = cache
        H = self.config.hidden_size
        dF = dF.transpose(1, 0, 2)  # (B, T, 2H)
        dS, dstates = attention_backward(np.ascontiguousarray(dF[:, :, :H]), self._score_params(self.params),
                                         self._score_params(grads), att_cache)
        dS += dF[:, :, H:] + dstates[:, M:]  # the memory gets none: it is carried state
        return dS.transpose(1, 0, 2)

    @staticmethod
    def _score_params(arrays):
        return {name[4:]: value for name, value in arrays.items() if name.startswith("att.")}

    # ------------------------------------------------------------ forward / backward
    def _forward(self, inputs, state, rng=None):
        """inputs int (B, T) -> (logits (T*B, V) in time-major order, new state, cache).

        The logits live in a buffer the next call overwrites."""
        p, c = self.params, self.config
        rate = c.dropout if rng is not None else 0.0
        ids = inputs.T  # time-major (T, B)
        T, B = ids.shape
        X, mask_x = dropout_forward(embedding_forward(p["embedding"], ids), rate, rng)
        if c.cell == "rnn":
            A = rnn_forward(X, state[0], p, c.activation)
            new_state, cell_cache = (A[-1].copy(),), (X, state[0], A)
        else:
            A, c_T, caches = lstm_forward(X, state[0], state[1], p)
            new_state, cell_cache = (A[-1].copy(), c_T), caches
        att_cache = None
        if self.attends:
            A, memory, att_cache = self._attend(A, state[2])
            new_state += (memory,)
        Ad, mask_a = dropout_forward(A, rate, rng)
        Hflat = Ad.reshape(T * B, -1)
        P = linear_forward(Hflat, p["W_proj"]) if self.uses_projection else Hflat
        logits = linear_forward(P, p[self.output_name], p["b_y"], out=self._logits_buffer(T * B))
        return logits, new_state, (ids, mask_x, cell_cache, att_cache, mask_a, Hflat, P)

    def loss_and_grads(self, inputs, targets, state, rng=None, grads=None):
        """inputs, targets int (B, T); state from :meth:`initial_state` ->
        (loss, count, grads, new_state).

        loss = mean cross-entropy (nats) over the ``count`` targets that are not IGNORE;
        grads has one zero-initialised buffer per parameter, filled by ``+=`` (the
        ``grads`` passed in, zeroed, when given: the trainer reuses one set).  Dropout
        is applied when ``rng`` is given and the model's dropout > 0.  The new state is
        the last step's, to carry into the next segment (truncated BPTT: no gradient
        flows into ``state``).
        """
        p, c = self.params, self.config
        logits, new_state, (ids, mask_x, cell_cache, att_cache, mask_a, Hflat, P) = self._forward(inputs, state, rng)
        target_ids = targets.T.reshape(-1)
        loss, probs, count = softmax_cross_entropy_forward(logits, target_ids)

        grads = self._zeroed_grads(grads)
        dlogits = softmax_cross_entropy_backward(probs, target_ids, count)
        dP = linear_backward(dlogits, P, p[self.output_name], grads[self.output_name], grads["b_y"])
        dH = linear_backward(dP, Hflat, p["W_proj"], grads["W_proj"]) if self.uses_projection else dP
        dA = dropout_backward(dH.reshape(ids.shape + (-1,)), mask_a)
        if self.attends:
            dA = self._attend_backward(dA, grads, att_cache)
        if c.cell == "rnn":
            dX, _ = rnn_backward(dA, *cell_cache, p, grads, c.activation)
        else:
            dX, _, _ = lstm_backward(dA, cell_cache, p, grads)
        embedding_backward(grads["embedding"], ids, dropout_backward(dX, mask_x))
        return loss, count, grads, new_state

    def step_logits(self, ids, state):
        """One time step without dropout: ids int (B,) -> (logits (B, V), new state)."""
        p, c = self.params, self.config
        x = embedding_forward(p["embedding"], ids)
        if c.cell == "rnn":
            a = rnn_cell_forward(x, state[0], p, c.activation)
            new_state = (a,)
        else:
            a, c_t, _ = lstm_cell_forward(x, state[0], state[1], p)
            new_state = (a, c_t)
        if self.attends:
            features, memory, _ = self._attend(a[None], state[2])
            a, new_state = features[0], new_state + (memory,)
        h = linear_forward(a, p["W_proj"]) if self.uses_projection else a
        return linear_forward(h, p[self.output_name], p["b_y"]), new_state

    def sequence_loss(self, inputs, targets, state):
        """Forward only, no dropout: (B, T) ids -> (summed nats, count, new state)."""
        logits, state, _ = self._forward(inputs, state)
        loss, _, count = softmax_cross_entropy_forward(logits, targets.T.reshape(-1))
        return loss * count, count, state

    # ------------------------------------------------------------ use
    def evaluate(self, stream, batch_size=16, bptt=64):
        """Cross-entropy (nats/token) of a token-id stream: (cross_entropy, tokens scored).

        The stream starts with the end symbol, so every real token and every line end is
        predicted; it is cut into ``batch_size`` contiguous pieces scored in parallel
        (each piece starts from a zero state), the tail padded with IGNORE targets.
        """
        inputs, targets = batchify(stream, batch_size, pad=True)
        state, total, count = self.initial_state(inputs.shape[0]), 0.0, 0
        for start in range(0, inputs.shape[1], bptt):
            seg = slice(start, start + bptt)
            nats, n, state = self.sequence_loss(inputs[:, seg], targets[:, seg], state)
            total, count = total + nats, count + n
        return total / max(count, 1), count


__all__ = ["RNNLM", "CELLS", "IGNORE"]
