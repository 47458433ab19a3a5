"""The vocabulary as arrays (wordvec.vectors.wordtable) and KeyedVectors built on one:
lookups agree with a dict, duplicates keep the first, the lists appear only when touched,
version-2 native saves round-trip (mapped or not) and read through every older path."""

import json
import logging
import mmap
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordvec.errors import WordvecError
from wordvec.io import formats
from wordvec.kernels import wordtable as kernels
from wordvec.vectors import reading
from wordvec.vectors.files import load_vectors
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors import wordtable
from wordvec.io.fnv import fnv1a64 as fnv1a
from wordvec.vectors.wordtable import WordTable, slot_count

WORDS = st.lists(st.text(min_size=1, max_size=12), max_size=60)


@settings(max_examples=60, deadline=None)
@given(words=WORDS, others=WORDS)
def test_lookups_agree_with_a_dict(words, others):
    words = list(dict.fromkeys(words))  # unique, first order
    table = WordTable.from_words(words)
    index = {w: i for i, w in enumerate(words)}
    queries = words + others
    assert [table.find(w) for w in queries] == [index.get(w, -1) for w in queries]
    assert table.find_many(queries).tolist() == [index.get(w, -1) for w in queries]
    assert table.words() == words
    assert [table.word(i) for i in range(len(words))] == words


@settings(max_examples=40, deadline=None)
@given(key=st.binary(max_size=40))
def test_python_hash_is_the_kernels_hash(key):
    data = np.frombuffer(key, dtype=np.uint8)
    assert fnv1a(key) == int(kernels.fnv1a(data, 0, len(data)))


def test_the_table_is_at_most_half_full():
    for n in [0, 1, 2, 3, 1000, 1 << 16, (1 << 16) + 1]:
        size = slot_count(n)
        assert size >= 2 * n and size & (size - 1) == 0


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.sampled_from(["a", "b", "é", "ab", "ba", "日本"]), min_size=1, max_size=30))
def test_duplicates_keep_the_first_occurrence(words):
    encoded = [w.encode() for w in words]
    offsets = np.concatenate([[0], np.cumsum([len(b) for b in encoded])]).astype(np.int64)
    table, kept = WordTable.first_of_each(np.frombuffer(b"".join(encoded), np.uint8).copy(), offsets)
    first = list(dict.fromkeys(words))
    assert table.words() == first
    expected_rows = [words.index(w) for w in first]
    assert (kept is None and expected_rows == list(range(len(words)))) or kept.tolist() == expected_rows


def _arrays(words):
    encoded = [w.encode("utf-8", "surrogatepass") for w in words]
    offsets = np.concatenate([[0], np.cumsum([len(b) for b in encoded])]).astype(np.int64)
    return np.frombuffer(b"".join(encoded), np.uint8).copy(), offsets


# many words (the vectorised steps run while more than io.fnv.FEW_TOKENS are left), short and long
# ones, repeats, and words sharing their first slot
MANY_WORDS = st.lists(st.one_of(st.text(min_size=1, max_size=6), st.text(min_size=60, max_size=130),
                                st.sampled_from(["a", "b", "ab", "ba", "é"])), min_size=0, max_size=400)


@settings(max_examples=40, deadline=None)
@given(words=MANY_WORDS)
def test_numpy_hashes_are_the_kernels_hashes(words):
    blob, offsets = _arrays(words)
    assert wordtable.fnv1a_rows(blob, offsets, chunk=97).tolist() == [
        int(kernels.fnv1a(blob, offsets[i], offsets[i + 1])) for i in range(len(words))]


@settings(max_examples=40, deadline=None)
@given(words=MANY_WORDS, size_factor=st.sampled_from([1, 4]))
def test_the_numpy_table_is_found_by_the_compiled_lookups(words, size_factor):
    blob, offsets = _arrays(words)
    slots = np.zeros(slot_count(len(words)) * size_factor, dtype=np.int32)
    repeated = wordtable.build_slots(blob, offsets, slots)
    compiled_slots, compiled_repeated = np.zeros_like(slots), np.zeros(len(words), dtype=np.uint8)
    kernels.build_slots(blob, offsets, compiled_slots, compiled_repeated)
    assert repeated.tolist() == compiled_repeated.astype(bool).tolist()  # a repeat of an earlier row
    first = {w: i for i, w in reversed(list(enumerate(words)))}
    rows = np.empty(len(words), dtype=np.int64)
    kernels.find_rows(blob, offsets, slots, blob, offsets, rows)
    assert rows.tolist() == [first[w] for w in words]
    assert sorted(slots[slots > 0].tolist()) == sorted(first[w] + 1 for w in set(words))


def test_a_table_refuses_duplicates():
    with pytest.raises(WordvecError, match="'x' appears more than once"):
        WordTable.from_words(["x", "y", "x"])


def _both(rng, n=500, dims=8):
    words = [f"w{i}é" if i % 7 == 0 else f"w{i}" for i in range(n)]
    vectors = rng.standard_normal((n, dims)).astype(np.float32)
    return KeyedVectors(WordTable.from_words(words), vectors.copy()), KeyedVectors(words, vectors.copy())


def test_keyed_vectors_on_a_table_answer_as_on_lists(rng):
    lazy, plain = _both(rng)
    assert len(lazy) == len(plain) and "w7é" in lazy and "nope" not in lazy and 3 not in lazy
    assert lazy.get_index("w41") == 41 and lazy.get_index(5) == 5 and lazy.get_index("nope", -1) == -1
    for query in ["w3", ["w3", "w14é"], "w499"]:
        assert lazy.most_similar(query, topn=5) == plain.most_similar(query, topn=5)
    assert lazy.most_similar_batch(["w1", "w2"], topn=3) == plain.most_similar_batch(["w1", "w2"], topn=3)
    np.testing.assert_array_equal(lazy["w10"], plain["w10"])
    assert lazy.word_table is not None  # none of that built the list or the dict
    with pytest.raises(KeyError, match="nope"):
        lazy["nope"]
    with pytest.raises(TypeError):
        [] in lazy


def test_touching_the_lists_builds_them_once(rng):
    lazy, plain = _both(rng)
    assert lazy.index_to_key == plain.index_to_key
    assert lazy.word_table is None and lazy.key_to_index == plain.key_to_index
    lazy.add_vectors(["new"], np.ones((1, lazy.vector_size)))  # and from then on they are the vocabulary
    assert lazy.get_index("new") == len(plain) and len(lazy) == len(plain) + 1


def test_version_2_save_round_trips_mapped_and_not(rng, tmp_path):
    lazy, plain = _both(rng)
    lazy.counts = np.arange(len(lazy), dtype=np.int64)
    lazy.save(tmp_path / "v.wv")
    meta = json.loads((tmp_path / "v.wv" / "vocab.json").read_text())
    assert meta["version"] == 2 and meta["words"] is None and meta["word_count"] == len(plain)
    for mmap_mode in (None, "r"):
        back = load_vectors(tmp_path / "v.wv", mmap_mode=mmap_mode)
        assert back.word_table is not None
        assert back.most_similar("w3", topn=4) == plain.most_similar("w3", topn=4)
        assert back.index_to_key == plain.index_to_key and back.counts.tolist() == list(range(len(plain)))
    words, vectors, counts = formats.read_native(tmp_path / "v.wv")  # the older readers see lists
    assert words == plain.index_to_key and counts == list(range(len(plain)))
    assert formats.read_native_vocab(tmp_path / "v.wv")[0] == plain.index_to_key
    assert load_vectors(tmp_path / "v.wv", limit=10).index_to_key == plain.index_to_key[:10]


def test_a_list_save_stays_version_1(rng, tmp_path):
    _, plain = _both(rng)
    plain.save(tmp_path / "v.wv")
    assert json.loads((tmp_path / "v.wv" / "vocab.json").read_text())["version"] == 1


def test_readers_give_a_table_and_the_same_words(rng, tmp_path, caplog):
    _, plain = _both(rng)
    words = plain.index_to_key[:]
    words[300] = words[20]  # a duplicate: the first vector stays
    formats.write_word2vec_binary(tmp_path / "v.bin", words, plain.vectors)
    with caplog.at_level(logging.WARNING):
        table, vectors, _ = reading.read_word2vec_binary(tmp_path / "v.bin", table=True)
    assert isinstance(table, WordTable) and "1 duplicate" in caplog.text
    assert table.words() == formats.read_word2vec_binary(tmp_path / "v.bin")[0]
    np.testing.assert_array_equal(vectors[300], plain.vectors[301])


def test_undecodable_words_become_replacement_characters(tmp_path, caplog):
    data = b"2 2\n" + b"ok " + np.ones(2, "<f4").tobytes() + b"\n" + b"b\xffd " + np.zeros(2, "<f4").tobytes() + b"\n"
    (tmp_path / "v.bin").write_bytes(data)
    with caplog.at_level(logging.WARNING):
        kv = load_vectors(tmp_path / "v.bin")
    assert "b\ufffdd" in kv and kv.get_index("b\ufffdd") == 1 and "not valid UTF-8" in caplog.text
    assert kv.index_to_key == formats.read_word2vec_binary(tmp_path / "v.bin")[0]


def test_the_matrix_comes_as_its_own_writable_map():
    matrix = reading.mapped_empty((reading.BLOCK_BYTES // 4 + 3, 4), np.float32)
    matrix[:] = 1.5
    assert matrix.flags.writeable and matrix.shape == (reading.BLOCK_BYTES // 4 + 3, 4) and matrix.sum() > 0
    assert matrix.ctypes.data % mmap.PAGESIZE == 0  # page-aligned: background.PagesAhead can populate it
    assert reading.mapped_empty((0, 3), np.float16).shape == (0, 3)


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_queries_in_other_threads_survive_the_switch_to_lists(rng):
    """wordvec serve answers in threads: one request touching index_to_key must not break the others."""
    for _ in range(5):
        lazy, plain = _both(rng, n=3000)
        expected = plain.most_similar("w5", topn=3)
        errors, results = [], []

        def query():
            try:
                for _ in range(20):
                    results.append(lazy.most_similar("w5", topn=3) == expected and "w9" in lazy and len(lazy) == 3000)
            except Exception as error:  # noqa: BLE001 (any failure is the finding)
                errors.append(error)

        threads = [threading.Thread(target=query) for _ in range(3)]
        for thread in threads:
            thread.start()
        lazy.index_to_key
        for thread in threads:
            thread.join()
        assert errors == [] and all(results)
