"""The classifier's training settings (fastText's ``supervised`` options), apart from the
model so that the command line can read them without loading the compiled kernels."""

from dataclasses import dataclass

from wordvec.errors import WordvecError

LOSSES = ("softmax", "hs", "ova")


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
    lr_update_rate: int = 100  # kept for fastText's .bin header only
    verbose: int = 1

    def checked(self):
        if self.loss not in LOSSES:
            raise WordvecError(f"loss must be one of {', '.join(LOSSES)}, not {self.loss!r}")
        for name in ("dim", "epoch", "threads", "word_ngrams"):
            if int(getattr(self, name)) < 1:
                raise WordvecError(f"{name} must be at least 1, not {getattr(self, name)}")
        if not self.lr > 0:
            raise WordvecError(f"lr must be > 0, not {self.lr}")
        if self.maxn > 0 and not 1 <= self.minn <= self.maxn:
            raise WordvecError(f"character n-grams need 1 <= minn <= maxn, not minn={self.minn} maxn={self.maxn}")
        if (self.maxn > 0 or self.word_ngrams > 1) and self.bucket < 1:
            raise WordvecError("n-grams need bucket >= 1")
        if not self.label:
            raise WordvecError("the label prefix must not be empty")
        return self
