"""Bad input through ``wordvec.fasttext``: fastText's exception types (``ValueError`` for
a missing or damaged file, a text with a newline, an empty training file; ``TypeError``
for an unknown argument) with one sentence, never a crash (hypothesis fuzzing included)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import wordvec.fasttext as fasttext

from .test_corrupt_files import EDITS, damage

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def one_sentence(error):
    message = str(error)
    assert message and "\n" not in message and "Traceback" not in message
    return message


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("fasttext-module")
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(30)}" for _ in range(6)) for c in rng.integers(0, 3, 400)]
    (root / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "words.txt").write_text("\n".join(line.split(" ", 1)[1] for line in lines) + "\n", encoding="utf-8")
    (root / "empty.txt").write_text("", encoding="utf-8")
    (root / "unlabelled.txt").write_text("a b c\nd e f\n", encoding="utf-8")
    model = fasttext.train_supervised(str(root / "train.txt"), dim=4, epoch=1, minn=2, maxn=3, bucket=200,
                                      wordNgrams=2, thread=1, verbose=0)
    model.save_model(str(root / "model.bin"))
    vectors = fasttext.train_unsupervised(str(root / "words.txt"), dim=4, epoch=1, minCount=1, bucket=200,
                                          thread=1, verbose=0)
    vectors.save_model(str(root / "vectors.bin"))
    return root


def test_missing_and_foreign_files(files):
    with pytest.raises(ValueError, match="cannot be opened for loading") as error:
        fasttext.load_model(str(files / "absent.bin"))
    one_sentence(error.value)
    with pytest.raises(ValueError, match="wrong file format") as error:
        fasttext.load_model(str(files / "train.txt"))
    one_sentence(error.value)
    for train in (fasttext.train_supervised, fasttext.train_unsupervised):
        with pytest.raises(ValueError, match="cannot be opened for training") as error:
            train(input=str(files / "absent.txt"))
        one_sentence(error.value)
    model = fasttext.load_model(str(files / "model.bin"))
    with pytest.raises(ValueError, match="Test file cannot be opened") as error:
        model.test(str(files / "absent.txt"))


def test_every_truncation_fails_with_one_sentence(files, tmp_path):
    data = (files / "model.bin").read_bytes()
    for cut in sorted(set(np.linspace(0, len(data) - 1, 40).astype(int).tolist()) | {0, 3, 7, 60}):
        bad = tmp_path / f"cut-{cut}.bin"
        bad.write_bytes(data[:cut])
        with pytest.raises(ValueError, match=bad.name) as error:
            fasttext.load_model(str(bad))
        one_sentence(error.value)


@SETTINGS
@given(edits=EDITS)
def test_fuzzed_files_load_and_predict_or_fail_cleanly(files, tmp_path_factory, edits):
    bad = tmp_path_factory.mktemp("fuzz") / "model.bin"
    bad.write_bytes(damage((files / "model.bin").read_bytes(), edits))
    try:
        model = fasttext.load_model(str(bad))
        if model.get_labels() and model.get_dimension() and model.get_output_matrix().shape[0]:
            labels, p = model.predict("w01 w12 unknown", k=-1)
            assert len(labels) == len(p) and np.all((p >= 0) & (p <= 1 + 1e-4))
    except ValueError as error:
        message = one_sentence(error)
        assert "model.bin" in message or "Model needs" in message or "k needs" in message


def test_newlines_are_refused_per_line(files):
    model = fasttext.load_model(str(files / "model.bin"))
    for call in (lambda: model.predict("w01\nw02"), lambda: model.predict(["w01", "w02\n"]),
                 lambda: model.get_sentence_vector("w01\n"), lambda: model.get_line("a\nb"),
                 lambda: model.get_line(["a", "b\n"])):
        with pytest.raises(ValueError, match="one line at a time") as error:
            call()
        one_sentence(error.value)


def test_empty_and_unlabelled_training_files(files):
    for train in (fasttext.train_supervised, fasttext.train_unsupervised):
        with pytest.raises(ValueError, match="Empty vocabulary") as error:
            train(input=str(files / "empty.txt"), verbose=0, thread=1)
        one_sentence(error.value)
    with pytest.raises(ValueError, match="no labels") as error:
        fasttext.train_supervised(input=str(files / "unlabelled.txt"), verbose=0, thread=1)
    one_sentence(error.value)
    with pytest.raises(ValueError, match="Empty vocabulary"):
        fasttext.train_unsupervised(input=str(files / "unlabelled.txt"), minCount=100, verbose=0, thread=1)


def test_arguments_as_fasttext_checks_them(files):
    with pytest.raises(TypeError, match="unexpected keyword argument 'epochs'"):
        fasttext.train_supervised(input=str(files / "train.txt"), epochs=3)
    with pytest.raises(TypeError, match="multiple values for argument 'minCount'"):
        fasttext.train_supervised(input=str(files / "train.txt"), minCount=1, min_count=2)
    with pytest.raises(ValueError, match="Unrecognized loss name"):
        fasttext.train_supervised(input=str(files / "train.txt"), loss="squared")
    with pytest.raises(ValueError, match="Unrecognized model name"):
        fasttext.train_unsupervised(input=str(files / "words.txt"), model="glove")
    with pytest.raises(ValueError) as error:
        fasttext.train_supervised(input=str(files / "train.txt"), dim=0, verbose=0)
    one_sentence(error.value)
    model = fasttext.load_model(str(files / "model.bin"))
    with pytest.raises(ValueError, match="k needs to be 1 or higher"):
        model.predict("w01", k=0)


def test_supervised_only_calls_on_word_vectors(files):
    vectors = fasttext.load_model(str(files / "vectors.bin"))
    with pytest.raises(ValueError, match="Model needs to be supervised"):
        vectors.predict("w01")
    with pytest.raises(ValueError, match="only support quantization of supervised"):
        vectors.quantize()
    with pytest.raises(ValueError, match="Need input file path if retraining"):
        fasttext.load_model(str(files / "model.bin")).quantize(retrain=True)


def test_quantized_matrices_and_bad_rows(files):
    model = fasttext.load_model(str(files / "model.bin"))
    with pytest.raises(ValueError, match="out of range"):
        model.get_input_vector(10**9)
    with pytest.raises(ValueError, match="input and .* output rows"):
        model.set_matrices(np.zeros((3, 4)), np.zeros((3, 4)))
    model.quantize(dsub=2)
    assert model.is_quantized()
    for call in (model.get_input_matrix, model.get_output_matrix):
        with pytest.raises(ValueError, match="Can't get quantized Matrix"):
            call()
    with pytest.raises(ValueError, match="already quantized"):
        model.quantize()
