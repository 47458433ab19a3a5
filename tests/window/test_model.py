"""WindowClassifier: windows and padding, case features, vocabulary/UNK, training, vectors, persistence."""

import numpy as np
import pytest

from wordvec.errors import TrainingError, WordvecError
from wordvec.models.window.model import CASE_CLASSES, PAD, UNK, WindowClassifier, case_feature, window_positions


class FakeVectors:
    """The two attributes WindowClassifier reads from KeyedVectors."""

    def __init__(self, words, vectors):
        self.index_to_key, self.vectors = list(words), np.asarray(vectors, dtype=np.float32)


def test_case_features():
    names = {t: CASE_CLASSES[case_feature(t)] for t in ["paris", "NATO", "Paris", "iPhone", "1996", "I", "U.S.", "--"]}
    assert names == {"paris": "lower", "NATO": "upper", "Paris": "title", "iPhone": "mixed", "1996": "noletter",
                     "I": "title", "U.S.": "upper", "--": "noletter"}


def test_window_positions_pad_every_sentence_edge():
    positions, token_pos, length = window_positions([3, 2], 1, "centred")
    # layout: PAD t0 t1 t2 PAD t3 t4 PAD
    assert token_pos.tolist() == [1, 2, 3, 5, 6] and length == 8
    assert positions.tolist() == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [4, 5, 6], [5, 6, 7]]
    left, _, _ = window_positions([2], 2, "left")
    assert left.tolist() == [[0, 1], [1, 2]]  # t0 sees two pads, t1 sees PAD t0


def test_windows_lookup_lowercases_and_uses_unk_and_pad():
    model = WindowClassifier(["A", "B"], words=["the", "cat"], window=1)
    data = model.windows([["The", "cat", "sat"]], [["A", "B", "A"]])
    pad, unk, the, cat = (model.index[w] for w in (PAD, UNK, "the", "cat"))
    assert data.word_ids.tolist() == [[pad, the, cat], [the, cat, unk], [cat, unk, pad]]
    assert [CASE_CLASSES[c] for c in data.case_ids[0]] == ["<pad>", "title", "lower"]
    assert data.labels.tolist() == [0, 1, 0]
    with pytest.raises(WordvecError):
        model.windows([["the"]], [["C"]])


def _left_neighbour_task(rng, n_sentences, vocab_size=8):
    """Label = the word to the left (or 'start'): solvable with a window, not without."""
    words = [f"w{i}" for i in range(vocab_size)]
    sentences = [list(rng.choice(words, size=rng.integers(3, 8))) for _ in range(n_sentences)]
    labels = [["start"] + s[:-1] for s in sentences]
    return words, sentences, labels


@pytest.mark.parametrize("hidden", [0, 16])
def test_learns_a_task_that_needs_the_window(hidden):
    rng = np.random.default_rng(0)
    words, sentences, labels = _left_neighbour_task(rng, 300)
    classes = ["start"] + words
    model = WindowClassifier(classes, words=words, window=1, hidden=hidden, vector_size=8, epochs=15, alpha=0.1,
                             seed=3, progress=False)
    train = model.windows(sentences[:250], labels[:250])
    valid = model.windows(sentences[250:], labels[250:])
    model.fit(train, valid)
    assert np.mean(model.predict(valid) == valid.labels) > 0.95
    blind = WindowClassifier(classes, words=words, window=0, hidden=hidden, vector_size=8, epochs=5, seed=3,
                             progress=False)
    blind.fit(blind.windows(sentences[:250], labels[:250]))
    blind_valid = blind.windows(sentences[250:], labels[250:])
    assert np.mean(blind.predict(blind_valid) == blind_valid.labels) < 0.5


def test_pretrained_rows_frozen_or_fine_tuned():
    rng = np.random.default_rng(1)
    words, sentences, labels = _left_neighbour_task(rng, 60)
    kv = FakeVectors(["W0", "w1", "w2", "w3"], rng.normal(size=(4, 6)))  # "W0" matches w0 after lowercasing
    for fine_tune in (False, True):
        model = WindowClassifier(["start"] + words, words=words, vectors=kv, window=1, fine_tune=fine_tune,
                                 epochs=2, progress=False)
        assert model.vector_size == 6
        w1 = model.index["w1"]
        ratio = model.E[w1] / kv.vectors[1]
        assert np.allclose(ratio, ratio[0])  # a rescaled copy of the pretrained vector
        before = model.E.copy()
        model.fit(model.windows(sentences, labels))
        changed = ~np.all(model.E == before, axis=1)
        pretrained = [model.index[w] for w in ("w0", "w1", "w2", "w3")]
        assert changed[pretrained].all() == fine_tune and changed[pretrained].any() == fine_tune
        assert changed[model.index["w5"]] and changed[model.index[PAD]]  # no pretrained vector: always learned


def test_bad_vectors_are_rejected():
    with pytest.raises(WordvecError):
        WindowClassifier(["a"], words=["x"], vectors=FakeVectors(["x"], [[np.nan, 1.0]]))


def test_sparse_update_leaves_unused_rows_alone():
    model = WindowClassifier(["a", "b"], words=["x", "y", "z"], window=1, epochs=1, batch_size=100, progress=False)
    before = model.E.copy()
    model.fit(model.windows([["x", "x"]], [["a", "b"]]))
    changed = ~np.all(model.E == before, axis=1)
    assert changed[model.index["x"]] and changed[model.index[PAD]]
    assert not changed[model.index["y"]] and not changed[model.index["z"]] and not changed[model.index[UNK]]


def test_diverging_training_raises_training_error():
    rng = np.random.default_rng(2)
    words, sentences, labels = _left_neighbour_task(rng, 50)
    model = WindowClassifier(["start"] + words, words=words, optimizer="sgd", alpha=1e30, epochs=3, progress=False)
    with pytest.raises(TrainingError):
        model.fit(model.windows(sentences, labels))


def test_early_stopping_keeps_the_best_epoch_and_save_load_round_trip(tmp_path):
    rng = np.random.default_rng(4)
    words, sentences, labels = _left_neighbour_task(rng, 120)
    model = WindowClassifier(["start"] + words, words=words, window=1, hidden=8, epochs=6, patience=1, progress=False)
    train, valid = model.windows(sentences[:90], labels[:90]), model.windows(sentences[90:], labels[90:])
    model.fit(train, valid)
    final = float(np.mean(model.predict(valid) == valid.labels))
    assert final == pytest.approx(max(h["valid"] for h in model.history))
    model.save(tmp_path / "model")
    loaded = WindowClassifier.load(tmp_path / "model")
    assert loaded.words == model.words and loaded.classes == model.classes
    assert np.array_equal(loaded.predict_proba(valid), model.predict_proba(valid))
    (tmp_path / "model" / "W1.npy").write_bytes(b"garbage")
    with pytest.raises(WordvecError):
        WindowClassifier.load(tmp_path / "model")


def test_wv_exports_the_trained_embedding():
    model = WindowClassifier(["a"], words=["x", "y"], vector_size=4)
    kv = model.wv
    assert kv.index_to_key == model.words and kv.vectors.shape == (4, 4)
    assert np.allclose(kv["x"], model.E[model.index["x"]])


def test_a_deeply_nested_config_json_is_refused_in_one_sentence(tmp_path):
    model = WindowClassifier(["a", "b"], words=["x", "y"], vector_size=4, progress=False)
    model.save(tmp_path / "model")
    (tmp_path / "model" / "config.json").write_text("[" * 100_000 + "]" * 100_000)  # json's recursion limit
    with pytest.raises(WordvecError, match="is not a saved window classifier"):
        WindowClassifier.load(tmp_path / "model")
