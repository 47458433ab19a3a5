"""`wordvec classify train --autotune-*`: fastText's autotune in wordvec's vocabulary. It
tunes and writes a model that predicts, keeps the settings given by hand, quantizes to a
model size (the file written is at most that size), refuses bad values in one sentence
(exit 2, nothing written) and passes the validation file to the output gate as an input."""

import numpy as np
import pytest

from tests.hostile.harness import assert_clean_failure, run_main
from tests.labelled import write_labelled
from wordvec.models.classifier.model import Classifier


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Four labels, each drawn from its own (overlapping) part of 1,200 words."""
    folder = tmp_path_factory.mktemp("classify-autotune")
    rng = np.random.default_rng(5)

    write_labelled(folder / "train.txt", 800, rng, labels=4, span=320, vocabulary=1200)
    write_labelled(folder / "valid.txt", 200, rng, labels=4, span=320, vocabulary=1200)
    (folder / "unlabelled.txt").write_text("w1 w2 w3\nw4 w5\n", encoding="utf-8")
    return folder


def test_autotune_writes_a_model_that_predicts_keeping_the_settings_given(data, tmp_path):
    out = tmp_path / "tuned.bin"
    result = run_main("classify", "train", data / "train.txt", "-o", out, "--autotune-validation",
                      data / "valid.txt", "--autotune-duration", "2", "--dim", "12", "--bucket", "20000",
                      "--threads", "1")
    assert result.returncode == 0, result.stderr
    assert "Training again with best arguments" in result.stderr and "Progress:" in result.stderr
    summary = next(line for line in result.stderr.splitlines() if line.startswith("autotune: "))
    assert " trials, best f1 " in summary and "kept as given: bucket, dim" in summary
    model = Classifier.load(out)
    assert model.W_in.shape[1] == 12 and model.dictionary.bucket in (0, 20_000) and model.quantized is None
    n, precision, _ = model.test(data / "valid.txt")
    assert n == 200 and precision > 0.5
    predicted = run_main("classify", "predict", out, data / "valid.txt")
    assert predicted.returncode == 0 and len(predicted.stdout.splitlines()) == 200


def test_a_model_size_quantizes_and_the_file_fits(data, tmp_path):
    out = tmp_path / "small.ftz"  # a trial quantizes for each cutoff it tries: the budget must hold one
    result = run_main("classify", "train", data / "train.txt", "-o", out, "--autotune-validation",
                      data / "valid.txt", "--autotune-duration", "5", "--autotune-model-size", "30K", "--dim", "8",
                      "--autotune-metric", "precisionAtRecall:50", "--threads", "1", "--no-progress")
    assert result.returncode == 0, result.stderr
    assert 0 < out.stat().st_size <= 30_000
    model = Classifier.load(out)
    assert model.quantized is not None and model.test(data / "valid.txt")[1] > 0.5


@pytest.mark.parametrize("flags, fragments", [
    (["--autotune-metric", "accuracy"], ["Unknown autotune metric", "'accuracy'"]),
    (["--autotune-metric", "f1:__label__nine", "--autotune-duration", "5"], ["__label__nine", "not a label"]),
    (["--autotune-duration", "-5"], ["duration", "> 0"]),
    (["--autotune-predictions", "0"], ["predictions"]),
    (["--autotune-model-size", "2X"], ["model size", "'2X'"]),
])
def test_bad_values_exit_2_in_one_sentence(data, tmp_path, flags, fragments):
    out = tmp_path / ("m.ftz" if "--autotune-model-size" in flags else "m.bin")
    result = run_main("classify", "train", data / "train.txt", "-o", out, "--autotune-validation",
                      data / "valid.txt", "--threads", "1", "--no-progress", *flags)
    assert result.returncode == 2
    assert_clean_failure(result, *fragments)
    assert not out.exists()


@pytest.mark.parametrize("flags, fragments", [
    (["--autotune-validation", "{d}/absent.txt"], ["validation file", "does not exist"]),
    (["--autotune-validation", "{d}/unlabelled.txt"], ["no labelled line"]),
    (["--autotune-duration", "5"], ["--autotune-duration needs --autotune-validation"]),
    (["--autotune-validation", "{d}/valid.txt", "--autotune-model-size", "2M"], ["MODEL.ftz"]),
])
def test_a_missing_or_unlabelled_validation_file_exits_2(data, tmp_path, flags, fragments):
    out = tmp_path / "m.bin"
    flags = [flag.replace("{d}", str(data)) for flag in flags]
    result = run_main("classify", "train", data / "train.txt", "-o", out, "--threads", "1", *flags)
    assert result.returncode == 2
    assert_clean_failure(result, *fragments)
    assert not out.exists()


def test_the_gate_refuses_the_validation_file_as_the_output(data, tmp_path):
    valid = tmp_path / "valid.bin"
    valid.write_bytes((data / "valid.txt").read_bytes())
    before = valid.read_bytes()
    result = run_main("classify", "train", data / "train.txt", "-o", valid, "--autotune-validation", valid)
    assert result.returncode == 2
    assert_clean_failure(result, "refusing to", "valid.bin")
    assert valid.read_bytes() == before
