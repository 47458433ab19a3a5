"""The compiled per-line prediction (``wordvec.kernels.line_predict``) held to the NumPy
path of ``wordvec.fasttext.predict`` (bag by bag: fastText's getLine in Python, scores
from the kept row scores, ``wordvec.math.classifier_predict``'s probabilities)."""

import numpy as np
import pytest

import wordvec.fasttext as fasttext
from wordvec.fasttext.predict import LinePredictor

LINES = ["w1 ax", "bx w3 w4 w4", "unknownword", "", "cy cx </s> ax", "ay\tw2  w9\r", "__label__a w1 é",
         "é ü w3 ax ay az", " \v\f ", "</s>", "w1 __label__zz w2"]


@pytest.fixture(scope="module")
def train(tmp_path_factory):
    path = tmp_path_factory.mktemp("line") / "train.txt"
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(10)] + ["é", "ü"]
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(300):
            label = "abc"[rng.integers(3)]
            out.write(f"__label__{label} " + " ".join(rng.choice(words + [label + "x"]) for _ in range(5)) + "\n")
    return str(path)


@pytest.mark.parametrize("loss", ["softmax", "hs"])
@pytest.mark.parametrize("settings", [{}, {"wordNgrams": 3, "bucket": 500}, {"minn": 1, "maxn": 3, "bucket": 300},
                                      {"minn": 2, "maxn": 4, "wordNgrams": 2, "bucket": 700}])
def test_the_kernel_gives_the_numpy_paths_predictions(train, loss, settings):
    model = fasttext.train_supervised(train, loss=loss, epoch=2, dim=8, thread=1, verbose=0, **settings)
    predictor = LinePredictor(model._c)
    assert predictor.compiled is not None
    for line in LINES:
        for k in (1, 2, -1):
            labels, p = predictor.predict_one(line, k, 0.0)
            want_labels, want = predictor._predict_line(line, k, 0.0)
            assert labels == want_labels, line
            np.testing.assert_allclose(p, want, rtol=0, atol=2e-7)
    assert predictor.predict_one("w1 ax", 1, 0.999)[0] == []  # below the threshold
