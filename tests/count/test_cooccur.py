"""Co-occurrence counting: brute-force agreement, exact equality under a tight memory
limit (many chunks, spilled to disk), document boundaries, .npz round trip, CLI."""

import numpy as np
import pytest
import scipy.sparse

from wordvec.cli import main
from wordvec.data.cooccur import (count_cooccurrences, load_cooccurrence, parse_memory, save_cooccurrence,
                             weight_scale)
from wordvec.errors import WordvecError


def brute_force(ids, offsets, V, window, symmetric, weighting):
    """X by the definition, one pair at a time, float64."""
    X = np.zeros((V, V))
    for d in range(len(offsets) - 1):
        doc = ids[offsets[d]:offsets[d + 1]]
        for p in range(len(doc)):
            for q in range(max(0, p - window), p):
                w = 1.0 / (p - q) if weighting == "harmonic" else 1.0
                X[doc[p], doc[q]] += w
                if symmetric:
                    X[doc[q], doc[p]] += w
    return X


def zipf_corpus(V, tokens, n_docs, seed):
    rng = np.random.default_rng(seed)
    ids = ((rng.zipf(1.3, tokens) - 1) % V).astype(np.int32)
    cuts = np.sort(rng.choice(np.arange(1, tokens), n_docs - 1, replace=False))
    offsets = np.concatenate([[0], cuts, [tokens]]).astype(np.int64)
    return ids, offsets


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("weighting", ["harmonic", "uniform"])
def test_counts_match_brute_force(symmetric, weighting):
    ids, offsets = zipf_corpus(V=60, tokens=3000, n_docs=7, seed=1)
    offsets = np.insert(offsets, 3, offsets[2])  # an empty document too
    result = count_cooccurrences(ids, offsets, 60, window=4, symmetric=symmetric, weighting=weighting,
                                 dtype=np.float64)
    expected = brute_force(ids, offsets, 60, 4, symmetric, weighting)
    X = result.matrix
    assert X.shape == (60, 60) and X.dtype == np.float64 and X.has_sorted_indices
    np.testing.assert_allclose(X.toarray(), expected, rtol=1e-12, atol=0)
    assert result.pairs == sum(min(p, 4) for d in range(len(offsets) - 1)
                               for p in range(offsets[d + 1] - offsets[d]))
    if symmetric:
        assert (X != X.T).nnz == 0  # exactly symmetric: integer counts


def test_windows_stop_at_document_boundaries():
    ids = np.array([0, 1, 2, 3], np.int32)
    X = count_cooccurrences(ids, np.array([0, 2, 4]), 4, window=5).matrix.toarray()
    assert X[1, 2] == 0 and X[2, 1] == 0 and X[0, 1] == 1 and X[2, 3] == 1
    assert X.sum() == 4


def test_tiny_memory_gives_the_identical_matrix():
    # V larger than the dense table a 1MB budget allows: many chunks, most spilled.
    ids, offsets = zipf_corpus(V=3000, tokens=200_000, n_docs=40, seed=2)
    roomy = count_cooccurrences(ids, offsets, 3000, window=10, memory="2GB")
    tight = count_cooccurrences(ids, offsets, 3000, window=10, memory="1MB")
    assert tight.chunks > 10 and tight.spilled > 0
    assert roomy.matrix.nnz == tight.matrix.nnz
    for part in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(roomy.matrix, part), getattr(tight.matrix, part))


def test_exact_rational_weights():
    assert weight_scale(10, "harmonic") == 2520 and weight_scale(5, "uniform") == 1
    assert weight_scale(30, "harmonic") == 2**30  # lcm(1..30) would overflow the int32 buffer
    ids = np.array([0, 1, 2, 0], np.int32)  # 0-1 at distances 1 and 2, 0-0 at 3
    X = count_cooccurrences(ids, np.array([0, 4]), 3, window=3, dtype=np.float64).matrix
    assert X[0, 1] == 1.5 and X[0, 2] == 1.5 and X[0, 0] == 2 / 3  # 4/6 rounded once


@pytest.mark.parametrize("size, expected", [("256MB", 256 * 2**20), ("2GB", 2 * 2**30),
                                            ("1.5g", int(1.5 * 2**30)), (2**21, 2**21)])
def test_parse_memory(size, expected):
    assert parse_memory(size) == expected


@pytest.mark.parametrize("bad", ["lots", "12 parsecs", "10KB", -5])
def test_bad_memory_sizes(bad):
    with pytest.raises(WordvecError):
        parse_memory(bad)


def test_window_zero_is_refused():
    with pytest.raises(WordvecError, match="window"):
        count_cooccurrences(np.zeros(3, np.int32), np.array([0, 3]), 1, window=0)


def test_npz_round_trip_readable_by_scipy(tmp_path):
    ids, offsets = zipf_corpus(V=50, tokens=2000, n_docs=3, seed=3)
    X = count_cooccurrences(ids, offsets, 50, window=3).matrix
    words = [f"w{i}" for i in range(50)]
    save_cooccurrence(tmp_path / "X.npz", X, words, np.arange(50), window=3)
    again, words2, counts, meta = load_cooccurrence(tmp_path / "X.npz")
    assert (again != X).nnz == 0 and words2 == words and meta["window"] == 3
    assert (scipy.sparse.load_npz(tmp_path / "X.npz") != X).nnz == 0


def test_cli_cooccur(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("a b c a b\nc a b d\n")
    status = main(["cooccur", str(corpus), "-o", str(tmp_path / "X.npz"), "--window", "2",
                   "--min-count", "1", "--weighting", "uniform", "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0 and "pairs/s" in out
    X, words, counts, _ = load_cooccurrence(tmp_path / "X.npz")
    a, b = words.index("a"), words.index("b")
    assert X[a, b] == 4 and X[b, a] == 4  # 'a b' three times adjacent, once at distance 2


def test_cli_cooccur_bad_inputs(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    assert main(["cooccur", str(empty), "-o", str(tmp_path / "X.npz")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("wordvec: error:") and "empty" in err[0]
    corpus = tmp_path / "c.txt"
    corpus.write_text("a b c\n")
    assert main(["cooccur", str(corpus), "-o", str(tmp_path / "X.npz"), "--memory", "much"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "memory" in err[0]


def test_wide_windows_use_fixed_point_weights():
    ids, offsets = zipf_corpus(V=40, tokens=1500, n_docs=2, seed=4)
    X = count_cooccurrences(ids, offsets, 40, window=30, dtype=np.float64).matrix
    np.testing.assert_allclose(X.toarray(), brute_force(ids, offsets, 40, 30, True, "harmonic"), rtol=1e-8)


def test_float32_values_by_default():
    ids, offsets = zipf_corpus(V=40, tokens=1500, n_docs=2, seed=5)
    single = count_cooccurrences(ids, offsets, 40, window=5).matrix
    double = count_cooccurrences(ids, offsets, 40, window=5, dtype=np.float64).matrix
    assert single.dtype == np.float32 and np.array_equal(single.indices, double.indices)
    assert np.array_equal(single.data, double.data.astype(np.float32))


def test_ids_outside_the_vocabulary_are_refused():
    with pytest.raises(WordvecError, match="word ids"):
        count_cooccurrences(np.array([0, 5], np.int32), np.array([0, 2]), 3, window=2)
