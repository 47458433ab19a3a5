"""Damaged and hostile fastText .bin/.ftz files: one sentence naming the file, exit 2,
never a huge allocation, never a crash in compiled code (hypothesis fuzzing included)."""

import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from wordvec.errors import WordvecError
from wordvec.io.fasttext_bin import MAGIC, read_fasttext
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.predict import load_predictor

from .harness import assert_clean_failure, run_main
from .test_corrupt_files import EDITS, damage

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("fasttext-hostile")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(40)}" for _ in range(5)) + " é"
             for c in rng.integers(0, 3, 600)]
    train = root / "train.txt"
    train.write_text("\n".join(lines) + "\n", encoding="utf-8")
    model = Classifier.train(train, dim=4, epoch=1, word_ngrams=2, bucket=300, minn=2, maxn=3, loss="hs",
                             threads=1, verbose=0)
    model.save(root / "model.bin")
    model.quantize(cutoff=300, qnorm=True).save(root / "model.ftz")
    # no character n-grams: `classify predict`/`test` read it on the NumPy path
    Classifier.train(train, dim=4, epoch=1, word_ngrams=2, bucket=300, threads=1, verbose=0).save(root / "words.bin")
    return root


@pytest.mark.parametrize("name", ["model.bin", "model.ftz", "words.bin"])
def test_every_truncation_fails_cleanly(files, name, tmp_path):
    data = (files / name).read_bytes()
    cuts = sorted(set(np.linspace(0, len(data) - 1, 60).astype(int).tolist()) | {0, 3, 7, 8, 60, 61, 80})
    for cut in cuts:
        bad = tmp_path / f"cut-{cut}-{name}"
        bad.write_bytes(data[:cut])
        with pytest.raises(WordvecError, match=bad.name):
            Classifier.load(bad)
    result = run_main("classify", "predict", tmp_path / f"cut-{cuts[5]}-{name}", files / "train.txt")
    assert result.returncode == 2
    assert_clean_failure(result, f"cut-{cuts[5]}-{name}")


def _header(dim=4, size=2, nwords=1, nlabels=1, ntokens=10, prune=-1):
    args = struct.pack("<12id", dim, 5, 5, 1, 5, 1, 3, 3, 0, 0, 0, 100, 1e-4)
    return struct.pack("<ii", MAGIC, 12) + args + struct.pack("<iiiqq", size, nwords, nlabels, ntokens, prune)


@pytest.mark.parametrize("what, data", [
    ("dictionary", _header(size=2_000_000_000, nwords=1_999_999_999, nlabels=1)),
    ("dictionary sizes", _header(size=5, nwords=1, nlabels=1)),
    ("input matrix", _header() + b"a\0" + struct.pack("<qB", 3, 0) + b"__label__x\0" + struct.pack("<qB", 3, 1)
     + b"\0" + struct.pack("<qq", 1 << 40, 1 << 20)),
    ("pruned", _header(prune=1 << 40)),
    ("magic", b"\x00" * 64),
    ("dim", _header(dim=-3)),
])
def test_hostile_headers_fail_before_allocating(tmp_path, what, data):
    bad = tmp_path / "hostile.bin"
    bad.write_bytes(data)
    with pytest.raises(WordvecError, match="hostile.bin"):
        read_fasttext(bad)
    assert_clean_failure(run_main("classify", "test", bad, bad), "hostile.bin")


def test_nonfinite_values_are_refused(files, tmp_path):
    data = bytearray((files / "model.bin").read_bytes())
    data[-4:] = struct.pack("<f", float("nan"))  # the last output value
    bad = tmp_path / "nan.bin"
    bad.write_bytes(bytes(data))
    with pytest.raises(WordvecError, match="NaN"):
        Classifier.load(bad)


@pytest.mark.parametrize("name", ["model.bin", "model.ftz"])
@SETTINGS
@given(edits=EDITS)
def test_fuzzed_files_load_consistently_or_fail_cleanly(files, tmp_path_factory, name, edits):
    bad = tmp_path_factory.mktemp("fuzz") / name
    bad.write_bytes(damage((files / name).read_bytes(), edits))
    try:
        model = Classifier.load(bad)
    except WordvecError as error:
        assert name in str(error)
        return
    assert model.W_in.shape == (model.dictionary.n_rows, model.W_out.shape[1])
    labels, p = model.predict("w01 w12 é unknown", k=-1)  # the compiled kernels on what was read
    # (a loss byte fuzzed to hs: fastText's path product of (σ + 1e-5) may pass 1 by 1e-5 a node)
    assert len(labels) == len(model.labels) and np.all((p >= 0) & (p <= 1 + 1e-4))


@SETTINGS
@given(edits=EDITS)
def test_fuzzed_files_predict_on_the_numpy_path_or_fail_cleanly(files, tmp_path_factory, edits):
    bad = tmp_path_factory.mktemp("fuzz") / "words.bin"
    bad.write_bytes(damage((files / "words.bin").read_bytes(), edits))
    try:
        predictor = load_predictor(bad)
        if predictor is None:  # a byte fuzzed into minn/maxn: the compiled path's case, tested above
            return
        p = predictor.probabilities(predictor.encode("w01 w12 é unknown\n__label__1 w0\n".encode()))
    except WordvecError as error:
        assert "words.bin" in str(error)
        return
    assert p.shape == (2, len(predictor.labels)) and np.all((p >= 0) & (p <= 1 + 1e-4))


# ------------------------------------------------ the layout before fastText 0.9 (no magic number)

def _old_header(dim=4, ws=5, size=2, nwords=2, nlabels=0, ntokens=10, loss=2, model=2):
    args = struct.pack("<12id", dim, ws, 5, 1, 5, 1, loss, model, 10, 2, 3, 100, 1e-4)
    return args + struct.pack("<iiiq", size, nwords, nlabels, ntokens)


_OLD_ENTRIES = b"ab\0" + struct.pack("<qB", 3, 0) + b"cd\0" + struct.pack("<qB", 2, 0)


@pytest.fixture(scope="module")
def old_layout_file(tmp_path_factory):
    """An unsupervised model with n-grams, written by wordvec and rewritten in the old layout."""
    from gensim.test.utils import common_texts

    from tests.io.test_fasttext_old_layout import old_layout
    from wordvec.models.word2vec.fasttext import FastText, save_facebook_model

    root = tmp_path_factory.mktemp("fasttext-old-layout")
    model = FastText(common_texts, vector_size=4, min_count=1, bucket=50, min_n=2, max_n=3, epochs=1, workers=1,
                     progress=False)
    save_facebook_model(model, root / "new.bin")
    (root / "old.bin").write_bytes(old_layout(read_fasttext(root / "new.bin")))
    return root


@pytest.mark.parametrize("what, data", [
    ("dictionary", _old_header(size=2_000_000_000, nwords=2_000_000_000)),
    ("dictionary sizes", _old_header(size=5, nwords=1, nlabels=1)),
    ("input matrix", _old_header() + _OLD_ENTRIES + struct.pack("<qq", 1 << 40, 1 << 20)),
    ("negative shape", _old_header() + _OLD_ENTRIES + struct.pack("<qq", -12, 4)),
    ("shape", _old_header() + _OLD_ENTRIES + struct.pack("<qq", 12, 4) + bytes(4 * 48)
     + struct.pack("<qq", 1, 4) + bytes(16)),
    ("magic", _old_header(ws=0)),  # not plausible args: not taken for the old layout
    ("magic", _old_header(loss=7)),
    ("nan", _old_header() + _OLD_ENTRIES + struct.pack("<qq", 12, 4) + np.full(48, np.nan, "<f4").tobytes()
     + struct.pack("<qq", 2, 4) + bytes(32)),
])
def test_hostile_old_layout_headers_fail_before_allocating(tmp_path, what, data):
    from wordvec.models.word2vec.fasttext import load_facebook_model, load_facebook_vectors
    from wordvec.vectors.files import load_vectors

    bad = tmp_path / "hostile.bin"
    bad.write_bytes(data)
    for read in (read_fasttext, load_facebook_vectors, load_facebook_model, load_vectors):
        with pytest.raises(WordvecError, match="hostile.bin"):
            read(bad)
    assert_clean_failure(run_main("info", bad), "hostile.bin")


def test_every_truncation_of_an_old_layout_file_fails_cleanly(old_layout_file, tmp_path):
    from wordvec.models.word2vec.fasttext import load_facebook_vectors

    data = (old_layout_file / "old.bin").read_bytes()
    for cut in sorted(set(np.linspace(0, len(data) - 1, 60).astype(int).tolist()) | {0, 7, 8, 56, 60, 75, 76}):
        bad = tmp_path / f"cut-{cut}.bin"
        bad.write_bytes(data[:cut])
        with pytest.raises(WordvecError, match=bad.name):
            load_facebook_vectors(bad)
    assert_clean_failure(run_main("info", tmp_path / "cut-60.bin"), "cut-60.bin")
