"""Big vector files gone wrong, on small files with the same defects: a .bin cut mid-row,
a header promising more rows than the file holds, a .vec with a ragged row far in,
NaN/inf rows, duplicate words, an HTML page saved as vectors.  Each is one sentence
naming the file and the line, exit 2 from the CLI, no half-written output; duplicates load
(first vector kept, a warning).  Then hypothesis: damaged files read by the fast readers
(wordvec.vectors.reading) give what the reference readers (wordvec.io.formats) give, or
both refuse them."""

import gzip
import logging
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from wordvec.errors import FormatError, WordvecError
from wordvec.io import formats
from wordvec.vectors import reading
from wordvec.vectors.files import load_vectors

from .harness import assert_clean_failure, run_cli, run_main
from .test_corrupt_files import EDITS, damage

ROWS, DIMS = 30000, 4
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def table(rows=ROWS, dims=DIMS, seed=0):
    rng = np.random.default_rng(seed)
    return [f"w{i}" for i in range(rows)], rng.standard_normal((rows, dims)).astype(np.float32)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("big")
    words, vectors = table()
    formats.write_word2vec_binary(root / "good.bin", words, vectors)
    formats.write_word2vec_text(root / "good.vec", words, vectors)
    return root


def failure(*argv):
    result = run_main(*argv)
    assert result.returncode == 2
    return result


def test_binary_cut_mid_row(files, tmp_path, reader_kernels):
    words, _ = table()
    data = (files / "good.bin").read_bytes()
    start = len(f"{ROWS} {DIMS}\n") + sum(len(w) + 2 + 4 * DIMS for w in words[:29000])  # of row 29,001
    (tmp_path / "cut.bin").write_bytes(data[: start + 9])  # mid-row (cut more and the header check says so)
    assert_clean_failure(failure("info", tmp_path / "cut.bin"), "cut.bin", "line 29002",
                         "vector 29001 of 30000 is truncated")


def test_real_process_exits_2_on_a_cut_binary(files, tmp_path):
    data = (files / "good.bin").read_bytes()
    (tmp_path / "cut.bin").write_bytes(data[: len(data) - 7])
    result = run_cli("convert", tmp_path / "cut.bin", tmp_path / "out.txt")
    assert result.returncode == 2
    assert_clean_failure(result, "cut.bin", "line 30001", "truncated")
    assert not (tmp_path / "out.txt").exists()  # no half-written output


@pytest.mark.parametrize("name", ["more.bin", "more.vec"])
def test_header_promising_more_rows_than_the_file_holds(files, tmp_path, name, reader_kernels):
    source = files / ("good.bin" if name.endswith(".bin") else "good.vec")
    data = source.read_bytes().replace(f"{ROWS} {DIMS}\n".encode(), b"9000000 4\n", 1)
    (tmp_path / name).write_bytes(data)
    assert_clean_failure(failure("info", tmp_path / name), name, "line 1", "header promises 9000000")
    with gzip.open(tmp_path / (name + ".gz"), "wb") as handle:  # compressed: found at the end
        handle.write(data)
    assert_clean_failure(failure("info", tmp_path / (name + ".gz")), name + ".gz", f"line {ROWS + 1}",
                         f"{ROWS} of the 9000000")


def test_ragged_row_far_into_a_vec(files, tmp_path):
    lines = (files / "good.vec").read_bytes().split(b"\n")
    lines[25000] = lines[25000].rsplit(b" ", 1)[0]  # line 25,001: one number short
    (tmp_path / "ragged.vec").write_bytes(b"\n".join(lines))
    assert_clean_failure(failure("info", tmp_path / "ragged.vec"), "ragged.vec", "line 25001",
                         f"expected {DIMS} numbers after the word, found {DIMS - 1}")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("name", ["bad.bin", "bad.vec"])
def test_nan_and_inf_rows(tmp_path, bad, name, reader_kernels):
    words, vectors = table(5000)
    vectors[4321, 2] = bad
    write = formats.write_word2vec_binary if name.endswith(".bin") else formats.write_word2vec_text
    write(tmp_path / name, words, vectors)
    assert_clean_failure(failure("info", tmp_path / name), name, "line 4323", "w4321", "NaN or infinity")


def test_a_number_that_is_not_a_number_far_in(files, tmp_path):
    data = (files / "good.vec").read_bytes().split(b"\n")
    data[29000] = data[29000].replace(b" ", b" 1.2.3 ", 1).rsplit(b" ", 1)[0]
    (tmp_path / "nan.vec").write_bytes(b"\n".join(data))
    assert_clean_failure(failure("info", tmp_path / "nan.vec"), "nan.vec", "line 29001", "'1.2.3' is not a number")


@pytest.mark.parametrize("name", ["dup.bin", "dup.vec"])
def test_duplicate_words_keep_the_first_vector(tmp_path, caplog, name, reader_kernels):
    words, vectors = table(3000)
    words[2500] = words[10]
    write = formats.write_word2vec_binary if name.endswith(".bin") else formats.write_word2vec_text
    write(tmp_path / name, words, vectors)
    with caplog.at_level(logging.WARNING):
        kv = load_vectors(tmp_path / name)
    assert len(kv) == 2999 and "duplicate" in caplog.text
    np.testing.assert_array_equal(kv["w10"], vectors[10])
    np.testing.assert_array_equal(kv.vectors[2500], vectors[2501])


HTML = b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body>Not here</body></html>\n"


@pytest.mark.parametrize("name", ["page.bin", "page.txt", "page.vec", "page.bin.gz"])
def test_an_html_page_saved_as_vectors(tmp_path, name, reader_kernels):
    if name.endswith(".gz"):
        with gzip.open(tmp_path / name, "wb") as handle:
            handle.write(HTML)
    else:
        (tmp_path / name).write_bytes(HTML)
    line = assert_clean_failure(failure("info", tmp_path / name), name)
    assert line.endswith("is not a vector file: it looks like " +
                         ("a gzip-compressed file holding an HTML page" if name.endswith(".gz") else "an HTML page"))


def test_a_damaged_gzip_is_one_sentence(files, tmp_path, reader_kernels):
    with gzip.open(tmp_path / "v.bin.gz", "wb") as handle:
        handle.write((files / "good.bin").read_bytes())
    data = bytearray((tmp_path / "v.bin.gz").read_bytes())
    data[len(data) // 2: len(data) // 2 + 64] = bytes(64)
    (tmp_path / "v.bin.gz").write_bytes(bytes(data))
    assert_clean_failure(failure("info", tmp_path / "v.bin.gz"), "v.bin.gz")


def _same_or_both_refuse(fast, reference):
    try:
        expected = reference()
    except WordvecError:
        with pytest.raises(WordvecError):
            fast()
        return
    got = fast()
    assert got[0] == expected[0]
    np.testing.assert_array_equal(got[1], expected[1])


@pytest.mark.parametrize("kind", ["binary", "binary-numpy", "text", "text-numba", "glove", "glove-numba"])
def test_damaged_files_read_as_the_reference_reads_them(tmp_path_factory, kind, monkeypatch):
    """(text and glove: the C parser where it was built; -numba: the Numba kernel)"""
    monkeypatch.setattr(reading, "BLOCK_BYTES", 97)  # rows across blocks, everywhere
    monkeypatch.setattr(reading, "use_compiled", lambda compiled, matrix_bytes: kind != "binary-numpy")
    if kind.endswith("-numba"):
        monkeypatch.setattr(reading, "text_row_parser", reading._compiled)
    kind = kind.removesuffix("-numba")
    words, vectors = table(40, 3)
    root = tmp_path_factory.mktemp("fuzz")
    source = root / "v"
    if kind.startswith("binary"):
        formats.write_word2vec_binary(source, words, vectors)
        fast, reference = reading.read_word2vec_binary, formats.read_word2vec_binary
    else:
        formats.write_word2vec_text(source, words, vectors, header=kind == "text")
        fast = lambda p: reading.read_word2vec_text(p, header=kind == "text")  # noqa: E731
        reference = lambda p: formats.read_word2vec_text(p, header=kind == "text")  # noqa: E731
    original = source.read_bytes()

    @SETTINGS
    @given(EDITS)
    def check(edits):
        folder = Path(tempfile.mkdtemp(prefix="wordvec-fuzz-"))
        try:
            (folder / "v").write_bytes(damage(original, edits))
            _same_or_both_refuse(lambda: fast(folder / "v"), lambda: reference(folder / "v"))
        finally:
            shutil.rmtree(folder)

    check()
