"""The classifier's settings: every field refused in one sentence when out of range, from
Python (``Classifier.train`` / ``ClassifierConfig.checked``) and from the command line."""

import pathlib

import pytest

from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.models.classifier.model import config_from_options
from wordvec.models.classifier.config import ClassifierConfig

BAD = [
    ("dim", 0), ("dim", 10**9), ("dim", "100"), ("dim", 2.0), ("epoch", 0), ("word_ngrams", 0),
    ("threads", 0), ("threads", True), ("seed", -1), ("seed", 2**40), ("min_count", -1),
    ("min_count_label", -1), ("minn", -1), ("maxn", 10**6), ("bucket", -1), ("bucket", 2**31),
    ("lr", 0.0), ("lr", -0.1), ("lr", float("nan")), ("lr", float("inf")), ("lr", "0.1"),
    ("loss", "ns"), ("label", ""), ("label", "__la bel__"), ("label", 7), ("pretrained_vectors", 3),
    ("lr_update_rate", 0), ("verbose", -1),
]


@pytest.mark.parametrize("name, value", BAD, ids=[f"{n}={v!r}" for n, v in BAD])
def test_a_bad_setting_is_refused_in_one_sentence_naming_it(name, value):
    with pytest.raises(WordvecError) as caught:
        ClassifierConfig(**{name: value}).checked()
    message = str(caught.value)
    assert (name if name != "label" else "label prefix") in message
    assert message.count("\n") == 0


@pytest.mark.parametrize("values", [
    dict(min_count=0, min_count_label=0, bucket=0), dict(minn=2, maxn=5, bucket=10), dict(seed=2**32 - 1),
    dict(lr=1, loss="hs", label="#"), dict(pretrained_vectors=pathlib.Path("v.vec")), dict(verbose=2),
])
def test_fasttext_settings_at_the_edges_are_accepted(values):
    assert ClassifierConfig(**values).checked() == ClassifierConfig(**values)


@pytest.mark.parametrize("values, words", [
    (dict(minn=3, maxn=2), "minn <= maxn"), (dict(minn=0, maxn=3), "minn <= maxn"),
    (dict(word_ngrams=2, bucket=0), "bucket >= 1"), (dict(maxn=3, minn=3, bucket=0), "bucket >= 1"),
])
def test_settings_that_contradict_each_other_are_refused(values, words):
    with pytest.raises(WordvecError, match=words):
        ClassifierConfig(**values).checked()


def test_fasttext_keyword_names_are_checked_too():
    with pytest.raises(WordvecError, match="word_ngrams"):
        config_from_options({"input": "x.txt", "wordNgrams": 0})
    with pytest.raises(WordvecError, match="unknown training option 'wordngrams'"):
        config_from_options({"wordngrams": 2})


def test_the_command_line_refuses_with_exit_2(tmp_path, capsys):
    train = tmp_path / "train.txt"
    train.write_text("__label__a x y\n__label__b z\n")
    assert main(["classify", "train", str(train), "-o", str(tmp_path / "m"), "--minn", "4", "--maxn", "3"]) == 2
    error = capsys.readouterr().err
    assert "minn <= maxn" in error and "Traceback" not in error
    assert not (tmp_path / "m").exists()
