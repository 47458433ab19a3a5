"""``wordvec.fasttext``'s autotune (``autotuneValidationFile`` ...): fastText's metric
strings and sizes, a search that keeps the best trial, and a model size met by
quantizing."""

import os

import numpy as np
import pytest

import wordvec.fasttext as fasttext
from wordvec.fasttext.autotune import parse_metric, parse_size


def test_metric_and_size_strings_as_fasttext_reads_them():
    assert parse_metric("f1") == ("f1", None, 0.0)
    assert parse_metric("f1:__label__x") == ("f1", "__label__x", 0.0)
    assert parse_metric("precisionAtRecall:30") == ("precisionAtRecall", None, 0.3)
    assert parse_metric("recallAtPrecision:90:__label__y") == ("recallAtPrecision", "__label__y", 0.9)
    assert parse_size("2M") == 2_000_000 and parse_size("500K") == 500_000 and parse_size(1234) == 1234
    assert parse_size("") is None
    for bad in ("accuracy", "precisionAtRecall:abc"):
        with pytest.raises(ValueError, match="Unknown autotune metric"):
            parse_metric(bad)
    with pytest.raises(ValueError, match="model size"):
        parse_size("2Q")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("autotune")
    rng = np.random.default_rng(5)
    vocabulary = [f"w{i}" for i in range(1200)]

    def write(name, n):
        with open(folder / name, "w", encoding="utf-8") as out:
            for _ in range(n):
                label = rng.integers(4)
                words = [vocabulary[(label * 300 + rng.integers(320)) % 1200] for _ in range(8)]
                out.write(f"__label__{label} " + " ".join(words) + "\n")
    write("train.txt", 800)
    write("valid.txt", 200)
    return folder


def test_the_search_keeps_a_model_at_least_as_good_as_the_given_settings(files):
    train, valid = str(files / "train.txt"), str(files / "valid.txt")
    given = fasttext.train_supervised(train, thread=1, verbose=0)
    tuned = fasttext.train_supervised(train, autotuneValidationFile=valid, autotuneDuration=3, thread=1, verbose=0)
    assert not tuned.is_quantized()
    assert tuned.test(valid)[1] >= given.test(valid)[1] - 0.02  # the final training's own noise
    with pytest.raises(ValueError, match="cannot be opened for validation"):
        fasttext.train_supervised(train, autotuneValidationFile=str(files / "absent.txt"))
    with pytest.raises(ValueError, match="not a label"):
        fasttext.train_supervised(train, autotuneValidationFile=valid, autotuneMetric="f1:__label__none",
                                  autotuneDuration=5, thread=1, verbose=0)


def test_a_model_size_is_met_by_quantizing(files, tmp_path):
    train, valid = str(files / "train.txt"), str(files / "valid.txt")
    # a trial quantizes for each cutoff it tries (seconds): the budget must hold one to its end
    model = fasttext.train_supervised(train, autotuneValidationFile=valid, autotuneDuration=5,
                                      autotuneModelSize="40K", autotuneMetric="precisionAtRecall:50", dim=16,
                                      thread=1, verbose=0)
    assert model.is_quantized()
    model.save_model(str(tmp_path / "model.ftz"))
    assert os.path.getsize(tmp_path / "model.ftz") <= 40_000
    assert model.test(valid)[1] > 0.5
