"""Doc2Vec on gensim's corpus: an iterable of TaggedDocument (str and int tags, several tags
per document), gensim's build_vocab/train calls, and refusals of what it cannot read."""

import numpy as np
import pytest

from wordvec.vectors.keyed import KeyedVectors

from wordvec.data.sentences import TaggedDocument
from wordvec.data.tagged import read_tagged
from wordvec.errors import TrainingError, WordvecError
from wordvec.models.doc2vec.model import Doc2Vec

D = 32  # the vector size of tests/doc2vec/test_model.py: one compiled kernel
TOPICS = [("fire", "smoke", "burn", "flame", "heat"), ("rain", "cloud", "storm", "wet", "wind")]


def corpus(tag=lambda i: i, documents=40):
    rng = np.random.default_rng(3)
    return [TaggedDocument([str(w) for w in rng.choice(TOPICS[i % 2], 12)], [tag(i)]) for i in range(documents)]


def test_int_tags_are_rows_and_str_tags_follow():
    documents = [TaggedDocument(["a", "b"], [2]), TaggedDocument(["b", "c"], ["x", 0]), TaggedDocument(["c"], ["y"])]
    vocab, encoded, count = read_tagged(documents, min_count=1)
    assert count == 3 and encoded.tags == [0, 1, 2, "x", "y"]
    assert encoded.rows.tolist() == [2, 3, 0, 4]  # the second document once per tag
    words = [vocab.words[i] for i in encoded.ids]
    assert words == ["a", "b", "b", "c", "b", "c", "c"]


@pytest.mark.parametrize("tag", [lambda i: i, lambda i: f"doc_{i}", lambda i: f"_\xa1_{i}"])
def test_a_tagged_corpus_trains_one_row_per_tag(tag):
    documents = corpus(tag)
    model = Doc2Vec(documents, dm=0, vector_size=D, min_count=1, sample=0, epochs=40, workers=1)
    assert model.corpus_count == 40 and len(model.dv) == 40
    assert model.dv.index_to_key == [tag(i) for i in range(40)]
    same_topic = model.dv.similarity(tag(0), tag(2))
    other_topic = model.dv.similarity(tag(0), tag(1))
    assert same_topic > other_topic
    assert isinstance(model.dv.most_similar(tag(0), topn=1)[0][0], type(tag(0)))


def test_build_vocab_then_train_as_gensim_calls_them():
    documents = corpus()
    model = Doc2Vec(dm=1, vector_size=D, min_count=1, epochs=3, workers=1)
    model.build_vocab(corpus_iterable=documents)
    assert model.dv.vectors.shape == (40, D) and model.corpus_count == 40  # dv exists before training
    before = model.dv.vectors.copy()
    model.train(documents, total_examples=model.corpus_count, epochs=model.epochs)
    assert not np.array_equal(before, model.dv.vectors)
    assert model.syn1neg.shape == (len(model.wv), D) and model.syn1.shape == (0, D)
    assert -1.0 <= model.similarity_unseen_docs(["fire", "smoke"], ["rain", "wet"]) <= 1.0


def test_documents_of_known_tags_train_their_rows_only():
    model = Doc2Vec(vector_size=D, min_count=1, epochs=1, workers=1).build_vocab(corpus())
    before = model.dv.vectors.copy()
    model.train(corpus(documents=20), total_examples=20, epochs=1)  # a subset, as gensim allows
    assert not np.array_equal(before[:20], model.dv.vectors[:20])
    np.testing.assert_array_equal(before[20:], model.dv.vectors[20:])
    with pytest.raises(WordvecError, match="tags the model was not built with \\('new', 1 in all\\)"):
        model.train([TaggedDocument(["fire"], ["new"])], total_examples=1, epochs=1)


@pytest.mark.parametrize("documents, phrase, kind", [
    ((TaggedDocument(["a"], [0]) for _ in range(3)), "can be read only once", TypeError),
    ([TaggedDocument(["a", "b"], [0]), ("not", "a document")], "document 1 is a tuple, not a TaggedDocument", TypeError),
    ([TaggedDocument("a b c", [0])], "words must be a list of str tokens", TypeError),
    ([TaggedDocument(["a"], 0)], "tags must be a list of tags", TypeError),
    ([TaggedDocument(["a"], [1.5])], "the tag 1.5 is not a str or a non-negative int", TypeError),
    ([TaggedDocument(["a"], [-1])], "not a str or a non-negative int", TypeError),
    ([TaggedDocument(["a", 3], [0])], "the token 3 is a int, not a str", TypeError),
])
def test_what_cannot_be_read_is_refused_never_stringified(documents, phrase, kind):
    with pytest.raises(WordvecError, match=phrase) as raised:
        Doc2Vec(documents, min_count=1, vector_size=D, epochs=1)
    assert isinstance(raised.value, kind)


@pytest.mark.parametrize("kwargs, phrase", [
    (dict(trim_rule=lambda w, c, m: 1), "trim_rule"), (dict(max_vocab_size=100), "max_vocab_size"),
    (dict(sorted_vocab=0), "sorted_vocab=0"),
])
def test_settings_not_trained_are_refused(kwargs, phrase):
    with pytest.raises(ValueError, match=phrase):
        Doc2Vec(**kwargs)


def test_tags_survive_save_and_load(tmp_path):
    documents = corpus(lambda i: i if i % 2 else f"s{i}")
    model = Doc2Vec(documents, vector_size=D, min_count=1, epochs=2, workers=1)
    model.save(tmp_path / "m")
    loaded = Doc2Vec.load(tmp_path / "m")
    assert loaded.dv.index_to_key == model.dv.index_to_key and loaded.corpus_count == 40
    np.testing.assert_array_equal(loaded.dv.vectors, model.dv.vectors)


def test_gensims_pickling_options_are_taken(tmp_path):
    model = Doc2Vec(corpus(), vector_size=D, min_count=1, epochs=1, workers=1)
    model.save(tmp_path / "m", sep_limit=10, separately=["dv"], ignore=frozenset(), pickle_protocol=4)
    np.testing.assert_array_equal(Doc2Vec.load(tmp_path / "m").dv.vectors, model.dv.vectors)


def test_model_getitem_is_the_word_or_else_the_document():
    documents = corpus(lambda i: i if i % 2 else f"s{i}")
    model = Doc2Vec(vector_size=D, min_count=1, epochs=1, workers=1).build_vocab(documents)
    np.testing.assert_array_equal(model["fire"], model.wv["fire"])
    np.testing.assert_array_equal(model[1], model.dv[1])
    np.testing.assert_array_equal(model[np.int64(1)], model.dv[1])
    np.testing.assert_array_equal(model["s0"], model.dv["s0"])
    assert model[["fire", 1]].shape == (2, D)
    with pytest.raises(KeyError):
        model["neither"]


def test_int_tags_are_row_numbers_and_only_str_tags_are_keys():
    """gensim's dv: ``key_to_index`` holds the str tags, every tag is ``in`` it."""
    documents = [TaggedDocument(words, [i, words[0]]) for i, words in enumerate(
        [["a", "b"], ["b", "c"], ["a", "c"], ["c"]])]
    model = Doc2Vec(vector_size=D, min_count=1, epochs=1, workers=1).build_vocab(documents)
    assert model.dv.index_to_key == [0, 1, 2, 3, "a", "b", "c"]
    assert model.dv.key_to_index == {"a": 4, "b": 5, "c": 6}
    assert 3 in model.dv and "b" in model.dv and 7 not in model.dv and "d" not in model.dv
    np.testing.assert_array_equal(model.dv[2], model.dv.vectors[2])


def test_save_word2vec_format_writes_words_then_prefixed_documents(tmp_path):
    documents = corpus(lambda i: i if i % 2 else f"s{i}")
    model = Doc2Vec(documents, vector_size=D, min_count=1, epochs=1, workers=1)
    both, docs_only, words_only = tmp_path / "both.txt", tmp_path / "docs.bin", tmp_path / "words.bin"
    model.save_word2vec_format(str(both), doctag_vec=True, word_vec=True)
    assert both.read_text().split("\n", 1)[0] == f"{len(model.wv) + len(model.dv)} {D}"
    loaded = KeyedVectors.load_word2vec_format(str(both), binary=False)
    assert loaded.index_to_key == model.wv.index_to_key + [f"*dt_{tag}" for tag in model.dv.index_to_key]
    np.testing.assert_allclose(loaded["*dt_s0"], model.dv["s0"], rtol=1e-6)
    model.save_word2vec_format(str(docs_only), doctag_vec=True, word_vec=False, prefix="", binary=True)
    loaded = KeyedVectors.load_word2vec_format(str(docs_only), binary=True)
    assert loaded.index_to_key == [str(tag) for tag in model.dv.index_to_key]
    np.testing.assert_array_equal(loaded.vectors, model.dv.vectors)
    model.save_word2vec_format(str(words_only), binary=True, fvocab=str(tmp_path / "vocab.txt"))
    np.testing.assert_array_equal(KeyedVectors.load_word2vec_format(str(words_only)).vectors, model.wv.vectors)
    assert (tmp_path / "vocab.txt").read_text().splitlines()[0] == f"{model.wv.index_to_key[0]} {model.vocab.counts[0]}"


def test_corpus_total_words_counts_every_token():
    documents = corpus()
    model = Doc2Vec(vector_size=D, min_count=20, epochs=1, workers=1)
    assert model.corpus_total_words is None
    model.build_vocab(documents)
    assert model.corpus_total_words == sum(len(d.words) for d in documents)


@pytest.mark.parametrize("kwargs", [dict(corpus_file=11111), dict(corpus_iterable=11111), dict(),
                                    dict(corpus_iterable=corpus(), corpus_file="x.txt"),
                                    dict(corpus_file=corpus())])
def test_train_arguments_that_name_no_corpus_are_type_errors(kwargs):
    model = Doc2Vec(vector_size=D, min_count=1, epochs=1, workers=1).build_vocab(corpus())
    with pytest.raises(WordvecError) as raised:
        model.train(**kwargs)
    assert isinstance(raised.value, TypeError)


def test_empty_corpus_or_vocabulary_is_a_runtime_error():
    with pytest.raises(TrainingError, match="has no documents"):
        Doc2Vec([], vector_size=D)
    with pytest.raises(TrainingError, match="occurs 1000 times or more"):
        Doc2Vec(corpus(), min_count=1000, vector_size=D)
    model = Doc2Vec(vector_size=D, min_count=1000, workers=1).build_vocab(corpus())  # rows for the tags
    assert len(model.wv) == 0 and model.dv.vectors.shape == (40, D)
    with pytest.raises(RuntimeError, match="vocabulary is empty"):
        model.train(corpus(), total_examples=40, epochs=1)


def test_load_is_called_on_the_class(tmp_path):
    model = Doc2Vec(corpus(), vector_size=D, min_count=1, epochs=1, workers=1)
    model.save(tmp_path / "m")
    with pytest.raises(AttributeError, match="called on the class"):
        Doc2Vec(vector_size=D).load(tmp_path / "m")
    assert Doc2Vec.load(tmp_path / "m").dv.index_to_key == model.dv.index_to_key


def test_fixed_windows_train_pv_dm_and_dbow_words_and_are_saved(tmp_path):
    """shrink_windows=False: another model for PV-DM and dbow_words (its kernel is held to
    the reference in test_kernels.py), the same for plain PV-DBOW (no window), and kept by save."""
    documents = corpus()
    for settings in (dict(dm=1), dict(dm=0, dbow_words=1), dict(dm=0)):
        run = dict(vector_size=D, min_count=1, epochs=2, workers=1, sample=0, **settings)
        shrunk, fixed = Doc2Vec(documents, **run), Doc2Vec(documents, shrink_windows=False, **run)
        assert np.array_equal(shrunk.dv.vectors, fixed.dv.vectors) == (settings == dict(dm=0))
    fixed.save(tmp_path / "m")
    assert Doc2Vec.load(tmp_path / "m").config.shrink_windows is False


def test_word_vectors_are_read_only_views():
    model = Doc2Vec(corpus(), vector_size=D, min_count=1, epochs=1, workers=1)
    vector = model.wv["fire"]
    with pytest.raises(ValueError):
        vector *= 0
    assert np.shares_memory(vector, model.wv.vectors)
