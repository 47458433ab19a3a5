"""``GloVeConfig`` and ``PPMISVDConfig``: the hyperparameters of the two count-based models,
each checked once by its table of ranges."""

import dataclasses
import math

from wordvec.data.cooccur_options import check_options, parse_memory
from wordvec.models.base.checks import WHOLE, WHOLE_OR_NONE, check_fields, is_number, one_of, positive_number

GLOVE_OUTPUTS = ("sum", "word")
SVD_TRANSFORMS = ("ppmi", "log", "raw")
SVD_SOLVERS = ("randomized", "arpack")


GLOVE_CHECKS = {
    "vector_size": WHOLE, "epochs": WHOLE, "workers": WHOLE, "min_count": WHOLE, "window": WHOLE, "seed": WHOLE,
    "max_document_length": WHOLE, "max_vocab_size": WHOLE_OR_NONE,
    **{name: (positive_number, name + " must be a number > 0, not {value!r}")
       for name in ("x_max", "power", "learning_rate", "grad_clip")},
    "output": one_of(GLOVE_OUTPUTS, "output must be 'sum' (W + W~) or 'word' (W), not {value!r}"),
}


@dataclasses.dataclass(frozen=True)
class GloVeConfig:
    """``GloVe``'s hyperparameters: ``x_max``, ``power`` (the paper's alpha) and
    ``learning_rate`` are glove.c's; ``window=10, epochs=15`` the project's benchmark's."""

    vector_size: int = 100
    window: int = 10
    x_max: float = 100.0
    power: float = 0.75
    learning_rate: float = 0.05
    epochs: int = 15
    min_count: int = 5
    symmetric: bool = True
    weighting: str = "harmonic"
    seed: int = 1
    workers: int = 2
    output: str = "sum"
    max_vocab_size: int = None
    memory: str = "2GB"
    grad_clip: float = 100.0
    lowercase: bool = False
    max_document_length: int = 10_000

    def __post_init__(self):
        check_fields(self, GLOVE_CHECKS)
        check_options(self.window, self.weighting)
        parse_memory(self.memory)


PPMI_SVD_CHECKS = {
    "vector_size": WHOLE, "min_count": WHOLE, "window": WHOLE, "seed": WHOLE, "power_iterations": WHOLE,
    "max_document_length": WHOLE, "max_vocab_size": WHOLE_OR_NONE,
    "cds": (lambda value: is_number(value) and 0 < value <= 1, "cds must be a number in (0, 1], not {value!r}"),
    "shift": (lambda value: is_number(value) and value >= 1,
              "shift (k, subtracting log k) must be a number >= 1, not {value!r}"),
    "eig": (lambda value: is_number(value) and math.isfinite(value),
            "eig must be a number (0, 0.5 and 1 are usual), not {value!r}"),
    "transform": one_of(SVD_TRANSFORMS, "transform must be one of {choices}, not {value!r}"),
    "solver": one_of(SVD_SOLVERS, "solver must be one of {choices}, not {value!r}"),
}


@dataclasses.dataclass(frozen=True)
class PPMISVDConfig:
    """``PPMISVD``'s hyperparameters (Levy, Goldberg and Dagan 2015's names: ``cds``,
    ``shift``, ``eig``, ``add_context``)."""

    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    cds: float = 0.75
    shift: float = 1.0
    eig: float = 0.5
    add_context: bool = False
    weighting: str = "uniform"
    transform: str = "ppmi"
    symmetric: bool = True
    solver: str = "randomized"
    power_iterations: int = 8
    seed: int = 1
    max_vocab_size: int = None
    memory: str = "2GB"
    lowercase: bool = False
    max_document_length: int = 10_000

    def __post_init__(self):
        check_fields(self, PPMI_SVD_CHECKS)
        check_options(self.window, self.weighting)
        parse_memory(self.memory)
