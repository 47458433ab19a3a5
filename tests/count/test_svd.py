"""PPMI-SVD: the PPMI transform by its definition, the randomized SVD against LAPACK,
eigenvalue weighting and context vectors, save/load, CLI and bad inputs."""

import numpy as np
import pytest
import scipy.sparse

from wordvec.data import synthetic
from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.kernels.sparse import csr_times_dense
from wordvec.models.count.svd import PPMISVD, orthonormal_basis, ppmi, randomized_svd, transform_counts


def random_counts(V, density, seed):
    X = scipy.sparse.random(V, V, density=density, random_state=seed, format="csr")
    X.data = np.ceil(X.data * 20)
    return X


def test_ppmi_matches_the_definition():
    X = random_counts(30, 0.3, 0)
    dense = X.toarray()
    for cds, shift in ((1.0, 1.0), (0.75, 1.0), (0.75, 5.0)):
        context = dense.sum(axis=0) ** cds
        with np.errstate(divide="ignore"):
            pmi = np.log(dense) - np.log(dense.sum(axis=1, keepdims=True)) - np.log(context / context.sum())
        expected = np.where(dense > 0, np.maximum(pmi - np.log(shift), 0), 0)
        M = ppmi(X, cds, shift)
        np.testing.assert_array_equal(X.toarray(), dense)  # X left intact
        np.testing.assert_allclose(M.toarray(), expected, rtol=1e-5, atol=1e-6)
        assert M.nnz == np.count_nonzero(expected)  # no stored zeros


def test_log_and_raw_transforms():
    X = random_counts(20, 0.3, 1)
    np.testing.assert_allclose(transform_counts(X, "log", 0.75, 1).toarray(), np.log1p(X.toarray()), rtol=1e-6)
    np.testing.assert_allclose(transform_counts(X, "raw", 0.75, 1).toarray(), X.toarray(), rtol=1e-6)


def test_csr_times_dense_kernel():
    M = random_counts(50, 0.2, 2).astype(np.float32)
    B = np.random.default_rng(0).standard_normal((50, 7)).astype(np.float32)
    for workers in (1, 2, 3):
        np.testing.assert_allclose(csr_times_dense(M, B, workers), M @ B, rtol=1e-5, atol=1e-5)


def test_orthonormal_basis():
    Y = np.random.default_rng(1).standard_normal((500, 12))
    Q, R = orthonormal_basis(Y)
    np.testing.assert_allclose(Q.T @ Q, np.eye(12), atol=1e-10)
    np.testing.assert_allclose(Q @ R, Y, atol=1e-10)


def test_orthonormal_basis_of_a_rank_deficient_float32_block():
    """Columns that are sums of a few others (a PPMI matrix of a vocabulary barely larger than
    the rank asked for): the float32 Gram matrix is not positive definite, the basis still is."""
    rng = np.random.default_rng(2)
    B = rng.standard_normal((110, 40)).astype(np.float32)
    Y = np.concatenate([B, B @ rng.standard_normal((40, 70)).astype(np.float32)], axis=1)  # 110 x 110, rank 40
    Q, R = orthonormal_basis(Y, 1, np.float32)
    assert np.isfinite(Q).all()
    np.testing.assert_allclose(Q.T @ Q, np.eye(110), atol=1e-4)
    np.testing.assert_allclose(Q @ R, Y, atol=1e-3 * np.abs(Y).max())


def test_ppmi_svd_of_a_vocabulary_just_above_the_rank_trains(tmp_path):
    rng = np.random.default_rng(110)
    words = [f"w{i}" for i in range(110)]
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(" ".join(rng.choice(words, 8)) for _ in range(60)) + "\n")
    model = PPMISVD(vector_size=100, min_count=1).fit(str(corpus))
    assert np.isfinite(model.wv.vectors).all() and model.wv.vectors.shape[1] == 100


def test_randomized_svd_recovers_the_leading_singular_triplets():
    rng = np.random.default_rng(3)
    U0, _ = np.linalg.qr(rng.standard_normal((300, 300)))
    V0, _ = np.linalg.qr(rng.standard_normal((300, 300)))
    s0 = 0.8 ** np.arange(300)  # a decaying spectrum
    M = scipy.sparse.csr_matrix((U0 * s0) @ V0.T)
    U, s, Ct = randomized_svd(M, 10, power_iterations=3, seed=1)
    np.testing.assert_allclose(s, s0[:10], rtol=1e-4)
    np.testing.assert_allclose(np.abs(np.sum(U * U0[:, :10], axis=0)), 1, atol=1e-3)  # same vectors up to sign
    np.testing.assert_allclose(np.abs(np.sum(Ct.T * V0[:, :10], axis=0)), 1, atol=1e-3)


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("svd") / "synthetic.txt"
    synthetic.write_corpus(path, tokens=60_000, seed=0)
    return path


def test_eig_and_context_vectors(corpus_file):
    model = PPMISVD(corpus_file=str(corpus_file), vector_size=10, min_count=2, eig=0.0, progress=False)
    np.testing.assert_allclose(model.wv.vectors, model.U, rtol=1e-6)
    model.eig, model.add_context, model._wv = 1.0, True, None
    expected = (model.U + model.C) * model.singular_values.astype(np.float32)
    np.testing.assert_allclose(model.wv.vectors, expected, rtol=1e-5, atol=1e-6)
    assert np.all(np.diff(model.singular_values) <= 0)


def test_arpack_and_randomized_agree_on_the_spectrum(corpus_file):
    fast = PPMISVD(corpus_file=str(corpus_file), vector_size=5, min_count=2, power_iterations=8, progress=False)
    exact = PPMISVD(corpus_file=str(corpus_file), vector_size=5, min_count=2, solver="arpack", progress=False)
    np.testing.assert_allclose(fast.singular_values, exact.singular_values, rtol=1e-3)


def test_save_load(corpus_file, tmp_path):
    model = PPMISVD(corpus_file=str(corpus_file), vector_size=8, min_count=2, progress=False)
    model.save(tmp_path / "svd.wv")
    again = PPMISVD.load(tmp_path / "svd.wv")
    np.testing.assert_array_equal(again.wv.vectors, model.wv.vectors)
    assert again.words == model.words and again.cds == model.cds


def test_vector_size_must_be_below_the_vocabulary():
    with pytest.raises(WordvecError, match="smaller than the vocabulary"):
        PPMISVD(sentences=[["a", "b", "c", "a", "b"]] * 3, vector_size=3, min_count=1, progress=False)


@pytest.mark.parametrize("options, fragment", [({"window": 0}, "window"), ({"cds": 0}, "cds"),
                                               ({"shift": 0.5}, "shift"), ({"transform": "sqrt"}, "transform")])
def test_bad_hyperparameters(options, fragment):
    with pytest.raises(WordvecError, match=fragment):
        PPMISVD(**options)


def test_cli_svd(corpus_file, tmp_path, capsys):
    out = tmp_path / "svd.bin"
    status = main(["train", str(corpus_file), "-o", str(out), "--model", "svd", "--vector-size", "8",
                   "--window", "3", "--min-count", "2", "--cds", "0.75", "--shift", "1", "--eig", "0.5",
                   "--no-progress", "--no-eval"])
    assert status == 0 and out.exists()
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("a b c a b c\n")
    status = main(["train", str(tiny), "-o", str(out), "--model", "svd", "--min-count", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "vector_size" in err[0]
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    status = main(["train", str(empty), "-o", str(out), "--model", "svd"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "empty" in err[0]
