"""The settings of static sentence models, one frozen dataclass per procedure, each field
checked by one table (``models.config_checks``)."""

import dataclasses

from wordvec.models.base.checks import check_fields, is_number, need, one_of, positive_number, whole_in


def _probability(value):
    return is_number(value) and 0 < value < 1


@dataclasses.dataclass(frozen=True)
class DistillConfig:
    """Model2Vec's distillation: the teacher's output for each token of its vocabulary, PCA
    to ``dims``, weights by Zipf rank (sif_coefficient / (sif_coefficient + p(rank)))."""
    dims: int = 256
    sif_coefficient: float = 1e-4
    token_remove_pattern: str = r"\[unused\d+\]"
    batch_size: int = 256

    def __post_init__(self):
        check_fields(self, {
            "dims": whole_in(1, 100_000, "dims"),
            "sif_coefficient": (_probability, "sif_coefficient must be between 0 and 1, not {value!r}"),
            "token_remove_pattern": (lambda value: isinstance(value, str), "token_remove_pattern must be a string"),
            "batch_size": whole_in(1, 1 << 20, "batch_size"),
        })


@dataclasses.dataclass(frozen=True)
class TeacherTrainConfig:
    """Training toward the teacher's sentence vectors (the Tokenlearn objective): Hogwild SGD
    with the learning rate falling linearly from alpha to min_alpha over all epochs.  MSE at
    alpha 0.25 is the default: on SST-2 and imdb it beat the cosine loss (record
    static-sst2-imdb-genre), and at alpha 0.5 and above it can diverge.  ``max_length``
    caps a sentence's tokens; a teacher directory caps it further at the teacher's own
    limit less its special tokens, so both sides see the same text."""
    epochs: int = 5
    alpha: float = 0.25
    min_alpha: float = 0.01
    loss: str = "mse"
    train_weights: bool = True
    threads: int = 2
    seed: int = 1
    max_length: int = 512

    def __post_init__(self):
        check_fields(self, {
            "epochs": whole_in(1, 10_000, "epochs"),
            "alpha": (positive_number, "alpha must be a positive number, not {value!r}"),
            "min_alpha": (positive_number, "min_alpha must be a positive number, not {value!r}"),
            "loss": one_of(("cosine", "mse"), "loss must be one of {choices}, not {value!r}"),
            "train_weights": (lambda value: isinstance(value, bool), "train_weights must be True or False"),
            "threads": whole_in(1, 1024, "threads"),
            "seed": whole_in(0, 2 ** 32 - 1, "seed"),
            "max_length": whole_in(1, 1 << 20, "max_length"),
        })
        need(self.min_alpha <= self.alpha, "min_alpha must not exceed alpha")


@dataclasses.dataclass(frozen=True)
class PairsConfig:
    """Contrastive training on (anchor, positive) pairs: in-batch negatives, scores scaled
    by ``scale``, the loss summed over the Matryoshka sizes ``matryoshka`` (empty: the whole
    vector only), SGD with the learning rate falling linearly from alpha to min_alpha."""
    epochs: int = 1
    batch_size: int = 64
    scale: float = 20.0
    matryoshka: tuple = ()
    alpha: float = 0.5
    min_alpha: float = 0.01
    train_weights: bool = True
    seed: int = 1
    max_length: int = 512

    def __post_init__(self):
        check_fields(self, {
            "epochs": whole_in(1, 10_000, "epochs"),
            "batch_size": whole_in(2, 1 << 16, "batch_size"),
            "scale": (positive_number, "scale must be a positive number, not {value!r}"),
            "matryoshka": (lambda value: isinstance(value, tuple) and all(
                isinstance(k, int) and not isinstance(k, bool) and k >= 1 for k in value),
                "matryoshka must be a tuple of positive dimension counts, not {value!r}"),
            "alpha": (positive_number, "alpha must be a positive number, not {value!r}"),
            "min_alpha": (positive_number, "min_alpha must be a positive number, not {value!r}"),
            "train_weights": (lambda value: isinstance(value, bool), "train_weights must be True or False"),
            "seed": whole_in(0, 2 ** 32 - 1, "seed"),
            "max_length": whole_in(1, 1 << 20, "max_length"),
        })
        need(self.min_alpha <= self.alpha, "min_alpha must not exceed alpha")

    def sizes(self, dims):
        """The Matryoshka sizes within ``dims``, the whole vector last."""
        need(all(k <= dims for k in self.matryoshka),
             f"the Matryoshka sizes must not exceed the model's {dims} dimensions")
        return tuple(sorted(set(self.matryoshka) - {dims})) + (dims,)
