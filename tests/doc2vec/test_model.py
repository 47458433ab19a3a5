"""Doc2Vec end to end: topic documents recovered, rows aligned with lines, inference
reproducible, native save/load, tags, and bad arguments refused in one sentence."""

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.models.doc2vec.model import Doc2Vec, is_doc2vec_model

D = 32  # one vector size for every test: one compiled kernel


def topic_documents(n_docs=300, topics=5, words_per_topic=40, length=60, seed=0):
    """Documents whose words come from a Dirichlet mixture of a few topics, each topic
    its own set of words: a document is recognisable by its mixture and its draws."""
    rng = np.random.default_rng(seed)
    documents = []
    for _ in range(n_docs):
        mixture = rng.dirichlet([0.3] * topics)
        topic = rng.choice(topics, size=length, p=mixture)
        word = rng.integers(0, words_per_topic, size=length)
        documents.append([f"t{t}w{w}" for t, w in zip(topic, word)])
    return documents


def _model(documents, **kwargs):
    settings = dict(vector_size=D, min_count=1, epochs=30, sample=0, workers=2, window=3)
    settings.update(kwargs)
    return Doc2Vec(documents=documents, **settings)


def _self_recovery(model, documents):
    """Share of documents whose inferred copy has the document itself as nearest row."""
    inferred = model.infer_vectors(documents)
    inferred /= np.linalg.norm(inferred, axis=1, keepdims=True)
    nearest = np.argmax(inferred @ model.dv.unit_vectors.T, axis=1)
    return float(np.mean(nearest == np.arange(len(documents))))


@pytest.fixture(scope="module")
def documents():
    return topic_documents()


@pytest.fixture(scope="module")
def dbow(documents):
    return _model(documents, dm=0)


@pytest.mark.parametrize("dm", [0, 1])
def test_an_inferred_copy_of_a_training_document_finds_itself(documents, dbow, dm):
    model = dbow if dm == 0 else _model(documents, dm=1)
    assert model.history[-1]["loss"] < model.history[0]["loss"]
    assert _self_recovery(model, documents) >= 0.95


def test_documents_of_one_topic_are_nearer_than_documents_of_another(dbow):
    pure = [[f"t{t}w{w}" for w in np.random.default_rng(t).integers(0, 40, 60)] for t in (0, 0, 3)]
    a, b, c = (dbow.infer_vector(doc) for doc in pure)
    cos = lambda x, y: x @ y / np.linalg.norm(x) / np.linalg.norm(y)  # noqa: E731
    assert cos(a, b) > cos(a, c) + 0.2


def test_inference_is_reproducible_and_batched_equals_single(dbow, documents):
    one = dbow.infer_vector(documents[7])
    np.testing.assert_array_equal(one, dbow.infer_vector(documents[7]))
    batch = dbow.infer_vectors(documents[:10], workers=3)
    np.testing.assert_array_equal(batch[7], one)
    assert not np.array_equal(dbow.infer_vector(documents[7], seed=2), one)
    assert dbow.infer_vector(["never", "seen"]).shape == (D,)  # no known word: the random start


def test_rows_follow_lines_and_int_keys_work(tmp_path):
    path = tmp_path / "docs.txt"
    lines = ["a b c a b", "", "c d e c d", "a b c a b"]
    path.write_text("\n".join(lines) + "\n")
    model = Doc2Vec(corpus_file=str(path), dm=0, vector_size=D, min_count=1, epochs=2, workers=1)
    assert model.dv.vectors.shape == (4, D)
    assert model.dv.index_to_key == [0, 1, 2, 3]  # gensim's int tags
    np.testing.assert_array_equal(model.dv[2], model.dv.vectors[2])
    assert [key for key, _ in model.dv.most_similar(0, topn=3)] != [] and 0 not in dict(model.dv.most_similar(0))
    assert model.dv.similarity(0, 3) == pytest.approx(float(np.dot(*model.dv.get_normed_vectors()[[0, 3]])))


def test_first_token_tags_share_a_row(tmp_path):
    path = tmp_path / "tagged.txt"
    path.write_text("pos good fine great\nneg bad awful poor\npos great good nice\n")
    model = Doc2Vec(corpus_file=str(path), dm=1, vector_size=D, min_count=1, epochs=3, workers=1, tags="first-token")
    assert model.dv.index_to_key == ["pos", "neg"]
    assert "pos" not in model.wv and "good" in model.wv


def test_save_and_load_round_trip(dbow, documents, tmp_path):
    dbow.save(tmp_path / "m.d2v")
    assert is_doc2vec_model(tmp_path / "m.d2v")
    loaded = Doc2Vec.load(tmp_path / "m.d2v")
    np.testing.assert_array_equal(loaded.dv.vectors, dbow.dv.vectors)
    np.testing.assert_array_equal(loaded.wv.vectors, dbow.wv.vectors)
    assert loaded.config == dbow.config and loaded.history == dbow.history
    np.testing.assert_array_equal(loaded.infer_vector(documents[3]), dbow.infer_vector(documents[3]))
    assert not any(p.suffix == ".pkl" for p in (tmp_path / "m.d2v").iterdir())


def test_dbow_words_trains_the_word_vectors(documents):
    plain = _model(documents[:60], dm=0, epochs=2)
    with_words = _model(documents[:60], dm=0, epochs=2, dbow_words=1)
    fresh = Doc2Vec(vector_size=D, min_count=1).build_vocab(documents[:60])
    np.testing.assert_array_equal(plain.wv.vectors, fresh.wv.vectors)  # PV-DBOW leaves words alone
    assert not np.array_equal(with_words.wv.vectors, fresh.wv.vectors)


@pytest.mark.parametrize("kwargs, phrase", [
    (dict(dm=2), "dm must be 0 or 1"),
    (dict(negative=0, hs=0), "no output layer"),
    (dict(alpha=-1.0), "alpha must be a positive number"),
    (dict(tags="words"), "tags must be one of"),
    (dict(vector_size=0), "vector_size"),
    (dict(min_alpha=1.0), "min_alpha must be at most alpha"),
    (dict(dm_concat=2), "dm_concat must be 0 or 1"),
    (dict(dm_concat=1, dm_tag_count=0), "dm_tag_count must be a whole number"),
])
def test_bad_settings_are_refused_in_one_sentence(kwargs, phrase):
    with pytest.raises(WordvecError, match=phrase):
        Doc2Vec(**kwargs)


def test_infer_vector_refuses_a_string(dbow):
    with pytest.raises(WordvecError, match="list of tokens"):
        dbow.infer_vector("a whole string")


@pytest.mark.parametrize("model", [["--dm", "0"], ["--dm", "1", "--dm-concat", "1", "--window", "2"]])
def test_cli_train_then_infer_writes_npy_and_text(tmp_path, capsys, model):
    corpus = tmp_path / "docs.txt"
    corpus.write_text("\n".join(" ".join(doc) for doc in topic_documents(40, length=20)) + "\n")
    assert main(["doc2vec", "train", str(corpus), "-o", str(tmp_path / "m.d2v"), *model, "--min-count", "1",
                 "--vector-size", str(D), "--epochs", "2", "--workers", "1"]) == 0
    assert main(["doc2vec", "infer", str(tmp_path / "m.d2v"), str(corpus), "-o", str(tmp_path / "v.npy")]) == 0
    vectors = np.load(tmp_path / "v.npy", allow_pickle=False)
    assert vectors.shape == (40, D)
    np.testing.assert_array_equal(vectors, Doc2Vec.load(tmp_path / "m.d2v").infer_vectors(str(corpus)))
    assert main(["doc2vec", "infer", str(tmp_path / "m.d2v"), str(corpus), "-o", str(tmp_path / "v.txt")]) == 0
    assert (tmp_path / "v.txt").read_text().splitlines()[0] == f"40 {D}"


@pytest.mark.parametrize("argv, phrase", [
    (["doc2vec", "infer", "{model}", "{missing}", "-o", "{out}.npy"], "cannot read"),
    (["doc2vec", "infer", "{corpus}", "{corpus}", "-o", "{out}.npy"], "is not a model saved"),
    (["doc2vec", "infer", "{model}", "{corpus}", "-o", "{out}.csv"], "name it .npy, .txt or .vec"),
    (["doc2vec", "train", "{corpus}", "-o", "{corpus}"], "it is the input"),
])
def test_cli_bad_input_is_one_sentence_and_exit_2(tmp_path, capsys, argv, phrase):
    corpus = tmp_path / "docs.txt"
    corpus.write_text("a b c\nb c d\n")
    model = tmp_path / "m.d2v"
    Doc2Vec(corpus_file=str(corpus), vector_size=D, min_count=1, epochs=1, workers=1).save(model)
    names = {"model": str(model), "corpus": str(corpus), "missing": str(tmp_path / "nope.txt"),
             "out": str(tmp_path / "out")}
    assert main([a.format(**names) for a in argv]) == 2
    err = capsys.readouterr().err
    assert phrase in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_similar_docs_lists_the_nearest_documents(dbow, tmp_path, capsys):
    dbow.save(tmp_path / "m.d2v")
    assert main(["similar", str(tmp_path / "m.d2v"), "--docs", "5", "--topn", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = [str(tag) for tag, _ in dbow.dv.most_similar(5, topn=3)]
    assert [line.split()[0] for line in lines] == expected and "5" not in expected
    assert main(["similar", str(tmp_path / "m.d2v"), "--docs", "no-such-tag"]) == 2
    assert "no document tagged 'no-such-tag'" in capsys.readouterr().err


def test_fit_returns_the_model_trained_as_the_gensim_spellings_train_it(documents):
    """``fit`` (scikit-learn's verb), ``Doc2Vec(documents=...)`` and ``build_vocab`` then
    ``train`` (gensim's) train the same model, bitwise, with one worker."""
    settings = dict(dm=0, vector_size=D, min_count=1, epochs=2, workers=1, window=3)
    model = Doc2Vec(**settings)
    assert model.fit(documents[:80]) is model
    at_once = Doc2Vec(documents[:80], **settings)
    in_two = Doc2Vec(**settings).build_vocab(documents[:80])
    in_two.train(documents[:80])
    for other in (at_once, in_two):
        np.testing.assert_array_equal(model.dv.vectors, other.dv.vectors)
        np.testing.assert_array_equal(model.wv.vectors, other.wv.vectors)
        assert [h["loss"] for h in model.history] == [h["loss"] for h in other.history]
    with pytest.raises(WordvecError, match="fit needs"):
        Doc2Vec(**settings).fit()


def test_the_config_is_frozen_checked_and_importable_from_the_model_module():
    from wordvec.models.doc2vec import model as model_module
    from wordvec.models.doc2vec.config import Doc2VecConfig

    assert model_module.Doc2VecConfig is Doc2VecConfig
    config = Doc2VecConfig(dm=0, vector_size=D, dm_mean=True)
    assert config.dm_mean == 1 and type(config.dm_mean) is int
    with pytest.raises(AttributeError):
        config.dm = 1
    model = Doc2Vec(config=config)
    assert model.config is config and model.vector_size == D and model.dm == 0
    with pytest.raises(WordvecError, match="either a config or hyperparameters"):
        Doc2Vec(config=config, dm=1)
    for bad, phrase in ((dict(sample="x"), "sample must be >= 0"), (dict(min_alpha=-1.0), "min_alpha must be"),
                        (dict(dm_mean=2), "dm_mean must be 0 or 1")):
        with pytest.raises(WordvecError, match=phrase):
            Doc2VecConfig(**bad)


def test_each_training_thread_trains_in_replica_rows_of_its_own(documents, monkeypatch):
    """The epoch driver hands chunks to threads; each thread's calls name one slot, its
    own, so no two threads share replica rows."""
    from wordvec.kernels import doc2vec as kernels
    import threading

    seen, lock, train = {}, threading.Lock(), kernels.train_documents

    def recording(corpus, doc_rows, begin, end, P, matrices, outputs, settings, schedule, hot=0, replica_base=0):
        if hot:  # not the kernel's warm-up, when this test loads it
            with lock:
                seen.setdefault(threading.get_ident(), set()).add(replica_base)
        return train(corpus, doc_rows, begin, end, P, matrices, outputs, settings, schedule, hot, replica_base)

    monkeypatch.setattr(kernels, "train_documents", recording)
    many = documents * 4  # 72k words: several chunks
    model = Doc2Vec(many, dm=0, vector_size=D, min_count=1, epochs=1, workers=2, window=3)
    bases = [next(iter(b)) for b in seen.values()]
    assert all(len(b) == 1 for b in seen.values()) and len(set(bases)) == len(bases)
    assert model._hot_words() > 0 and set(bases) <= {len(model.vocab) + slot * model._hot_words() for slot in (0, 1)}


@pytest.mark.parametrize("workers, hs, replicated", [(1, 0, False), (2, 0, True), (3, 0, False), (6, 0, False),
                                                     (2, 1, False)])
def test_replica_rows_only_with_two_threads_and_negative_sampling(documents, workers, hs, replicated):
    """k threads adding their chunk's change of a frequent row overshoot by k - 1 times
    (model.REPLICA_WORKERS): past two threads, the shared rows train as they are."""
    model = Doc2Vec(vector_size=D, min_count=1, workers=workers, hs=hs, negative=0 if hs else 5)
    model.build_vocab(documents[:20])
    assert (model._hot_words() > 0) == replicated
    assert model.W_in.base is None or model.W_in.base.shape[0] == len(model.vocab) + model._replica_rows()


@pytest.fixture(scope="module")
def concat(documents):
    return _model(documents, dm=1, dm_concat=1, window=2, workers=1)


def test_concat_trains_rows_layer1_size_wide_with_the_null_word_last(concat, documents):
    """PV-DM with concatenation: gensim's null word "\\0" (count 1) last in the vocabulary,
    output rows (1 + 2 window) D wide, and an inferred copy of a document near itself."""
    assert concat.layer1_size == 5 * D and concat.syn1neg.shape == (len(concat.wv), 5 * D)
    assert concat.wv.index_to_key[-1] == "\0" and concat.vocab.counts[-1] == 1 and concat.null_word == 1
    assert "\0" not in concat.wv.index_to_key[:-1]
    assert concat.history[-1]["loss"] < concat.history[0]["loss"]
    assert _self_recovery(concat, documents) >= 0.9
    assert concat.config.describe() == "pv-dm-concat-ns"


def test_concat_with_one_thread_is_bitwise_reproducible(documents):
    first, second = (_model(documents[:60], dm=1, dm_concat=1, hs=1, negative=3, epochs=3, workers=1)
                     for _ in range(2))
    for a, b in ((first.dv.vectors, second.dv.vectors), (first.wv.vectors, second.wv.vectors),
                 (first.syn1, second.syn1), (first.syn1neg, second.syn1neg)):
        np.testing.assert_array_equal(a, b)
    assert first.syn1.shape == (len(first.wv) - 1, 7 * D)  # window 3


def test_concat_saves_loads_and_trains_on(concat, documents, tmp_path):
    concat.save(tmp_path / "c.d2v")
    loaded = Doc2Vec.load(tmp_path / "c.d2v")
    assert loaded.config == concat.config and loaded.wv.index_to_key == concat.wv.index_to_key
    np.testing.assert_array_equal(loaded.syn1neg, concat.syn1neg)
    np.testing.assert_array_equal(loaded.infer_vector(documents[3]), concat.infer_vector(documents[3]))
    loaded.train(documents[:20], epochs=1)
    assert loaded.epochs_trained == concat.epochs_trained + 1


def test_concat_trains_from_a_corpus_file(documents, tmp_path):
    path = tmp_path / "docs.txt"
    path.write_text("\n".join(" ".join(doc) for doc in documents[:50]) + "\n")
    model = Doc2Vec(corpus_file=str(path), dm=1, dm_concat=1, vector_size=D, window=2, min_count=1, epochs=2,
                    workers=2, hs=1, negative=0)
    assert len(model.dv) == 50 and model.W_inner.shape[1] == 5 * D and model.wv.index_to_key[-1] == "\0"
    assert np.isfinite(model.dv.vectors).all() and model.history[-1]["examples"] > 0


def test_concat_of_two_tags_trains_the_documents_with_two_tags(documents):
    """dm_tag_count=2: each document with two tags puts both rows in its concatenation;
    a document with one tag is left out (gensim's rule), its row untouched."""
    from wordvec.data.sentences import TaggedDocument
    tagged = [TaggedDocument(doc, [i, f"pair{i % 2}"] if i < 40 else [i]) for i, doc in enumerate(documents[:50])]
    model = Doc2Vec(tagged, dm=1, dm_concat=1, dm_tag_count=2, vector_size=D, window=1, min_count=1, epochs=2,
                    workers=1)
    assert model.layer1_size == 4 * D and len(model.dv) == 52
    untrained = Doc2Vec(tagged, dm=1, dm_concat=1, dm_tag_count=2, vector_size=D, window=1, min_count=1, epochs=1,
                        workers=1, alpha=1e-30, min_alpha=0.0)
    moved = ~np.isclose(model.dv.vectors, untrained.dv.vectors, rtol=0, atol=1e-6).all(axis=1)
    assert moved[:40].all() and not moved[40:50].any() and moved[50:].all()
    with pytest.raises(WordvecError, match="dm_tag_count=2"):
        Doc2Vec(documents[:5], dm=1, dm_concat=1, dm_tag_count=2, vector_size=D, min_count=1)


def test_dm_concat_without_dm_trains_pv_dbow(documents):
    model = Doc2Vec(documents[:30], dm=0, dm_concat=1, vector_size=D, min_count=1, epochs=1, workers=1)
    assert model.layer1_size == D and "\0" not in model.wv.key_to_index


def test_rising_alpha_between_train_calls_logs_gensims_warning(documents, caplog):
    model = Doc2Vec(vector_size=D, min_count=1, epochs=1, workers=1, alpha=0.025, min_alpha=0.025)
    model.build_vocab(documents[:10])
    model.train(documents[:10])
    model.alpha, model.min_alpha = 0.02, 0.02  # lowered: no warning
    with caplog.at_level("WARNING"):
        model.train(documents[:10])
    assert "Effective 'alpha' higher" not in caplog.text
    model.alpha = 0.05
    with caplog.at_level("WARNING"):
        model.train(documents[:10])
    assert "Effective 'alpha' higher than previous training cycles" in caplog.text
    model.min_alpha = 0.1
    with pytest.raises(WordvecError, match="min_alpha must be at most alpha"):
        model.train(documents[:10])
