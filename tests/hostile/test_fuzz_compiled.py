"""Hypothesis fuzzing of fastText `.bin`/`.ftz` files and of the approximate index, run
through the compiled paths (the classifier's Numba prediction on a model with character
n-grams and word bigrams, NumPy prediction, the composition of a word-vector model's
n-gram rows in both file layouts, before and since fastText 0.9, usearch's search), not only the readers:
every damaged file is refused with a ``WordvecError`` naming it, or it loads and answers
within range; nothing crashes. 1,000 derandomized examples each in the default run;
``pytest -m slow`` runs 5,000 each (WORDVEC_FUZZ_EXAMPLES sets another count)."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from wordvec.errors import WordvecError
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.predict import load_predictor
from wordvec.models.word2vec.fasttext import FastText, load_facebook_vectors, save_facebook_model
from wordvec.vectors import ann
from wordvec.vectors.files import load_vectors, save_vectors
from wordvec.vectors.keyed import KeyedVectors

from tests.io.test_fasttext_old_layout import old_layout
from wordvec.io.fasttext_bin import read_fasttext

from .test_corrupt_files import EDITS, damage

EXAMPLES = 1000
SLOW_EXAMPLES = int(os.environ.get("WORDVEC_FUZZ_EXAMPLES", 5000))


def fuzz(examples):
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                    database=None)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz-compiled")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(40)}" for _ in range(5)) + " é"
             for c in rng.integers(0, 3, 300)]
    (root / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    model = Classifier.train(root / "train.txt", dim=4, epoch=1, word_ngrams=2, bucket=300, minn=2, maxn=3,
                             loss="hs", threads=1, verbose=0)
    model.save(root / "model.bin")
    model.quantize(cutoff=290, qnorm=True).save(root / "model.ftz")
    kv = KeyedVectors([f"w{i}" for i in range(300)], rng.standard_normal((300, 8)).astype(np.float32))
    save_vectors(kv, root / "v.wv")
    ann.save_index(ann.build_index(kv, threads=1), root / "v.wv")
    vectors = FastText([[f"w{i}", f"w{i + 1}", "é"] for i in range(40)] * 5, vector_size=4, min_count=1, bucket=60,
                       min_n=2, max_n=3, epochs=1, workers=1, progress=False)
    save_facebook_model(vectors, root / "vectors.bin")
    (root / "vectors-old.bin").write_bytes(old_layout(read_fasttext(root / "vectors.bin")))
    names = ("model.bin", "model.ftz", "vectors.bin", "vectors-old.bin", "v.wv.usearch")
    return {name: (root / name).read_bytes() for name in names} | {"root": root}


def classifier_answers_or_refuses(path):
    try:
        model = Classifier.load(path)
    except WordvecError as error:
        assert path.name in str(error)
        return
    assert model.W_in.shape == (model.dictionary.n_rows, model.W_out.shape[1])
    labels, p = model.predict("w01 w12 é unknown wordz", k=-1)  # the compiled kernels on what was read
    assert len(labels) == len(model.labels) and np.all((p >= 0) & (p <= 1 + 1e-4))
    try:
        predictor = load_predictor(path)
    except WordvecError as error:
        assert path.name in str(error)
        return
    if predictor is not None:  # no character n-grams left: the NumPy path
        probabilities = predictor.probabilities(predictor.encode(b"w01 w12 unknown\n"))
        assert np.all((probabilities >= 0) & (probabilities <= 1 + 1e-4))


def word_vectors_answer_or_refuse(path):
    """load_facebook_vectors composes every word's n-gram rows in compiled code; then an
    unseen word's vector from its n-gram rows."""
    try:
        kv = load_facebook_vectors(path)
    except WordvecError as error:
        assert path.name in str(error)
        return
    assert kv.vectors.shape == (len(kv), kv.vector_size) and np.isfinite(kv.vectors).all()
    if hasattr(kv, "vectors_ngrams") and kv.uses_ngrams:
        assert kv.vectors_ngrams.shape == (kv.bucket, kv.vector_size)
        assert np.isfinite(kv.get_vector("unseenwordz")).all()


def index_answers_or_refuses(files, data, folder):
    target = folder / "v.wv"
    if not target.exists():
        os.symlink(files["root"] / "v.wv", target)
        os.symlink(files["root"] / "v.wv.usearch.json", folder / "v.wv.usearch.json")
    (folder / "v.wv.usearch").write_bytes(data)
    kv = load_vectors(target)
    try:
        ann.attach_index(kv, target)
    except WordvecError as error:
        assert "v.wv" in str(error)
        return
    answer = kv.most_similar("w3", topn=5, approximate=True)  # usearch's search on what was read
    assert len(answer) == 5 and all(-1.01 <= score <= 1.01 for _, score in answer)


def _run(name, files, folder, edits):
    data = damage(files[name], edits)
    if name.endswith(".usearch"):
        index_answers_or_refuses(files, data, folder)
    else:
        path = folder / name
        path.write_bytes(data)
        if name.startswith("vectors"):
            word_vectors_answer_or_refuse(path)
        else:
            classifier_answers_or_refuses(path)


@pytest.mark.parametrize("name", ["model.bin", "model.ftz", "vectors.bin", "vectors-old.bin", "v.wv.usearch"])
def test_fuzzed_files_through_the_compiled_paths(files, tmp_path, name):
    @fuzz(EXAMPLES)
    @given(edits=EDITS)
    def check(edits):
        _run(name, files, tmp_path, edits)

    check()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["model.bin", "model.ftz", "vectors.bin", "vectors-old.bin", "v.wv.usearch"])
def test_fuzzed_files_through_the_compiled_paths_at_length(files, tmp_path, name):
    @fuzz(SLOW_EXAMPLES)
    @given(edits=EDITS)
    def check(edits):
        _run(name, files, tmp_path, edits)

    check()
