"""The readers' second thread (wordvec.vectors.background): the matrix's pages populated
from its start ahead of the parser, compressed files decompressed ahead
(gzip by zlib itself); what the readers give is unchanged, errors in the thread reach the
caller, and no thread outlives a load."""

import gzip
import io
import mmap
import threading
import zlib

import numpy as np
import pytest

from wordvec.errors import FormatError
from wordvec.io import formats
from wordvec.vectors import background, reading


def anonymous_resident_mb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("RssAnon")) / 1024


def populate_supported():
    """Whether this kernel has MADV_POPULATE_WRITE (Linux >= 5.14) and ctypes reaches madvise."""
    madvise = background._madvise()
    if madvise is None or not hasattr(mmap, "MAP_ANONYMOUS"):
        return False
    area = mmap.mmap(-1, mmap.PAGESIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    page = np.frombuffer(area, dtype=np.uint8)
    supported = madvise(page.ctypes.data, mmap.PAGESIZE, background.MADV_POPULATE_WRITE) == 0
    del page
    area.close()
    return supported


@pytest.mark.skipif(not hasattr(mmap, "MAP_ANONYMOUS"), reason="anonymous maps are a POSIX thing")
def test_pages_ahead_populates_the_whole_matrix_from_its_start(monkeypatch):
    monkeypatch.setattr(background, "STEP_BYTES", 1 << 20)
    steps = 6
    matrix = reading.mapped_empty((steps * background.STEP_BYTES // 4,), np.float32)
    before = anonymous_resident_mb()
    pages = background.PagesAhead(matrix)
    supported = pages.thread is not None and populate_supported()
    if pages.thread is not None:
        pages.thread.join()  # (close() would stop it early: the parser is done)
    if supported:
        assert pages.done == matrix.nbytes
    calls = []
    pages.madvise = lambda *args: calls.append(args)
    pages.before_writing(matrix.nbytes)  # the parser finds its pages there: no call of its own
    pages.close()
    assert len(calls) == (0 if supported or pages.thread is None else 1)  # (else its own try, which fails too)
    grown = anonymous_resident_mb() - before
    step_mb = background.STEP_BYTES / 2**20
    if supported:  # every step
        assert steps * step_mb - 1 <= grown <= steps * step_mb + 1, grown
    assert not matrix.any()  # populated pages are fresh zero pages: nothing written


@pytest.mark.skipif(not hasattr(mmap, "MAP_ANONYMOUS"), reason="anonymous maps are a POSIX thing")
def test_pages_ahead_skips_what_the_parser_populated(monkeypatch):
    """A parser ahead of the thread populates its own block; the thread goes on past it."""
    monkeypatch.setattr(background, "STEP_BYTES", 1 << 20)
    matrix = reading.mapped_empty((4 * background.STEP_BYTES // 4,), np.float32)
    started = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: None)  # the thread waits for the parser
    pages = background.PagesAhead(matrix)
    if pages.thread is None:  # no madvise through ctypes (not Linux): the parser faults its pages itself
        pages.before_writing(matrix.nbytes)
        pages.close()
        assert pages.front == pages.done == 0
        return
    advised = []
    madvise = pages.madvise
    pages.madvise = lambda address, length, advice: advised.append((address - pages.base, length)) or \
        madvise(address, length, advice)
    pages.before_writing(3 * background.STEP_BYTES // 2)  # the parser's first block, before the thread's
    started(pages.thread)
    pages.thread.join()
    pages.close()
    step = background.STEP_BYTES
    assert advised[0] == (0, 3 * step // 2)
    if populate_supported():
        assert advised[1:] == [(3 * step // 2, step), (5 * step // 2, step), (7 * step // 2, step // 2)]  # past it
        assert pages.done == matrix.nbytes
    else:  # Linux < 5.14: the thread's first call fails and it stops, leaving the pages to the parser
        assert advised[1:] == [(3 * step // 2, step)] and pages.done == 0
    assert not matrix.any()


def test_readers_give_the_same_with_the_pages_thread_on_every_page(tmp_path, monkeypatch):
    monkeypatch.setattr(reading, "BLOCK_BYTES", 1000)  # the matrix is mapped, rows straddle blocks
    monkeypatch.setattr(background, "STEP_BYTES", mmap.PAGESIZE)  # the thread races the parser page by page
    rng = np.random.default_rng(5)
    words, vectors = [f"w{i}" for i in range(3000)], rng.standard_normal((3000, 9)).astype(np.float32)
    formats.write_word2vec_binary(tmp_path / "v.bin", words, vectors)
    formats.write_word2vec_text(tmp_path / "v.txt", words, vectors)
    threads = threading.active_count()
    for got in (reading.read_word2vec_binary(tmp_path / "v.bin"), reading.read_word2vec_text(tmp_path / "v.txt")):
        assert got[0] == words
        np.testing.assert_array_equal(got[1], vectors)
    assert threading.active_count() == threads


def test_prefetched_reader_gives_the_handles_bytes_in_order():
    data = bytes(range(256)) * 1000
    reader = background.PrefetchedReader(io.BytesIO(data), 777)
    chunks = []
    while True:
        chunk = reader.read(777)
        if not chunk:
            break
        chunks.append(chunk)
    reader.close()
    assert b"".join(chunks) == data and reader.tell() == len(data) and reader.read() == b""


class Failing(io.RawIOBase):
    def __init__(self):
        self.calls = 0

    def read(self, size=-1):
        self.calls += 1
        if self.calls == 3:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        return b"x" * size

    def tell(self):
        return 0


def test_an_error_in_the_thread_is_raised_in_the_caller():
    reader = background.PrefetchedReader(Failing(), 10)
    assert reader.read() == b"x" * 10 and reader.read() == b"x" * 10
    with pytest.raises(EOFError, match="end-of-stream"):
        reader.read()
    reader.close()
    assert not reader.thread.is_alive()


def test_close_stops_a_thread_that_is_still_reading():
    reader = background.PrefetchedReader(io.BytesIO(b"y" * 10_000_000), 1000)
    assert reader.read() == b"y" * 1000
    reader.close()  # the queue was full: the thread was waiting to put its next chunk
    assert not reader.thread.is_alive()


def test_a_cut_gzip_file_is_one_sentence_and_no_thread_is_left(tmp_path, monkeypatch):
    monkeypatch.setattr(reading, "BLOCK_BYTES", 4096)
    rng = np.random.default_rng(6)
    words, vectors = [f"w{i}" for i in range(2000)], rng.standard_normal((2000, 8)).astype(np.float32)
    formats.write_word2vec_binary(tmp_path / "v.bin", words, vectors)
    packed = gzip.compress((tmp_path / "v.bin").read_bytes())
    (tmp_path / "cut.bin.gz").write_bytes(packed[: len(packed) // 2])
    threads = threading.active_count()
    with pytest.raises(FormatError, match="cut.bin.gz"):
        reading.read_word2vec_binary(tmp_path / "cut.bin.gz")
    limited = reading.read_word2vec_binary(tmp_path / "cut.bin.gz", limit=10)  # stops before the cut
    assert limited[0] == words[:10]
    assert threading.active_count() == threads


GZIPPED = {"one member": lambda data: gzip.compress(data),
           "two members": lambda data: gzip.compress(data[:1000]) + gzip.compress(data[1000:]),
           "zero padding": lambda data: gzip.compress(data) + b"\0" * 5000,
           "empty": lambda data: gzip.compress(b"")}


@pytest.mark.parametrize("name", sorted(GZIPPED))
@pytest.mark.parametrize("start", [0, 7, 250000])
@pytest.mark.parametrize("block", [1000, 1 << 22])
def test_gzip_chunks_give_what_gzip_gives(name, start, block):
    data = np.random.default_rng(8).integers(0, 256, 300000, dtype=np.uint8).tobytes() + b"abc" * 100000
    packed = GZIPPED[name](data)
    chunks = background.GzipChunks(io.BytesIO(packed), block, start)
    got = []
    while True:
        chunk = chunks.read()
        if not chunk:
            break
        got.append(chunk)
    assert b"".join(got) == gzip.decompress(packed)[start:]


@pytest.mark.parametrize("damage,error", [(lambda packed: packed[:5000], EOFError),
                                          (lambda packed: packed + b"xyz", zlib.error)])
def test_gzip_chunks_refuse_what_gzip_refuses(damage, error):
    packed = damage(gzip.compress(np.random.default_rng(9).integers(0, 256, 300000, dtype=np.uint8).tobytes()))
    chunks = background.GzipChunks(io.BytesIO(packed), 1 << 16)
    with pytest.raises(error):
        while chunks.read():
            pass
    with pytest.raises((EOFError, OSError, zlib.error)):
        gzip.decompress(packed)
