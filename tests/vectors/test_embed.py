"""Sentence embeddings: the compiled pooling against NumPy, the three poolings against their
formulas written out directly, subword vectors for unseen words, the counts file, the CLI."""

import numpy as np
import pytest
from tests.numerics import assert_float32_close

from wordvec.cli import main
from wordvec.errors import FormatError, WordvecError
from wordvec.kernels import pooling as kernels
from wordvec.vectors import embed
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors

V, D = 12, 8
WORDS = [f"w{i}" for i in range(V)]


def _kv(seed=0, counts=True):
    rng = np.random.default_rng(seed)
    return KeyedVectors(WORDS, rng.normal(size=(V, D)).astype(np.float32),
                        counts=(np.arange(V, 0, -1) * 10) if counts else None)


SENTENCES = [["w0", "w3", "w3", "w7"], [], ["unknown", "w11"], ["w5"], ["nope"]]


def test_kernel_equals_numpy_weighted_means():
    rng = np.random.default_rng(1)
    W = rng.normal(size=(V, D)).astype(np.float32)
    weights = rng.random(V).astype(np.float32)
    lengths = [3, 0, 5, 1]
    ids = rng.integers(0, V, size=sum(lengths)).astype(np.int32)
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    out, mean_w = np.full((4, D), 7, np.float32), np.zeros(4)
    kernels.weighted_means(ids, offsets, weights, W, out, mean_w)
    for s in range(4):
        rows = ids[offsets[s]:offsets[s + 1]]
        expected = (weights[rows, None] * W[rows]).mean(axis=0) if rows.size else np.zeros(D)
        np.testing.assert_allclose(out[s], expected, rtol=1e-5, atol=1e-6)
        assert mean_w[s] == pytest.approx(weights[rows].mean() if rows.size else 0.0, rel=1e-6)


def test_mean_pooling_averages_the_known_words_and_zeroes_empty_sentences():
    kv = _kv()
    E = kv.embed(SENTENCES, pooling="mean")
    assert_float32_close(E[0], kv[["w0", "w3", "w3", "w7"]].mean(axis=0))
    np.testing.assert_array_equal(E[1], 0)
    np.testing.assert_allclose(E[2], kv["w11"], rtol=1e-6)
    np.testing.assert_array_equal(E[4], 0)


def test_sif_is_arora_weights_then_first_component_removed():
    kv = _kv(2)
    counts = {w: c for w, c in zip(WORDS, [500, 300, 200, 100, 50, 40, 30, 20, 10, 5, 2, 1])}
    sentences = [["w0", "w1", "w5"], ["w2", "w9"], ["w3", "w0", "w0"], ["w11", "w4"], ["w6", "w7", "w8"]]
    E = kv.embed(sentences, pooling="sif", counts=counts, sif_a=0.01)
    total = sum(counts.values())
    direct = np.stack([np.mean([0.01 / (0.01 + counts[w] / total) * kv[w] for w in s], axis=0) for s in sentences])
    u = np.linalg.svd(direct.astype(np.float64))[2][0]
    expected = direct - np.outer(direct @ u, u)
    np.testing.assert_allclose(E, expected, rtol=1e-4, atol=1e-5)
    assert np.abs(E @ u).max() < 1e-5


def test_zipf_is_pca_rotation_then_log_rank_weights():
    kv = _kv(3)  # counts descending with the row, so rank r is row r - 1
    sentences = [["w0", "w4"], ["w10", "w2", "w2"]]
    E = kv.embed(sentences, pooling="zipf")
    W = kv.vectors.astype(np.float64)
    centred = W - W.mean(axis=0)
    rotated = centred @ np.linalg.svd(centred, full_matrices=False)[2].T
    weight = np.log1p(np.arange(1, V + 1))
    expected = [np.mean([weight[int(w[1:])] * rotated[int(w[1:])] for w in s], axis=0) for s in sentences]
    np.testing.assert_allclose(E, np.stack(expected), rtol=1e-4, atol=1e-5)


def test_without_counts_frequencies_follow_zipfs_law_over_the_order():
    p = embed.frequencies(WORDS)
    np.testing.assert_allclose(p[0] / p[3], 4.0)
    plain, ordered = _kv(4, counts=False), _kv(4)
    assert not np.allclose(plain.embed([["w0", "w9"]], "sif", remove_pc=0),
                           ordered.embed([["w0", "w9"]], "sif", remove_pc=0))


def test_subword_vectors_give_unseen_words_a_vector():
    rng = np.random.default_rng(5)
    kv = SubwordKeyedVectors(WORDS, rng.normal(size=(V, D)), rng.normal(size=(50, D)), 3, 4, 50)
    E = kv.embed([["w1", "unseenword"]], pooling="mean")
    assert_float32_close(E[0], (kv["w1"] + kv.get_vector("unseenword")) / 2)


def test_bad_arguments_are_one_sentence():
    kv = _kv()
    with pytest.raises(WordvecError, match="pooling must be one of"):
        kv.embed([["w1"]], pooling="max")
    with pytest.raises(WordvecError, match="sentence 0 is a string"):
        kv.embed(["w1 w2"])


def test_counts_file_reads_and_names_the_bad_line(tmp_path):
    good = tmp_path / "counts.txt"
    good.write_text("w0 10\nw1 3\n\n")
    assert embed.read_counts(good) == {"w0": 10, "w1": 3}
    bad = tmp_path / "bad.txt"
    bad.write_text("w0 10\nw1 three\n")
    with pytest.raises(FormatError, match=r"bad.txt, line 2: the count of 'w1'"):
        embed.read_counts(bad)
    bad.write_text("w0 10 7\n")
    with pytest.raises(FormatError, match="line 1: expected 'word count'"):
        embed.read_counts(bad)


def test_cli_embed_writes_one_row_per_line(tmp_path, capsys):
    kv = _kv(6)
    kv.save_word2vec_format(tmp_path / "v.txt")
    (tmp_path / "s.txt").write_text("w0 w3\n\nw5 zzz\n")
    (tmp_path / "c.txt").write_text("".join(f"{w} {c}\n" for w, c in zip(WORDS, range(100, 0, -8))))
    assert main(["embed", str(tmp_path / "v.txt"), str(tmp_path / "s.txt"), "-o", str(tmp_path / "e.npy")]) == 0
    E = np.load(tmp_path / "e.npy", allow_pickle=False)
    assert E.shape == (3, D)
    assert_float32_close(E[0], (kv["w0"] + kv["w3"]) / 2)
    assert main(["embed", str(tmp_path / "v.txt"), str(tmp_path / "s.txt"), "-o", str(tmp_path / "f.npy"),
                 "--pooling", "sif", "--counts", str(tmp_path / "c.txt")]) == 0
    (tmp_path / "c.txt").write_text("w0 ten\n")
    assert main(["embed", str(tmp_path / "v.txt"), str(tmp_path / "s.txt"), "-o", str(tmp_path / "g.npy"),
                 "--counts", str(tmp_path / "c.txt")]) == 2
    err = capsys.readouterr().err
    assert "c.txt, line 1" in err and "Traceback" not in err
    assert not (tmp_path / "g.npy").exists()
