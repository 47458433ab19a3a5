"""``Word2VecConfig``: every hyperparameter of ``Word2Vec`` (and of ``FastText``, which is
``Word2Vec`` with ``subwords=True``), with gensim's names and defaults, checked once by the
table ``WORD2VEC_CHECKS`` and the cross-field rules of ``_validate``."""

import dataclasses
import math

from wordvec.data.subword import check_ngram_settings
from wordvec.errors import WordvecError
from wordvec.models.base.checks import WHOLE, WHOLE_OR_NONE, check_fields, need
from wordvec.models.base.config import library_workers, resolve_fields

class Word2VecSettingError(WordvecError, ValueError):
    """A hyperparameter out of range or settings that contradict each other (gensim: ValueError)."""


def check_rates(alpha, min_alpha):
    """The learning rate decays from ``alpha`` to ``min_alpha``: a rising one is refused."""
    if min_alpha > alpha:
        raise Word2VecSettingError(f"min_alpha ({min_alpha}) is above alpha ({alpha}): the learning rate would "
                                   "rise during training; set min_alpha <= alpha")


WORD2VEC_CHECKS = {
    "vector_size": WHOLE, "window": WHOLE, "min_count": WHOLE, "epochs": WHOLE, "workers": WHOLE,
    "max_document_length": WHOLE, "negative": WHOLE, "seed": WHOLE, "max_vocab_size": WHOLE_OR_NONE,
    "max_final_vocab": (lambda value: value is None or (isinstance(value, int) and value >= 1),
                        "max_final_vocab must be None or a positive integer, not {value!r}"),
    "loss": (lambda value: value in (None, "softmax"), "loss must be None, 'ns', 'hs' or 'softmax', not {value!r}"),
    "alpha": (lambda value: math.isfinite(value) and value > 0, "alpha must be a positive number, not {value}"),
    "sample": (lambda value: math.isfinite(value) and value >= 0, "sample must be >= 0, not {value}"),
    "ns_exponent": (math.isfinite, "ns_exponent must be a number, not {value}"),
}


@dataclasses.dataclass(frozen=True)
class Word2VecConfig:
    """``Word2Vec``'s hyperparameters (their meaning: the ``Word2Vec`` docstring).

    ``None`` means "depends on the others": ``ns_exponent`` 0.75 (0.5 with subwords),
    ``workers`` :func:`library_workers`, ``shared_negatives`` True (False with subwords).
    ``loss="ns"`` / ``"hs"`` are shorthands, stored as ``hs`` and ``negative``."""

    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    sg: int = 0
    hs: int = 0
    negative: int = 5
    ns_exponent: float = None
    cbow_mean: int = 1
    sample: float = 1e-3
    alpha: float = 0.025
    min_alpha: float = 0.0001
    epochs: int = 5
    workers: int = None
    seed: int = 1
    max_vocab_size: int = None
    loss: str = None
    lowercase: bool = False
    max_document_length: int = 10_000
    shared_negatives: bool = None
    shuffle: bool = True
    batched: bool = False
    deterministic: bool = False
    subwords: bool = False
    min_n: int = 3
    max_n: int = 6
    bucket: int = 2_000_000
    sorted_vocab: int = 1  # gensim's: 0 keeps words in order of first appearance
    max_final_vocab: int = None  # gensim's: raise min_count so that at most this many words remain
    shrink_windows: bool = True  # gensim's: sample each window's size in 1..window (False: always window)

    def __post_init__(self):
        hs, negative, loss = self.hs, self.negative, self.loss
        if loss == "ns":
            hs, loss = 0, None
        elif loss == "hs":
            hs, negative, loss = 1, 0, None
        resolve_fields(self, sg=int(self.sg), hs=int(hs), negative=negative, loss=loss, cbow_mean=int(self.cbow_mean),
                 min_count=1 if self.min_count == 0 else self.min_count,  # gensim's 0 keeps every word, as 1 does
                 # fastText's model draws noise from unigram^0.5 (the Word2Vec docstring)
                 ns_exponent=(0.5 if self.subwords else 0.75) if self.ns_exponent is None else self.ns_exponent,
                 workers=library_workers() if self.workers is None else self.workers,
                 # sharing hurts only fastText's direction (the Word2Vec docstring)
                 shared_negatives=bool(not self.subwords if self.shared_negatives is None else self.shared_negatives),
                 shuffle=bool(self.shuffle), batched=bool(self.batched), deterministic=bool(self.deterministic),
                 subwords=bool(self.subwords), sorted_vocab=int(self.sorted_vocab),
                 shrink_windows=bool(self.shrink_windows))
        self._validate()

    def _validate(self):
        try:
            self._check()
        except Word2VecSettingError:
            raise
        except WordvecError as error:
            raise Word2VecSettingError(str(error)) from None

    def _check(self):
        check_fields(self, WORD2VEC_CHECKS)
        need(self.sg in (0, 1) and self.hs in (0, 1) and self.cbow_mean in (0, 1) and self.sorted_vocab in (0, 1),
              "sg, hs, cbow_mean and sorted_vocab must each be 0 or 1")
        need(self.loss == "softmax" or self.hs or self.negative > 0,
              "negative=0 with hs=0 leaves no output layer to train; set negative > 0 or hs=1")
        # min_alpha <= alpha is checked when a model is made and when it trains, not here: gensim's
        # code lowers model.alpha, then model.min_alpha, passing through min_alpha > alpha
        need(math.isfinite(self.min_alpha) and self.min_alpha >= 0, f"min_alpha must be >= 0, not {self.min_alpha}")
        need(not (self.batched and self.sg and self.negative > 0 and not self.shared_negatives),
              "batched=True shares one draw of negatives across each window, so it needs "
              "shared_negatives=True; pass batched=False to draw negatives per pair")
        need(not (self.subwords and (self.batched or self.deterministic)),
              "subwords=True has its own kernels, which have no batched or deterministic mode yet")
        if self.subwords:
            check_ngram_settings(self.min_n, self.max_n, self.bucket)
