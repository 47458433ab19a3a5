import collections
import heapq

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordvec.data.corpus import Corpus
from wordvec.errors import FormatError, VocabularyError, WordvecError
from wordvec.data.huffman import build_huffman
from wordvec.data.vocab import Vocabulary, alias_table


def write(tmp_path, text, name="c.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_counts_sorted_descending_with_stable_ties(tmp_path):
    path = write(tmp_path, "b a c a\nd b c e\nc\n")
    vocab = Vocabulary.build(Corpus(path), min_count=1)
    assert vocab.words == ["c", "b", "a", "d", "e"]  # b before a: both 2, b seen first
    assert vocab.counts.tolist() == [3, 2, 2, 1, 1]
    assert vocab.id("a") == 2 and "z" not in vocab and vocab.total == 9


def test_file_and_iterable_paths_agree(tmp_path):
    rng = np.random.default_rng(0)
    docs = [[f"w{int(x)}" for x in rng.zipf(1.5, size=rng.integers(1, 40)) % 300] for _ in range(200)]
    path = write(tmp_path, "\n".join(" ".join(d) for d in docs) + "\n")
    from_file = Vocabulary.build(Corpus(path), min_count=2)
    from_docs = Vocabulary.build(Corpus(docs), min_count=2)
    assert from_file.words == from_docs.words
    assert from_file.counts.tolist() == from_docs.counts.tolist()
    expected = collections.Counter(w for d in docs for w in d)
    assert dict(zip(from_file.words, from_file.counts.tolist())) == {w: c for w, c in expected.items() if c >= 2}


def test_min_count_and_empty_errors(tmp_path):
    with pytest.raises(WordvecError, match="vocabulary is empty"):
        Vocabulary.build(Corpus(write(tmp_path, "a b c\n")), min_count=2)
    with pytest.raises(WordvecError, match="corpus is empty"):
        Vocabulary.build(Corpus(write(tmp_path, "\n\n   \n", "empty.txt")), min_count=1)


def test_max_vocab_size_prunes_during_counting_like_gensim(tmp_path):
    docs = [["common"] * 5 + [f"rare{i}"] for i in range(100)]
    path = write(tmp_path, "\n".join(" ".join(d) for d in docs))
    for corpus in (Corpus(path), Corpus(docs)):
        vocab = Vocabulary.build(corpus, min_count=1, max_vocab_size=10)
        assert "common" in vocab and len(vocab) <= 10
        assert vocab.counts[vocab.id("common")] == 500
        assert vocab.corpus_tokens == 600


def test_many_distinct_words_grow_the_table(tmp_path):
    words = [f"token{i}" for i in range(70_000)]
    vocab = Vocabulary.build(Corpus(write(tmp_path, " ".join(words + words[:10]))), min_count=1)
    assert len(vocab) == 70_000
    assert vocab.counts[:10].tolist() == [2] * 10 and vocab.words[:10] == words[:10]


@pytest.mark.parametrize("suffix", [".json", ".tsv"])
def test_save_load_round_trip(tmp_path, suffix):
    vocab = Vocabulary.from_counts({"x": 3, "été": 5, "y": 3})
    path = tmp_path / f"vocab{suffix}"
    vocab.save(path)
    loaded = Vocabulary.load(path)
    assert loaded.words == ["été", "x", "y"] and loaded.counts.tolist() == [5, 3, 3]


def test_malformed_tsv_names_the_line(tmp_path):
    path = write(tmp_path, "a\t3\nb three\n", "v.tsv")
    with pytest.raises(FormatError, match=r"v.tsv, line 2"):
        Vocabulary.load(path)


def test_unknown_word_error():
    with pytest.raises(VocabularyError, match="'nope' is not in the vocabulary"):
        Vocabulary.from_counts({"a": 1}).id("nope")


def test_keep_probability_matches_word2vec_formula():
    vocab = Vocabulary.from_counts({"the": 1000, "cat": 10, "a": 1})
    keep = vocab.keep_probability(1e-2)
    t = 1e-2 * 1011
    assert keep[0] == pytest.approx((np.sqrt(1000 / t) + 1) * t / 1000)
    assert keep[1] == 1.0 and keep[2] == 1.0
    assert np.all(vocab.keep_probability(0) == 1)


def test_noise_distribution_is_unigram_to_the_three_quarters():
    vocab = Vocabulary.from_counts({"a": 16, "b": 1})
    p = vocab.noise_distribution(0.75)
    assert p[0] / p[1] == pytest.approx(8.0) and p.sum() == pytest.approx(1.0)


def test_alias_table_samples_the_distribution():
    p = np.array([0.5, 0.25, 0.125, 0.125, 0.0])
    accept, alias = alias_table(p)
    rng = np.random.default_rng(1)
    k = rng.integers(0, p.size, 400_000)
    draws = np.where(rng.random(k.size) < accept[k], k, alias[k])
    freq = np.bincount(draws, minlength=p.size) / draws.size
    np.testing.assert_allclose(freq, p, atol=3e-3)
    assert freq[4] == 0


def optimal_weighted_length(counts):
    heap = list(map(int, counts))
    heapq.heapify(heap)
    total = 0
    while len(heap) > 1:
        merged = heapq.heappop(heap) + heapq.heappop(heap)
        total += merged
        heapq.heappush(heap, merged)
    return total


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 1000), min_size=2, max_size=60))
def test_huffman_codes_are_prefix_free_and_optimal(counts):
    tree = build_huffman(counts)
    codes = [tree.code(w) for w in range(len(counts))]
    assert len(set(codes)) == len(codes)
    for a in codes:
        assert not any(b != a and b.startswith(a) for b in codes)
    assert sum(c * len(code) for c, code in zip(counts, codes)) == optimal_weighted_length(counts)
    # every path starts at the root (V-2) and uses inner nodes 0..V-2
    assert all(tree.points[w, 0] == len(counts) - 2 for w in range(len(counts)))
    assert tree.points.max() <= len(counts) - 2 and tree.points.min() >= 0
    # a parent is made after its children: down every path the rows fall, so the nodes
    # nearest the root are a path's first ones (the HS kernels' top block relies on it)
    for w in range(len(counts)):
        path = tree.points[w, :tree.lengths[w]]
        assert np.all(np.diff(path) < 0)


def test_huffman_paths_are_consistent_tree_edges():
    counts = [50, 30, 10, 5, 3, 2]
    tree = build_huffman(counts)
    seen = {}  # (node, branch) -> next node or leaf; must never conflict
    for w in range(len(counts)):
        n = tree.lengths[w]
        for level in range(n):
            key = (int(tree.points[w, level]), int(tree.codes[w, level]))
            nxt = ("leaf", w) if level == n - 1 else ("node", int(tree.points[w, level + 1]))
            assert seen.setdefault(key, nxt) == nxt
    assert tree.lengths[0] < tree.lengths[5]


def test_huffman_breaks_ties_like_word2vec_c():
    # After merging the two 1s into a node of weight 2, word2vec.c takes that node before
    # the equal leaf: the last 2 ends one level deeper than the first (a balanced tree
    # would give every word depth 2).
    assert build_huffman([2, 2, 1, 1]).lengths.tolist() == [1, 2, 3, 3]
