"""Training with a stop function (what autotune's time budget uses): an epoch then runs in
pieces of ``STOP_CHECK_TOKENS`` tokens per thread and the input matrix is filled in blocks,
which gives the model bit for bit that one call per epoch and one fill give (the path
without a stop function), and a stop function that says stop ends training with
``TrainingStopped``: while reading, while filling, part way through an epoch, and in the
retraining after a cutoff."""

import numpy as np
import pytest

from tests.labelled import write_labelled
from wordvec.models.classifier import model as model_module, training
from wordvec.models.classifier.config import ClassifierConfig
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.training import TrainingStopped


EPOCH_TOKENS = 600 * 10  # a line's tokens as fastText counts them: its words, its label and the line's end
# asked before training: after reading, after the dictionary, after encoding, before filling
QUESTIONS_BEFORE_TRAINING = 4


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """600 lines of 8 words and a label: EPOCH_TOKENS tokens an epoch."""
    path = tmp_path_factory.mktemp("stop") / "train.txt"
    write_labelled(path, 600, np.random.default_rng(11), labels=4, span=320, vocabulary=1200)
    return str(path)


class Asked:
    """A stop function that says stop on its ``stop_at``-th question (never when None)."""

    def __init__(self, stop_at=None):
        self.stop_at, self.questions = stop_at, 0

    def __call__(self):
        self.questions += 1
        return self.stop_at is not None and self.questions >= self.stop_at


SETUPS = {  # the interleaved streams of a small corpus, and one OS thread's stream
    "interleaved": (dict(threads=2, loss="softmax", minn=2, maxn=4, bucket=20_000), None),
    "one thread": (dict(threads=1, loss="hs", word_ngrams=2, bucket=20_000), 0),
}


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_an_epoch_in_pieces_gives_the_model_of_one_call(corpus, monkeypatch, setup):
    options, interleave_below = SETUPS[setup]
    if interleave_below is not None:
        monkeypatch.setattr(training, "INTERLEAVE_BELOW", interleave_below)
    config = ClassifierConfig(dim=12, epoch=3, lr=0.4, seed=9, verbose=0, **options)
    whole = Classifier(config=config).fit(corpus)
    monkeypatch.setattr(training, "STOP_CHECK_TOKENS", 37)
    monkeypatch.setattr(training, "FILL_CHECK_VALUES", 12 * 50 + 7)  # blocks of 50 rows
    never = Asked()
    pieces = Classifier(config=config).fit(corpus, stop=never)
    rows = whole.W_in.shape[0]
    assert never.questions >= rows // 50 + 3 * EPOCH_TOKENS // (37 * config.threads)  # every piece asked
    np.testing.assert_array_equal(pieces.W_in, whole.W_in)
    np.testing.assert_array_equal(pieces.W_out, whole.W_out)
    # the reported loss is summed in other groups (per piece), so only to rounding
    assert [r["loss"] for r in pieces.history] == pytest.approx([r["loss"] for r in whole.history], rel=1e-12)


def test_a_stop_ends_training_part_way(corpus, monkeypatch):
    monkeypatch.setattr(training, "STOP_CHECK_TOKENS", 100)
    config = ClassifierConfig(dim=12, epoch=3, threads=2, seed=9, verbose=0)
    model = Classifier(config=config)
    third = Asked(stop_at=QUESTIONS_BEFORE_TRAINING + 3)
    with pytest.raises(TrainingStopped) as stopped:
        model.fit(corpus, stop=third)
    # two pieces trained: each stream read 200 tokens, and less than one more line (10 tokens)
    assert third.questions == QUESTIONS_BEFORE_TRAINING + 3 and stopped.value.total == 3 * EPOCH_TOKENS
    assert 2 * 200 <= stopped.value.tokens < 2 * 210
    assert model.history == []  # not one epoch finished
    # 30 pieces an epoch: the 70th is in the third
    later, model = Asked(stop_at=QUESTIONS_BEFORE_TRAINING + 70), Classifier(config=config)
    with pytest.raises(TrainingStopped) as stopped:
        model.fit(corpus, stop=later)
    assert stopped.value.tokens == 2 * EPOCH_TOKENS + 9 * 200 and len(model.history) == 2


def test_a_stop_ends_the_retraining_after_a_cutoff(corpus):
    model = Classifier(config=ClassifierConfig(dim=8, epoch=2, threads=1, seed=9, verbose=0)).fit(corpus)
    now = Asked(stop_at=1)
    with pytest.raises(TrainingStopped):
        model.quantize(cutoff=300, retrain=True, qnorm=True, input=corpus, stop=now)
    assert now.questions == 1
    assert model.quantize(cutoff=300, retrain=True, qnorm=True, input=corpus, stop=Asked()).quantized is not None


@pytest.mark.parametrize("stop_at", range(1, QUESTIONS_BEFORE_TRAINING + 1))
def test_a_stop_while_reading_or_filling_ends_before_training(corpus, monkeypatch, stop_at):
    trained = []
    monkeypatch.setattr(model_module, "run_epochs", lambda *args, **kwargs: trained.append(args))
    asked = Asked(stop_at=stop_at)
    with pytest.raises(TrainingStopped, match="before it began") as stopped:
        Classifier(config=ClassifierConfig(dim=12, epoch=3, threads=2, verbose=0)).fit(corpus, stop=asked)
    assert asked.questions == stop_at and stopped.value.total is None and trained == []


def test_the_input_matrix_filled_in_blocks_is_the_one_filled_at_once(monkeypatch):
    sources = np.array([0, 5, 9, 2, 400, 401, 3, 7, 77, 1000], dtype=np.int64)
    whole = training.uniform_rows(12, 10, 3, sources)
    monkeypatch.setattr(training, "FILL_CHECK_VALUES", 30)  # 3 rows a block
    never = Asked()
    np.testing.assert_array_equal(training.uniform_rows(12, 10, 3, sources, stop=never), whole)
    assert never.questions == 4 and not whole[10:].any() and whole[:10].all()
    with pytest.raises(TrainingStopped):
        training.uniform_rows(12, 10, 3, sources, stop=Asked(stop_at=2))
