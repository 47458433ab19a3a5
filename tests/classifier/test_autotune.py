"""The classifier's autotune (``wordvec.models.classifier.autotune``): fastText's search
strategy (what each trial draws, what it keeps), its metric and size strings (fuzzed:
a value or one sentence, nothing else), the validation file's checks, the time budget
(on a clock the tests move: the trial training when it ends is stopped and discarded; a
draw predicted not to end in time is drawn again), the exact cutoff a model size allows
(one quantization a trial) and the training file read once for the search."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.labelled import write_labelled
from wordvec.data import labels
from wordvec.errors import WordvecError
from wordvec.models.classifier import autotune, training
from wordvec.models.classifier.autotune import (MINN_CHOICES, SEARCHED, AutotuneSettings, Trial, _Search,
                                                check_validation_file, parse_metric, parse_size, progress_line)
from wordvec.models.classifier.config import ClassifierConfig
from wordvec.models.classifier.model import Classifier


def draws(fixed=(), config=None, n=300, progress=0.5):
    search = _Search(config or ClassifierConfig(), frozenset(fixed))
    rng = np.random.default_rng(0)
    first = search.ask(0.0, rng)
    return first, [search.ask(progress, rng) for _ in range(n)]


def test_the_first_trial_is_the_given_config_and_later_ones_stay_in_fastTexts_ranges():
    given = ClassifierConfig(epoch=7, lr=0.3, dim=20)
    (first, dsub), later = draws(config=given)
    assert first == given and dsub == 2
    assert len({c for c, _ in later}) > 250  # the draws move
    for config, dsub in later:
        assert 1 <= config.epoch <= 100 and 0.01 <= config.lr <= 5.0 and 1 <= config.dim <= 1000
        assert 1 <= config.word_ngrams <= 5 and config.minn in MINN_CHOICES and dsub in (2, 4, 8, 16)
        assert config.maxn == (0 if config.minn == 0 else config.minn + 3)
        no_ngrams = config.word_ngrams <= 1 and config.maxn == 0
        assert (config.bucket == 0) if no_ngrams else 10_000 <= config.bucket <= 10_000_000
        assert config.loss == "softmax"
        config.checked()


def test_settings_given_by_hand_are_kept():
    given = ClassifierConfig(epoch=7, lr=0.3, dim=20, word_ngrams=2, bucket=50_000, loss="hs", minn=2, maxn=4)
    _, later = draws(fixed=SEARCHED, config=given)
    assert {c for c, _ in later} == {given} and {d for _, d in later} == {2}
    _, later = draws(fixed={"dim", "loss"}, config=given)
    assert {c.dim for c, _ in later} == {20} and {c.loss for c, _ in later} == {"hs"}
    assert len({c.epoch for c, _ in later}) > 10


def test_the_spread_shrinks_from_a_quarter_to_three_quarters_of_the_budget():
    def spread(progress):
        _, later = draws(config=ClassifierConfig(dim=100), n=400, progress=progress)
        return np.std(np.log2([c.dim for c, _ in later]))
    assert spread(0.0) == pytest.approx(spread(0.25), rel=1e-9)  # the same draws: σ unchanged
    assert spread(0.9) == pytest.approx(spread(0.75), rel=1e-9)
    assert spread(0.75) < 0.4 < 1.0 < spread(0.25)  # σ 1.4 -> 0.3


def test_metric_and_size_strings():
    assert parse_metric("precisionAtRecall:30:__label__b") == ("precisionAtRecall", "__label__b", 0.3)
    assert parse_size("3k") == 3000 and parse_size("1G") == 10**9 and parse_size(None) is None
    for bad in ("F1", "f1:", "precisionAtRecall", "precisionAtRecall:30:", "recallAtPrecision:150", "accuracy"):
        with pytest.raises(WordvecError, match="Unknown autotune metric"):
            parse_metric(bad)
    for bad in ("2X", "2.5M", "-1", "0", "M", "1e6"):
        with pytest.raises(WordvecError, match="model size"):
            parse_size(bad)
    for wrong, fragment in (({"duration": -1}, "duration"), ({"duration": float("nan")}, "duration"),
                            ({"predictions": 0}, "predictions"), ({"predictions": -2}, "predictions"),
                            ({"fixed": frozenset({"seed"})}, "searches")):
        with pytest.raises(WordvecError, match=fragment):
            AutotuneSettings("valid.txt", **wrong).parsed()


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=40))
def test_any_metric_or_size_string_is_read_or_refused_in_one_sentence(text):
    for parse in (parse_metric, parse_size):
        try:
            parse(text)
        except WordvecError as error:
            assert "\n" not in str(error)


def test_the_validation_file_must_exist_and_hold_a_label(tmp_path):
    (tmp_path / "plain.txt").write_text("no labels here\nnone\n")
    (tmp_path / "ok.txt").write_text("words\n__label__a words\n")
    check_validation_file(str(tmp_path / "ok.txt"), "__label__")
    for path, fragment in ((tmp_path / "absent.txt", "does not exist"), (tmp_path, "not a file"),
                           (tmp_path / "plain.txt", "no labelled line")):
        with pytest.raises(WordvecError, match=fragment):
            check_validation_file(str(path), "__label__")


def test_the_progress_line_is_fastTexts():
    assert progress_line(Trial(3, None, None, 12.5, 300)) == (
        "\rProgress:   4.2% Trials:    3 Best score:   unknown ETA:   0h 4m47s")
    assert progress_line(Trial(12, 0.5, 0.875, 3700, 3600)) == (
        "\rProgress: 100.0% Trials:   12 Best score:  0.875000 ETA:   0h 0m 0s")


class Clock:
    """A clock that stands still until told a step, then moves by it at every reading."""

    def __init__(self, step=0.0):
        self.now, self.step = 0.0, step

    def __call__(self):
        self.now += self.step
        return self.now


@pytest.fixture
def labelled(tmp_path, monkeypatch):
    """A training and a validation file; the budget's clock read every 50 tokens per thread."""
    rng = np.random.default_rng(5)
    write_labelled(tmp_path / "train.txt", 400, rng, labels=4, span=320, vocabulary=1200)
    write_labelled(tmp_path / "valid.txt", 100, rng, labels=4, span=320, vocabulary=1200)
    monkeypatch.setattr(training, "STOP_CHECK_TOKENS", 50)
    return str(tmp_path / "train.txt"), str(tmp_path / "valid.txt")


def _watched(monkeypatch):
    """Record each trial's training as 'trained' or 'stopped', and each model scored."""
    events = []

    def trained(*args, **kwargs):
        try:
            model = original_trained(*args, **kwargs)
        except training.TrainingStopped:
            events.append("stopped")
            raise
        events.append("trained")
        return model

    def scored(*args):
        events.append("scored")
        return original_score(*args)
    original_trained, original_score = autotune._trained, autotune.score
    monkeypatch.setattr(autotune, "_trained", trained)
    monkeypatch.setattr(autotune, "score", scored)
    return events


def test_the_trial_training_when_the_budget_ends_is_stopped_and_discarded(labelled, monkeypatch):
    """The clock stands still through the first trial, then runs out during the second
    one's training: that trial is stopped, not scored, not counted, and the first one's
    settings and score are what the search found."""
    train, valid = labelled
    events, clock, told = _watched(monkeypatch), Clock(), []

    def on_trial(trial):
        told.append(trial)
        clock.step = 0.01  # the budget of 1 s is spent 100 readings on

    given = ClassifierConfig(dim=10, epoch=20, threads=1, seed=3, verbose=0)
    found = autotune.search(given, train, AutotuneSettings(valid, duration=1.0), on_trial=on_trial, clock=clock)
    assert events == ["trained", "scored", "stopped"]
    assert found.trials == 1 and found.score == told[0].score and found.config == replace(given, bucket=0)
    stopped = told[1]  # the progress line's last state: one trial finished, the budget spent
    assert len(told) == 2 and (stopped.number, stopped.score, stopped.best) == (1, None, told[0].score)
    assert stopped.elapsed >= 1.0


@pytest.mark.parametrize("model_size", ["", "30K"])
def test_a_budget_that_ends_during_the_first_trial_asks_for_a_longer_one(labelled, monkeypatch, model_size):
    train, valid = labelled
    events, told = _watched(monkeypatch), []
    given = ClassifierConfig(dim=10, epoch=20, threads=1, seed=3, verbose=0)
    settings = AutotuneSettings(valid, duration=1.0, model_size=model_size)
    with pytest.raises(WordvecError, match="no trial could be trained: give a longer autotune duration"):
        autotune.search(given, train, settings, on_trial=told.append, clock=Clock(step=0.01))
    assert events == ["stopped"] and [(t.number, t.score, t.best) for t in told] == [(0, None, None)]


@pytest.mark.parametrize("ngrams", [dict(), dict(word_ngrams=2, bucket=5000), dict(minn=2, maxn=4, bucket=3000)])
def test_the_cutoff_is_the_largest_whose_ftz_fits(tmp_path, ngrams):
    """The size computed for each cutoff is the written file's, words with multi-byte
    characters and pruned n-gram rows included, and the cutoff chosen is the largest
    that fits: one row more and the file is over the size."""
    with open(tmp_path / "train.txt", "w", encoding="utf-8") as out:
        rng = np.random.default_rng(2)
        for _ in range(300):
            label = rng.integers(3)
            words = [f"w{label * 200 + rng.integers(260)}" + "é" * int(rng.integers(3)) for _ in range(8)]
            out.write(f"__label__{label} " + " ".join(words) + "\n")
    train = str(tmp_path / "train.txt")
    model = Classifier(config=ClassifierConfig(dim=10, epoch=2, threads=1, verbose=0, **ngrams)).fit(train)
    path = tmp_path / "model.ftz"

    def written(cutoff, dsub):
        model.quantize(cutoff=cutoff, retrain=True, qnorm=True, dsub=dsub, input=train, epoch=1).save(path)
        return path.stat().st_size
    for dsub, size in ((2, 24_000), (4, 30_001), (8, 19_999)):
        cutoff = autotune.largest_cutoff(model, size, dsub)
        assert 300 < cutoff < model.expanded().W_in.shape[0] - 1
        assert written(cutoff, dsub) <= size < written(cutoff + 1, dsub)


def test_a_trial_with_a_model_size_is_quantized_once(labelled, monkeypatch):
    train, _ = labelled
    model = Classifier(config=ClassifierConfig(dim=10, epoch=2, threads=1, verbose=0)).fit(train)
    calls = []
    original = Classifier.quantize

    def quantize(self, *args, **kwargs):
        calls.append(kwargs["cutoff"])
        return original(self, *args, **kwargs)
    monkeypatch.setattr(Classifier, "quantize", quantize)
    small = autotune.fit_size(model, train, 20_000, 2)
    assert calls == [autotune.largest_cutoff(model, 20_000, 2)] and small.W_in.shape[0] == calls[0]
    with pytest.raises(autotune._Skipped):  # fewer than MIN_CUTOFF rows would fit
        autotune.fit_size(model, train, 9_000, 2)


def test_a_trial_predicted_to_end_after_the_budget_is_not_started(labelled, monkeypatch):
    """Every setting kept as given, the first trial takes 0.9 of a 1 s budget: the next,
    the same, is predicted to take 0.9 s again with 0.1 s left, so the search ends without
    starting it (fastText would start it and have the budget stop and discard it)."""
    train, valid = labelled
    events, clock, told = _watched(monkeypatch), Clock(), []
    score = autotune.score

    def slow_score(*args):
        clock.now += 0.9
        return score(*args)
    monkeypatch.setattr(autotune, "score", slow_score)
    given = ClassifierConfig(dim=10, epoch=5, threads=1, seed=3, verbose=0)
    settings = AutotuneSettings(valid, duration=1.0, fixed=frozenset(SEARCHED))
    found = autotune.search(given, train, settings, on_trial=told.append, clock=clock)
    assert events == ["trained", "scored"] and found.trials == 1
    assert [(t.number, t.score is None) for t in told] == [(1, False), (1, True)]


def test_draws_predicted_not_to_fit_the_time_left_are_drawn_again(labelled, monkeypatch):
    """With each trial predicted to take 0.01 s per epoch and the clock moved by a little
    less in each, no trial after the first starts with less time left than its
    prediction, some draws are refused, and the search ends with no trial stopped."""
    train, valid = labelled
    events, clock, started = _watched(monkeypatch), Clock(), []
    monkeypatch.setattr(autotune.TrialCost, "predict", lambda self, config, dsub: 0.01 * config.epoch)
    trained = autotune._trained

    def timed(config, *args, **kwargs):
        started.append((config.epoch, 1.0 - clock.now))
        clock.now += 0.0099 * config.epoch  # a little under its prediction
        return trained(config, *args, **kwargs)
    monkeypatch.setattr(autotune, "_trained", timed)
    asked = []
    ask = autotune._Search.ask
    monkeypatch.setattr(autotune._Search, "ask", lambda self, *a: asked.append(ask(self, *a)) or asked[-1])
    given = ClassifierConfig(dim=4, epoch=10, threads=1, seed=3, verbose=0)
    fixed = frozenset(SEARCHED) - {"epoch"}
    found = autotune.search(given, train, AutotuneSettings(valid, duration=1.0, fixed=fixed), clock=clock)
    assert "stopped" not in events and found.trials == len(started) > 2
    assert all(0.01 * epoch <= left for epoch, left in started[1:])
    assert len(asked) > len(started)  # draws refused and drawn again


def test_the_trial_cost_scales_training_by_epochs_dims_and_bags_and_k_means_by_dims_and_rows():
    class Trained:  # what observe reads of a finished trial's model
        def __init__(self, epoch_seconds, rows, dim, labels=4):
            self.history = [{"seconds": epoch_seconds}] * 2
            self.W_in, self.W_out = np.zeros((rows, dim)), np.zeros((labels, dim))
    given = ClassifierConfig(dim=10, epoch=2)
    plain = autotune.TrialCost(None)
    assert plain.predict(given, 2) == 0.0  # nothing to go by: the first trial always starts
    plain.observe(given, Trained(3.0, 500, 10), seconds=10.0, real_seconds=10.0)  # 6 s training, 4 s the rest
    assert plain.predict(given, 2) == pytest.approx(10.0)
    assert plain.predict(replace(given, epoch=4, dim=30), 2) == pytest.approx(6.0 * 6 + 4.0)
    assert plain.predict(replace(given, word_ngrams=3), 2) == pytest.approx(6.0 * 3 + 4.0)
    assert plain.predict(replace(given, minn=2, maxn=5), 2) == pytest.approx(6.0 * 17 + 4.0)
    sized = autotune.TrialCost(200_000)  # 30 of 60 clock seconds (real: 15 of 30) training
    sized.observe(given, Trained(7.5, 500, 10), seconds=60.0, real_seconds=30.0)
    rows = sized.estimated_rows(20, 4)
    assert rows == (200_000 - 107 - 4 * 256 * 20 - 21 - 4 * 4 * 20) // (5 + 1 + 10)
    assert sized.predict(replace(given, dim=20), 4) == pytest.approx(30.0 * 2 + 30.0 / (10 * 500) * 20 * rows)


def test_the_training_file_is_read_once_for_every_trial_and_its_retraining(labelled, monkeypatch):
    train, valid = labelled
    read = []
    blocks = labels.text_blocks

    def counted(source, *args, **kwargs):
        read.append(str(source))
        return blocks(source, *args, **kwargs)
    monkeypatch.setattr(labels, "text_blocks", counted)
    clock, told = Clock(), []

    def on_trial(trial):
        told.append(trial)
        clock.now += 0.3  # three trials in a budget of 1 s
    given = ClassifierConfig(dim=10, epoch=3, threads=1, seed=3, verbose=0)
    settings = AutotuneSettings(valid, duration=1.0, model_size="30K", fixed=frozenset(SEARCHED) - {"lr"})
    found = autotune.search(given, train, settings, on_trial=on_trial, clock=clock)
    assert found.trials >= 3 and read.count(train) == 1
