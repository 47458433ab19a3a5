"""Smaller failures of the contract: `classify quantize --retrain` without its data or
cutoff (it skipped retraining without a word), a range error read from inside a model
file (it did not name the file), and a RuntimeWarning printed before the one-sentence
error (the sentence is the only line)."""

import argparse
import contextlib
import io
import warnings

import numpy as np
import pytest

from wordvec.cli import _run
from wordvec.errors import WordvecError
from wordvec.io.fasttext_bin import read_fasttext, write_fasttext
from wordvec.models.classifier.model import Classifier

from .harness import assert_clean_failure, run_main


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    root = tmp_path_factory.mktemp("smaller")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(20)}" for _ in range(5)) for c in rng.integers(0, 2, 80)]
    (root / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    Classifier.train(root / "train.txt", dim=4, epoch=1, bucket=0, threads=1, verbose=0).save(root / "m.bin")
    return root


@pytest.mark.parametrize("extra", [["--cutoff", "10"], ["--input", "{d}/train.txt"]])
def test_retrain_without_its_data_or_cutoff_is_refused(model, tmp_path, extra):
    result = run_main("classify", "quantize", model / "m.bin", "-o", tmp_path / "q.ftz", "--retrain",
                      *[e.format(d=model) for e in extra])
    assert_clean_failure(result, "--retrain needs --cutoff")
    assert not (tmp_path / "q.ftz").exists()


@pytest.mark.parametrize("field, value", [("epoch", -1), ("word_ngrams", 1_000_000), ("min_count", -5)])
def test_a_range_error_inside_a_model_file_names_the_file(model, tmp_path, field, value):
    bad = read_fasttext(model / "m.bin")
    bad.args = dict(bad.args, **{field: value})
    write_fasttext(tmp_path / "bad.bin", bad)
    with pytest.raises(WordvecError, match="bad.bin"):
        Classifier.load(tmp_path / "bad.bin")
    result = run_main("classify", "quantize", tmp_path / "bad.bin", "-o", tmp_path / "q.ftz")
    assert_clean_failure(result, "bad.bin", field)


def test_runtime_warnings_of_a_failed_command_are_not_printed_before_its_sentence():
    def failing(args):
        np.float32(3e38) * np.float32(10)  # overflow: numpy's RuntimeWarning
        raise WordvecError("the one sentence")

    def succeeding(args):
        warnings.warn("kept", RuntimeWarning)
        return 0

    err = io.StringIO()
    with contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, category, *where, **options: print(
            f"{category.__name__}: {message}", file=err)  # as Python shows them, on this stderr
        assert _run(argparse.Namespace(run=failing)) == 2
        assert _run(argparse.Namespace(run=succeeding)) == 0
    lines = err.getvalue().splitlines()
    assert lines[0] == "wordvec: error: the one sentence"
    assert "overflow" not in err.getvalue() and any("kept" in line for line in lines[1:])
