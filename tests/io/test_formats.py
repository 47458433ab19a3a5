"""Vector file formats: gensim round trips, the C binary layout, malformed files, fuzzing, crash safety."""

import atexit
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors as GensimKeyedVectors
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.io import formats
from wordvec.errors import FormatError, WordvecError
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.files import load_vectors, save_vectors

WORDS = ["the", "Straße", "日本", "naïve", "x"]


def sample_kv(n_words=5, dims=4, seed=0):
    rng = np.random.default_rng(seed)
    words = WORDS if n_words == len(WORDS) else [f"w{i}" for i in range(n_words)]
    return KeyedVectors(words, rng.standard_normal((n_words, dims)).astype(np.float32), counts=range(n_words, 0, -1))


def assert_same(kv, words, vectors):
    assert list(kv.index_to_key) == list(words)
    np.testing.assert_array_equal(kv.vectors, vectors)


# ----------------------------------------------------------------------------- round trips

@pytest.mark.parametrize("binary", [True, False])
def test_gensim_loads_what_we_write(tmp_path, binary):
    kv = sample_kv()
    path = tmp_path / ("v.bin" if binary else "v.txt")
    kv.save_word2vec_format(path, binary=binary)
    theirs = GensimKeyedVectors.load_word2vec_format(str(path), binary=binary)
    assert_same(kv, theirs.index_to_key, theirs.vectors)


@pytest.mark.parametrize("binary", [True, False])
def test_we_load_what_gensim_writes(tmp_path, binary):
    kv = sample_kv(50, 7, seed=1)
    theirs = GensimKeyedVectors(7)
    theirs.add_vectors(kv.index_to_key, kv.vectors)
    path = tmp_path / ("g.bin" if binary else "g.txt")
    theirs.save_word2vec_format(str(path), binary=binary)
    assert_same(load_vectors(path), kv.index_to_key, kv.vectors)
    assert_same(KeyedVectors.load_word2vec_format(path, binary=binary), kv.index_to_key, kv.vectors)


@pytest.mark.parametrize("name", ["v.bin", "v.txt", "v.vec", "v.glove", "v.wv"])
def test_every_format_round_trips_exactly(tmp_path, name):
    kv = sample_kv()
    save_vectors(kv, tmp_path / name)
    back = load_vectors(tmp_path / name)
    assert_same(back, kv.index_to_key, kv.vectors)
    if name.endswith(".wv"):
        assert back.counts.tolist() == kv.counts.tolist()


def test_word2vec_loader_sniffs_files_with_other_names(tmp_path):
    kv = sample_kv()
    kv.save_word2vec_format(tmp_path / "vectors.data", binary=True)
    kv.save_word2vec_format(tmp_path / "vectors.words", binary=False)
    for name in ("vectors.data", "vectors.words"):
        assert_same(KeyedVectors.load_word2vec_format(tmp_path / name), kv.index_to_key, kv.vectors)
        assert_same(load_vectors(tmp_path / name), kv.index_to_key, kv.vectors)


def test_binary_layout_is_the_c_tools(tmp_path):
    kv = KeyedVectors(["ab", "c"], np.array([[1.5, -2.0], [0.25, 8.0]], dtype=np.float32))
    kv.save_word2vec_format(tmp_path / "v.bin", binary=True)
    expected = b"2 2\n" + b"ab " + struct.pack("<2f", 1.5, -2.0) + b"\n" + b"c " + struct.pack("<2f", 0.25, 8.0) + b"\n"
    assert (tmp_path / "v.bin").read_bytes() == expected


def test_text_layout_has_header_and_exact_floats(tmp_path):
    kv = KeyedVectors(["a"], np.array([[0.1, 1e-30]], dtype=np.float32))
    save_vectors(kv, tmp_path / "v.txt")
    lines = (tmp_path / "v.txt").read_text().splitlines()
    assert lines[0] == "1 2" and lines[1].split()[0] == "a"
    assert np.float32(lines[1].split()[1]) == np.float32(0.1)


def test_glove_is_headerless_and_sniffed_in_txt(tmp_path):
    (tmp_path / "g.txt").write_text("cat 0.5 1.5 2.5\ndog -1 0 1\n")
    kv = load_vectors(tmp_path / "g.txt")
    assert kv.index_to_key == ["cat", "dog"] and kv.vector_size == 3
    shutil.copy(tmp_path / "g.txt", tmp_path / "g.anything")
    assert load_vectors(tmp_path / "g.anything", fmt="glove").vector_size == 3
    with pytest.raises(FormatError, match="line 1"):  # strict word2vec text wants a header
        load_vectors(tmp_path / "g.txt", fmt="text")


def test_native_is_npy_plus_json_and_memory_maps(tmp_path):
    kv = sample_kv()
    kv.save(tmp_path / "v.wv")
    assert sorted(os.listdir(tmp_path / "v.wv")) == ["vectors.npy", "vocab.json"]
    meta = json.loads((tmp_path / "v.wv" / "vocab.json").read_text(encoding="utf-8"))
    assert meta["words"] == WORDS and meta["vector_size"] == 4
    mapped = KeyedVectors.load(tmp_path / "v.wv", mmap_mode="r")
    assert isinstance(mapped.vectors, np.memmap)
    assert mapped.most_similar("the", topn=2) == kv.most_similar("the", topn=2)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporaries left


def test_native_refuses_pickles_and_foreign_directories(tmp_path):
    kv = sample_kv()
    kv.save(tmp_path / "v.wv")
    np.save(tmp_path / "v.wv" / "vectors.npy", np.array([object()] * 5, dtype=object).reshape(5, 1), allow_pickle=True)
    with pytest.raises(FormatError, match="vectors.npy"):
        load_vectors(tmp_path / "v.wv")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("precious")
    with pytest.raises(WordvecError, match="refusing to replace"):
        kv.save(tmp_path / "mine")
    assert (tmp_path / "mine" / "thesis.tex").read_text() == "precious"


def test_interrupted_replace_falls_back_to_the_set_aside_save(tmp_path):
    kv = sample_kv()
    kv.save(tmp_path / "v.wv")
    os.rename(tmp_path / "v.wv", tmp_path / ".v.wv.old-abc123")  # killed between the two renames
    assert_same(load_vectors(tmp_path / "v.wv"), kv.index_to_key, kv.vectors)


# ----------------------------------------------------------------------------- malformed files

MALFORMED_TEXT = [
    (b"", 1, "bad header"),
    (b"2 3\na 1 2 3\nb 1 2\n", 3, "expected 3 numbers"),
    (b"2 3\na 1 2 3\nb 1 two 3\n", 3, "'two' is not a number"),
    (b"3 2\na 1.0 2.0\nb 3.0 4.0\n", 3, "file ends after 2 of the 3"),
    (b"1 2\na 1 2\nb 3 4\n", 3, "more vectors than the 1"),
    (b"two 2\na 1 2\n", 1, "bad header"),
    (b"1 2\na 1 nan\n", 2, "NaN or infinity"),
    (b"1 2\n 1 2\n", 2, "empty word"),
    (b"2 2\na 1 2\n\nb 3 4\n", 3, "empty line"),
    (b"100000 300\na 1 2\n", 1, "more than a"),
]


@pytest.mark.parametrize("content, line, problem", MALFORMED_TEXT)
def test_malformed_text_names_file_and_line(tmp_path, content, line, problem):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=problem) as caught:
        load_vectors(path, fmt="text")
    assert caught.value.line == line and str(path) in str(caught.value)


def test_malformed_glove(tmp_path):
    path = tmp_path / "bad.glove"
    for content, line, problem in ((b"", None, "no vectors"), (b"a\n", 1, "no numbers"),
                                   (b"a 1 2\nb 1 2 3\n", 2, "expected 2 numbers")):
        path.write_bytes(content)
        with pytest.raises(FormatError, match=problem) as caught:
            load_vectors(path)
        assert caught.value.line == line


def binary_file(words, rows, header=None):
    body = b"".join(w + b" " + struct.pack(f"<{len(r)}f", *r) + b"\n" for w, r in zip(words, rows))
    return (header or f"{len(words)} {len(rows[0])}\n".encode()) + body


def test_malformed_binary_names_file_and_record(tmp_path):
    path = tmp_path / "bad.bin"
    good = binary_file([b"a", b"bbbbbbbbbbbb"], [[1, 2, 3], [4, 5, 6]])
    for content, line, problem in ((good[:-7], 3, "truncated"), (b"2 3 4\n" + good[4:], 1, "bad header"),
                                   (b"9 3\n" + good[4:], 1, "header promises 9"),
                                   (good + b"junk", 4, "unexpected data"),
                                   (binary_file([b"a"], [[1, float("inf"), 3]]), 2, "NaN or infinity")):
        path.write_bytes(content)
        with pytest.raises(FormatError, match=problem) as caught:
            load_vectors(path)
        assert caught.value.line == line and str(path) in str(caught.value)


def test_duplicates_keep_the_first_vector_like_gensim(tmp_path):
    path = tmp_path / "dup.bin"
    path.write_bytes(binary_file([b"a", b"b", b"a"], [[1, 2], [3, 4], [5, 6]]))
    theirs = GensimKeyedVectors.load_word2vec_format(str(path), binary=True)
    ours = load_vectors(path)
    kept = [i for i, w in enumerate(theirs.index_to_key) if w is not None]  # gensim 4.4 leaves an empty slot
    assert_same(ours, [theirs.index_to_key[i] for i in kept], theirs.vectors[kept])
    assert ours.index_to_key == ["a", "b"] and ours["a"].tolist() == [1, 2]


def test_non_utf8_words_are_replaced_not_fatal(tmp_path):
    path = tmp_path / "latin1.bin"
    path.write_bytes(binary_file([b"caf\xe9", b"ok"], [[1, 2], [3, 4]]))
    assert load_vectors(path).index_to_key == ["caf\ufffd", "ok"]
    (tmp_path / "latin1.txt").write_bytes(b"1 2\ncaf\xe9 1 2\n")
    assert load_vectors(tmp_path / "latin1.txt").index_to_key == ["caf\ufffd"]


def test_unwritable_words_and_unknown_names(tmp_path):
    kv = KeyedVectors(["two words"], np.ones((1, 2)))
    with pytest.raises(WordvecError, match="whitespace"):
        save_vectors(kv, tmp_path / "v.txt")
    with pytest.raises(WordvecError, match="cannot tell the format"):
        save_vectors(sample_kv(), tmp_path / "v.unknown")
    with pytest.raises(WordvecError, match="no such file"):
        load_vectors(tmp_path / "missing.bin")


# ----------------------------------------------------------------------------- fuzzing

FUZZ_DIR = Path(tempfile.mkdtemp(prefix="wordvec-fuzz-"))
atexit.register(shutil.rmtree, FUZZ_DIR, True)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _valid_bytes(name):
    path = FUZZ_DIR / name
    save_vectors(sample_kv(), path)
    return path.read_bytes()


VALID = {name: _valid_bytes(name) for name in ("valid.txt", "valid.bin", "valid.glove")}
sample_kv().save(FUZZ_DIR / "valid.wv")
VALID_NATIVE = {name: (FUZZ_DIR / "valid.wv" / name).read_bytes() for name in ("vectors.npy", "vocab.json")}


@st.composite
def mutations(draw, original):
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["set", "insert", "delete", "truncate"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "set" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        else:
            del data[at:]
    return bytes(data)


def load_or_wordvec_error(loader):
    """Either a consistent KeyedVectors or a WordvecError with a message; anything else fails."""
    try:
        kv = loader()
    except WordvecError as error:
        assert str(error).strip()
        return
    assert kv.vectors.shape == (len(kv.index_to_key), kv.vector_size)
    assert np.isfinite(kv.vectors).all()


def fuzz_file(name, content, fmt):
    path = FUZZ_DIR / f"fuzz-{name}"
    path.write_bytes(content)
    load_or_wordvec_error(lambda: load_vectors(path, fmt=fmt))


@pytest.mark.parametrize("name, fmt", [("valid.txt", "text"), ("valid.bin", "binary"), ("valid.glove", "glove")])
@FUZZ
@given(data=st.data())
def test_fuzz_file_readers(name, fmt, data):
    content = data.draw(st.one_of(st.binary(max_size=200), mutations(VALID[name])))
    fuzz_file(name, content, fmt)


@FUZZ
@given(data=st.data())
def test_fuzz_native_reader(data):
    directory = FUZZ_DIR / "fuzz.wv"
    directory.mkdir(exist_ok=True)
    victim = data.draw(st.sampled_from(sorted(VALID_NATIVE)))
    for name, content in VALID_NATIVE.items():
        if name == victim:
            content = data.draw(st.one_of(st.binary(max_size=300), mutations(content)))
        (directory / name).write_bytes(content)
    load_or_wordvec_error(lambda: load_vectors(directory))


# ----------------------------------------------------------------------------- interrupted saves

CHILD = textwrap.dedent("""
    import os, sys, time
    import numpy as np
    from wordvec.vectors.keyed import KeyedVectors
    from wordvec.vectors.files import save_vectors

    def stall(fd):  # every atomic write fsyncs its temporary file before the rename: stop there
        print("writing", flush=True)
        time.sleep(60)

    os.fsync = stall
    words = [f"new{i}" for i in range(2000)]
    save_vectors(KeyedVectors(words, np.ones((2000, 50), dtype=np.float32)), sys.argv[1])
""")


def run_and_kill(target, wait_for_line=True, delay=0.0):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    script = CHILD if wait_for_line else CHILD.replace("os.fsync = stall", "")
    child = subprocess.Popen([sys.executable, "-c", script, str(target)], stdout=subprocess.PIPE, env=env)
    try:
        if wait_for_line:
            assert child.stdout.readline() == b"writing\n"
        else:
            import time
            time.sleep(delay)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
        child.stdout.close()


@pytest.mark.parametrize("name", ["v.bin", "v.txt", "v.wv"])
def test_kill_during_save_leaves_previous_save_intact(tmp_path, name):
    old = sample_kv()
    save_vectors(old, tmp_path / name)
    run_and_kill(tmp_path / name)
    assert_same(load_vectors(tmp_path / name), old.index_to_key, old.vectors)


def test_kill_at_a_random_moment_leaves_old_or_new(tmp_path):
    old = sample_kv()
    save_vectors(old, tmp_path / "v.txt")
    run_and_kill(tmp_path / "v.txt", wait_for_line=False, delay=1.0)
    kv = load_vectors(tmp_path / "v.txt")
    assert kv.index_to_key == old.index_to_key or len(kv) == 2000
