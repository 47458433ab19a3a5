"""`doc2vec infer` with a learning rate that makes the vectors overflow: one sentence,
exit 2, no file written (training already checked its loss; inference wrote NaN)."""

import pytest

from wordvec.models.doc2vec.model import Doc2Vec

from .harness import assert_clean_failure, run_main
from .world import corpus_text


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    root = tmp_path_factory.mktemp("infer")
    (root / "docs.txt").write_text(corpus_text(60), encoding="utf-8")
    Doc2Vec(corpus_file=str(root / "docs.txt"), vector_size=8, min_count=1, epochs=2, workers=1).save(root / "m.d2v")
    return root


def test_infer_refuses_diverged_vectors(model, tmp_path):
    result = run_main("doc2vec", "infer", model / "m.d2v", model / "docs.txt", "-o", tmp_path / "v.npy",
                      "--alpha", "1e308")
    assert result.returncode == 2
    assert_clean_failure(result, "inference diverged", "alpha")
    assert not (tmp_path / "v.npy").exists()


def test_infer_with_a_sane_rate_still_writes(model, tmp_path):
    result = run_main("doc2vec", "infer", model / "m.d2v", model / "docs.txt", "-o", tmp_path / "v.npy")
    assert result.returncode == 0, result.stderr[-1000:]
    assert (tmp_path / "v.npy").exists()
