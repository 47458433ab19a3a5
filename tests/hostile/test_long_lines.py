"""A line of 5 MB without whitespace (longer than every text reader's block, 1-2 MB), given
to every command that reads text: each ends (exit 0, or one sentence and exit 2) well
inside a time limit. The label scanner grew
its token arena by the bytes left in the block, which for a last ``\\n`` is one byte where
its token ``</s>`` takes four: a first line over the 1 MB arena spun forever."""

import subprocess

import numpy as np
import pytest

from wordvec.models.classifier.model import Classifier

from .harness import assert_clean_failure, run_cli
from .world import corpus_text, keyed_vectors

LINE = 5_000_000
LIMIT_S = 240  # a hang is the failure; every case ends in seconds


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("long-lines")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(30)}" for _ in range(6)) for c in rng.integers(0, 3, 300)]
    with open(root / "long.txt", "wb") as out:  # one token and its "\n": the block ends on EOS
        out.write(b"__label__a" + b"x" * LINE + b"\n")
    with open(root / "plain.txt", "wb") as out:  # no labels: word2vec, phrases, counting
        out.write(corpus_text(50).encode() + b"x" * LINE + b"\n")
    (root / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    Classifier.train(root / "train.txt", dim=4, epoch=1, minn=2, maxn=3, bucket=2000, threads=1,
                     verbose=0).save(root / "chars.bin")
    keyed_vectors().save(root / "vec.wv")
    return root


COMMANDS = {
    "classify train": ["classify", "train", "{d}/long.txt", "-o", "{o}/m.bin", "--dim", "4", "--epoch", "1",
                       "--bucket", "1000", "--no-progress"],
    "classify test": ["classify", "test", "{d}/chars.bin", "{d}/long.txt"],
    "classify predict": ["classify", "predict", "{d}/chars.bin", "{d}/long.txt"],
    "classify quantize --retrain": ["classify", "quantize", "{d}/chars.bin", "-o", "{o}/q.ftz", "--cutoff", "300",
                                    "--retrain", "--input", "{d}/long.txt", "--epoch", "1"],
    "fasttext supervised": ["fasttext", "supervised", "-input", "{d}/long.txt", "-output", "{o}/ft", "-dim", "4",
                            "-epoch", "1", "-bucket", "1000"],
    "fasttext skipgram": ["fasttext", "skipgram", "-input", "{d}/plain.txt", "-output", "{o}/sg", "-dim", "4",
                          "-epoch", "1", "-bucket", "1000", "-minCount", "1", "-minn", "0", "-maxn", "0"],
    "train": ["train", "{d}/plain.txt", "-o", "{o}/v.bin", "--vector-size", "4", "--epochs", "1", "--min-count", "1",
              "--no-progress", "--no-eval"],
    "word2vec": ["word2vec", "-train", "{d}/plain.txt", "-output", "{o}/v.txt", "-size", "4", "-iter", "1",
                 "-min-count", "1"],
    "vocab": ["vocab", "{d}/plain.txt", "--min-count", "1"],
    "phrases": ["phrases", "{d}/plain.txt", "-o", "{o}/p.txt", "--min-count", "1"],
    "cooccur": ["cooccur", "{d}/plain.txt", "-o", "{o}/c.npz", "--min-count", "1"],
    "embed": ["embed", "{d}/vec.wv", "{d}/plain.txt", "-o", "{o}/e.npy"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_5_mb_line_without_whitespace_ends(inputs, tmp_path, name):
    argv = [a.format(d=inputs, o=tmp_path) for a in COMMANDS[name]]
    try:
        result = run_cli(*argv, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`wordvec {name}` on a 5 MB line did not end within {LIMIT_S} s")
    if result.returncode != 0:
        assert result.returncode == 2, (name, result.returncode, result.stderr[-2000:])
        assert_clean_failure(result)
