"""fastText's own .bin/.ftz files both ways, against the fastText package (fasttext-wheel 0.9.2).

Models are trained on the fly by fastText on small synthetic data; wordvec reads them and
must compute the same word vectors (1e-6), the same top label on every test line and the
same probabilities. And the reverse: files wordvec writes are loaded by fastText.

Probabilities agree to 1e-4 for every loss: fastText computes σ for ``ova`` predictions
through a 512-entry lookup table over [-8, 8] (loss.cc) and adds 1e-5 inside the logs of
an ``hs`` path; a Classifier does the same by default (``fasttext_sigmoid``; the exact σ
differs from the table by up to ~0.008).

Without the package the tests skip, except under CI=true, where they fail.
"""

import os

import numpy as np
import pytest

from wordvec.data.labels import encode_lines
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.predict import file_meter, load_predictor

WORDS_PER_CLASS = 25


def _fasttext():
    try:
        import fasttext  # the oracle: optional, a dev dependency
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("the fastText package (fasttext-wheel==0.9.2, the dev extra) is required in CI")
        pytest.skip("the fastText package (fasttext-wheel==0.9.2) is not installed")
    return fasttext


def write_corpus(path, n, seed, classes=3, multi=False):
    """Labelled lines: class words, shared noise words, some non-ASCII words (their hash
    bytes are sign-extended) and, with ``multi``, a second label on some lines."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        c = int(rng.integers(classes))
        words = [f"w{c}x{rng.integers(WORDS_PER_CLASS)}" for _ in range(4)]
        words += [f"noise{rng.integers(300)}" for _ in range(6)] + [f"é{rng.integers(20)}ü"]
        rng.shuffle(words)
        labels = [f"__label__c{c}"]
        if multi and rng.random() < 0.3:
            labels.append(f"__label__c{(c + 1) % classes}")
        lines.append(" ".join(labels + words))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [line.split(" ", 1 + (line.count("__label__") - 1))[-1] for line in lines]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("fasttext")
    train, test = root / "train.txt", root / "test.txt"
    write_corpus(train, 1500, 1, multi=True)
    test_lines = write_corpus(test, 200, 2)
    return root, train, test, test_lines + ["unseenword another", "é3ü noise1 w1x3"]


def _fasttext_predictions(model, lines, k=-1):
    out = []
    for line in lines:
        pairs = model.f.predict(line + "\n", k, 0.0, "strict")  # the NumPy-2-safe binding
        out.append(({label: p for p, label in pairs}, pairs[0][1] if pairs else None))
    return out


def _assert_same_predictions(ours, theirs, lines, tolerance):
    for line, (probabilities, top) in zip(lines, _fasttext_predictions(theirs, lines)):
        labels, p = ours.predict(line, k=-1)
        assert labels[0] == top, line
        for label, value in zip(labels, p):
            assert abs(value - probabilities[label]) < tolerance + 1e-5, (line, label)  # fastText adds 1e-5


def _assert_same_vectors(ours, theirs, words, lines):
    for word in words:
        np.testing.assert_allclose(ours.get_word_vector(word), theirs.get_word_vector(word), atol=1e-6)
    for line in lines[:20]:
        np.testing.assert_allclose(ours.get_sentence_vector(line), theirs.get_sentence_vector(line), atol=1e-6)


def _their_model(train, path, settings):
    """fastText 0.9.2 trains a small supervised model on ``train`` and saves it at ``path``."""
    theirs = _fasttext().train_supervised(input=str(train), dim=8, epoch=5, lr=0.5, thread=1, verbose=0, **settings)
    theirs.save_model(str(path))
    return theirs, path


PROBE_WORDS = ["w0x1", "noise5", "é3ü", "</s>", "unseen", "w9x99", "ü"]
SETTINGS = [
    dict(loss="softmax", wordNgrams=2, bucket=5000),
    dict(loss="hs", wordNgrams=3, bucket=5000, minn=2, maxn=4),
    dict(loss="ova", wordNgrams=1),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: s["loss"])
def test_fasttext_bin_read_by_wordvec(data, settings):
    root, train, _, lines = data
    theirs, path = _their_model(train, root / f"theirs-{settings['loss']}.bin", settings)
    ours = Classifier.load(path)
    assert ours.labels == theirs.get_labels() and ours.words == theirs.get_words()
    _assert_same_vectors(ours, theirs, PROBE_WORDS, lines)
    _assert_same_predictions(ours, theirs, lines, 1e-4)
    # fastText's test figures, from the same file
    n, precision, recall = theirs.test(str(data[2]))
    assert ours.test(data[2]) == pytest.approx((n, precision, recall), abs=1e-9)


def test_fasttext_ftz_read_by_wordvec(data):
    fasttext = _fasttext()
    root, train, _, lines = data
    theirs = fasttext.train_supervised(input=str(train), dim=8, epoch=5, lr=0.5, thread=1, verbose=0, wordNgrams=2,
                                       bucket=5000)
    theirs.quantize(input=str(train), qnorm=True, cutoff=400, retrain=False)
    path = root / "theirs.ftz"
    theirs.save_model(str(path))
    ours = Classifier.load(path)
    assert ours.quantized is not None and ours.W_in.shape[0] == 400
    _assert_same_vectors(ours, theirs, PROBE_WORDS, lines)
    _assert_same_predictions(ours, theirs, lines, 1e-4)


@pytest.mark.parametrize("model", ["skipgram", "cbow"])
def test_fasttext_unsupervised_bin_word_vectors(data, model):
    fasttext = _fasttext()
    root, train, _, _ = data
    theirs = fasttext.train_unsupervised(input=str(train), model=model, dim=8, epoch=1, minn=2, maxn=5, bucket=3000,
                                         thread=1, verbose=0)
    path = root / f"theirs-{model}.bin"
    theirs.save_model(str(path))
    ours = Classifier.load(path)
    assert ours.model == model and ours.words == theirs.get_words()
    for word in PROBE_WORDS + ["__label__c1", "completelynew"]:
        np.testing.assert_allclose(ours.get_word_vector(word), theirs.get_word_vector(word), atol=1e-6)


@pytest.mark.parametrize("settings", [dict(loss="softmax", word_ngrams=2, bucket=4000, minn=3, maxn=4),
                                      dict(loss="hs", word_ngrams=2, bucket=4000), dict(loss="ova")],
                         ids=lambda s: s["loss"])
def test_wordvec_bin_read_by_fasttext(data, settings):
    fasttext = _fasttext()
    root, train, _, lines = data
    ours = Classifier.train(train, dim=8, epoch=5, lr=0.5, threads=1, verbose=0, **settings)
    path = root / f"ours-{settings['loss']}.bin"
    ours.save(path)
    theirs = fasttext.load_model(str(path))
    assert theirs.get_labels() == ours.labels and theirs.get_words() == ours.words
    _assert_same_vectors(ours, theirs, PROBE_WORDS, lines)
    _assert_same_predictions(ours, theirs, lines, 1e-4)


def test_wordvec_ftz_read_by_fasttext(data):
    fasttext = _fasttext()
    root, train, _, lines = data
    ours = Classifier.train(train, dim=8, epoch=5, lr=0.5, threads=1, verbose=0, word_ngrams=2, bucket=4000)
    small = ours.quantize(cutoff=500, qnorm=True)
    path = root / "ours.ftz"
    small.save(path)
    theirs = fasttext.load_model(str(path))
    _assert_same_vectors(small, theirs, PROBE_WORDS, lines)
    _assert_same_predictions(small, theirs, lines, 1e-4)
    assert Classifier.load(path).predict(lines[:5])[0] == small.predict(lines[:5])[0]


def _assert_numpy_path_agrees(path, theirs, lines, test_file):
    """The NumPy predictor (`classify predict`/`test`) on a fastText-written file: the
    compiled path's probabilities to 1e-6, fastText's top labels and figures."""
    predictor = load_predictor(path)
    compiled = Classifier.load(path)
    block = ("\n".join(lines) + "\n").encode("utf-8")
    ours = predictor.probabilities(predictor.encode(block))
    np.testing.assert_allclose(ours, compiled.probabilities(encode_lines(compiled.dictionary, lines)), atol=1e-6,
                               rtol=0)
    results = predictor.top_k(predictor.encode(block), k=-1)
    for line, (ids, p), (probabilities, top) in zip(lines, results, _fasttext_predictions(theirs, lines)):
        assert predictor.labels[ids[0]] == top, line
        for i, value in zip(ids, p):
            assert abs(value - probabilities[predictor.labels[i]]) < 1e-4 + 1e-5, (line, i)
    meter = file_meter(predictor, test_file)
    assert (meter.n, meter.precision, meter.recall) == pytest.approx(theirs.test(str(test_file)), abs=1e-9)


@pytest.mark.parametrize("settings", [dict(loss="softmax", wordNgrams=2, bucket=5000),
                                      dict(loss="hs", wordNgrams=3, bucket=5000), dict(loss="ova", wordNgrams=2,
                                                                                       bucket=5000)],
                         ids=lambda s: s["loss"])
def test_fasttext_bin_on_the_numpy_path(data, settings):
    root, train, test, lines = data
    theirs, path = _their_model(train, root / f"theirs-numpy-{settings['loss']}.bin", settings)
    _assert_numpy_path_agrees(path, theirs, lines, test)
    if settings["loss"] == "softmax":
        theirs.quantize(input=str(train), qnorm=True, cutoff=400, retrain=False)
        theirs.save_model(str(root / "theirs-numpy.ftz"))
        _assert_numpy_path_agrees(root / "theirs-numpy.ftz", theirs, lines, test)
