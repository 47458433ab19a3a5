"""Word2Vec model API: validation, determinism, schedule continuation, save/load, quality."""

import math

import numpy as np
import pytest

from wordvec.errors import TrainingError, WordvecError
from wordvec.models.word2vec import epochs as word2vec_epochs
from wordvec.models.word2vec.model import Word2Vec
from wordvec.data.synthetic import analogy_questions, write_corpus

SMALL = dict(vector_size=16, window=3, min_count=1, epochs=2, workers=1, progress=False)


def _sentences(n_docs=60, vocab=30, seed=0):
    rng = np.random.default_rng(seed)
    return [[f"w{int(i)}" for i in rng.zipf(1.3, size=rng.integers(5, 40)) % vocab] for _ in range(n_docs)]


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of about 100 tokens, so that the small corpora here span many chunks and
    the per-epoch chunk order matters."""
    monkeypatch.setattr(word2vec_epochs, "CHUNK_WORDS", 100)


@pytest.fixture(scope="module")
def synthetic_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "synthetic.txt"
    write_corpus(path, tokens=200_000, seed=3)
    return path


@pytest.mark.parametrize("bad, fragment", [
    (dict(window=0), "window"), (dict(vector_size=0), "vector_size"), (dict(alpha=-0.1), "alpha"),
    (dict(negative=0, hs=0), "negative=0 with hs=0"), (dict(epochs=0), "epochs"),
    (dict(loss="bogus"), "loss"), (dict(min_alpha=1.0), "min_alpha"),
    (dict(sg=1, batched=True, shared_negatives=False), "shared_negatives=True"),
])
def test_bad_hyperparameters_are_one_sentence_errors(bad, fragment):
    with pytest.raises(WordvecError, match=fragment) as info:
        Word2Vec(**{**SMALL, **bad})
    assert "\n" not in str(info.value)


def test_empty_corpus_and_one_shot_iterator_are_rejected(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(WordvecError, match="empty"):
        Word2Vec(corpus_file=str(empty), **SMALL)
    with pytest.raises(WordvecError, match="one-shot"):
        Word2Vec(sentences=(s for s in _sentences()), **SMALL)


def test_initial_loss_matches_theory():
    """Zero output vectors: every softmax prediction costs ln V; every NS example (K+1) ln 2."""
    sentences = _sentences()
    tiny = dict(SMALL, epochs=1, alpha=1e-12, min_alpha=1e-12)
    softmax = Word2Vec(sentences, loss="softmax", **tiny)
    assert softmax.history[0]["loss"] == pytest.approx(math.log(len(softmax.vocab)), rel=1e-4)
    ns = Word2Vec(sentences, sg=1, negative=4, **tiny)
    assert ns.history[0]["loss"] == pytest.approx(5 * math.log(2.0), rel=1e-4)


@pytest.mark.parametrize("options", [dict(sg=1), dict(sg=0), dict(sg=1, hs=1, negative=0),
                                     dict(sg=0, hs=1, negative=3, cbow_mean=0),
                                     dict(sg=1, batched=True), dict(sg=1, hs=1, negative=2, batched=True)])
def test_one_worker_is_bitwise_deterministic(options, small_chunks):
    sentences = _sentences()
    a = Word2Vec(sentences, seed=5, **SMALL, **options)
    b = Word2Vec(sentences, seed=5, **SMALL, **options)
    c = Word2Vec(sentences, seed=6, **SMALL, **options)
    assert np.array_equal(a.wv.vectors, b.wv.vectors)
    assert [h["loss"] for h in a.history] == [h["loss"] for h in b.history]
    assert not np.array_equal(a.wv.vectors, c.wv.vectors)


@pytest.mark.parametrize("workers", [1, 2])
def test_every_epoch_processes_every_token(synthetic_file, workers):
    model = Word2Vec(corpus_file=str(synthetic_file), vector_size=8, min_count=1, epochs=2,
                     workers=workers, progress=False)
    tokens = model.vocab.total  # min_count=1: every token of the file is in the vocabulary
    assert [h["words"] for h in model.history] == [tokens, tokens]
    assert model.trained_words == 2 * tokens == model.planned_words


def test_split_training_and_save_load_continue_the_schedule(tmp_path, small_chunks):
    sentences = _sentences(seed=1)
    whole = Word2Vec(sentences, **{**SMALL, "epochs": 3}, sg=1)
    part = Word2Vec(**{**SMALL, "epochs": 3}, sg=1)
    part.build_vocab(sentences)
    part.train(epochs=1)
    part.save(tmp_path / "m")
    loaded = Word2Vec.load(tmp_path / "m")
    assert np.array_equal(loaded.wv.vectors, part.wv.vectors) and loaded.history == part.history
    loaded.train(sentences)  # the remaining 2 planned epochs
    assert np.array_equal(loaded.wv.vectors, whole.wv.vectors)
    assert [h["loss"] for h in loaded.history] == [h["loss"] for h in whole.history]
    with pytest.raises(WordvecError, match="planned"):
        loaded.train(sentences)
    extra = loaded.train(sentences, epochs=1)  # past the plan: runs at min_alpha
    assert extra[0]["alpha"] == pytest.approx(loaded.min_alpha)


def _chunk_log(monkeypatch, **options):
    """Train on many small chunks; return, per epoch, the (chunk, words_before) pairs in
    the order the chunks were started, and the model."""
    started = []
    original = word2vec_epochs.EpochRunner._chunk

    def logged(self, index, words_before, epoch):
        started.append((epoch, index, int(words_before)))
        return original(self, index, words_before, epoch)

    monkeypatch.setattr(word2vec_epochs.EpochRunner, "_chunk", logged)
    model = Word2Vec(_sentences(n_docs=200), **{**SMALL, "epochs": 3, **options})
    return [[(i, b) for e, i, b in started if e == epoch] for epoch in range(3)], model


def test_each_epoch_trains_its_chunks_in_a_fresh_seeded_order(monkeypatch, small_chunks):
    epochs, model = _chunk_log(monkeypatch)
    N = model.vocab.total
    n_chunks = len(epochs[0])
    assert n_chunks > 20
    orders = [[index for index, _ in log] for log in epochs]
    assert all(sorted(order) == list(range(n_chunks)) for order in orders)
    assert orders[0] != orders[1] != orders[2] != list(range(n_chunks))
    offsets = np.concatenate([[0], np.cumsum([len(s) for s in _sentences(n_docs=200)])])
    sizes = np.diff(offsets[word2vec_epochs.schedule.chunk_bounds(offsets, 100)])
    for epoch, log in enumerate(epochs):
        # one worker: a chunk's learning-rate position is the words trained before it
        positions = [before for _, before in log] + [(epoch + 1) * N]
        assert positions[0] == epoch * N
        assert np.array_equal(np.diff(positions), sizes[orders[epoch]])
    again, _ = _chunk_log(monkeypatch)
    assert again == epochs  # the order depends on the seed and the epoch only ...
    other_seed, _ = _chunk_log(monkeypatch, seed=2)
    assert other_seed != epochs
    two_workers, _ = _chunk_log(monkeypatch, workers=2)  # ... not on the threads
    assert [sorted(log) for log in two_workers] == [sorted(log) for log in epochs]
    in_order, _ = _chunk_log(monkeypatch, shuffle=False)
    assert [[index for index, _ in log] for log in in_order] == [list(range(n_chunks))] * 3


def test_a_damaged_model_directory_is_a_format_error(tmp_path):
    from wordvec.errors import FormatError

    model = Word2Vec(_sentences(), **SMALL)
    model.save(tmp_path / "m")
    np.save(tmp_path / "m" / "output_vectors.npy", np.zeros((3, SMALL["vector_size"] + 1), np.float32))
    with pytest.raises(FormatError, match="shape"):
        Word2Vec.load(tmp_path / "m")
    (tmp_path / "m" / "output_vectors.npy").write_bytes(b"not an array")
    with pytest.raises(FormatError, match="not a valid NumPy array"):
        Word2Vec.load(tmp_path / "m")


def test_divergence_is_a_training_error():
    with pytest.raises(TrainingError, match="smaller alpha"):
        Word2Vec(_sentences(), alpha=1e12, min_alpha=1e12, sg=1, **{k: v for k, v in SMALL.items()})


def test_history_and_callbacks():
    seen = []
    model = Word2Vec(_sentences(), callbacks=[lambda m, info: seen.append(info["epoch"])], **SMALL)
    assert seen == [1, 2]
    assert set(model.history[0]) >= {"epoch", "loss", "words", "examples", "seconds", "words_per_sec", "alpha"}
    assert all(np.isfinite(h["loss"]) and h["loss"] > 0 for h in model.history)


# Accuracy floors below what each setting reaches (two Hogwild threads vary run to run;
# measured over 3 runs each: CBOW 0.981, deterministic 0.64, skip-gram HS 0.74-0.82;
# skip-gram and batched over 8 runs each at the default seed on a loaded 2-core machine:
# 0.491-0.566 and 0.509-0.566), far above chance (~0.003 among ~400 words): a floor of
# 0.5 failed once in CI with a batched run at exactly 53/106, so 0.45 (48/106) sits five
# questions under the lowest run measured.
# Skip-gram HS with two workers trains against window-local copies of the paths.
@pytest.mark.parametrize("options, floor", [(dict(sg=1), 0.45), (dict(sg=0, alpha=0.05), 0.9),
                                            (dict(sg=1, batched=True), 0.45),
                                            (dict(sg=1, deterministic=True), 0.5),
                                            (dict(sg=1, hs=1, negative=0), 0.6)])
def test_learns_the_synthetic_analogies(synthetic_file, options, floor):
    model = Word2Vec(corpus_file=str(synthetic_file), vector_size=32, window=5, min_count=2, epochs=5,
                     workers=2, progress=False, **options)
    assert model.history[-1]["loss"] < model.history[0]["loss"]
    questions = [q for _, qs in analogy_questions() for q in qs[::7]]
    correct = sum(model.wv.most_similar(positive=[b, c], negative=[a], topn=1)[0][0] == d
                  for a, b, c, d in questions)
    assert correct / len(questions) > floor


@pytest.fixture
def small_rounds(monkeypatch, small_chunks):
    """Merges every 2 chunks of ~100 tokens, so that an epoch has many rounds."""
    monkeypatch.setattr(word2vec_epochs.word2vec_sync, "SYNC_CHUNKS", 2)


@pytest.mark.parametrize("options", [dict(sg=1, batched=True), dict(sg=0, hs=1, negative=2)])
def test_deterministic_two_workers_are_bitwise_reproducible(synthetic_file, small_rounds, options):
    runs = [Word2Vec(corpus_file=str(synthetic_file), vector_size=16, min_count=2, epochs=2, workers=2,
                     seed=4, deterministic=True, progress=False, **options) for _ in range(3)]
    for run in runs[1:]:
        assert np.array_equal(run.wv.vectors, runs[0].wv.vectors)
        assert [h["loss"] for h in run.history] == [h["loss"] for h in runs[0].history]
    assert runs[0].history[-1]["loss"] < runs[0].history[0]["loss"]  # it learns
    other_seed = Word2Vec(corpus_file=str(synthetic_file), vector_size=16, min_count=2, epochs=2, workers=2,
                          seed=5, deterministic=True, progress=False, **options)
    assert not np.array_equal(other_seed.wv.vectors, runs[0].wv.vectors)


def test_deterministic_changes_nothing_for_one_worker_and_hogwild_uses_no_replicas(monkeypatch, small_rounds):
    sentences = _sentences()
    plain = Word2Vec(sentences, seed=2, **SMALL)
    deterministic = Word2Vec(sentences, seed=2, deterministic=True, **SMALL)
    assert np.array_equal(plain.wv.vectors, deterministic.wv.vectors)

    def no_replicas(*args):
        raise AssertionError("the default (Hogwild) mode must not shard")

    monkeypatch.setattr(word2vec_epochs.word2vec_sync, "shard_workers", no_replicas)
    hogwild = Word2Vec(sentences, seed=2, **dict(SMALL, workers=2))
    assert all(np.isfinite(h["loss"]) for h in hogwild.history)


def test_shard_rounds_give_each_worker_consecutive_blocks():
    from wordvec.models.word2vec.sync import shard_rounds

    rounds = shard_rounds([5, 3, 0, 4, 1, 2, 6], workers=2, chunks_per_block=2)
    assert rounds == [[[5, 3], [0, 4]], [[1, 2], [6]]]
    assert shard_rounds([0, 1], workers=3, chunks_per_block=4) == [[[0, 1], [], []]]
