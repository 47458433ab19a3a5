"""What the Ray code does without a cluster: cutting a corpus into pieces, and the one
sentence ``--ray`` answers when Ray is not installed."""

import sys

import pytest

from wordvec.cli import main
from wordvec.data.corpus import Corpus
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


def test_sync_kernels_equal_their_numpy_references():
    import numpy as np

    from wordvec.distributed import training
    from wordvec.math import row_deltas

    rng = np.random.default_rng(0)
    for shape in ((300, 7), (300,)):
        base = rng.random(shape, dtype=np.float32)
        current = base.copy()
        touched = rng.random(300) < 0.4
        current[touched] += rng.normal(size=current[touched].shape).astype(np.float32)
        rows, deltas = training.row_deltas(current, base)
        ref_rows, ref_deltas = row_deltas.reference_row_deltas(current, base)
        assert np.array_equal(rows, ref_rows) and np.array_equal(rows, np.flatnonzero(touched))
        assert np.array_equal(deltas, ref_deltas)
        divisor = rng.integers(1, 4, 300).astype(np.float32)
        fast, slow = base.copy(), base.copy()
        training.add_row_deltas(fast, rows, deltas, divisor)
        row_deltas.reference_add_row_deltas(slow, rows, deltas, divisor)
        assert np.array_equal(fast, slow)


def test_combine_averages_sparse_deltas_over_the_workers_that_touched_a_row():
    import numpy as np

    from wordvec.distributed.training import combine

    base = {"W": np.zeros((4, 2), np.float32), "b": np.zeros(4, np.float32)}
    first = {"W": (np.array([0, 1], np.int32), np.array([[2, 2], [4, 4]], np.float32)),
             "b": (np.array([3], np.int32), np.array([1], np.float32))}
    second = {"W": (np.array([1, 2], np.int32), np.array([[2, 2], [6, 6]], np.float32)),
              "b": (np.array([3], np.int32), np.array([3], np.float32))}
    update = combine(base, [first, second], "sparse")
    assert base["W"].tolist() == [[2, 2], [3, 3], [6, 6], [0, 0]] and base["b"].tolist() == [0, 0, 0, 2]
    assert update["W"][0].tolist() == [0, 1, 2] and update["b"][0].tolist() == [3]
    summed = combine({k: np.zeros_like(v) for k, v in base.items()}, [first, second], "sparse", deltas="sum")
    assert summed["W"][1].tolist() == [[2, 2], [6, 6], [6, 6]] and summed["b"][1].tolist() == [4]
    dense = {k: (None, np.full_like(v, 2.0)) for k, v in base.items()}
    averaged = combine(base, [dense, {k: (None, np.zeros_like(v)) for k, v in base.items()}], "average")
    assert averaged["W"][0] is None and np.all(base["W"] == 1.0)
