"""A damaged approximate index beside the vectors (``VECTORS.usearch``): usearch trusts
the bytes it opens, so the file's size and SHA-256, written with it, are checked first.
One byte changed, a truncated file, an index of other vectors of another dimension:
`similar --approximate` says so in one sentence (exit 2, never a crash: each case runs
in its own process); `serve` warns and answers with exact search."""

import logging
import shutil

import numpy as np
import pytest

from wordvec.vectors import ann
from wordvec.vectors.files import load_vectors, save_vectors
from wordvec.vectors.keyed import KeyedVectors

from .harness import assert_clean_failure, digest, run_cli

pytest.importorskip("usearch", reason="the ann extra (usearch) is not installed")

ROWS = 600


def vectors(dim, seed=0):
    rng = np.random.default_rng(seed)
    return KeyedVectors([f"w{i}" for i in range(ROWS)], rng.standard_normal((ROWS, dim)).astype(np.float32))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("ann-hostile")
    save_vectors(vectors(8), root / "v.wv")
    ann.save_index(ann.build_index(vectors(8), threads=1), root / "v.wv")
    save_vectors(vectors(16), root / "wide.wv")
    ann.save_index(ann.build_index(vectors(16), threads=1), root / "wide.wv")
    return root


def flipped(data, at):
    data = bytearray(data)
    data[at] ^= 0x5A
    return bytes(data)


def damaged_copies(built, target):
    """(name, vectors path) of each damaged index, in its own directory under ``target``."""
    good = (built / "v.wv.usearch").read_bytes()
    cases = {f"flip-{at}": flipped(good, at) for at in (0, 40, 64, len(good) // 3, len(good) // 2, len(good) - 1)}
    cases["truncated"] = good[: len(good) // 2]
    cases["empty"] = b""
    cases["other-dimension"] = (built / "wide.wv.usearch").read_bytes()
    for name, data in cases.items():
        folder = target / name
        shutil.copytree(built / "v.wv", folder / "v.wv")
        shutil.copy(built / "v.wv.usearch.json", folder / "v.wv.usearch.json")
        (folder / "v.wv.usearch").write_bytes(data)
        yield name, folder / "v.wv"


def test_similar_approximate_refuses_every_damaged_index(built, tmp_path):
    for name, path in damaged_copies(built, tmp_path):
        before = digest(path.parent)
        result = run_cli("similar", path, "w1", "--approximate")
        assert result.returncode == 2, (name, result.returncode, result.stderr[-2000:])
        assert_clean_failure(result, "v.wv.usearch", "wordvec index")
        assert digest(path.parent) == before


def test_the_intact_index_still_answers(built):
    result = run_cli("similar", built / "v.wv", "w1", "--approximate")
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.stdout.split("\n")) >= 10


def test_an_index_without_a_checksum_is_refused(built, tmp_path):
    shutil.copytree(built, tmp_path / "old", dirs_exist_ok=True)
    meta = tmp_path / "old" / "v.wv.usearch.json"
    meta.write_text(meta.read_text().replace('"sha256"', '"unchecked"'))
    with pytest.raises(Exception, match="no checksum"):
        ann.attach_index(load_vectors(tmp_path / "old" / "v.wv"), tmp_path / "old" / "v.wv")


def test_serve_ignores_a_damaged_index_with_a_warning(built, tmp_path, caplog):
    from wordvec.serve import make_server

    name, path = next(iter(damaged_copies(built, tmp_path)))
    with caplog.at_level(logging.WARNING):
        server = make_server(load_vectors(path), port=0, source=path)
    try:
        assert any("approximate index" in r.getMessage() and "v.wv.usearch" in r.getMessage() for r in caplog.records)
        status, answer = server.api.handle("neighbours", {"word": "w1", "topn": "5"})
        assert status == 200 and len(answer["neighbours"]) == 5
    finally:
        server.server_close()
