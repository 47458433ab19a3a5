"""`wordvec fasttext supervised -autotune-*`: fastText 0.9.2's autotune flags (args.cc,
main.cc). With -autotune-validation it tunes and writes OUTPUT.bin and OUTPUT.vec; with
-autotune-modelsize it writes OUTPUT.ftz (no .bin), at most that size, which fastText
itself loads. fastText aborts on a metric or a size it cannot read and ignores the
-autotune-* flags without a validation file: here each is one sentence and exit 2, with
nothing written. The validation file is an input of the output gate."""

import numpy as np
import pytest

from tests.hostile.harness import assert_clean_failure, run_main
from tests.labelled import write_labelled
from wordvec.cli.foreign import fasttext as command

fasttext = pytest.importorskip("fasttext")  # the oracle; in .venv with the test dependencies


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fasttext-autotune")
    rng = np.random.default_rng(7)

    write_labelled(folder / "train.txt", 600, rng, labels=3, span=330, vocabulary=900)
    write_labelled(folder / "valid.txt", 150, rng, labels=3, span=330, vocabulary=900)
    return folder


def supervised(data, output, *flags):
    return run_main("fasttext", "supervised", "-input", data / "train.txt", "-output", output, "-thread", "1", *flags)


def test_the_flags_are_fastTexts_with_its_defaults():
    values = command.parse_flags("supervised", ["-input", "t", "-output", "o", "-autotune-validation", "v"])
    assert (values["autotuneMetric"], values["autotunePredictions"], values["autotuneDuration"],
            values["autotuneModelSize"]) == ("f1", 1, 300, "")
    assert command.model_path(values) == "o.bin"
    values = command.parse_flags("supervised", ["-input", "t", "-output", "o", "-autotune-validation", "v",
                                                "-autotune-modelsize", "2M", "-epoch", "3"])
    assert command.model_path(values) == "o.ftz" and "epoch" in values["given"]


def test_autotune_writes_the_bin_and_vec_and_the_model_predicts(data, tmp_path):
    # -dim and -bucket kept small: a .bin holds every bucket row, and the search's reach (dim 1000 x
    # 10M buckets) would write gigabytes
    result = supervised(data, tmp_path / "tuned", "-autotune-validation", data / "valid.txt",
                        "-autotune-duration", "2", "-autotune-metric", "f1:__label__1", "-dim", "10",
                        "-bucket", "20000")
    assert result.returncode == 0, result.stderr
    assert "Training again with best arguments" in result.stderr
    assert (tmp_path / "tuned.vec").stat().st_size > 0 and not (tmp_path / "tuned.ftz").exists()
    oracle = fasttext.load_model(str(tmp_path / "tuned.bin"))
    assert oracle.get_dimension() == 10 and oracle.f.getArgs().bucket in (0, 20_000)  # kept as given
    n, precision, _ = oracle.test(str(data / "valid.txt"))
    assert n == 150 and precision > 0.5
    predicted = run_main("fasttext", "predict", tmp_path / "tuned.bin", data / "valid.txt")
    assert predicted.returncode == 0 and len(predicted.stdout.splitlines()) == 150


def test_a_model_size_writes_a_quantized_ftz_that_fits(data, tmp_path):
    # a trial quantizes for each cutoff it tries (seconds): the budget must hold one to its end
    result = supervised(data, tmp_path / "small", "-autotune-validation", data / "valid.txt",
                        "-autotune-duration", "5", "-autotune-modelsize", "25K", "-dim", "8", "-verbose", "0")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # -verbose 0
    path = tmp_path / "small.ftz"
    assert 0 < path.stat().st_size <= 25_000 and not (tmp_path / "small.bin").exists()
    oracle = fasttext.load_model(str(path))
    assert oracle.get_dimension() == 8 and oracle.test(str(data / "valid.txt"))[1] > 0.5


@pytest.mark.parametrize("flags, fragments", [
    (["-autotune-validation", "{d}/valid.txt", "-autotune-metric", "f2"], ["Unknown autotune metric", "'f2'"]),
    (["-autotune-validation", "{d}/valid.txt", "-autotune-metric", "recallAtPrecision:x"], ["autotune metric"]),
    (["-autotune-validation", "{d}/valid.txt", "-autotune-modelsize", "2X"], ["model size", "'2X'"]),
    (["-autotune-validation", "{d}/valid.txt", "-autotune-duration", "-3"], ["duration"]),
    (["-autotune-validation", "{d}/valid.txt", "-autotune-duration", "2.5"], ["-autotune-duration", "whole"]),
    (["-autotune-validation", "{d}/valid.txt", "-autotune-predictions", "0"], ["predictions"]),
    (["-autotune-validation", "{d}/absent.txt"], ["validation file", "does not exist"]),
    (["-autotune-validation", "{d}/train.vec"], ["no labelled line"]),
    (["-autotune-modelsize", "2M"], ["-autotune-modelsize needs -autotune-validation"]),
    (["-autotune-validation"], ["needs a value"]),
])
def test_bad_values_exit_2_in_one_sentence(data, tmp_path, flags, fragments):
    (data / "train.vec").write_text("w1 w2\nw3\n", encoding="utf-8")
    result = supervised(data, tmp_path / "m", *[flag.replace("{d}", str(data)) for flag in flags])
    assert result.returncode == 2
    assert_clean_failure(result, *fragments)
    assert list(tmp_path.iterdir()) == []


def test_autotune_is_for_supervised_training_only(data, tmp_path):
    result = run_main("fasttext", "skipgram", "-input", data / "train.txt", "-output", tmp_path / "m",
                      "-autotune-validation", data / "valid.txt")
    assert_clean_failure(result, "supervised training only")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix, flags", [(".vec", []), (".bin", []), (".ftz", ["-autotune-modelsize", "1M"])])
def test_the_gate_refuses_the_validation_file_as_an_output(data, tmp_path, suffix, flags):
    valid = tmp_path / f"valid{suffix}"
    valid.write_bytes((data / "valid.txt").read_bytes())
    result = supervised(data, tmp_path / "valid", "-autotune-validation", valid, *flags)
    assert result.returncode == 2
    assert_clean_failure(result, "refusing to", valid.name)
    assert valid.read_bytes() == (data / "valid.txt").read_bytes()
