"""``Doc2VecConfig``: the hyperparameters of ``Doc2Vec``, gensim's names and defaults, checked
once by the table ``DOC2VEC_CHECKS`` (``wordvec.models.base.checks``) and the rules that
relate two fields."""

import dataclasses
import math
import numbers

from wordvec.data.documents import TAG_MODES
from wordvec.kernels.doc2vec import HIERARCHICAL_SOFTMAX, NEGATIVE_SAMPLING
from wordvec.models.base.checks import WHOLE, check_fields, is_number, need, one_of, positive_number
from wordvec.models.base.config import resolve_fields

MAX_TAG_COUNT = 1_000  # document rows in one concatenation (gensim's dm_tag_count)
FLAGS = ("dm", "hs", "dbow_words", "dm_mean", "dm_concat")


def _flag(name):
    return lambda value: value in (0, 1), name + " must be 0 or 1, not {value!r}"


DOC2VEC_CHECKS = {
    **{name: WHOLE for name in ("vector_size", "window", "min_count", "epochs", "negative", "seed")},
    "dm_tag_count": (lambda value: isinstance(value, numbers.Integral) and not isinstance(value, bool)
                     and 1 <= value <= MAX_TAG_COUNT,
                     "dm_tag_count must be a whole number from 1 to " + str(MAX_TAG_COUNT) + ", not {value!r}"),
    **{name: _flag(name) for name in FLAGS},
    "alpha": (positive_number, "alpha must be a positive number, not {value}"),
    "sample": (lambda value: is_number(value) and math.isfinite(value) and value >= 0,
               "sample must be >= 0, not {value}"),
    "tags": one_of(TAG_MODES, "tags must be one of {choices}, not {value!r}"),
}


@dataclasses.dataclass(frozen=True)
class Doc2VecConfig:
    """The hyperparameters, gensim's names and defaults."""
    dm: int = 1                # 1 PV-DM, 0 PV-DBOW
    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    negative: int = 5
    hs: int = 0
    sample: float = 1e-3
    epochs: int = 10
    dbow_words: int = 0        # PV-DBOW: also train skip-gram word vectors, interleaved
    dm_mean: int = 1           # PV-DM: mean (1) or sum (0) of the document and context rows
    dm_concat: int = 0         # PV-DM: 1 concatenates the document row and the 2 window word rows
    dm_tag_count: int = 1      # PV-DM with concatenation: the document rows in the concatenation
    alpha: float = 0.025
    min_alpha: float = 0.0001
    seed: int = 1
    ns_exponent: float = 0.75
    tags: str = "line"         # "line" (row i = line i) or "first-token"
    shuffle: bool = True       # chunks in a fresh seeded order each epoch
    shrink_windows: bool = True  # PV-DM, dbow_words: reach window - b, b uniform in [0, window); False: window

    def __post_init__(self):
        # gensim's flags are ints; True/False and NumPy integers are taken as 0/1
        resolve_fields(self, shuffle=bool(self.shuffle), shrink_windows=bool(self.shrink_windows), **{
            name: int(getattr(self, name)) for name in FLAGS if isinstance(getattr(self, name), numbers.Integral)})
        check_fields(self, DOC2VEC_CHECKS)
        need(self.hs or self.negative > 0,
             "negative=0 with hs=0 leaves no output layer to train; set negative > 0 or hs=1")
        # min_alpha <= alpha is checked when a model is made and when it trains (the model's
        # ``_check_rates``): gensim's code lowers model.alpha, then model.min_alpha
        need(is_number(self.min_alpha) and math.isfinite(self.min_alpha) and self.min_alpha >= 0,
             f"min_alpha must be >= 0, not {self.min_alpha}")

    @property
    def concat(self):
        """The document rows T of PV-DM with concatenation (gensim's ``dm_tag_count``; as in
        gensim, ``dm_concat`` without ``dm`` trains PV-DBOW), else 0."""
        return self.dm_tag_count if self.dm and self.dm_concat else 0

    def layer_width(self):
        """The hidden layer's (and the output rows') width: gensim's ``layer1_size``."""
        return (self.concat + 2 * self.window) * self.vector_size if self.concat else self.vector_size

    @property
    def mode(self):
        """The kernels' output-layer flags."""
        return (HIERARCHICAL_SOFTMAX if self.hs else 0) | (NEGATIVE_SAMPLING if self.negative else 0)

    def describe(self):
        name = "pv-dm-" + ("concat" if self.concat else "mean" if self.dm_mean else "sum") if self.dm else "pv-dbow" + (
            "+words" if self.dbow_words else "")
        return name + "-" + "+".join(n for flag, n in ((self.hs, "hs"), (self.negative, "ns")) if flag)
