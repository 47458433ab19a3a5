"""KeyedVectors: lookup, cosine queries and analogies, checked against brute force and gensim."""

import numpy as np
import pytest
from gensim.models import KeyedVectors as GensimKeyedVectors

from wordvec.errors import VocabularyError, WordvecError
from wordvec.vectors.keyed import KeyedVectors


def random_vectors(n_words=200, dims=16, seed=0):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(n_words)]
    return words, rng.standard_normal((n_words, dims)).astype(np.float32)


def gensim_twin(words, vectors):
    twin = GensimKeyedVectors(vectors.shape[1])
    twin.add_vectors(words, vectors)
    return twin


def planted_analogies():
    """Vectors where king - man + woman is exactly queen: word = concept + gender."""
    rng = np.random.default_rng(3)
    concept = {name: rng.standard_normal(24) for name in ("person", "royal", "child")}
    gender = {"m": rng.standard_normal(24), "f": rng.standard_normal(24)}
    table = {"man": ("person", "m"), "woman": ("person", "f"), "king": ("royal", "m"),
             "queen": ("royal", "f"), "boy": ("child", "m"), "girl": ("child", "f")}
    words = list(table) + [f"filler{i}" for i in range(40)]
    vectors = [concept[c] + gender[g] for c, g in table.values()] + list(rng.standard_normal((40, 24)) * 1.5)
    return KeyedVectors(words, np.array(vectors, dtype=np.float32))


def brute_force_most_similar(words, vectors, positive, negative, topn):
    """Reference: one cosine at a time, in float64."""
    unit = {w: v / np.linalg.norm(v) for w, v in zip(words, vectors.astype(np.float64))}
    query = sum(unit[w] for w in positive) - sum(unit[w] for w in negative)
    query /= np.linalg.norm(query)
    scored = [(w, float(unit[w] @ query)) for w in words if w not in positive + negative]
    return sorted(scored, key=lambda pair: -pair[1])[:topn]


def test_lookup_attributes_follow_gensim_names():
    words, vectors = random_vectors(5, 3)
    kv = KeyedVectors(words, vectors, counts=[5, 4, 3, 2, 1])
    assert len(kv) == 5 and kv.vector_size == 3
    assert kv.index_to_key == words and kv.key_to_index["w3"] == 3
    assert "w2" in kv and "nope" not in kv
    np.testing.assert_array_equal(kv["w1"], vectors[1])
    np.testing.assert_array_equal(kv[["w0", "w4"]], vectors[[0, 4]])
    np.testing.assert_allclose(np.linalg.norm(kv.get_vector("w2", norm=True)), 1.0, rtol=1e-6)
    assert kv.counts.tolist() == [5, 4, 3, 2, 1]


def test_unknown_word_names_the_word():
    kv = KeyedVectors(*random_vectors(5, 3))
    for call in (lambda: kv["zebra"], lambda: kv.most_similar("zebra"), lambda: kv.similarity("w0", "zebra"),
                 lambda: kv.analogy("w0", "w1", "zebra")):
        with pytest.raises(VocabularyError, match="'zebra'"):
            call()


@pytest.mark.parametrize("args, problem", [
    ((["a", "b"], np.zeros((3, 2))), "2 words but 3 vectors"),
    ((["a", "a"], np.zeros((2, 2))), "more than once"),
    ((["a"], np.zeros(2)), "2-D"),
    ((["a", "b"], np.zeros((2, 2)), [1]), "counts"),
])
def test_inconsistent_construction_is_rejected(args, problem):
    with pytest.raises(WordvecError, match=problem):
        KeyedVectors(*args)


def test_most_similar_matches_brute_force():
    words, vectors = random_vectors()
    kv = KeyedVectors(words, vectors)
    for positive, negative in ((["w1"], []), (["w1", "w7"], ["w3"]), (["w10", "w11", "w12"], ["w0", "w5"])):
        ours = kv.most_similar(positive=positive, negative=negative, topn=7)
        reference = brute_force_most_similar(words, vectors, positive, negative, 7)
        assert [w for w, _ in ours] == [w for w, _ in reference]
        np.testing.assert_allclose([s for _, s in ours], [s for _, s in reference], atol=1e-5)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # gensim's cosmul calls its own init_sims
def test_queries_match_gensim():
    words, vectors = random_vectors(300, 20, seed=1)
    kv, twin = KeyedVectors(words, vectors), gensim_twin(words, vectors)

    def same(ours, theirs):
        assert [w for w, _ in ours] == [w for w, _ in theirs]
        np.testing.assert_allclose([s for _, s in ours], [s for _, s in theirs], atol=1e-5)

    same(kv.most_similar("w4", topn=10), twin.most_similar("w4", topn=10))
    same(kv.most_similar(positive=["w4", "w9"], negative=["w2"], topn=5, restrict_vocab=100),
         twin.most_similar(positive=["w4", "w9"], negative=["w2"], topn=5, restrict_vocab=100))
    same(kv.most_similar(positive=["w4", vectors[17]], topn=5), twin.most_similar(positive=["w4", vectors[17]], topn=5))
    same(kv.similar_by_vector(vectors[8] * 3, topn=5), twin.similar_by_vector(vectors[8] * 3, topn=5))
    same(kv.most_similar_cosmul(positive=["w1", "w2"], negative=["w3"], topn=6, epsilon=1e-6),
         twin.most_similar_cosmul(positive=["w1", "w2"], negative=["w3"], topn=6))
    np.testing.assert_allclose(kv.most_similar("w5", topn=None), twin.most_similar("w5", topn=None), atol=1e-6)
    assert kv.similarity("w1", "w2") == pytest.approx(float(twin.similarity("w1", "w2")), abs=1e-6)
    group = ["w1", "w2", "w3", "w4", "w5", "w6"]
    assert kv.doesnt_match(group) == twin.doesnt_match(group)


def test_restrict_vocab_searches_only_the_first_words():
    kv = KeyedVectors(*random_vectors(100, 8))
    result = kv.most_similar("w50", topn=20, restrict_vocab=10)
    assert len(result) == 10 and all(int(w[1:]) < 10 for w, _ in result)


def test_analogies_solve_planted_relations_with_both_methods():
    kv = planted_analogies()
    for method in ("3cosadd", "3cosmul"):
        assert kv.analogy("man", "king", "woman", method=method)[0][0] == "queen"
        assert kv.analogy("king", "man", "queen", method=method)[0][0] == "woman"
        assert kv.analogy("man", "boy", "woman", method=method, topn=3)[0][0] == "girl"
    with pytest.raises(WordvecError, match="method"):
        kv.analogy("man", "king", "woman", method="3cosdiv")


def test_cosmul_is_levy_goldberg_formula():
    words, vectors = random_vectors(50, 6, seed=4)
    kv = KeyedVectors(words, vectors)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    shifted = lambda w: (1 + unit @ unit[words.index(w)]) / 2  # noqa: E731
    expected = shifted("w2") * shifted("w3") / (shifted("w1") + 1e-3)
    np.testing.assert_allclose(kv.most_similar_cosmul(["w2", "w3"], ["w1"], topn=None, epsilon=1e-3), expected,
                               rtol=1e-5)
    gensims = shifted("w2") * shifted("w3") / (shifted("w1") + 1e-6)  # the default epsilon is gensim's
    np.testing.assert_allclose(kv.most_similar_cosmul(["w2", "w3"], ["w1"], topn=None), gensims, rtol=1e-5)


def test_unit_norm_cache_follows_reassignment():
    words, vectors = random_vectors(20, 4)
    kv = KeyedVectors(words, vectors)
    before = kv.most_similar("w0", topn=1)
    kv.vectors = vectors[::-1].copy()
    assert kv.unit_vectors[0] @ kv.vectors[0] > 0
    np.testing.assert_allclose(kv.get_vector("w0", norm=True), vectors[-1] / np.linalg.norm(vectors[-1]), rtol=1e-6)
    kv.vectors[:] = vectors  # in place: the cache is stale until reset
    kv.reset_norms()
    assert kv.most_similar("w0", topn=1) == before


def test_zero_vectors_do_not_produce_nan():
    words, vectors = random_vectors(10, 4)
    vectors[3] = 0
    scores = KeyedVectors(words, vectors).most_similar("w0", topn=None)
    assert np.isfinite(scores).all() and scores[3] == 0


def test_topn_edge_cases():
    kv = KeyedVectors(*random_vectors(10, 4))
    assert kv.most_similar("w0", topn=0) == []
    everything = kv.most_similar("w0", topn=100)
    assert len(everything) == 9 and "w0" not in dict(everything)
    scores = [s for _, s in everything]
    assert scores == sorted(scores, reverse=True)
    with pytest.raises(WordvecError, match="at least one"):
        kv.most_similar()
