"""The approximate index (wordvec.vectors.ann, usearch): recall against exact search,
saved beside the vectors and reloaded, refused (never silently rebuilt) when missing or
built for other vectors; `wordvec index` and `wordvec similar --approximate`."""

import json

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.vectors import ann
from wordvec.vectors.compact import CompactConfig, compact
from wordvec.vectors.files import load_vectors, save_vectors
from wordvec.vectors.keyed import KeyedVectors

pytest.importorskip("usearch", reason="the ann extra (usearch) is not installed")


@pytest.fixture(scope="module")
def kv():
    """Clustered vectors (neighbours mean something, as in trained embeddings)."""
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((60, 24)).astype(np.float32)
    rows = centres[rng.integers(0, 60, 4000)] + 0.4 * rng.standard_normal((4000, 24)).astype(np.float32)
    return KeyedVectors([f"w{i}" for i in range(4000)], rows)


def recall(exact, approximate):
    return np.mean([len({w for w, _ in e} & {w for w, _ in a}) / len(e) for e, a in zip(exact, approximate)])


def test_recall_at_10_against_exact_search(kv, tmp_path):
    save_vectors(kv, tmp_path / "v.bin")
    ann.save_index(ann.build_index(kv), tmp_path / "v.bin")
    loaded = ann.attach_index(load_vectors(tmp_path / "v.bin"), tmp_path / "v.bin")
    words = kv.index_to_key[::20]
    exact = loaded.most_similar_batch(words)
    approximate = loaded.most_similar_batch(words, approximate=True)
    assert recall(exact, approximate) >= 0.95
    for e, a in zip(exact, approximate):  # cosines are the index's (float16 storage): close to exact
        common = {w for w, _ in e} & {w for w, _ in a}
        assert all(abs(dict(e)[w] - dict(a)[w]) < 2e-3 for w in common)
    single = loaded.most_similar("w3", approximate=True)
    assert "w3" not in [w for w, _ in single] and len(single) == 10


def test_no_index_is_an_error_that_says_how_to_build_one(kv, tmp_path):
    save_vectors(kv, tmp_path / "v.bin")
    with pytest.raises(WordvecError, match="wordvec index"):
        ann.attach_index(load_vectors(tmp_path / "v.bin"), tmp_path / "v.bin")
    with pytest.raises(WordvecError, match="approximate index"):
        kv.most_similar("w1", approximate=True)


def test_an_index_of_other_vectors_is_refused_not_rebuilt(kv, tmp_path):
    save_vectors(kv, tmp_path / "v.bin")
    ann.save_index(ann.build_index(kv), tmp_path / "v.bin")
    stamp = (tmp_path / "v.bin.usearch").stat().st_mtime_ns
    other = KeyedVectors(kv.index_to_key[::-1], kv.vectors)
    save_vectors(other, tmp_path / "v.bin")
    with pytest.raises(WordvecError, match="built for other vectors"):
        ann.attach_index(load_vectors(tmp_path / "v.bin"), tmp_path / "v.bin")
    assert (tmp_path / "v.bin.usearch").stat().st_mtime_ns == stamp


def test_index_of_an_int8_table(kv, tmp_path):
    small = compact(kv, CompactConfig("int8"))
    index = ann.build_index(small)
    small.ann_index = index
    words = kv.index_to_key[::50]
    assert recall(small.most_similar_batch(words), small.most_similar_batch(words, approximate=True)) >= 0.95


def test_cli_index_then_similar_approximate(kv, tmp_path, capsys):
    save_vectors(kv, tmp_path / "v.bin")
    assert main(["similar", str(tmp_path / "v.bin"), "w1", "--approximate"]) == 2
    assert "wordvec index" in capsys.readouterr().err
    assert main(["index", str(tmp_path / "v.bin"), "--expansion-search", "64"]) == 0
    meta = json.loads((tmp_path / "v.bin.usearch.json").read_text())
    assert meta["rows"] == 4000 and meta["config"]["expansion_search"] == 64
    capsys.readouterr()
    assert main(["similar", str(tmp_path / "v.bin"), "w1", "--approximate", "--topn", "5"]) == 0
    approximate = [line.split()[0] for line in capsys.readouterr().out.strip().splitlines()]
    exact = [w for w, _ in kv.most_similar("w1", topn=5)]
    assert len(set(approximate) & set(exact)) >= 4


def test_serve_uses_the_index_for_a_large_vocabulary(kv, tmp_path, monkeypatch):
    from wordvec.serve import api, make_server

    save_vectors(kv, tmp_path / "v.bin")
    ann.save_index(ann.build_index(kv), tmp_path / "v.bin")
    monkeypatch.setattr(api, "APPROXIMATE_FROM", 1000)  # "large" for this small table
    server = make_server(load_vectors(tmp_path / "v.bin"), port=0, source=tmp_path / "v.bin")
    try:
        explorer = server.api
        status, info = explorer.handle("info", {})
        assert status == 200 and info["approximate_neighbours"] is True
        status, answer = explorer.handle("neighbours", {"word": "w1", "topn": "5"})
        exact = [w for w, _ in kv.most_similar("w1", topn=5)]
        assert status == 200 and len({n["word"] for n in answer["neighbours"]} & set(exact)) >= 4
    finally:
        server.server_close()


def test_an_index_built_in_two_parts_answers_like_one_built_at_once(kv, tmp_path):
    """build_index(stop=N) then resume_index: a long build split over two runs."""
    save_vectors(kv, tmp_path / "v.bin")
    partial = ann.build_index(kv, stop=1500)
    assert partial.index.size == 1500
    partial.index.save(str(tmp_path / "part.usearch"))
    ann.save_index(partial, tmp_path / "v.bin")  # an unfinished index is never attached
    with pytest.raises(WordvecError, match="an unfinished build"):
        ann.attach_index(load_vectors(tmp_path / "v.bin"), tmp_path / "v.bin")
    finished = ann.resume_index(kv, tmp_path / "part.usearch")
    assert finished.index.size == len(kv)
    ann.save_index(finished, tmp_path / "v.bin")
    loaded = ann.attach_index(load_vectors(tmp_path / "v.bin"), tmp_path / "v.bin")
    words = kv.index_to_key[1::20]  # rows from both parts
    assert recall(loaded.most_similar_batch(words), loaded.most_similar_batch(words, approximate=True)) >= 0.95


def test_resuming_from_an_index_of_other_vectors_is_refused(kv, tmp_path):
    other = KeyedVectors(kv.index_to_key, kv.vectors[:, :12].copy())
    ann.build_index(other, stop=100).index.save(str(tmp_path / "part.usearch"))
    with pytest.raises(WordvecError, match="not a partial index"):
        ann.resume_index(kv, tmp_path / "part.usearch")


def test_the_fingerprint_of_a_word_table_is_the_fingerprint_of_its_words(tmp_path):
    """Checking a 3M-row index reads the table's bytes; a list of the same words agrees."""
    words = ["a", "naïve", "東京", "new_york", "x" * 50, "ünïcödé_ŵörds"] + [f"w{i}" for i in range(300)]
    save_vectors(KeyedVectors(words, np.ones((len(words), 4), dtype=np.float32)), tmp_path / "v.bin")
    loaded = load_vectors(tmp_path / "v.bin")
    assert loaded.word_table is not None
    assert ann.fingerprint_of(loaded) == ann.fingerprint(words)
    assert ann.fingerprint_of(KeyedVectors(words[::-1], loaded.vectors)) != ann.fingerprint(words)
    loaded.index_to_key  # the table becomes a list: same fingerprint
    assert loaded.word_table is None and ann.fingerprint_of(loaded) == ann.fingerprint(words)
