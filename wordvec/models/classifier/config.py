"""The classifier's training settings (fastText's ``supervised`` options), apart from the
model so that the command line can read them without loading the compiled kernels."""

import os
from dataclasses import dataclass

from wordvec.models.base.checks import WHOLE, check_fields, need, one_of, positive_number, whole_in

LOSSES = ("softmax", "hs", "ova")
BUCKET_MAX = 2**31 - 1  # n-gram rows; ids are int32

# Every field's own range (``wordvec.limits`` for the WHOLE ones); see models/base/checks.py.
CHECKS = {
    "dim": WHOLE, "epoch": WHOLE, "word_ngrams": WHOLE, "threads": WHOLE,
    "seed": whole_in(0, 2**32 - 1, "seed"),  # fastText's is a C int; the threads' states add to seed × 7919
    # fastText takes 0 for these (0: every word / label; no character n-grams; no buckets)
    "min_count": whole_in(0, 2**62, "min_count"), "min_count_label": whole_in(0, 2**62, "min_count_label"),
    "minn": whole_in(0, 1_000, "minn"), "maxn": whole_in(0, 1_000, "maxn"),
    "bucket": whole_in(0, BUCKET_MAX, "bucket"),
    "lr_update_rate": whole_in(1, 2**31 - 1, "lr_update_rate"), "verbose": whole_in(0, 10, "verbose"),
    "lr": (positive_number, "lr must be a number > 0, not {value!r}"),
    "loss": one_of(LOSSES, "loss must be one of {choices}, not {value!r}"),
    "label": (lambda value: isinstance(value, str) and value != "" and not any(c.isspace() for c in value),
              "the label prefix must be a non-empty string without spaces, not {value!r}"),
    "shuffle": (lambda value: isinstance(value, bool), "shuffle must be True or False, not {value!r}"),
    "pretrained_vectors": (lambda value: value is None or isinstance(value, (str, os.PathLike)),
                           "pretrained_vectors must be a path or None, not {value!r}"),
}


@dataclass(frozen=True)
class ClassifierConfig:
    """Training settings; defaults are fastText's for ``supervised``."""
    lr: float = 0.1
    dim: int = 100
    epoch: int = 5
    word_ngrams: int = 1
    min_count: int = 1
    min_count_label: int = 0
    minn: int = 0
    maxn: int = 0
    bucket: int = 2_000_000
    loss: str = "softmax"
    threads: int = 2
    label: str = "__label__"
    pretrained_vectors: str = None
    seed: int = 0
    # read the documents in an order drawn from the seed, not the file's: a file sorted by
    # label then trains as a shuffled one (fastText reads the file's order)
    shuffle: bool = True
    lr_update_rate: int = 100  # kept for fastText's .bin header only
    verbose: int = 1

    def checked(self):
        """This config, or a ``WordvecError`` naming its first bad setting in one sentence."""
        check_fields(self, CHECKS)
        need(self.maxn == 0 or 1 <= self.minn <= self.maxn,
             f"character n-grams need 1 <= minn <= maxn, not minn={self.minn} maxn={self.maxn}")
        need(self.bucket >= 1 or (self.maxn == 0 and self.word_ngrams == 1), "n-grams need bucket >= 1")
        return self
