"""``RNNLMConfig`` and ``AttentionLMConfig``: every hyperparameter of the two language
models (their meaning: the ``RNNLM`` and ``AttentionLM`` docstrings), checked once when the
config is made, with the ranges the command line checks too (``wordvec.limits``).  A
checkpoint's ``config`` is the config's fields (``dataclasses.asdict``)."""

import dataclasses

import numpy as np

from wordvec import limits
from wordvec.errors import WordvecError
from wordvec.math.attention import SCORES
from wordvec.math.rnn import ACTIVATIONS
from wordvec.models.base.config import resolve_fields

CELLS = ("rnn", "lstm", "lstm-attention")
ATTENTION_CELLS = ("attention",)


def _check_dropout(dropout):
    if not 0.0 <= dropout < 1.0:
        raise WordvecError(f"dropout must be in [0, 1), got {dropout}")


@dataclasses.dataclass(frozen=True)
class RNNLMConfig:
    cell: str = "lstm"
    hidden_size: int = 128
    embedding_size: int = 64
    tie_embeddings: bool = False
    activation: str = "tanh"
    identity_init: bool = False
    recurrent_scale: float = 1.0
    dropout: float = 0.0
    seed: int = 1
    dtype: str = "float32"
    attention_score: str = "multiplicative"  # lstm-attention only
    memory: int = 32  # lstm-attention only

    def __post_init__(self):
        if self.cell not in CELLS:
            raise WordvecError(f"unknown cell {self.cell!r}; choose one of {', '.join(CELLS)}")
        if self.activation not in ACTIVATIONS:
            raise WordvecError(f"unknown activation {self.activation!r}; choose tanh or relu")
        limits.check_int("hidden", self.hidden_size, "hidden_size")
        limits.check_int("embedding", self.embedding_size, "embedding_size")
        limits.check_int("seed", self.seed)
        _check_dropout(self.dropout)
        if self.cell == "lstm-attention":
            if self.attention_score not in SCORES:
                raise WordvecError(f"unknown attention score {self.attention_score!r}; "
                                   f"choose one of {', '.join(SCORES)}")
            if self.memory < 0:
                raise WordvecError(f"memory must be at least 0, got {self.memory}")
        resolve_fields(self, hidden_size=int(self.hidden_size), embedding_size=int(self.embedding_size),
                       tie_embeddings=bool(self.tie_embeddings), identity_init=bool(self.identity_init),
                       recurrent_scale=float(self.recurrent_scale), dropout=float(self.dropout),
                       seed=int(self.seed), dtype=str(np.dtype(self.dtype)), memory=int(self.memory))


@dataclasses.dataclass(frozen=True)
class AttentionLMConfig:
    cell: str = "attention"
    hidden_size: int = 128
    embedding_size: int = 64
    blocks: int = 2
    context: int = 32
    tie_embeddings: bool = False
    dropout: float = 0.0
    seed: int = 1
    dtype: str = "float32"

    def __post_init__(self):
        if self.cell not in ATTENTION_CELLS:
            raise WordvecError(f"unknown cell {self.cell!r} for an attention model")
        if self.hidden_size < 1 or self.embedding_size < 1 or self.blocks < 1 or self.context < 1:
            raise WordvecError("hidden and embedding sizes, blocks and context must be at least 1")
        _check_dropout(self.dropout)
        resolve_fields(self, hidden_size=int(self.hidden_size), embedding_size=int(self.embedding_size),
                       blocks=int(self.blocks), context=int(self.context), tie_embeddings=bool(self.tie_embeddings),
                       dropout=float(self.dropout), seed=int(self.seed), dtype=str(np.dtype(self.dtype)))
