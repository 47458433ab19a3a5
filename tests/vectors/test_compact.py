"""Compact storage (wordvec.vectors.compact): int8 codes with a per-row scale, float16,
--dims truncation and the --pca rotation; queries on the compact form; saves that map;
`wordvec convert --dtype` and `wordvec evaluate --dtype` (before/after in one table)."""

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.vectors import compact
from wordvec.vectors.compact import CompactConfig, CompactKeyedVectors
from wordvec.vectors.evaluate import bundled_path, read_analogies
from wordvec.vectors.files import load_vectors, save_vectors
from wordvec.vectors.keyed import KeyedVectors


@pytest.fixture
def kv():
    """Anisotropic vectors (a few strong directions), as trained embeddings are."""
    rng = np.random.default_rng(0)
    strong = rng.standard_normal((2000, 6)) @ rng.standard_normal((6, 24)) * 3
    vectors = (strong + rng.standard_normal((2000, 24))).astype(np.float32)
    vectors[7] = 0  # a zero row must survive every form
    return KeyedVectors([f"w{i}" for i in range(2000)], vectors)


def names(pairs):
    return [w for w, _ in pairs]


def test_int8_codes_round_trip_within_half_a_step(kv):
    codes, scales = compact.int8_codes(kv.vectors)
    assert codes.dtype == np.int8 and np.abs(codes.astype(int)).max() <= 127
    decoded = codes * scales[:, None]
    assert np.all(np.abs(decoded - kv.vectors) <= scales[:, None] / 2 * (1 + 1e-5) + 1e-6 * np.abs(kv.vectors))
    assert scales[7] == 0 and not codes[7].any()
    np.testing.assert_allclose(np.abs(decoded).max(axis=1), np.abs(kv.vectors).max(axis=1), rtol=1e-6)


def test_int8_queries_run_on_the_codes_and_match_the_decoded_vectors(kv):
    small = compact.compact(kv, CompactConfig("int8"))
    assert isinstance(small, CompactKeyedVectors) and small.codes.dtype == np.int8
    decoded = KeyedVectors(kv.index_to_key, small.vectors)  # the same numbers as float32
    for word in ["w1", "w20", "w300"]:
        assert names(small.most_similar(word)) == names(decoded.most_similar(word))
        np.testing.assert_allclose(small.most_similar(word, topn=None), decoded.most_similar(word, topn=None),
                                   atol=1e-5)
    assert small.similarity("w1", "w2") == pytest.approx(kv.similarity("w1", "w2"), abs=0.01)
    assert small.most_similar("w7")[0][1] == 0.0  # the zero row: cosines 0, no NaN


def test_float16_keeps_half_size_storage(kv):
    half = compact.compact(kv, CompactConfig("float16"))
    assert half.vectors.dtype == np.float16
    assert names(half.most_similar("w3", topn=5)) == names(kv.most_similar("w3", topn=5))


def test_dims_truncates(kv):
    short = compact.compact(kv, CompactConfig("float32", dims=10))
    np.testing.assert_array_equal(short.vectors, kv.vectors[:, :10])


def test_pca_rotation_keeps_every_cosine_at_full_size_and_more_energy_when_cut(kv):
    rotated = compact.compact(kv, CompactConfig("float32", pca=24))
    np.testing.assert_allclose(rotated.unit_vectors @ rotated.unit_vectors[:50].T,
                               kv.unit_vectors @ kv.unit_vectors[:50].T, atol=1e-5)
    rotation = rotated.rotation
    np.testing.assert_allclose(rotation.T @ rotation, np.eye(24), atol=1e-5)
    cut = compact.compact(kv, CompactConfig("float32", pca=6)).vectors
    truncated = kv.vectors[:, :6]
    assert (cut ** 2).sum() > 2 * (truncated ** 2).sum()
    # six principal axes hold the strong directions: neighbours survive
    overlap = [len(set(names(kv.most_similar(w))) & set(names(KeyedVectors(kv.index_to_key, cut).most_similar(w))))
               for w in kv.index_to_key[:40]]
    assert np.mean(overlap) > 5


@pytest.mark.parametrize("config", [CompactConfig("int8"), CompactConfig("float16"), CompactConfig("int8", pca=8)])
def test_compact_saves_load_back_and_map(tmp_path, kv, config):
    small = compact.compact(kv, config)
    save_vectors(small, tmp_path / "small.wv")
    back = load_vectors(tmp_path / "small.wv", mmap_mode="r")
    assert type(back) is type(small) and back.index_to_key == small.index_to_key
    np.testing.assert_array_equal(back.vectors, small.vectors)
    assert names(back.most_similar("w5")) == names(small.most_similar("w5"))
    if config.pca:
        np.testing.assert_array_equal(back.rotation, small.rotation)


def test_config_refuses_nonsense():
    with pytest.raises(WordvecError, match="unknown storage type"):
        CompactConfig("int4")
    with pytest.raises(WordvecError, match="not both"):
        CompactConfig("int8", dims=4, pca=4)


def analogy_table(dims=20, seed=1):
    questions = read_analogies(bundled_path("questions-words.txt"), case_insensitive=False)
    words = sorted({w for _, qs in questions for q in qs for w in q})
    rng = np.random.default_rng(seed)
    return KeyedVectors(words, rng.standard_normal((len(words), dims)).astype(np.float32))


def test_cli_convert_to_int8_and_query_it(tmp_path, kv, capsys):
    save_vectors(kv, tmp_path / "v.bin")
    assert main(["convert", str(tmp_path / "v.bin"), str(tmp_path / "v8.wv"), "--dtype", "int8", "--limit", "500"]) == 0
    small = load_vectors(tmp_path / "v8.wv")
    assert isinstance(small, CompactKeyedVectors) and len(small) == 500
    assert main(["similar", str(tmp_path / "v8.wv"), "w3", "--topn", "3"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) >= 3


def test_cli_convert_refuses_int8_into_a_word2vec_file(tmp_path, kv, capsys):
    save_vectors(kv, tmp_path / "v.bin")
    assert main(["convert", str(tmp_path / "v.bin"), str(tmp_path / "v8.txt"), "--dtype", "int8"]) == 2
    assert "needs a native OUT" in capsys.readouterr().err
    assert not (tmp_path / "v8.txt").exists()


def test_cli_evaluate_shows_before_and_after_in_one_table(tmp_path, capsys):
    save_vectors(analogy_table(), tmp_path / "a.bin")
    assert main(["evaluate", str(tmp_path / "a.bin"), "--dtype", "int8"]) == 0
    out = capsys.readouterr().out
    assert "as stored" in out and "int8" in out and "analogy total" in out and "rho wordsim353" in out
