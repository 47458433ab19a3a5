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


def test_expandos_count_is_the_counts_array():
    kv = KeyedVectors(WORDS, VECTORS, counts=[5, 3, 1])
    assert kv.expandos["count"] is kv.counts and list(kv.expandos) == ["count"]
    kv.expandos["count"][1] = 7
    assert kv.get_vecattr("b", "count") == 7
    kv.expandos = {"count": [1, 2, 3], "flag": np.array([0, 1, 0])}
    assert kv.counts.tolist() == [1, 2, 3] and kv.get_vecattr("b", "flag") == 1
    kv.sort_by_descending_frequency()
    assert kv.index_to_key == ["c", "b", "a"] and kv.expandos["flag"].tolist() == [0, 1, 0]
    assert kv.expandos["count"].tolist() == [3, 2, 1]


def test_a_derived_attribute_is_computed_once_when_read():
    kv, calls = KeyedVectors(WORDS, VECTORS), []
    kv.expandos.derive("code", lambda: calls.append(1) or np.arange(3))
    assert "code" in kv.expandos and not calls
    assert kv.get_vecattr("c", "code") == 2 and kv.expandos["code"].tolist() == [0, 1, 2] and calls == [1]


def test_most_similar_of_a_matrix_is_one_term_per_row_as_gensim():
    rng = np.random.default_rng(1)
    words, vectors = [f"w{i}" for i in range(20)], rng.normal(size=(20, 5)).astype(np.float32)
    ours, theirs = KeyedVectors(words, vectors), GensimKeyedVectors(5)
    theirs.add_vectors(words, vectors)
    mine, gensims = ours.most_similar(positive=vectors[:4], topn=5), theirs.most_similar(positive=vectors[:4], topn=5)
    assert [w for w, _ in mine] == [w for w, _ in gensims]
    np.testing.assert_allclose([s for _, s in mine], [s for _, s in gensims], rtol=1e-5)


def test_n_similarity_of_an_empty_list_is_gensims_zero_division():
    kv = KeyedVectors(WORDS, VECTORS)
    for first, second in ((["a"], []), ([], ["a"]), ([], [])):
        with pytest.raises(ZeroDivisionError) as raised:
            kv.n_similarity(first, second)
        assert isinstance(raised.value, WordvecError)


def test_vectors_for_all_copies_the_counts_and_attributes(tmp_path):
    path = str(tmp_path / "v.txt")
    KeyedVectors(WORDS, VECTORS).save_word2vec_format(path)
    ours, theirs = KeyedVectors.load_word2vec_format(path), GensimKeyedVectors.load_word2vec_format(path)
    ours.set_vecattr("b", "flag", 4)
    mine, gensims = ours.vectors_for_all(["b", "c"], copy_vecattrs=True), theirs.vectors_for_all(["b", "c"], copy_vecattrs=True)
    assert [mine.get_vecattr(w, "count") for w in "bc"] == [gensims.get_vecattr(w, "count") for w in "bc"] == [2, 1]
    assert mine.get_vecattr("b", "flag") == 4


@pytest.mark.parametrize("errors", ["strict", "replace", "ignore"])
def test_unicode_errors_of_a_vectors_file_as_gensim(tmp_path, errors):
    vectors, vocab = tmp_path / "v.txt", tmp_path / "v.vocab"
    vectors.write_bytes(b"2 3\nab\xe3\x81 1 2 3\ncd 4 5 6\n")
    vocab.write_bytes(b"ab\xe3\x81 10\ncd 5\n")
    if errors == "strict":
        with pytest.raises(UnicodeDecodeError):
            GensimKeyedVectors.load_word2vec_format(str(vectors), fvocab=str(vocab), unicode_errors=errors)
        with pytest.raises(UnicodeDecodeError) as raised:
            KeyedVectors.load_word2vec_format(str(vectors), fvocab=str(vocab), unicode_errors=errors)
        assert isinstance(raised.value, FormatError) and "not valid UTF-8" in str(raised.value)
        with pytest.raises(UnicodeDecodeError):  # the vectors file alone
            KeyedVectors.load_word2vec_format(str(vectors), unicode_errors=errors)
        return
    ours = KeyedVectors.load_word2vec_format(str(vectors), fvocab=str(vocab), unicode_errors=errors)
    theirs = GensimKeyedVectors.load_word2vec_format(str(vectors), fvocab=str(vocab), unicode_errors=errors)
    assert ours.index_to_key == theirs.index_to_key
    assert [ours.get_vecattr(w, "count") for w in ours.index_to_key] == [10, 5]


def test_binary_vectors_take_unicode_errors(tmp_path):
    path = tmp_path / "v.bin"
    KeyedVectors(["ab\u3041", "cd"], VECTORS[:2]).save_word2vec_format(str(path), binary=True)
    path.write_bytes(path.read_bytes().replace("ab\u3041".encode(), b"ab\xe3\x81\xff"))
    assert KeyedVectors.load_word2vec_format(str(path), binary=True, unicode_errors="ignore").index_to_key[0] == "ab"
    with pytest.raises(UnicodeDecodeError):
        KeyedVectors.load_word2vec_format(str(path), binary=True, unicode_errors="strict")
    with pytest.raises(WordvecError, match="unicode_errors"):
        KeyedVectors.load_word2vec_format(str(path), binary=True, unicode_errors="backslashreplace")


def test_gensim_save_options_are_taken_and_mmap_loads(tmp_path):
    KeyedVectors(WORDS, VECTORS).save(tmp_path / "kv", sep_limit=0, separately=["vectors"], pickle_protocol=4)
    loaded = KeyedVectors.load(tmp_path / "kv", mmap="r")
    assert isinstance(loaded.vectors, np.memmap) and np.array_equal(loaded.vectors, VECTORS)


def test_lifecycle_events_are_kept_in_memory():
    kv = KeyedVectors(WORDS, VECTORS)
    kv.add_lifecycle_event("loaded", msg="from a file", log_level=False)
    assert kv.lifecycle_events == [{"event": "loaded", "msg": "from a file"}]
