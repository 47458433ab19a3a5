"""What every language model shares, whatever computes its logits: the trainer's
bookkeeping (``config``, ``params``, ``history``, ``steps``, ``training_state``),
sampling, ``fit``, ``save`` and ``load``.

A subclass provides ``loss_and_grads``, ``initial_state``, ``step_logits`` and
``evaluate`` (see :class:`wordvec.models.lm.rnn.RNNLM` and
:class:`wordvec.models.lm.attention.AttentionLM`).  The trainer
(:mod:`~wordvec.models.lm.training`) and the checkpoint format
(:mod:`~wordvec.models.lm.checkpoint`) sit below this module and know no model class:
``load`` hands the checkpoint reader ``from_config``, which builds the right model.
"""

import numpy as np

from wordvec.errors import WordvecError
from wordvec.models.lm.checkpoint import load_checkpoint, save_checkpoint
from wordvec.models.lm.training import train


class LanguageModel:
    @property
    def output_name(self):
        """The parameter used as output embedding: E itself when tied (seed 003)."""
        return "embedding" if self.config.tie_embeddings else "W_y"

    @property
    def num_parameters(self):
        return int(sum(p.size for p in self.params.values()))

    def _logits_buffer(self, N):
        """A reused (N, V) array for the output layer's logits (20 MB for a word model's
        512 tokens x 10k words: allocated afresh at every update, its pages would be
        faulted in and zeroed each time).  One buffer, replaced when N changes."""
        shape, dtype = (N, len(self.vocab)), np.dtype(self.config.dtype)
        buffer = self.__dict__.get("_logits")
        if buffer is None or buffer.shape != shape or buffer.dtype != dtype:
            buffer = self.__dict__["_logits"] = np.empty(shape, dtype=dtype)
        return buffer

    def _zeroed_grads(self, grads=None):
        """One zero buffer per parameter: ``grads`` (the dict the previous update
        returned, reused by the trainer) zeroed in place, or fresh ones."""
        if grads is None:
            return {name: np.zeros_like(value) for name, value in self.params.items()}
        for g in grads.values():
            g.fill(0)
        return grads

    def sample(self, n=10, max_length=200, temperature=1.0, seed=None):
        """Draw ``n`` sequences (lists of token ids, end symbol excluded) in parallel.

        Each starts after the end symbol (the start of a line) and stops at the next end
        symbol or after ``max_length`` tokens.  ``temperature`` divides the logits: < 1
        sharpens the distribution, > 1 flattens it.
        """
        if not (np.isfinite(temperature) and temperature > 0):
            raise WordvecError(f"temperature must be a positive finite number, not {temperature}")
        rng = np.random.default_rng(seed)
        end = self.vocab.end
        state, prev = self.initial_state(n), np.full(n, end, dtype=np.int64)
        out, done = [[] for _ in range(n)], np.zeros(n, dtype=bool)
        for _ in range(max_length):
            logits, state = self.step_logits(prev, state)
            z = logits.astype(np.float64) / temperature
            probs = np.exp(z - z.max(axis=1, keepdims=True))
            cdf = np.cumsum(probs, axis=1)
            u = rng.random(n)[:, None] * cdf[:, -1:]
            prev = np.minimum((cdf < u).sum(axis=1), cdf.shape[1] - 1)
            for i in np.flatnonzero(~done):
                if prev[i] == end:
                    done[i] = True
                else:
                    out[i].append(int(prev[i]))
            if done.all():
                break
        return out

    def fit(self, train_stream, valid_stream=None, **options):
        """Train in place; see :func:`wordvec.models.lm.training.train` for the options."""
        return train(self, train_stream, valid_stream, **options)

    def save(self, path):
        save_checkpoint(self, path)

    @classmethod
    def load(cls, path):
        """The model saved at ``path``, of the class ``from_config`` picks for its config."""
        return load_checkpoint(path, cls.from_config)

    @classmethod
    def from_config(cls, vocab, config):
        """An untrained model for a saved ``config``; the checkpoint reader fills its parameters."""
        return cls(vocab, **config)
