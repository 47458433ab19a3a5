"""gensim's KeyedVectors calls that gensim's own tests make: the empty table by keyword,
a key's distance to itself, the made-up counts of a vectors file."""

import numpy as np
import pytest
from gensim.models import KeyedVectors as GensimKeyedVectors

from wordvec.errors import FormatError, WordvecError
from wordvec.vectors.keyed import KeyedVectors

WORDS = ["a", "b", "c"]
VECTORS = np.array([[1, 2, 3], [3, 1, 0.5], [-1, 0.3, 2]], np.float32)


def test_empty_table_by_keyword_as_gensim():
    ours, theirs = KeyedVectors(vector_size=3, count=2), GensimKeyedVectors(vector_size=3, count=2)
    assert ours.vectors.shape == theirs.vectors.shape == (2, 3)
    ours.add_vector("x", np.ones(3))
    assert ours.index_to_key[0] == "x"


def test_distance_to_itself_is_zero():
    kv = KeyedVectors(WORDS, VECTORS)
    assert [kv.distance(w, w) for w in WORDS] == [0.0, 0.0, 0.0]
    assert kv.distance("a", "b") > 0


def test_counts_of_a_vectors_file_are_gensims(tmp_path):
    KeyedVectors(WORDS, VECTORS).save_word2vec_format(str(tmp_path / "v.txt"))
    ours = KeyedVectors.load_word2vec_format(str(tmp_path / "v.txt"))
    theirs = GensimKeyedVectors.load_word2vec_format(str(tmp_path / "v.txt"))
    assert [ours.get_vecattr(w, "count") for w in WORDS] == [theirs.get_vecattr(w, "count") for w in WORDS]


@pytest.mark.parametrize("binary", [True, False])
def test_a_file_shorter_than_its_header_is_an_eof_error_as_in_gensim(tmp_path, binary):
    path = tmp_path / "v.bin"
    KeyedVectors(WORDS, VECTORS).save_word2vec_format(str(path), binary=binary)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"3 3", b"4 3", 1))
    with pytest.raises(EOFError):
        GensimKeyedVectors.load_word2vec_format(str(path), binary=binary)
    with pytest.raises(EOFError) as raised:
        KeyedVectors.load_word2vec_format(str(path), binary=binary)
    assert isinstance(raised.value, FormatError) and "4 vectors" in str(raised.value)


@pytest.mark.parametrize("clip", [(0, None), (3, None), (2, 7), (5, 9)])
def test_clipped_most_similar_equals_gensims(clip):
    rng = np.random.default_rng(0)
    words, vectors = [f"w{i}" for i in range(12)], rng.normal(size=(12, 5)).astype(np.float32)
    ours, theirs = KeyedVectors(words, vectors), GensimKeyedVectors(5)
    theirs.add_vectors(words, vectors)
    start, end = clip
    for topn in (3, 20):
        got = ours.most_similar("w4", topn=topn, clip_start=start, clip_end=end)
        want = theirs.most_similar("w4", topn=topn, clip_start=start, clip_end=end)
        assert [k for k, _ in got] == [k for k, _ in want]
        np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=1e-5)


def test_saving_a_table_with_empty_slots_is_one_sentence(tmp_path):
    table = KeyedVectors(vector_size=3, count=2)
    table.add_vector("a", np.ones(3, np.float32))
    with pytest.raises(WordvecError, match="1 of the 2 rows have no key"):
        table.save_word2vec_format(tmp_path / "t.txt")
    assert not (tmp_path / "t.txt").exists()
