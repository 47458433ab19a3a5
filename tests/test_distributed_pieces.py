"""What the Ray code does without a cluster: cutting a corpus into pieces, and the one
sentence ``--ray`` answers when Ray is not installed."""

import sys

import pytest

from wordvec.cli import main
from wordvec.corpus import Corpus
from wordvec.distributed import pieces


def test_pieces_cover_the_file_and_cut_at_line_ends(tmp_path, monkeypatch):
    monkeypatch.setattr(pieces, "MIN_PIECE_BYTES", 100)
    lines = [" ".join(f"w{i}_{k}" for k in range(i % 7 + 1)) for i in range(300)]
    path = tmp_path / "c.txt"
    path.write_text("\n".join(lines) + "\n")
    planned = pieces.plan_pieces(path, 10, at="line")
    assert len(planned) >= 8
    ranges = [p.byte_range for p in planned]
    assert ranges[0][0] == 0 and ranges[-1][1] == path.stat().st_size
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    data = path.read_bytes()
    assert all(data[end - 1:end] == b"\n" for _, end in ranges)
    documents = [doc for p in planned for doc in p.corpus(False, 10_000)]
    assert documents == list(Corpus(path))


def test_one_long_line_is_cut_at_spaces_for_counting_only(tmp_path, monkeypatch):
    monkeypatch.setattr(pieces, "MIN_PIECE_BYTES", 100)
    path = tmp_path / "text8"
    path.write_text(" ".join(f"w{i % 50}" for i in range(2000)))
    assert len(pieces.plan_pieces(path, 10, at="line")) == 1
    spaced = pieces.plan_pieces(path, 10, at="space")
    assert len(spaced) >= 8
    tokens = [t for p in spaced for doc in p.corpus(False, 10_000) for t in doc]
    assert tokens == [t for doc in Corpus(path) for t in doc]


def test_compressed_files_and_directories_stay_whole_files(tmp_path, monkeypatch):
    import gzip

    monkeypatch.setattr(pieces, "MIN_PIECE_BYTES", 10)
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(b"a b c\n" * 100))
    (tmp_path / "b.txt").write_text("d e\n")
    planned = pieces.plan_pieces(tmp_path, 50)
    assert [p.byte_range for p in planned] == [None, None]


@pytest.mark.parametrize("command", [["vocab"], ["cooccur", "-o", "X.npz"], ["train", "-o", "v.bin"]])
def test_ray_flag_without_ray_is_one_sentence(tmp_path, monkeypatch, capsys, command):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    corpus = tmp_path / "c.txt"
    corpus.write_text("a b c\n")
    argv = [command[0], str(corpus), *command[1:], "--ray"]
    argv = [a if a not in ("X.npz", "v.bin") else str(tmp_path / a) for a in argv]
    status = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1
    assert "install the ray extra: pip install -e '.[ray]'" in err[0]
