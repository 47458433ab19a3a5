"""gensim's Doc2Vec IMDB tutorial code (benchmarks/lib/doc2vec_tutorial.py, which
bench_doc2vec.py --tutorial runs at full size) end to end on a tiny corpus with wordvec's
classes, and the same code with gensim's; the gensim habits it leans on: ``model.dv`` read
once a document, ``infer_vector`` once a document, ``str(model)``."""

import collections
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import wordvec
from wordvec.models.doc2vec.model import Doc2Vec, DocumentVectors

TUTORIAL = Path(__file__).resolve().parents[2] / "benchmarks" / "lib" / "doc2vec_tutorial.py"
D = 32  # the vector size of the other Doc2Vec tests: one compiled kernel


def _load_tutorial():
    spec = importlib.util.spec_from_file_location("doc2vec_tutorial", TUTORIAL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tutorial_module = _load_tutorial()


def sentiment_reviews(per_split=60, length=40, seed=0):
    """Reviews whose sentiment decides which of two word sets a sixth of their words come
    from; the rest are shared words (among them the tutorial's probe words)."""
    rng = np.random.default_rng(seed)
    shared = [f"plot{i}" for i in range(60)] + list(tutorial_module.PROBE_WORDS)
    reviews = []
    for split in ("train", "test"):
        for number in range(per_split):
            sentiment = float(number % 2)
            marked = [f"{'pos' if sentiment else 'neg'}{i}" for i in range(15)]
            words = [marked[rng.integers(len(marked))] if rng.random() < 1 / 6 else shared[rng.integers(len(shared))]
                     for _ in range(length)]
            reviews.append(tutorial_module.Review(words, split, sentiment))
    return reviews


def centroid_error_rate(train_regressors, train_targets, test_regressors, test_targets):
    """A NumPy stand-in for the benchmark's logistic regression: the nearer class mean by cosine."""
    X, y = np.asarray(train_regressors), np.asarray(train_targets)
    means = np.stack([X[y == label].mean(axis=0) for label in (0.0, 1.0)])
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    predicted = np.argmax(np.asarray(test_regressors) @ means.T, axis=1).astype(float)
    return float(np.mean(predicted != np.asarray(test_targets)))


def _run(library, reviews):
    return tutorial_module.tutorial(library, reviews, ("dbow", "dm-mean"), epochs=20, workers=2,
                                    error_rate=centroid_error_rate, probes=10, vector_size=D)


@pytest.fixture(scope="module")
def reviews():
    return sentiment_reviews()


@pytest.fixture(scope="module")
def wordvec_results(reviews):
    return _run(wordvec, reviews)


def test_the_tutorial_runs_with_wordvecs_classes_and_tells_the_sentiments_apart(wordvec_results, reviews):
    for name, result in wordvec_results.items():
        assert result["documents"] == result["dv_rows"] == len(reviews), name
        assert (result["train_documents"], result["test_documents"]) == (60, 60)
        assert result["error_rate"] < 0.2, (name, result)
        assert result["error_rate_inferred"] < 0.2, (name, result)
        assert result["inferred_nearest_is_own"] >= 0.5, (name, result)
        neighbours = result["neighbours_of_first_train_review"]
        assert len(neighbours) == 3 and 0 not in [tag for tag, _ in neighbours]
        assert result["ranked_documents"] == len(reviews) - 1  # every document but the query
        assert neighbours[0][1] > result["median_and_least_similarity"][0] > result["median_and_least_similarity"][1]
        assert set(result["similar_words"]) == set(tutorial_module.PROBE_WORDS)
    assert wordvec_results["dbow"]["model"] == "Doc2Vec<dbow,d32,n5,mc2,t2>"
    assert wordvec_results["dm-mean"]["model"] == 'Doc2Vec<"alpha=0.05",dm/m,d32,n5,w10,mc2,t2>'


def test_the_same_code_runs_with_gensims_classes_and_names_its_models_alike(wordvec_results, reviews):
    gensim_doc2vec = pytest.importorskip("gensim.models.doc2vec")  # a test oracle (the dev extra)
    gensim_results = _run(gensim_doc2vec, reviews)
    for name, result in gensim_results.items():
        # gensim 4.4.0's Doc2Vec drops its comment (Word2Vec's __init__ sets it to None again)
        assert result["model"] == wordvec_results[name]["model"].replace('"alpha=0.05",', "")
        assert (result["documents"], result["vocabulary"]) == (wordvec_results[name]["documents"],
                                                              wordvec_results[name]["vocabulary"])


def test_str_names_the_settings_as_gensims_does():
    assert str(Doc2Vec(dm=0, dbow_words=1, vector_size=D, window=4, sample=1e-4, workers=1, hs=1, negative=0,
                       min_count=1)) == "Doc2Vec<dbow+w,d32,hs,w4,s0.0001>"
    assert str(Doc2Vec(dm=1, dm_mean=0, vector_size=D, workers=3)) == "Doc2Vec<dm/s,d32,n5,w5,mc5,s0.001,t3>"


def test_dv_is_one_object_whose_similarities_follow_further_training(reviews):
    documents = [wordvec.TaggedDocument(review.words, [index]) for index, review in enumerate(reviews)]
    model = Doc2Vec(dm=0, vector_size=D, min_count=1, sample=0, epochs=2, workers=1)
    model.build_vocab(documents)
    model.train(documents, total_examples=len(documents), epochs=2)
    assert model.dv is model.dv
    model.dv.most_similar(0)  # fills its unit rows
    model.train(documents, total_examples=len(documents), epochs=5)
    kept, fresh = model.dv.most_similar(0, topn=5), DocumentVectors(list(model.tags), model.P.copy()).most_similar(0, topn=5)
    assert [tag for tag, _ in kept] == [tag for tag, _ in fresh]
    assert [similarity for _, similarity in kept] == pytest.approx([similarity for _, similarity in fresh])


def test_the_tutorials_own_namedtuple_documents_train_as_tagged_documents(reviews):
    """The tutorial's corpus is a namedtuple of words, tags, split and sentiment: the same
    model as from TaggedDocuments, bit for bit (one worker)."""
    SentimentDocument = collections.namedtuple("SentimentDocument", "words tags split sentiment")
    settings = dict(dm=0, vector_size=D, min_count=2, sample=0, epochs=3, workers=1)
    theirs = Doc2Vec([SentimentDocument(r.words, [i], r.split, r.sentiment) for i, r in enumerate(reviews)], **settings)
    ours = Doc2Vec([wordvec.TaggedDocument(r.words, [i]) for i, r in enumerate(reviews)], **settings)
    np.testing.assert_array_equal(theirs.dv.vectors, ours.dv.vectors)
    assert theirs.dv.index_to_key == list(range(len(reviews)))


def test_infer_vector_one_document_at_a_time_equals_the_batch(reviews):
    documents = [wordvec.TaggedDocument(review.words, [index]) for index, review in enumerate(reviews)]
    model = Doc2Vec(documents, dm=1, vector_size=D, min_count=1, sample=0, epochs=3, workers=2)
    texts = [review.words for review in reviews[:6]]
    one_by_one = np.stack([model.infer_vector(words) for words in texts])
    np.testing.assert_array_equal(one_by_one, model.infer_vectors(texts, workers=2))
