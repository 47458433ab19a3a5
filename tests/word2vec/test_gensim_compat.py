"""gensim 4.4's documented usage, with only the import line changed, against wordvec and
against gensim: the same result shapes and, on identical loaded vectors, the same values.

Each scenario is a function of the imported names (exactly what a user's script would
import), run once with gensim's and once with wordvec's.  The Word2Vec training API
(``build_vocab(update=True)``, ``train(total_examples=...)``, callbacks) is tested in
``tests/word2vec/test_gensim_training.py``.
"""

import re

import numpy as np
import pytest
from gensim import models as gensim_models
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import cdist
from gensim.models import fasttext as gensim_fasttext
from gensim.test.utils import common_texts, datapath

import wordvec
from wordvec.models.word2vec import fasttext as wordvec_fasttext
from wordvec.serve.api import ExplorerAPI

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # gensim's own deprecated calls

DOCSTRING_WORDS = ("woman king man queen breakfast cereal dinner lunch cat dog kitten media press "
                   "sushi shop japanese restaurant computer office obama president").split()


def question_words(path):
    words = set()
    for line in open(path, encoding="utf-8"):
        if not line.startswith(":") and not line.startswith("#"):
            words.update(w.lower() for w in re.split(r"[\t ]", line.strip())[:3] if w and not _is_number(w))
    return words


def _is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


@pytest.fixture(scope="module")
def vectors_file(tmp_path_factory):
    """word2vec text vectors for the docstring's words and most words of gensim's evaluation
    sets (a fifth left out, so some questions and pairs are out of vocabulary), with
    male/female and capital/country offsets planted so some analogies are answered right."""
    rng = np.random.default_rng(11)
    words = set(DOCSTRING_WORDS) | question_words(datapath("wordsim353.tsv"))
    words |= question_words(datapath("questions-words.txt"))
    words = sorted(words)
    words = [w for i, w in enumerate(words) if i % 5 or w in DOCSTRING_WORDS]
    vectors = {w: rng.standard_normal(16) for w in words}
    gender, capital = rng.standard_normal(16) * 2, rng.standard_normal(16) * 2
    for male, female in [("king", "queen"), ("man", "woman"), ("boy", "girl"), ("he", "she"), ("son", "daughter")]:
        if male in vectors and female in vectors:
            vectors[female] = vectors[male] + gender + rng.standard_normal(16) * 0.1
    for country, city in [("france", "paris"), ("italy", "rome"), ("japan", "tokyo"), ("germany", "berlin")]:
        if country in vectors and city in vectors:
            vectors[city] = vectors[country] + capital + rng.standard_normal(16) * 0.1
    path = tmp_path_factory.mktemp("vectors") / "vectors.txt"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"{len(words)} 16\n")
        for word in words:
            handle.write(word + " " + " ".join(f"{v:.6f}" for v in vectors[word]) + "\n")
    return path


def keyedvectors_docstring(KeyedVectors, path, tmp_path):
    """gensim.models.keyedvectors' module docstring (and its methods'), on a loaded file."""
    word_vectors = KeyedVectors.load_word2vec_format(path, binary=False)  # C text format
    out = {}
    out["most_similar"] = word_vectors.most_similar(positive=["woman", "king"], negative=["man"])
    out["most_similar_cosmul"] = word_vectors.most_similar_cosmul(positive=["woman", "king"], negative=["man"])
    out["doesnt_match"] = word_vectors.doesnt_match("breakfast cereal dinner lunch".split())
    out["doesnt_match_unknown"] = word_vectors.doesnt_match("breakfast cereal dinner lunch unknownword".split())
    out["similarity"] = word_vectors.similarity("woman", "man")
    out["similar_by_word"] = word_vectors.similar_by_word("cat")
    out["distance"] = word_vectors.distance("media", "media")
    out["n_similarity"] = word_vectors.n_similarity(["sushi", "shop"], ["japanese", "restaurant"])
    out["vector_shape"] = word_vectors["computer"].shape
    out["normed_shape"] = word_vectors.get_vector("office", norm=True).shape
    out["get_mean_vector"] = word_vectors.get_mean_vector(["king", "queen", "notaword"])
    out["get_mean_vector_post"] = word_vectors.get_mean_vector(["king", "queen"], weights=[1.0, 3.0],
                                                               post_normalize=True)
    out["rank"] = word_vectors.rank("king", "queen")
    out["closer_than"] = word_vectors.closer_than("king", "queen")
    out["distances"] = word_vectors.distances("king", ["queen", "man", "cat"])
    out["distances_all"] = word_vectors.distances("king")
    out["cosine_similarities"] = KeyedVectors.cosine_similarities(word_vectors["king"], word_vectors[["man", "cat"]])
    out["normed"] = word_vectors.get_normed_vectors()
    out["has_index_for"] = (word_vectors.has_index_for("king"), word_vectors.has_index_for("notaword"))
    out["most_similar_to_given"] = word_vectors.most_similar_to_given("king", ["queen", "cat", "dinner"])
    out["relative_cosine_similarity"] = word_vectors.relative_cosine_similarity("king", "queen")
    out["rank_by_centrality"] = word_vectors.rank_by_centrality(["king", "queen", "cat", "dog"])
    out["evaluate_word_pairs"] = word_vectors.evaluate_word_pairs(datapath("wordsim353.tsv"))
    out["evaluate_word_pairs_dummy"] = word_vectors.evaluate_word_pairs(datapath("wordsim353.tsv"), dummy4unknown=True)
    out["evaluate_word_analogies"] = word_vectors.evaluate_word_analogies(datapath("questions-words.txt"))
    out["evaluate_word_analogies_dummy"] = word_vectors.evaluate_word_analogies(
        datapath("questions-words.txt"), restrict_vocab=500, dummy4unknown=True)
    word_vectors.save(str(tmp_path / "vectors.kv"))
    reloaded_word_vectors = KeyedVectors.load(str(tmp_path / "vectors.kv"))
    out["reloaded"] = reloaded_word_vectors["king"]
    # building by hand: KeyedVectors(vector_size), add_vector(s), set_vecattr / get_vecattr
    kv = KeyedVectors(4)
    kv.add_vectors(["a", "b"], np.array([[1, 0, 0, 0], [0, 1, 0, 0]], dtype=np.float32))
    kv.add_vectors(["b", "c"], np.array([[9, 9, 9, 9], [1, 1, 0, 0]], dtype=np.float32))  # b kept
    kv["d"] = np.array([0, 0, 1, 0], dtype=np.float32)
    kv.set_vecattr("c", "count", 7)
    out["built"] = (kv.index_to_key, kv.vectors.copy(), kv.get_vecattr("c", "count"), len(kv), kv.get_index("c"))
    out["built_similar"] = kv.most_similar("c", topn=2)
    return out


def same(ours, theirs, name):
    if isinstance(theirs, tuple) and theirs and hasattr(theirs[0], "statistic"):  # scipy results
        theirs, ours = [(r[0], r[1]) if hasattr(r, "statistic") else r for r in theirs], \
            [(r[0], r[1]) if hasattr(r, "statistic") else r for r in ours]
    if isinstance(theirs, (list, tuple)) and not isinstance(theirs, np.ndarray):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), name
        for a, b in zip(ours, theirs):
            same(a, b, name)
    elif isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), name
        for key in theirs:
            same(ours[key], theirs[key], f"{name}[{key}]")
    elif isinstance(theirs, (str, bool, np.bool_)) or theirs is None:
        assert ours == theirs, name
    else:
        assert np.shape(ours) == np.shape(theirs), name
        np.testing.assert_allclose(np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64),
                                   atol=2e-6, rtol=1e-5, err_msg=name)


def test_keyedvectors_documented_usage_gives_gensims_results(vectors_file, tmp_path):
    (tmp_path / "gensim").mkdir()
    theirs = keyedvectors_docstring(gensim_models.KeyedVectors, vectors_file, tmp_path / "gensim")
    ours = keyedvectors_docstring(wordvec.KeyedVectors, vectors_file, tmp_path / "wordvec")
    assert ours.keys() == theirs.keys()
    for name in theirs:
        same(ours[name], theirs[name], name)
    score, sections = ours["evaluate_word_analogies"]
    assert sections[-1]["section"] == "Total accuracy" and len(sections[-1]["correct"]) > 0  # planted ones
    assert 0 < ours["evaluate_word_pairs"][2] < 100  # some pairs out of vocabulary: the OOV ratio in percent
    assert ours["doesnt_match"] in "breakfast cereal dinner lunch".split()


def test_unit_similarity_defaults_as_gensim():
    kv = wordvec.KeyedVectors(3)
    kv.add_vectors(["x", "y", "z"], np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1]], dtype=np.float32))
    unit = kv.get_normed_vectors()
    shifted = (1 + unit @ unit.T) / 2
    expected = shifted[1] * shifted[2] / (shifted[0] + 1e-6)  # gensim's epsilon
    np.testing.assert_allclose(kv.most_similar_cosmul(["y", "z"], ["x"], topn=None), expected, rtol=1e-6)
    with pytest.raises(ValueError, match="empty list"):
        kv.doesnt_match(["unknown1", "unknown2"])


def facebook_vectors_docstring(load_facebook_vectors):
    """gensim.models.fasttext's docstring on fastText's crime-and-punishment model."""
    cap_path = datapath("crime-and-punishment.bin")
    wv = load_facebook_vectors(cap_path)
    out = {"landlord_in_vocab": "landlord" in wv.key_to_index, "landlord_in": "landlord" in wv,
           "oov_vector": wv["landlord"], "landlady_in_vocab": "landlady" in wv.key_to_index,
           "iv_vector": wv["landlady"], "similar_oov": wv.most_similar("landlord", topn=5),
           "similar": wv.most_similar(positive=["landlady", "he"], negative=["she"], topn=5),
           "similarity": wv.similarity("landlord", "landlady"), "size": (len(wv), wv.vector_size)}
    out["vectors"] = wv.vectors[[wv.key_to_index[w] for w in wv.index_to_key if w != "</s>"]]
    return out


def test_facebook_vectors_documented_usage_gives_gensims_results():
    theirs = facebook_vectors_docstring(gensim_fasttext.load_facebook_vectors)
    ours = facebook_vectors_docstring(wordvec_fasttext.load_facebook_vectors)
    for name in theirs:
        same(ours[name], theirs[name], name)
    assert ours["landlord_in"] and not ours["landlord_in_vocab"] and ours["landlady_in_vocab"]


def test_line_end_token_follows_fasttext_not_gensim():
    """fastText gives </s> no n-grams; gensim composes it like any word (a gensim divergence)."""
    fasttext = pytest.importorskip("fasttext")
    path = datapath("crime-and-punishment.bin")
    ours = wordvec_fasttext.load_facebook_vectors(path)
    np.testing.assert_allclose(ours["</s>"], fasttext.load_model(path).get_word_vector("</s>"), atol=1e-7)


def fasttext_docstring(FastText, tmp_path):
    """gensim's FastText docstring, the parts outside the training API, on lee_background.cor."""
    model = FastText(vector_size=4, window=3, min_count=1, corpus_file=datapath("lee_background.cor"), epochs=1)
    fname = str(tmp_path / "fasttext.model")
    model.save(fname)
    model = FastText.load(fname)
    existent_word = "computer"
    oov_word = "graph-out-of-vocab"
    return {"existent": existent_word in model.wv.key_to_index, "computer_vec": model.wv[existent_word].shape,
            "oov_in_vocab": oov_word in model.wv.key_to_index, "oov_in": oov_word in model.wv,
            "oov_vec": model.wv[oov_word].shape,
            "similar": [type(x).__name__ for pair in model.wv.most_similar(
                positive=["computer", "human"], negative=["interface"]) for x in pair],
            "similar_cosmul": len(model.wv.most_similar_cosmul(positive=["computer", "human"],
                                                              negative=["interface"])),
            "vector_size": model.wv.vector_size, "words": len(model.wv)}


def test_fasttext_documented_usage_gives_gensims_shapes(tmp_path):
    for name in ("gensim", "wordvec"):
        (tmp_path / name).mkdir()
    theirs = fasttext_docstring(gensim_models.FastText, tmp_path / "gensim")
    ours = fasttext_docstring(wordvec.FastText, tmp_path / "wordvec")
    assert ours == theirs


def test_fasttext_docstring_on_common_texts(caplog):
    """gensim's 9-sentence toy corpus: subsampling drops every word in some epochs; like
    gensim, wordvec trains on (with a warning per empty epoch) instead of refusing."""
    model2 = wordvec.FastText(vector_size=4, window=3, min_count=1, sentences=common_texts, epochs=10, progress=False)
    assert model2.wv["computer"].shape == (4,)
    empty = [h for h in model2.history if h["examples"] == 0]
    assert all(h["loss"] == 0.0 for h in empty)
    assert len([r for r in caplog.records if "trained no example" in r.getMessage()]) == len(empty)


def test_facebook_model_round_trip_through_gensim_and_fasttext(tmp_path):
    model = wordvec.FastText(corpus_file=datapath("lee_background.cor"), vector_size=8, min_count=2, bucket=5000,
                             epochs=1, progress=False)
    wordvec_fasttext.save_facebook_model(model, tmp_path / "model.bin")
    gensim_model = gensim_fasttext.load_facebook_model(str(tmp_path / "model.bin"))
    np.testing.assert_allclose(gensim_model.wv["government"], model.wv["government"], atol=1e-6)
    np.testing.assert_allclose(gensim_model.wv["governmentality"], model.wv["governmentality"], atol=1e-6)
    reloaded = wordvec_fasttext.load_facebook_model(tmp_path / "model.bin")
    assert isinstance(reloaded, wordvec.FastText) and reloaded.describe() == model.describe()
    np.testing.assert_array_equal(reloaded.W_out, model.W_out)
    np.testing.assert_allclose(reloaded.wv.vectors, model.wv.vectors, atol=1e-7)
    gensim_fasttext.save_facebook_model(gensim_model, str(tmp_path / "by_gensim.bin"))
    np.testing.assert_allclose(wordvec_fasttext.load_facebook_vectors(tmp_path / "by_gensim.bin")["government"],
                               gensim_model.wv["government"], atol=1e-6)


def test_phrases_documented_usage_through_the_front_door():
    from gensim.models.phrases import ENGLISH_CONNECTOR_WORDS, Phrases
    from gensim.models.word2vec import Text8Corpus

    sentences = Text8Corpus(datapath("testcorpus.txt"))
    theirs = Phrases(sentences, min_count=1, threshold=1, connector_words=ENGLISH_CONNECTOR_WORDS)
    ours = wordvec.Phrases(sentences, min_count=1, threshold=1, connector_words=ENGLISH_CONNECTOR_WORDS)
    sent = ["trees", "graph", "minors"]
    assert ours[sent] == theirs[sent] == ["trees_graph", "minors"]
    assert ours.freeze()[sent] == theirs.freeze()[sent]
    assert ours.export_phrases() == theirs.export_phrases()


def test_fasttext_refuses_what_it_cannot_honour():
    with pytest.raises(wordvec.WordvecError, match="word_ngrams=2"):
        wordvec.FastText(word_ngrams=2)


def test_fasttext_takes_gensims_vocabulary_options_and_grows():
    """trim_rule, max_final_vocab, sorted_vocab and shrink_windows as Word2Vec takes them;
    build_vocab(update=True) gives the new words their n-gram lists."""
    def rule(word, count, min_count):
        return 2 if word == "trees" else 0  # gensim's RULE_KEEP, RULE_DEFAULT

    model = wordvec.FastText(common_texts, vector_size=4, min_count=2, max_final_vocab=5, sorted_vocab=0,
                             shrink_windows=False, trim_rule=rule, bucket=100, sample=0, epochs=2, progress=False)
    assert len(model.wv) <= 6 and "trees" in model.wv.key_to_index and model.sorted_vocab == 0
    model.build_vocab([["graph", "minors", "survey", "treelike"]] * 3, update=True)
    model.train([["graph", "minors", "survey", "treelike"]] * 3, total_examples=3, epochs=1)
    assert "treelike" in model.wv.key_to_index and np.isfinite(model.wv["treelike"]).all()


def test_serve_answers_an_unseen_word_of_a_subword_model_as_similar_does():
    kv = wordvec_fasttext.load_facebook_vectors(datapath("crime-and-punishment.bin"))
    status, answer = ExplorerAPI(kv).handle("neighbours", {"word": "landlord", "topn": "3"})
    expected = [w for w, _ in kv.most_similar("landlord", topn=3)]
    assert status == 200 and [n["word"] for n in answer["neighbours"]] == expected
    status, answer = ExplorerAPI(kv).handle("similarity", {"word1": "landlord", "word2": "landlady"})
    assert status == 200 and answer["similarity"] == pytest.approx(kv.similarity("landlord", "landlady"), abs=1e-6)
    plain = wordvec.KeyedVectors(kv.index_to_key, kv.vectors)
    assert ExplorerAPI(plain).handle("neighbours", {"word": "landlord"})[0] == 404  # no n-grams, no answer


def test_save_and_load_word2vec_format_with_gensims_arguments(tmp_path):
    words = ["a", "b", "c", "d"]
    vectors = np.random.default_rng(3).standard_normal((4, 3)).astype(np.float32)
    counts = [5, 9, 1, 9]
    files = {}
    for name, cls in (("gensim", gensim_models.KeyedVectors), ("wordvec", wordvec.KeyedVectors)):
        kv = cls(3)
        kv.add_vectors(words, vectors)
        for word, count in zip(words, counts):
            kv.set_vecattr(word, "count", count)
        kv.save_word2vec_format(str(tmp_path / f"{name}.txt"), fvocab=str(tmp_path / f"{name}.vocab"), prefix="x_")
        kv.save_word2vec_format(str(tmp_path / f"{name}.bin"), binary=True)
        files[name] = kv
    assert (tmp_path / "wordvec.vocab").read_bytes() == (tmp_path / "gensim.vocab").read_bytes()
    for writer in ("gensim", "wordvec"):
        theirs = gensim_models.KeyedVectors.load_word2vec_format(str(tmp_path / f"{writer}.txt"),
                                                                 fvocab=str(tmp_path / f"{writer}.vocab"))
        ours = wordvec.KeyedVectors.load_word2vec_format(tmp_path / f"{writer}.txt", fvocab=tmp_path / f"{writer}.vocab")
        assert ours.index_to_key == theirs.index_to_key == ["x_b", "x_d", "x_a", "x_c"]  # by count, stable
        np.testing.assert_allclose(ours.vectors, theirs.vectors, atol=1e-6)
        assert [ours.get_vecattr(w, "count") for w in ours.index_to_key] == \
            [theirs.get_vecattr(w, "count") for w in theirs.index_to_key] == [9, 9, 5, 1]
        binary = wordvec.KeyedVectors.load_word2vec_format(tmp_path / f"{writer}.bin", binary=True)
        assert binary.index_to_key == ["b", "d", "a", "c"]
    # binary: wordvec ends each row with "\n" as word2vec.c does (gensim does not); both read both
    theirs = gensim_models.KeyedVectors.load_word2vec_format(str(tmp_path / "wordvec.bin"), binary=True)
    assert theirs.index_to_key == ["b", "d", "a", "c"] and np.array_equal(theirs["a"], vectors[0])
    with pytest.raises(wordvec.WordvecError, match="append"):
        files["wordvec"].save_word2vec_format(tmp_path / "more.txt", append=True)


def test_wmdistance_is_the_optimal_transport_of_the_word_bags():
    """With equal-size bags of distinct words the transport is an assignment: an independent oracle."""
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(40)]
    vectors = rng.standard_normal((40, 6)).astype(np.float32)
    kv = wordvec.KeyedVectors(words, vectors)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for first, second in ([1, 2, 3, 4], [5, 6, 7, 1]), ([10, 11, 12], [13, 14, 15]):
        costs = cdist(unit[first].astype(np.float64), unit[second].astype(np.float64))
        rows, cols = linear_sum_assignment(costs)
        expected = costs[rows, cols].sum() / len(first)
        got = kv.wmdistance([words[i] for i in first], [words[i] for i in second] + ["unknown"])
        assert got == pytest.approx(expected, abs=1e-9)
    raw = kv.wmdistance(["w1", "w1", "w2"], ["w3"], norm=False)  # all mass moves to w3: weighted distances
    assert raw == pytest.approx((2 * np.linalg.norm(vectors[1] - vectors[3]) + np.linalg.norm(vectors[2] - vectors[3]))
                                / 3, rel=1e-6)
    assert kv.wmdistance(["w1"], ["w1", "w1"]) == 0.0 and kv.wmdistance(["nope"], ["w1"]) == float("inf")


def test_gensim_3_names_fail_with_gensim_4s_pointers():
    kv = wordvec.KeyedVectors(["a"], np.ones((1, 2)))
    for name, hint in (("vocab", "key_to_index"), ("index2word", "index_to_key"), ("vectors_norm", "get_normed")):
        with pytest.raises(AttributeError, match=hint):
            getattr(kv, name)
    kv.allocate_vecattrs(["flag"], [np.int8])
    kv.set_vecattr("a", "flag", 3)
    assert kv.get_vecattr("a", "flag") == 3 and kv.expandos["flag"].dtype == np.int8
