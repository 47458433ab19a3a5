"""Doc2Vec on gensim's corpus: an iterable of TaggedDocument (str and int tags, several tags
per document), gensim's build_vocab/train calls, and refusals of what it cannot read."""

import numpy as np
import pytest

from wordvec.data.sentences import TaggedDocument
from wordvec.data.tagged import read_tagged
from wordvec.errors import WordvecError
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
    (dict(dm_concat=1), "dm_concat=1"), (dict(shrink_windows=False), "shrink_windows=False"),
    (dict(trim_rule=lambda w, c, m: 1), "trim_rule"),
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
