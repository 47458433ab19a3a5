"""``WindowClassifierConfig``: every hyperparameter of the window classifier (their meaning:
the ``WindowClassifier`` docstring), checked once when the config is made, with the ranges
the command line checks too (``wordvec.limits``)."""

import dataclasses

from wordvec import limits
from wordvec.errors import WordvecError

OPTIMIZERS = ("adagrad", "sgd")
CONTEXTS = ("centred", "left")


@dataclasses.dataclass(frozen=True)
class WindowClassifierConfig:
    window: int = 2
    vector_size: int = 50
    hidden: int = 0
    case_size: int = 5
    fine_tune: bool = True
    l2: float = 0.0
    optimizer: str = "adagrad"
    alpha: float = 0.05
    batch_size: int = 64
    epochs: int = 10
    patience: int = 2
    seed: int = 1
    context: str = "centred"
    lowercase: bool = True
    init_scale: float = 0.1
    progress: bool = True

    def __post_init__(self):
        if self.optimizer not in OPTIMIZERS:
            raise WordvecError(f"optimizer must be 'adagrad' or 'sgd', not {self.optimizer!r}")
        limits.check_int("task_window", self.window, "window")
        limits.check_int("hidden_layer", self.hidden, "hidden")
        limits.check_int("vector_size", self.vector_size)
        limits.check_int("seed", self.seed)
        if self.window < (0 if self.context == "centred" else 1) or self.hidden < 0 or self.case_size < 0:
            raise WordvecError("window, hidden and case_size must be non-negative (window ≥ 1 for a left context)")

    @property
    def window_width(self):
        """M, the tokens a window holds: 2m+1 centred on a token, or the m tokens before it."""
        return 2 * self.window + 1 if self.context == "centred" else self.window
