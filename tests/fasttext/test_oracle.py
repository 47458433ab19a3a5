"""``wordvec.fasttext`` against fastText 0.9.2 itself (fasttext-wheel, the dev extra): both
read the same model files and must answer every query alike: predictions and their
figures, word and sentence vectors, subwords and ids, lines, neighbours, analogies,
tests and meters; and each reads the other's files. (fastText's Python ``predict``
fails under NumPy 2, so its binding's ``predict`` answers for it.)"""

import numpy as np
import pytest

import wordvec.fasttext as ours

fasttext = pytest.importorskip("fasttext")  # the oracle

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
QUERIES = ["w1 ax", "bx w3 w4 w4", "unknownword", "", "cy cx </s> ax", "ay\tw2  w9"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("oracle")
    rng = np.random.default_rng(1)
    words = [f"w{i}" for i in range(10)]
    with open(folder / "train.txt", "w", encoding="utf-8") as out:
        for _ in range(400):
            label = "abc"[rng.integers(3)]
            tokens = [rng.choice(words + [label + "x", label + "y"]) for _ in range(6)]
            out.write(f"__label__{label} " + " ".join(tokens) + "\n")
    with open(folder / "words.txt", "w", encoding="utf-8") as out:
        vocabulary = ["alpha", "beta", "gamma", "delta", "alphabet", "betamax", "x", "y"]
        for _ in range(300):
            out.write(" ".join(rng.choice(vocabulary) for _ in range(10)) + "\n")
    return folder


def binding_predict(model, text, k):
    pairs = model.f.predict(text + "\n", k, 0.0, "strict")
    return [label for _, label in pairs], np.array([p for p, _ in pairs])


@pytest.fixture(scope="module", params=["softmax", "hs"])
def supervised(data, request):
    model = ours.train_supervised(str(data / "train.txt"), loss=request.param, minn=2, maxn=4, bucket=1000,
                                  wordNgrams=2, epoch=5, thread=1, verbose=0)
    path = data / f"model-{request.param}.bin"
    model.save_model(str(path))
    return ours.load_model(str(path)), fasttext.load_model(str(path)), path


def test_predictions_and_their_figures_are_fasttexts(supervised):
    model, oracle, _ = supervised
    for text in QUERIES:
        labels, p = model.predict(text, k=-1)
        want_labels, want = binding_predict(oracle, text, -1)
        assert list(labels) == want_labels and p.dtype == np.float64
        np.testing.assert_allclose(p, want, rtol=0, atol=1e-6)
        one, p1 = model.predict(text)
        assert list(one) == want_labels[:1] and abs(p1[0] - want[0]) < 1e-6
    many_labels, many_p = model.predict(QUERIES, k=2)
    assert [list(x) for x in many_labels] == [binding_predict(oracle, t, 2)[0] for t in QUERIES]
    assert all(p.dtype == np.float32 for p in many_p)


def test_tests_meters_and_lines_are_fasttexts(supervised, data):
    model, oracle, _ = supervised
    path = str(data / "train.txt")
    assert model.test(path) == pytest.approx(oracle.test(path))
    assert model.test(path, k=2) == pytest.approx(oracle.test(path, k=2))
    meter, theirs = model.get_meter(path), oracle.f.getMeter(path, -1)
    for recall in (0.2, 0.5, 0.9):
        assert meter.precision_at_recall(recall) == pytest.approx(theirs.precisionAtRecall(recall), abs=0.02)
    label = oracle.get_label_id("__label__b")
    assert meter.recall_at_precision(0.8, "__label__b") == pytest.approx(
        theirs.recallAtPrecisionLabel(label, 0.8), abs=0.02)
    for text in ["__label__a w1 qq __label__zz", "x y </s> z", ""]:
        assert model.get_line(text) == tuple(oracle.get_line(text))
    assert model.get_labels(include_freq=True)[0] == oracle.get_labels(include_freq=True)[0]
    np.testing.assert_array_equal(model.get_words(include_freq=True)[1], oracle.get_words(include_freq=True)[1])


def test_vectors_subwords_and_ids_are_fasttexts(supervised):
    model, oracle, _ = supervised
    for word in ["w1", "ax", "zzzq", "__label__a", "</s>", "é"]:
        np.testing.assert_allclose(model.get_word_vector(word), oracle.get_word_vector(word), atol=1e-6)
        assert model.get_subwords(word)[0] == oracle.get_subwords(word)[0]
        np.testing.assert_array_equal(model.get_subwords(word)[1], oracle.get_subwords(word)[1])
        assert (model.get_word_id(word), model.get_label_id(word)) == (oracle.get_word_id(word),
                                                                        oracle.get_label_id(word))
    assert model.get_subword_id("<w1") == oracle.get_subword_id("<w1")
    np.testing.assert_allclose(model.get_sentence_vector("w1 ax w3"), oracle.get_sentence_vector("w1 ax w3"),
                               atol=1e-6)
    np.testing.assert_allclose(model.get_input_matrix(), oracle.get_input_matrix(), atol=0)
    np.testing.assert_allclose(model.get_output_matrix(), oracle.get_output_matrix(), atol=0)
    np.testing.assert_allclose(model.get_input_vector(12), oracle.get_input_vector(12), atol=0)


def test_neighbours_and_analogies_are_fasttexts(supervised):
    model, oracle, _ = supervised
    for ours_pairs, theirs in [(model.get_nearest_neighbors("w1", 4), oracle.get_nearest_neighbors("w1", 4)),
                               (model.get_analogies("w1", "w2", "ax", 4), oracle.get_analogies("w1", "w2", "ax", 4))]:
        assert [w for _, w in ours_pairs] == [w for _, w in theirs]
        np.testing.assert_allclose([s for s, _ in ours_pairs], [s for s, _ in theirs], atol=1e-5)


@pytest.mark.parametrize("model_name, loss", [("skipgram", "ns"), ("cbow", "hs")])
def test_word_vector_models_in_both_directions(data, tmp_path, model_name, loss):
    path = str(data / "words.txt")
    model = ours.train_unsupervised(path, model=model_name, loss=loss, minCount=1, bucket=5000, dim=8, epoch=1,
                                    thread=1, verbose=0)
    model.save_model(str(tmp_path / "ours.bin"))
    oracle = fasttext.load_model(str(tmp_path / "ours.bin"))
    assert model.get_words(include_freq=True)[0] == oracle.get_words(include_freq=True)[0]
    np.testing.assert_array_equal(model.get_words(include_freq=True)[1], oracle.get_words(include_freq=True)[1])
    assert "</s>" in model.words and model.get_labels() == model.get_words()
    theirs = fasttext.train_unsupervised(path, model=model_name, loss=loss, minCount=1, bucket=5000, dim=8, epoch=1,
                                         thread=1, verbose=0)
    theirs.save_model(str(tmp_path / "theirs.bin"))
    for reader, writer in [(model, oracle), (ours.load_model(str(tmp_path / "theirs.bin")), theirs)]:
        for word in ["alpha", "alphab", "</s>", "zz"]:
            np.testing.assert_allclose(reader.get_word_vector(word), writer.get_word_vector(word), atol=1e-6)
        np.testing.assert_allclose(reader.get_sentence_vector("alpha beta qq"),
                                   writer.get_sentence_vector("alpha beta qq"), atol=1e-6)
        assert [w for _, w in reader.get_nearest_neighbors("alpha", 3)] == \
            [w for _, w in writer.get_nearest_neighbors("alpha", 3)]


def test_quantized_models_are_read_by_fasttext(supervised, data, tmp_path):
    model, _, path = supervised
    model = ours.load_model(str(path))
    model.quantize(input=str(data / "train.txt"), cutoff=300, retrain=True, epoch=1, qnorm=True)
    model.save_model(str(tmp_path / "model.ftz"))
    oracle = fasttext.load_model(str(tmp_path / "model.ftz"))
    assert oracle.is_quantized() and model.is_quantized()
    for text in QUERIES:
        assert list(model.predict(text, k=-1)[0]) == binding_predict(oracle, text, -1)[0]
        np.testing.assert_allclose(model.predict(text, k=-1)[1], binding_predict(oracle, text, -1)[1], atol=1e-6)


def test_reduce_model_keeps_predictions_close(supervised):
    model = ours.load_model(str(supervised[2]))
    labels = [model.predict(t)[0] for t in QUERIES]
    ours.util.reduce_model(model, 50)
    assert model.get_dimension() == 50 and model.get_output_matrix().shape[1] == 50
    assert sum(model.predict(t)[0] == want for t, want in zip(QUERIES, labels)) >= len(QUERIES) - 1


def test_shuffle_false_reads_the_training_lines_in_the_files_order(data, monkeypatch):
    """``shuffle`` (wordvec's keyword, default True) reaches the classifier; fastText's other
    keywords are refused as before."""
    seen = []
    fit = ours.training.Classifier.fit
    monkeypatch.setattr(ours.training.Classifier, "fit", lambda self, *args: (seen.append(self.config.shuffle),
                                                                               fit(self, *args))[1])
    ours.train_supervised(str(data / "train.txt"), epoch=1, thread=1, verbose=0)
    ours.train_supervised(str(data / "train.txt"), epoch=1, thread=1, verbose=0, shuffle=False)
    assert seen == [True, False]
    with pytest.raises(TypeError):
        ours.train_supervised(str(data / "train.txt"), shuffled=False)
