"""The memory gate (``wordvec.memory.check_allocation``): sizes taken from a flag or a
file's field are checked against the memory available before the allocation, and an
absurd one is refused in one sentence naming the flag or the field. Each case runs in
its own process under a 6 GB data limit (the gate counts the limit as the memory
available; a gate that failed would end in MemoryError, not in the machine's OOM killer)."""

import resource
import subprocess
import sys

import numpy as np
import pytest

from wordvec.io.fasttext_bin import ProductQuantizer, QuantizedMatrix, read_fasttext, write_fasttext
from wordvec.models.classifier.model import Classifier

from .harness import assert_clean_failure
from .world import corpus_text
from tests.processes import run_reaped

LIMIT = 6 << 30


def _limited():
    resource.setrlimit(resource.RLIMIT_DATA, (LIMIT, LIMIT))


def run_limited(*argv):
    return run_reaped([sys.executable, "-m", "wordvec", *map(str, argv)], preexec_fn=_limited,
                      stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("memory-gate")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(20)}" for _ in range(5)) for c in rng.integers(0, 2, 80)]
    (root / "labelled.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "corpus.txt").write_text(corpus_text(), encoding="utf-8")
    return root


@pytest.mark.parametrize("bucket, said", [("2147483647", "more input rows"), ("2000000000", "memory")])
def test_a_huge_bucket_count_is_refused_naming_the_flag(inputs, tmp_path, bucket, said):
    result = run_limited("classify", "train", inputs / "labelled.txt", "-o", tmp_path / "m.bin", "--dim", "4",
                         "--bucket", bucket, "--word-ngrams", "2", "--no-progress")
    assert result.returncode == 2, result.stderr[-2000:]
    assert_clean_failure(result, f"--bucket {int(bucket):,}", said)
    assert not (tmp_path / "m.bin").exists()


def test_a_billion_word2vec_classes_are_refused_naming_the_flag(inputs, tmp_path):
    result = run_limited("word2vec", "-train", inputs / "corpus.txt", "-output", tmp_path / "c.txt",
                         "-classes", "1000000000", "-size", "8", "-iter", "1", "-min-count", "1")
    assert result.returncode == 2, result.stderr[-2000:]
    assert_clean_failure(result, "1,000,000,000 classes (-classes)", "memory")
    assert not (tmp_path / "c.txt").exists()


def test_a_small_ftz_standing_for_a_huge_matrix_is_refused_naming_the_file(inputs, tmp_path):
    """4,000,000 one-byte codes (nsubq 1) of 1,024 values: a 5 MB file, 16 GB dequantized."""
    Classifier.train(inputs / "labelled.txt", dim=4, epoch=1, bucket=0, threads=1, verbose=0).save(tmp_path / "s.bin")
    model = read_fasttext(tmp_path / "s.bin")
    rows, cols = 4_000_000, 1024
    pq = ProductQuantizer(cols, cols, np.zeros(cols * 256, dtype=np.float32))
    model.input = QuantizedMatrix(rows, cols, np.zeros(rows, dtype=np.uint8), pq)
    model.output = np.zeros((len(model.words) - model.nwords, cols), dtype=np.float32)
    model.args = dict(model.args, dim=cols, bucket=rows - model.nwords)
    write_fasttext(tmp_path / "huge.ftz", model)
    assert (tmp_path / "huge.ftz").stat().st_size < 6 << 20
    for argv in (["classify", "predict", tmp_path / "huge.ftz", inputs / "labelled.txt"],
                 ["classify", "info", tmp_path / "huge.ftz"]):
        result = run_limited(*argv)
        assert result.returncode == 2, result.stderr[-2000:]
        assert_clean_failure(result, "huge.ftz", "nsubq 1", "memory")


def test_a_huge_line_into_predict_is_refused_naming_the_file(inputs, tmp_path):
    """A 60 MB line of one-letter words under a 2 GB limit: encoded whole it would take ~3 GB."""
    Classifier.train(inputs / "labelled.txt", dim=4, epoch=1, bucket=0, threads=1, verbose=0).save(tmp_path / "m.bin")
    with open(tmp_path / "line.txt", "wb") as out:
        out.write(b"w01 " + b"a " * 30_000_000 + b"\n")
    result = run_reaped([sys.executable, "-m", "wordvec", "classify", "predict", tmp_path / "m.bin",
                         tmp_path / "line.txt"], preexec_fn=lambda: resource.setrlimit(
                             resource.RLIMIT_DATA, (2 << 30, 2 << 30)),
                        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr[-2000:]
    assert_clean_failure(result, "line.txt", "a line of more than", "memory")
