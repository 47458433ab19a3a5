"""Fast loading (wordvec.vectors.reading, wordvec.kernels.parse) held to Python and to the
reference readers of wordvec.io.formats: the float parser against float(), the readers
against the simple ones on the same files, across block boundaries, with limit, float16,
compression, the memory-mapped cache, and the peak memory of a load."""

import bz2
import gzip
import lzma
import math
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordvec.errors import FormatError
from wordvec.io import formats
from wordvec.kernels import parse, topk
from wordvec.vectors import reading, search
from wordvec.vectors.files import load_vectors
from wordvec.vectors.keyed import KeyedVectors


def parsed(text):
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    return parse.parse_float(data, 0, len(data))


def ulps64(a, b):
    """Distance in units in the last place of a double."""
    if a == b:
        return 0
    ia, ib = np.float64(a).view(np.int64), np.float64(b).view(np.int64)
    return abs(int(ia) - int(ib))


EDGE_CASES = ["0", "-0", "+1", ".5", "5.", "-.5e-3", "1e5", "1E+05", "1e-45", "1.4e-45", "3.4028235e38",
              "3.4028236e38", "1e39", "1e308", "1.7976931348623157e308", "2.2250738585072014e-308",
              "4.9e-324", "1e-400", "1e400", "0.1", "0.30000000000000004", "123456789012345678901234567890",
              "0.000000000000000000000000000001234", "9007199254740993", "1" * 40 + "e-20", "00000012.5000",
              "-0.000000", "7.038531e-26", "1e22", "1e23", "8.589973e9", "nan", "NaN", "-inf", "Infinity",
              "inf", "-Infinity"]
NOT_NUMBERS = ["", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "abc", "1x", "--1", "0x10", "1e5.5", "in", "nanx",
               "1,5", "..1"]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_float_parser_matches_python_on_edge_cases(text):
    value, ok = parsed(text)
    expected = float(text)
    assert ok
    if math.isnan(expected):
        assert math.isnan(value)
    else:
        assert ulps64(value, expected) <= 2, (value, expected)
        with np.errstate(over="ignore"):
            assert abs(np.float32(value).view(np.int32).astype(np.int64) - np.float32(expected).view(np.int32)) <= 1


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_float_parser_rejects_what_python_rejects(text):
    with pytest.raises(ValueError):
        float(text)
    assert not parsed(text)[1]


FAST_PATH = st.builds(lambda m, e, neg: f"{'-' if neg else ''}{m}e{e}",
                      st.integers(0, 2**53 - 1), st.integers(-22, 22), st.booleans())


@settings(max_examples=300, deadline=None, derandomize=True)
@given(FAST_PATH)
def test_float_parser_is_correctly_rounded_on_the_fast_path(text):
    assert parsed(text) == (float(text), True)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["%.9g", "%.17g", "%r", "%.6f", "%e"]))
def test_float_parser_within_an_ulp_of_python(x, style):
    text = repr(x) if style == "%r" else style % x
    value, ok = parsed(text)
    assert ok and ulps64(value, float(text)) <= 2
    with np.errstate(over="ignore"):
        got, want = np.float32(value), np.float32(float(text))
    if np.isfinite(want):
        assert abs(int(got.view(np.int32)) - int(want.view(np.int32))) <= 1


def test_float32_values_written_with_9_digits_read_back_exactly():
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.standard_normal(20000), rng.standard_normal(2000) * 1e-30,
                             rng.standard_normal(2000) * 1e30]).astype(np.float32)
    for x in values:
        assert np.float32(parsed("%.9g" % x)[0]) == x


UTF8_EDGES = [b"", b"abc", b"caf\xc3\xa9", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\xa0\x80",
              b"\xed\xa0\x80", b"\xed\x9f\xbf", b"\xef\xbf\xbf", b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80",
              b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xff", b"\xc3", b"\xe2\x82",
              b"a\x80b", "日本語 ε 😀".encode()]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=12), st.sampled_from(UTF8_EDGES),
                 st.text(max_size=6).map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_the_utf8_check_agrees_with_pythons_decoder(data):
    try:
        data.decode("utf-8")
        expected = True
    except UnicodeDecodeError:
        expected = False
    assert parse.is_utf8(np.frombuffer(data, dtype=np.uint8), 0, len(data)) == expected, data


# ----------------------------------------------------------------------------- readers vs reference

def random_vectors(n=300, dims=7, seed=0):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" + ("é" if i % 7 == 0 else "") for i in range(n)]
    scales = 10.0 ** rng.integers(-8, 8, size=(n, 1))
    return words, (rng.standard_normal((n, dims)) * scales).astype(np.float32)


@pytest.fixture(params=[64, 1000, 1 << 24], ids=["tiny-blocks", "small-blocks", "default-blocks"])
def block_bytes(request, monkeypatch):
    """Rows straddle block boundaries in every possible way with tiny blocks."""
    monkeypatch.setattr(reading, "BLOCK_BYTES", request.param)
    return request.param


@pytest.mark.parametrize("kind", ["text", "binary", "glove"])
def test_readers_equal_the_reference(tmp_path, block_bytes, kind, reader_kernels):
    words, vectors = random_vectors()
    path = tmp_path / f"v.{kind}"
    if kind == "binary":
        formats.write_word2vec_binary(path, words, vectors)
        fast, slow = reading.read_word2vec_binary(path), formats.read_word2vec_binary(path)
    else:
        formats.write_word2vec_text(path, words, vectors, header=kind == "text")
        fast, slow = reading.read_word2vec_text(path, header=None), formats.read_word2vec_text(path, header=None)
    assert fast[0] == slow[0] == words
    np.testing.assert_array_equal(fast[1], slow[1])
    np.testing.assert_array_equal(fast[1], vectors)


TEXT_VARIANTS = {
    "crlf-and-tabs": b"3 2\r\na 1.5\t2\r\nb -3 4e-2 \r\nc 5 6\r\n",
    "trailing-blank-lines": b"2 2\na 1 2\nb 3 4\n\n  \n",
    "no-final-newline": b"2 2\na 1 2\nb 3 4",
    "fasttext-trailing-space": b"2 3\na 1 2 3 \nb 4 5 6 \n",
    "duplicates": b"3 2\na 1 2\nb 3 4\na 5 6\n",
    "bad-utf8": b"2 2\ncaf\xe9 1 2\nb 3 4\n",
    "glove": b"a 1 2\nb 3 4\n",
}


@pytest.mark.parametrize("name", sorted(TEXT_VARIANTS))
def test_text_variants_read_as_the_reference_reads_them(tmp_path, block_bytes, name, reader_kernels):
    path = tmp_path / "v.txt"
    path.write_bytes(TEXT_VARIANTS[name])
    fast, slow = reading.read_word2vec_text(path, header=None), formats.read_word2vec_text(path, header=None)
    assert fast[0] == slow[0]
    np.testing.assert_array_equal(fast[1], slow[1])


def test_binary_with_duplicates_keeps_the_first(tmp_path, block_bytes, reader_kernels):
    words, vectors = random_vectors(20, 3)
    formats.write_word2vec_binary(tmp_path / "v.bin", words + [words[3]], np.vstack([vectors, vectors[:1] + 1]))
    got_words, got, _ = reading.read_word2vec_binary(tmp_path / "v.bin")
    assert got_words == words
    np.testing.assert_array_equal(got, vectors)


@pytest.mark.parametrize("kind", ["text", "binary"])
def test_limit_and_float16(tmp_path, block_bytes, kind, reader_kernels):
    words, vectors = random_vectors(200, 5)
    vectors = np.clip(vectors, -6e4, 6e4)
    path = tmp_path / "v.bin"
    write = formats.write_word2vec_binary if kind == "binary" else formats.write_word2vec_text
    read = reading.read_word2vec_binary if kind == "binary" else reading.read_word2vec_text
    write(path, words, vectors)
    got_words, got, _ = read(path, limit=17)
    assert got_words == words[:17]
    np.testing.assert_array_equal(got, vectors[:17])
    assert read(path, limit=0)[1].shape == (0, 5)
    half = read(path, dtype="float16")[1]
    assert half.dtype == np.float16
    np.testing.assert_array_equal(half, vectors.astype(np.float16))


def test_float16_refuses_values_beyond_its_range(tmp_path):
    (tmp_path / "v.txt").write_bytes(b"2 2\na 1 2\nb 7e4 1\n")
    with pytest.raises(FormatError, match="line 3.*float16"):
        reading.read_word2vec_text(tmp_path / "v.txt", dtype="float16")


@pytest.mark.parametrize("opener,suffix", [(gzip.open, ".gz"), (bz2.open, ".bz2"), (lzma.open, ".xz")])
@pytest.mark.parametrize("name", ["v.bin", "v.txt", "v.vec"])
def test_compressed_files_load_like_plain_ones(tmp_path, opener, suffix, name, reader_kernels):
    words, vectors = random_vectors(50, 4)
    plain = tmp_path / name
    if name.endswith(".bin"):
        formats.write_word2vec_binary(plain, words, vectors)
    else:
        formats.write_word2vec_text(plain, words, vectors)
    with opener(str(plain) + suffix, "wb") as handle:
        handle.write(plain.read_bytes())
    kv = load_vectors(str(plain) + suffix)
    assert kv.index_to_key == words
    np.testing.assert_array_equal(kv.vectors, vectors)
    gensim_style = KeyedVectors.load_word2vec_format(str(plain) + suffix, limit=5)
    assert gensim_style.index_to_key == words[:5]


NUMPY_ONLY = """
import sys
from wordvec.errors import FormatError
from wordvec.vectors.files import load_vectors
try:
    kv = load_vectors(sys.argv[1], limit=None if sys.argv[2] == "all" else int(sys.argv[2]))
    print(len(kv), float(kv.vectors.astype("float64").sum()), kv.most_similar(kv.index_to_key[0], topn=2)[0][0])
except FormatError as error:
    print(error)
print("numba" in sys.modules, "numba imported", file=sys.stderr)
"""


@pytest.mark.parametrize("name,limit", [("v.bin", "all"), ("v.bin.gz", "50"), ("cut.bin", "all"), ("v.txt", "all"),
                                        ("v.txt.gz", "50"), ("v.glove", "all")])
def test_a_vector_file_loads_without_numba(tmp_path, children, name, limit):
    """A .bin under COMPILED_FROM_BYTES of matrix (NumPy) and every text file (the C parser)."""
    if ".bin" not in name and reading.text_row_parser().__name__ != "wordvec.io._text_rows":
        pytest.skip("the C text parser wordvec.io._text_rows was not built (no C compiler at install)")
    words, vectors = random_vectors(300, 7)
    formats.write_word2vec_binary(tmp_path / "v.bin", words, vectors)
    formats.write_word2vec_text(tmp_path / "v.txt", words, vectors)
    formats.write_word2vec_text(tmp_path / "v.glove", words, vectors, header=False)
    data = (tmp_path / "v.bin").read_bytes()
    (tmp_path / "v.bin.gz").write_bytes(gzip.compress(data))
    (tmp_path / "v.txt.gz").write_bytes(gzip.compress((tmp_path / "v.txt").read_bytes()))
    (tmp_path / "cut.bin").write_bytes(data[:-9])
    child = children.popen([sys.executable, "-c", NUMPY_ONLY, str(tmp_path / name), limit],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert "False numba imported" in err
    if name == "cut.bin":
        cut_at = len(data) - 9
        assert out.strip() == f"{tmp_path / name}, line 301: vector 300 of 300 is truncated (file ends at byte {cut_at})"
        return
    n = len(words) if limit == "all" else int(limit)
    kv = KeyedVectors(words[:n], vectors[:n])
    expected = f"{n} {float(vectors[:n].astype(np.float64).sum())} {kv.most_similar(words[0], topn=2)[0][0]}"
    assert out.strip() == expected


def test_the_reader_is_chosen_by_size_unless_told():
    assert reading.use_compiled(None, reading.COMPILED_FROM_BYTES)
    assert reading.use_compiled(None, 0) == ("numba" in sys.modules)  # (it is, in the tests' process)
    assert reading.use_compiled(True, 0) and not reading.use_compiled(False, 1 << 40)


def test_load_word2vec_format_takes_gensims_arguments(tmp_path):
    words, vectors = random_vectors(30, 4)
    vectors = np.clip(vectors, -6e4, 6e4)
    formats.write_word2vec_text(tmp_path / "g.glove", words, vectors, header=False)
    kv = KeyedVectors.load_word2vec_format(tmp_path / "g.glove", binary=False, no_header=True, limit=3,
                                           datatype=np.float16)
    assert kv.index_to_key == words[:3] and kv.vectors.dtype == np.float16


def test_mapped_cache_is_built_reused_and_rebuilt(tmp_path, caplog):
    words, vectors = random_vectors(40, 4)
    path = tmp_path / "v.bin"
    formats.write_word2vec_binary(path, words, vectors)
    first = load_vectors(path, mmap_mode="r")
    assert isinstance(first.vectors, np.memmap) and (tmp_path / "v.bin.wv" / "vectors.npy").is_file()
    np.testing.assert_array_equal(first.vectors, vectors)
    stamp = (tmp_path / "v.bin.wv" / "vectors.npy").stat().st_mtime_ns
    assert load_vectors(path, mmap_mode="r", limit=5).index_to_key == words[:5]
    assert (tmp_path / "v.bin.wv" / "vectors.npy").stat().st_mtime_ns == stamp  # reused
    formats.write_word2vec_binary(path, words[:10], vectors[:10] * 2)
    os.utime(path, ns=(stamp + 10**9, stamp + 10**9))
    again = load_vectors(path, mmap_mode="r")
    assert again.index_to_key == words[:10]
    np.testing.assert_array_equal(again.vectors, vectors[:10] * 2)


def test_peak_memory_is_the_matrix_plus_a_few_blocks(tmp_path, monkeypatch):
    """One allocation of the final matrix, blocks streamed: what comes on top of the matrix
    <= 0.15 x the matrix plus three blocks and the words.  The matrix is its own anonymous
    map (reading.mapped_empty), which tracemalloc does not see, so the traced peak (NumPy
    reports its other buffers to tracemalloc) is exactly what comes on top."""
    monkeypatch.setattr(reading, "BLOCK_BYTES", 1 << 16)
    words, vectors = random_vectors(4000, 100)
    for name, write, read in [("v.bin", formats.write_word2vec_binary, reading.read_word2vec_binary),
                              ("v.txt", formats.write_word2vec_text, reading.read_word2vec_text)]:
        write(tmp_path / name, words, vectors)
        read(tmp_path / name)  # compile first
        tracemalloc.start()
        got = read(tmp_path / name)[1]
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        words_bytes = sum(len(w) + 60 for w in words) + 8 * len(words)
        assert got.nbytes >= reading.BLOCK_BYTES  # (so it was mapped, not traced)
        assert peak <= 0.15 * got.nbytes + 3 * reading.BLOCK_BYTES + words_bytes, (name, peak, got.nbytes)


# ----------------------------------------------------------------------------- batched search

@pytest.fixture
def table():
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(3000)]
    return KeyedVectors(words, rng.standard_normal((3000, 16)).astype(np.float32))


def names(result):
    return [w for w, _ in result]


def test_batched_search_equals_one_query_at_a_time(table, monkeypatch):
    monkeypatch.setattr(search, "BLOCK_SCORES", 5000)  # many blocks
    words = table.index_to_key[::37]
    batched = table.most_similar_batch(words, topn=7)
    for word, answer in zip(words, batched):
        expected = table.most_similar(word, topn=7)
        assert names(answer) == names(expected)
        np.testing.assert_allclose([c for _, c in answer], [c for _, c in expected], atol=1e-6)
    assert names(table.most_similar_batch(words[:3], topn=4, restrict_vocab=50)[1]) == \
        names(table.most_similar(words[1], topn=4, restrict_vocab=50))


def test_blocked_path_of_most_similar_equals_the_unit_matrix_path(table, monkeypatch):
    expected = table.most_similar(["w1", "w2"], negative=["w3"], topn=5)
    everything = table.most_similar("w5", topn=None)
    monkeypatch.setattr(search, "BIG_MATRIX", 0)
    monkeypatch.setattr(search, "BLOCK_SCORES", 3000)
    blocked = KeyedVectors(table.index_to_key, table.vectors)
    assert names(blocked.most_similar(["w1", "w2"], negative=["w3"], topn=5)) == names(expected)
    np.testing.assert_allclose(blocked.most_similar("w5", topn=None), everything, atol=1e-6)


def test_float16_table_searches_without_a_float32_copy(table):
    half = KeyedVectors(table.index_to_key, table.vectors.astype(np.float16))
    assert half.vectors.dtype == np.float16
    overlap = [len(set(names(half.most_similar(w))) & set(names(table.most_similar(w))))
               for w in table.index_to_key[:50]]
    assert np.mean(overlap) >= 9.5
    assert half._unit is None  # no V x D float32 unit matrix was made


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(0, 40), dims=st.integers(1, 9), seed=st.integers(0, 2**32 - 1),
       planted=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.floats(0, 1, exclude_max=True),
                                  st.sampled_from([np.nan, np.inf, -np.inf, 3.4e38, -3.4e38, 1e-45, 0.0])),
                        max_size=4))
def test_the_nonfinite_row_kernel_finds_what_numpy_finds(rows, dims, seed, planted):
    block = np.random.default_rng(seed).standard_normal((rows, dims)).astype(np.float32)
    for r, c, value in planted:
        if rows:
            block[int(r * rows), int(c * dims)] = value
    bad = np.flatnonzero(~np.isfinite(block).all(axis=1))
    assert parse.first_nonfinite_row(block.view(np.uint32)) == (int(bad[0]) if len(bad) else -1)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 6), k=st.integers(1, 12), widths=st.lists(st.integers(1, 40), min_size=1, max_size=6),
       seed=st.integers(0, 2**32 - 1))
def test_the_top_k_kernel_keeps_what_the_numpy_reference_keeps(n, k, widths, seed):
    """kernels.topk.merge_block against search.merge_top, block after block (distinct scores)."""
    rng = np.random.default_rng(seed)
    k = min(k, sum(widths))
    ref_index, ref_score = np.zeros((n, 0), np.int64), np.zeros((n, 0), np.float32)
    index, score, filled = np.zeros((n, k), np.int64), np.full((n, k), -np.inf, np.float32), np.zeros(n, np.int64)
    offset = 0
    for width in widths:
        block = rng.permutation(n * width).reshape(n, width).astype(np.float32) + offset * n
        scale = rng.uniform(1, 1.0001, width).astype(np.float32)  # keeps the scores distinct
        ref_index, ref_score = search.merge_top(ref_index, ref_score, block * scale, offset, k)
        topk.merge_block(block, scale, offset, index, score, filled)
        offset += width
    assert filled.tolist() == [k] * n
    for q in range(n):
        assert sorted(zip(score[q].tolist(), index[q].tolist())) == sorted(zip(ref_score[q].tolist(),
                                                                               ref_index[q].tolist()))


def test_a_nan_score_ranks_last_in_the_top_k_kernel():
    scores = np.array([[np.nan, 0.5, np.nan, 0.1, 0.9, np.nan, 0.3]], np.float32)
    index, score, filled = np.zeros((1, 3), np.int64), np.full((1, 3), -np.inf, np.float32), np.zeros(1, np.int64)
    topk.merge_block(scores, np.ones(7, np.float32), 0, index, score, filled)
    assert sorted(index[0].tolist()) == [1, 4, 6]
