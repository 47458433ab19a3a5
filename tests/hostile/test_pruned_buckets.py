"""A crafted fastText ``.bin`` whose pruned n-gram table names rows past the input matrix
(one bucket listed many times, merged by a dict, so the matrix is checked against the
merged count): refused in one sentence naming the file and the table, by the compiled
path (`classify predict` with character n-grams), the NumPy path (without them) and
`fasttext print-sentence-vectors`, each in its own process (a crash is exit 139)."""

import struct

import numpy as np
import pytest

from wordvec.io.fasttext_bin import read_fasttext, write_fasttext
from wordvec.models.classifier.model import Classifier

from .harness import assert_clean_failure, digest, run_cli

PRUNE_SIZE_AT = 8 + 12 * 4 + 8 + 12 + 8  # magic, version, 12 int args, t, size/nwords/nlabels, ntokens
PAIRS = 200_000  # pairs in the crafted table; all but 10 repeat a bucket and point at row PAIRS - 1
KEPT = 10


def crafted(trained, target):
    """``trained`` (a .bin) rewritten as a pruned model whose table names rows up to PAIRS - 1
    while its input matrix holds the words and KEPT n-gram rows."""
    model = read_fasttext(trained)
    model.prune_index = {b: b for b in range(KEPT)}
    model.input = np.ascontiguousarray(model.input[:model.nwords + KEPT])
    write_fasttext(target, model)
    data = target.read_bytes()
    honest = np.array([(b, b) for b in range(KEPT)], dtype="<i4").tobytes()
    assert data.count(honest) == 1
    pairs = np.empty((PAIRS, 2), dtype="<i4")
    pairs[:, 0] = np.arange(PAIRS) % KEPT
    pairs[:, 1] = PAIRS - 1
    data = data.replace(honest, pairs.tobytes())
    data = data[:PRUNE_SIZE_AT] + struct.pack("<q", PAIRS) + data[PRUNE_SIZE_AT + 8:]
    target.write_bytes(data)
    return target


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("pruned")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(30)}" for _ in range(6)) for c in rng.integers(0, 3, 300)]
    train = root / "train.txt"
    train.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, ngrams in (("chars", dict(minn=2, maxn=3)), ("words", {})):
        Classifier.train(train, dim=4, epoch=1, word_ngrams=2, bucket=KEPT * 5, threads=1, verbose=0,
                         **ngrams).save(root / f"{name}-good.bin")
        crafted(root / f"{name}-good.bin", root / f"{name}.bin")
    return root


@pytest.mark.parametrize("name", ["chars", "words"])
def test_classify_predict_refuses_the_crafted_table(models, name):
    before = digest(models / f"{name}.bin")
    result = run_cli("classify", "predict", models / f"{name}.bin", models / "train.txt")
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert_clean_failure(result, f"{name}.bin", "pruned n-gram index")
    assert digest(models / f"{name}.bin") == before


def test_print_sentence_vectors_refuses_the_crafted_table(models):
    result = run_cli("fasttext", "print-sentence-vectors", models / "chars.bin", stdin=open(models / "train.txt"))
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert_clean_failure(result, "chars.bin", "pruned n-gram index")


def test_the_same_file_with_an_honest_table_predicts(models, tmp_path):
    honest = tmp_path / "honest.bin"
    model = read_fasttext(models / "chars-good.bin")
    model.prune_index = {b: KEPT - 1 - b for b in range(KEPT)}
    model.input = np.ascontiguousarray(model.input[:model.nwords + KEPT])
    write_fasttext(honest, model)
    result = run_cli("classify", "predict", honest, models / "train.txt")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("__label__") == 300
