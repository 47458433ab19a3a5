"""Training toward the teacher (with its resumable cache) and on pairs, on the tiny teacher."""

import numpy as np
import pytest

from wordvec.errors import FormatError, WordvecError
from wordvec.models.static import training
from wordvec.models.static.model import StaticModel
from wordvec.models.static.teacher import Teacher

from .teacher import WORDS


def corpus(n, seed=0):
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, size=rng.integers(3, 12))) for _ in range(n)]


def agreement(model, sentences, targets):
    ours = model.encode(sentences)
    theirs = training.projected_targets(model, targets)
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    return float((ours * theirs).sum(axis=1).mean())


def test_training_moves_the_sentence_vectors_toward_the_teacher(tiny_teacher, tmp_path):
    sentences = corpus(1500)
    model = StaticModel.distill(tiny_teacher, dims=16)
    targets = Teacher(tiny_teacher).embed(sentences, normalize=False)
    held_out = corpus(300, seed=1)
    held_targets = Teacher(tiny_teacher).embed(held_out, normalize=False)
    before = agreement(model, held_out, held_targets)
    (tmp_path / "corpus.txt").write_text("\n".join(sentences) + "\n\n")
    model.fit(tmp_path / "corpus.txt", teacher=tiny_teacher, epochs=3, alpha=0.2, threads=2)
    losses = [h["loss"] for h in model.history]
    assert losses[-1] < losses[0]
    assert agreement(model, held_out, held_targets) > before + 0.3
    mse = StaticModel.distill(tiny_teacher, dims=16).fit(sentences, targets=targets, loss="mse", epochs=3,
                                                         alpha=0.05, train_weights=False)
    assert mse.history[-1]["loss"] < mse.history[0]["loss"]


def test_teacher_vectors_are_cached_and_resumed(tiny_teacher, tmp_path, monkeypatch):
    teacher = Teacher(tiny_teacher)
    sentences = corpus(50)
    first = training.teacher_vectors(teacher, sentences, tmp_path / "cache", chunk=16)
    assert len(list((tmp_path / "cache").glob("chunk-*.npy"))) == 4
    (tmp_path / "cache" / "chunk-000002.npy").unlink()  # an interrupted run
    calls = []
    embed = Teacher.embed
    monkeypatch.setattr(Teacher, "embed", lambda self, part, **kw: calls.append(len(part)) or embed(self, part, **kw))
    again = training.teacher_vectors(teacher, sentences, tmp_path / "cache", chunk=16)
    assert calls == [16]
    np.testing.assert_allclose(again, first, atol=1e-6)
    np.testing.assert_allclose(first, teacher.embed(sentences, normalize=False), atol=1e-5)
    with pytest.raises(WordvecError, match="another corpus"):
        training.teacher_vectors(teacher, sentences[:-1], tmp_path / "cache", chunk=16)


def test_pairs_training_lowers_the_loss_and_improves_retrieval(tiny_teacher, tmp_path):
    rng = np.random.default_rng(2)
    words = np.array(WORDS)

    def pairs(n):
        topics = [rng.choice(words, size=4, replace=False) for _ in range(n)]
        return [(" ".join(rng.choice(t, 5)), " ".join(rng.choice(t, 5))) for t in topics]

    train, held = pairs(600), pairs(100)
    (tmp_path / "pairs.tsv").write_text("".join(f"{a}\t{p}\n" for a, p in train))
    model = StaticModel.distill(tiny_teacher, dims=16)

    def recall_at_1():
        a = model.encode([x for x, _ in held])
        p = model.encode([y for _, y in held])
        return float(np.mean(np.argmax(a @ p.T, axis=1) == np.arange(len(held))))

    before = recall_at_1()
    model.fit_pairs(tmp_path / "pairs.tsv", epochs=3, batch_size=32, matryoshka=(8,), alpha=0.5)
    losses = [h["loss"] for h in model.history]
    assert losses[-1] < losses[0]
    assert recall_at_1() > before


def test_bad_training_input_is_refused(distilled, tmp_path):
    bad = tmp_path / "pairs.tsv"
    bad.write_text("one\ttwo\nno tab here\n")
    with pytest.raises(FormatError, match="line 2"):
        distilled.fit_pairs(bad)
    with pytest.raises(WordvecError, match="at least 2"):
        distilled.fit_pairs([("a", "b")])
    with pytest.raises(WordvecError, match="exceed"):
        distilled.fit_pairs([("the movie", "a film")] * 3, matryoshka=(99,))
    with pytest.raises(WordvecError, match="one per sentence"):
        distilled.fit(["the movie"], targets=np.zeros((2, 32)))
    with pytest.raises(WordvecError, match="no sentences"):
        distilled.fit([""], targets=np.zeros((0, 32)))
    with pytest.raises(WordvecError, match="alpha"):
        distilled.fit(["the movie"], targets=np.ones((1, 32)), alpha=-1.0)
