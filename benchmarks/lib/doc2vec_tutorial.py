"""gensim's Doc2Vec IMDB tutorial (``docs/src/auto_examples/howtos/run_doc2vec_imdb.py``),
its code written once against a library module: ``gensim.models.doc2vec`` or ``wordvec``.

    import gensim.models.doc2vec as library     # from gensim.models.doc2vec import Doc2Vec, TaggedDocument
    import wordvec as library                   # from wordvec import Doc2Vec, TaggedDocument
    results = tutorial(library, reviews, ("dbow",), epochs=20, error_rate=logistic_error_rate)

Everything between the import and the results is the same code for both: the reviews as
``TaggedDocument(words, [index])``, the tutorial's models, ``build_vocab(alldocs)``,
``train(alldocs, total_examples=len(alldocs), epochs=model.epochs)``, a logistic regression on
``model.dv[doc.tags[0]]`` of the train reviews scored on the test reviews' vectors (the
error rate), the same with the test vectors re-inferred by ``infer_vector``, and its sanity
checks with ``dv.most_similar`` and ``wv.most_similar``.  Where the tutorial reads the
reviews from the IMDB archive, lowercases them and splits punctuation off, ``reviews``
here are already tokens (``read_reviews``: the normalised reviews of
``shared/data/tasks/docs/imdb.*``, which have no punctuation left to split).  The
tutorial's documents are its own namedtuple with ``words`` and ``tags`` (and its labels);
here they are ``TaggedDocument``s with the labels beside them.  It trains a shuffled copy
because the archive's order clumps the sentiments; these reviews are already in a random
order (the split is a hash of each review's id), so ``alldocs`` is trained as it is.
"""

import lzma
import multiprocessing
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

DOCS = Path(__file__).resolve().parents[3] / "shared" / "data" / "tasks" / "docs"
# the tutorial's models by name: PV-DBOW plain, PV-DM mean with alpha 0.05 (its third,
# PV-DM concatenation, is not among them)
MODELS = {
    "dbow": dict(dm=0),
    "dm-mean": dict(dm=1, window=10, alpha=0.05, comment="alpha=0.05"),
}
SIMILARITY_PROBES = 100  # train reviews whose re-inferred vector is looked up among all of dv
PROBE_WORDS = ("good", "awful", "movie")


class Review(NamedTuple):
    """One review: its tokens, split ('train' or 'test') and sentiment (1.0 pos, 0.0 neg)."""
    words: list
    split: str
    sentiment: float


def read_reviews(dataset="imdb", docs=DOCS, limit=None):
    """The labelled reviews of ``docs/{dataset}.{train,test}.txt.xz`` (fastText format),
    train then test; ``limit``: the first ``limit`` of each split."""
    reviews = []
    for split in ("train", "test"):
        with lzma.open(docs / f"{dataset}.{split}.txt.xz", "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                if limit is not None and number >= limit:
                    break
                label, _, text = line.rstrip("\n").partition(" ")
                reviews.append(Review(text.split(), split, 1.0 if label == "__label__pos" else 0.0))
    return reviews


def logistic_error_rate(train_regressors, train_targets, test_regressors, test_targets):
    """The tutorial's error rate: a logistic regression (scikit-learn, a benchmark-only
    dependency) fit on the train vectors, the share of test predictions that are wrong."""
    from sklearn.linear_model import LogisticRegression

    predictor = LogisticRegression(max_iter=2000).fit(train_regressors, train_targets)
    return float(np.mean(predictor.predict(test_regressors) != np.asarray(test_targets)))


def tutorial(library, reviews, models=("dbow",), epochs=20, workers=None, error_rate=logistic_error_rate,
             probes=SIMILARITY_PROBES, vector_size=100):
    """Run the tutorial with ``library.Doc2Vec`` and ``library.TaggedDocument``; per model, a
    dict of its error rates, sanity checks and stage seconds.  The tutorial's settings but
    ``epochs`` (its 20), ``workers`` (its every core) and ``vector_size`` (its 100)."""
    Doc2Vec, TaggedDocument = library.Doc2Vec, library.TaggedDocument
    cores = multiprocessing.cpu_count() if workers is None else workers
    alldocs = [TaggedDocument(review.words, [index]) for index, review in enumerate(reviews)]
    train_docs = [doc for doc, review in zip(alldocs, reviews) if review.split == "train"]
    test_docs = [doc for doc, review in zip(alldocs, reviews) if review.split == "test"]
    sentiment = {doc.tags[0]: review.sentiment for doc, review in zip(alldocs, reviews)}
    common_kwargs = dict(vector_size=vector_size, epochs=epochs, min_count=2, sample=0, workers=cores, negative=5,
                         hs=0)
    results = {}
    for name in models:
        seconds = {}
        started = time.perf_counter()
        model = Doc2Vec(**MODELS[name], **common_kwargs)
        model.build_vocab(alldocs)
        seconds["build_vocab"] = time.perf_counter() - started
        started = time.perf_counter()
        model.train(alldocs, total_examples=len(alldocs), epochs=model.epochs)
        seconds["train"] = time.perf_counter() - started

        train_regressors = [model.dv[doc.tags[0]] for doc in train_docs]
        train_targets = [sentiment[doc.tags[0]] for doc in train_docs]
        test_targets = [sentiment[doc.tags[0]] for doc in test_docs]
        error = error_rate(train_regressors, train_targets, [model.dv[doc.tags[0]] for doc in test_docs],
                           test_targets)
        started = time.perf_counter()
        inferred = [model.infer_vector(doc.words) for doc in test_docs]
        seconds["infer_test"] = time.perf_counter() - started
        inferred_error = error_rate(train_regressors, train_targets, inferred, test_targets)

        # "Are inferred vectors close to the precalculated ones?": a re-inferred train
        # review's nearest trained vector should be its own
        probed = train_docs[:: max(1, len(train_docs) // probes)][:probes]
        own_first = [model.dv.most_similar([model.infer_vector(doc.words)], topn=1)[0][0] == doc.tags[0]
                     for doc in probed]
        # "Do close documents seem more related than distant ones?": every document ranked
        sims = model.dv.most_similar(train_docs[0].tags[0], topn=len(model.dv))
        neighbours = sims[:3]
        # "Do the word vectors show useful similarities?" (for words seen more than 10 times)
        words = {word: [w for w, _ in model.wv.most_similar(word, topn=5)]
                 for word in PROBE_WORDS if word in model.wv.key_to_index and model.wv.get_vecattr(word, "count") > 10}
        results[name] = {
            "model": str(model), "documents": len(alldocs), "train_documents": len(train_docs),
            "test_documents": len(test_docs), "vocabulary": len(model.wv), "dv_rows": len(model.dv),
            "error_rate": error, "error_rate_inferred": inferred_error,
            "inferred_nearest_is_own": float(np.mean(own_first)), "probes": len(probed),
            "neighbours_of_first_train_review": [[int(tag), float(sim)] for tag, sim in neighbours],
            "ranked_documents": len(sims), "median_and_least_similarity": [float(sims[len(sims) // 2][1]),
                                                                          float(sims[-1][1])],
            "similar_words": words, "seconds": seconds,
        }
    return results
