"""Version-2 native saves (words as arrays + a hash table, wordvec.vectors.wordtable)
damaged: offsets that do not step through the bytes, a hash table of other words or out
of range, wrong dtypes, a vocab.json whose word_count lies, missing files.  Each is one
sentence and exit 2 from the CLI, mapped or not; then hypothesis: any damage to any of
the files gives a consistent, queryable KeyedVectors or a WordvecError, never a crash or
a hang (a full hash table with no match must not probe forever)."""

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.errors import FormatError, WordvecError
from wordvec.vectors.files import load_vectors
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.wordtable import WordTable

from .harness import assert_clean_failure, run_main
from .test_corrupt_files import EDITS, damage

ROWS, DIMS = 200, 4
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
FILES = ("vocab.json", "word_bytes.npy", "word_offsets.npy", "word_slots.npy", "word_counts.npy", "vectors.npy")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    words = [f"w{i}" if i % 5 else f"wörd{i}" for i in range(ROWS)]
    kv = KeyedVectors(WordTable.from_words(words), np.random.default_rng(0).standard_normal((ROWS, DIMS)),
                      np.arange(ROWS, 0, -1))
    path = tmp_path_factory.mktemp("v2") / "v.wv"
    kv.save(path)
    assert json.loads((path / "vocab.json").read_text())["version"] == 2
    return path


def _copy(saved, tmp_path):
    target = tmp_path / "v.wv"
    shutil.copytree(saved, target)
    return target


def _replace_array(path, name, array):
    np.save(path / name, array, allow_pickle=False)


def _fails_cleanly(path, *fragments):
    for mmap_mode in (None, "r"):
        with pytest.raises(FormatError):
            load_vectors(path, mmap_mode=mmap_mode)
    result = run_main("info", path)
    assert result.returncode == 2
    assert_clean_failure(result, *fragments)


def test_offsets_that_do_not_reach_the_end(saved, tmp_path):
    path = _copy(saved, tmp_path)
    offsets = np.load(path / "word_offsets.npy")
    offsets[-1] -= 1
    _replace_array(path, "word_offsets.npy", offsets)
    _fails_cleanly(path, "word_offsets.npy", "offsets must run from 0")


def test_offsets_that_go_backwards(saved, tmp_path):
    path = _copy(saved, tmp_path)
    offsets = np.load(path / "word_offsets.npy")
    offsets[10], offsets[11] = offsets[11], offsets[10]
    _replace_array(path, "word_offsets.npy", offsets)
    _fails_cleanly(path, "word_offsets.npy", "increase")


def test_a_hash_table_of_other_words(saved, tmp_path):
    path = _copy(saved, tmp_path)
    _replace_array(path, "word_slots.npy", WordTable.from_words([f"x{i}" for i in range(ROWS)]).slots)
    _fails_cleanly(path, "does not match the words")


@pytest.mark.parametrize("slots", [np.full(512, 10_000, np.int32), np.full(512, -1, np.int32),
                                   np.ones(100, np.int32), np.ones(512, np.int64)])
def test_a_hash_table_out_of_range_or_of_the_wrong_type(saved, tmp_path, slots):
    path = _copy(saved, tmp_path)
    _replace_array(path, "word_slots.npy", slots)
    _fails_cleanly(path, "word_slots.npy")


def test_a_full_hash_table_with_no_match_does_not_hang(saved, tmp_path):
    table = WordTable.from_words([f"w{i}" for i in range(3)])
    table.slots[:] = 1  # every slot says "row 0"
    assert table.find("nope") == -1 and table.find_many(["nope", "w0"]).tolist() == [-1, 0]


def test_a_word_count_that_lies(saved, tmp_path):
    path = _copy(saved, tmp_path)
    meta = json.loads((path / "vocab.json").read_text())
    meta["word_count"] = ROWS + 5
    (path / "vocab.json").write_text(json.dumps(meta))
    _fails_cleanly(path, "word_offsets.npy", f"expected ({ROWS + 6},)")


@pytest.mark.parametrize("name", ["word_bytes.npy", "word_offsets.npy"])
def test_a_missing_word_array(saved, tmp_path, name):
    path = _copy(saved, tmp_path)
    (path / name).unlink()
    for mmap_mode in (None, "r"):
        with pytest.raises(WordvecError):
            load_vectors(path, mmap_mode=mmap_mode)
    assert run_main("info", path).returncode == 2


def test_a_missing_hash_table_is_rebuilt(saved, tmp_path):
    path = _copy(saved, tmp_path)
    (path / "word_slots.npy").unlink()
    kv = load_vectors(path, mmap_mode="r")
    assert kv.get_index("wörd5") == 5


def test_negative_counts(saved, tmp_path):
    path = _copy(saved, tmp_path)
    _replace_array(path, "word_counts.npy", -np.ones(ROWS, np.int64))
    _fails_cleanly(path, "word_counts.npy", "negative")


def _consistent_or_refused(path, mmap_mode):
    try:
        kv = load_vectors(path, mmap_mode=mmap_mode)
    except WordvecError as error:
        assert str(error).strip()
        return
    assert kv.vectors.shape == (len(kv), kv.vector_size)
    word = kv.word_table.word(len(kv) // 2) if kv.word_table is not None else kv.index_to_key[len(kv) // 2]
    kv.get_index(word, default=-1)
    kv.most_similar(kv.vectors[0].astype(np.float32), topn=3)
    assert len(kv.index_to_key) == len(kv)


@pytest.mark.parametrize("name", FILES)
def test_any_damage_to_any_file(saved, name):
    original = (saved / name).read_bytes()

    @SETTINGS
    @given(edits=EDITS, mmap_mode=st.sampled_from([None, "r"]))
    def check(edits, mmap_mode):
        folder = Path(tempfile.mkdtemp(prefix="wordvec-fuzz-"))
        try:
            shutil.copytree(saved, folder / "v.wv")
            (folder / "v.wv" / name).write_bytes(damage(original, edits))
            _consistent_or_refused(folder / "v.wv", mmap_mode)
        finally:
            shutil.rmtree(folder)

    check()


def test_offsets_past_the_bytes_without_a_hash_table(saved, tmp_path):
    path = _copy(saved, tmp_path)
    (path / "word_slots.npy").unlink()  # the table is rebuilt from the offsets: they are checked first
    offsets = np.load(path / "word_offsets.npy")
    offsets[5] = 10**9
    _replace_array(path, "word_offsets.npy", offsets)
    _fails_cleanly(path, "word_offsets.npy", "increase")


def test_duplicates_without_a_hash_table(saved, tmp_path):
    path = _copy(saved, tmp_path)
    (path / "word_slots.npy").unlink()
    blob = np.load(path / "word_bytes.npy")
    offsets = np.load(path / "word_offsets.npy")
    blob[offsets[2]:offsets[3]] = blob[offsets[1]:offsets[2]]  # "w2" becomes "w1"
    _replace_array(path, "word_bytes.npy", blob)
    _fails_cleanly(path, "word_bytes.npy", "'w1' appears more than once")
