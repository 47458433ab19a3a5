"""The classifier report's page: a confusion matrix of many long labels scrolls inside its
card with the labels' common prefix left out, and the indicative words skip the words used
alike in every label (by their spread over the labels, not by a list)."""

import re

import numpy as np
import pytest

from wordvec.models.classifier.model import Classifier
from wordvec.report import build_report
from wordvec.report.classifier import indicative_words, peakedness, shortened_labels

GENRES = ("action adventure animation biography comedy crime documentary drama family fantasy history horror "
          "music mystery").split()
EVERYWHERE = ["the", "a", "of", "and", "</s>", "it"]


def labelled(path, lines, seed):
    rng = np.random.default_rng(seed)
    with open(path, "w") as out:
        for _ in range(lines):
            genre = GENRES[rng.integers(len(GENRES))]
            words = [EVERYWHERE[i] for i in rng.integers(len(EVERYWHERE), size=6)]
            words += [f"{genre}{rng.integers(4)}" for _ in range(3)]
            rng.shuffle(words)
            out.write(f"__label__movie_genre_{genre} " + " ".join(words) + "\n")
    return path


@pytest.fixture(scope="module")
def genres(tmp_path_factory):
    d = tmp_path_factory.mktemp("genres")
    train, test = labelled(d / "train.txt", 2500, 1), labelled(d / "test.txt", 400, 2)
    model = Classifier.train(str(train), dim=12, epoch=5, lr=0.5, verbose=0)
    model.save(d / "genre.bin")
    return model, d / "genre.bin", test


def test_the_confusion_matrix_scrolls_in_its_card_with_short_labels(genres):
    model, path, test = genres
    html = build_report(path, test=test)
    matrix = html.split("<h2>Test</h2>")[1]
    assert len(model.labels) == 14
    assert re.search(r'<div class="scroll"><table>', matrix) and "div.scroll { overflow-x:auto" in html
    header = re.search(r"<thead>(.*?)</thead>", matrix.split('<div class="scroll">')[1])[1]
    assert "__label__" not in header and all(f">{g}<" in header for g in GENRES)
    assert "common prefix <code>__label__movie_genre_</code>" in matrix


@pytest.mark.parametrize("labels, prefix, short", [
    (["__label__movie_genre_drama", "__label__movie_genre_documentary"], "__label__movie_genre_",
     ["drama", "documentary"]),  # cut at the separator: never "d" + "rama"
    (["__label__a", "__label__b"], "__label__", ["a", "b"]),
    (["__label__x", "__label__xy"], "__label__", ["x", "xy"]),
    (["pos", "neg"], "", ["pos", "neg"]),
    (["__label__only"], "", ["__label__only"]),
])
def test_shortened_labels(labels, prefix, short):
    assert shortened_labels(labels) == (prefix, short)


def test_indicative_words_skip_the_words_every_label_uses(genres):
    model, _, _ = genres
    words = indicative_words(model, top=8)  # more than each label's own 4 words: no stopword fills the rest
    assert len(words) == 14
    for label, found in words.items():
        assert not set(found) & set(EVERYWHERE), (label, found)
        genre = label.rsplit("_", 1)[1]
        assert len(found) >= 3 and all(w.startswith(genre) for w in found), (label, found)


def test_two_labels_keep_their_leaning_words(tmp_path):
    with open(tmp_path / "two.txt", "w") as out:
        for i in range(600):
            out.write(f"__label__{'pos' if i % 2 else 'neg'} the a {'good' if i % 2 else 'bad'}{i % 3} of\n")
    model = Classifier.train(str(tmp_path / "two.txt"), dim=8, epoch=5, lr=0.5, verbose=0)
    words = indicative_words(model, top=3)
    assert sorted(words["__label__pos"]) == ["good0", "good1", "good2"]
    assert sorted(words["__label__neg"]) == ["bad0", "bad1", "bad2"]


def test_peakedness_is_zero_for_an_even_spread_and_one_for_a_single_label():
    rows = np.array([[0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]])
    assert peakedness(rows) == pytest.approx([0.0, 1.0, 0.5])
