"""wordvec.io.atomic.Writeback: a big save hands what it has written to the disk as it goes
(sync_file_range), each byte range once, and the file is the same as without it."""

import ctypes
import sys

import numpy as np

from wordvec.io import atomic


class Recorder:
    def __init__(self, status=0):
        self.calls, self.status = [], status

    def __call__(self, fd, offset, nbytes, flags):
        self.calls.append((offset, nbytes, flags))
        return self.status


def write_in_pieces(path, pieces, every, monkeypatch=None, recorder=None):
    if recorder is not None:
        monkeypatch.setattr(atomic, "_sync_file_range", lambda: recorder)
    with atomic.atomic_write(path, "wb") as out:
        out.write(b"header")
        writeback = atomic.Writeback(out, every=every)
        for piece in pieces:
            out.write(piece)
            writeback()


def test_each_written_range_is_handed_over_once_in_order(tmp_path, monkeypatch):
    recorder = Recorder()
    pieces = [bytes([i]) * 40 for i in range(10)]  # 400 bytes after a 6-byte header
    write_in_pieces(tmp_path / "f.bin", pieces, every=100, monkeypatch=monkeypatch, recorder=recorder)
    assert recorder.calls == [(6, 120, atomic.SYNC_FILE_RANGE_WRITE), (126, 120, atomic.SYNC_FILE_RANGE_WRITE),
                              (246, 120, atomic.SYNC_FILE_RANGE_WRITE)]  # the last 40 bytes: left to the fsync
    assert (tmp_path / "f.bin").read_bytes() == b"header" + b"".join(pieces)


def test_a_refusal_stops_the_calls(tmp_path, monkeypatch):
    recorder = Recorder(status=-1)
    pieces = [b"x" * 50] * 10
    write_in_pieces(tmp_path / "f.bin", pieces, every=100, monkeypatch=monkeypatch, recorder=recorder)
    assert len(recorder.calls) == 1
    assert (tmp_path / "f.bin").read_bytes() == b"header" + b"x" * 500


def test_without_the_call_the_save_is_unchanged(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "_sync_file_range", lambda: None)
    write_in_pieces(tmp_path / "f.bin", [b"abc"] * 100, every=10)
    assert (tmp_path / "f.bin").read_bytes() == b"header" + b"abc" * 100


def test_the_real_call_keeps_the_bytes(tmp_path):
    # glibc's sync_file_range where there is one (Linux with glibc); elsewhere the same save without it
    assert (atomic._sync_file_range() is not None) == _has_glibc()
    rng = np.random.default_rng(0)
    pieces = [rng.integers(0, 256, 70_000, dtype=np.uint8).tobytes() for _ in range(20)]
    write_in_pieces(tmp_path / "f.bin", pieces, every=1 << 16)
    assert (tmp_path / "f.bin").read_bytes() == b"header" + b"".join(pieces)


def _has_glibc():
    try:
        ctypes.CDLL("libc.so.6").sync_file_range
    except (OSError, AttributeError):
        return False
    return sys.platform.startswith("linux")
