"""GloVe: the reference gradient against finite differences, the compiled kernel against
the reference step, exact resumption from a checkpoint, learning, and bad inputs."""

import numpy as np
import pytest
import scipy.sparse

from wordvec.data import synthetic
from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.math.gradcheck import check_gradient
from wordvec.kernels import glove as kernels
from wordvec.math.glove import glove_adagrad_step, glove_loss_and_gradients, glove_weight
from wordvec.models.count.glove import GloVe

V, D = 7, 4


def random_problem(seed, nnz=20):
    rng = np.random.default_rng(seed)
    params = {"W": rng.normal(0, 0.3, (V, D)), "W_context": rng.normal(0, 0.3, (V, D)),
              "b": rng.normal(0, 0.3, V), "b_context": rng.normal(0, 0.3, V)}
    pairs = rng.choice(V * V, nnz, replace=False)
    rows, cols = (pairs // V).astype(np.int32), (pairs % V).astype(np.int32)
    x = rng.uniform(0.2, 30.0, nnz)  # some above x_max = 10: f capped at 1
    return params, rows, cols, x


def test_weight_function():
    np.testing.assert_allclose(glove_weight([1.0, 10.0, 100.0, 1000.0], 100.0, 0.75),
                               [0.01**0.75, 0.1**0.75, 1.0, 1.0])


def test_reference_gradient_matches_finite_differences():
    params, rows, cols, x = random_problem(0)
    # repeated rows and columns: gradients must add, not overwrite
    assert len(set(rows.tolist())) < len(rows) and len(set(cols.tolist())) < len(cols)
    J, grads = glove_loss_and_gradients(**params, rows=rows, cols=cols, x=x, x_max=10.0, power=0.75)
    assert J > 0
    error = check_gradient(lambda: glove_loss_and_gradients(**params, rows=rows, cols=cols, x=x,
                                                            x_max=10.0, power=0.75)[0], params, grads)
    assert error < 1e-6


def test_adagrad_step_follows_half_the_gradient_of_one_entry():
    """With fresh accumulators (1.0) the vector step is learning_rate * dJ_ij/2, the bias
    step dJ_ij/2 (glove.c's convention), all taken at the old parameters."""
    params, rows, cols, x = random_problem(1, nnz=1)
    i, j = int(rows[0]), int(cols[0])
    _, grads = glove_loss_and_gradients(**params, rows=rows, cols=cols, x=x, x_max=10.0, power=0.75)
    before = {k: v.copy() for k, v in params.items()}
    sq = {k: np.ones_like(v) for k, v in params.items()}
    glove_adagrad_step(params, sq, i, j, x[0], 10.0, 0.75, learning_rate=0.05)
    np.testing.assert_allclose(before["W"][i] - params["W"][i], 0.05 * grads["W"][i] / 2, rtol=1e-12)
    np.testing.assert_allclose(before["W_context"][j] - params["W_context"][j],
                               0.05 * grads["W_context"][j] / 2, rtol=1e-12)
    np.testing.assert_allclose(before["b"][i] - params["b"][i], grads["b"][i] / 2, rtol=1e-12)
    np.testing.assert_allclose(sq["b_context"][j], 1 + (grads["b_context"][j] / 2) ** 2, rtol=1e-12)


def pack_entries(rows, cols, x, x_max, power):
    entries = np.empty((len(rows), 4), np.int32)
    as_float = entries.view(np.float32)
    entries[:, 0], entries[:, 1] = rows, cols
    as_float[:, 2] = np.log(x)
    as_float[:, 3] = glove_weight(x, x_max, power)
    return entries, as_float


def test_kernel_matches_reference_steps():
    params, rows, cols, x = random_problem(2, nnz=30)
    x = x.astype(np.float32).astype(np.float64)  # the kernel stores X as float32
    order = np.empty(len(rows), np.int32)
    kernels.shuffle_order(order, 5, 0)
    assert sorted(order.tolist()) == list(range(len(rows))) and not np.array_equal(order, np.arange(len(rows)))
    p32 = {k: v.astype(np.float32) for k, v in params.items()}
    ref = {k: v.astype(np.float32).astype(np.float64) for k, v in params.items()}
    sq32 = {k: np.ones_like(v) for k, v in p32.items()}
    sq_ref = {k: np.ones_like(v) for k, v in ref.items()}
    entries, as_float = pack_entries(rows, cols, x, 10.0, 0.75)
    for _ in range(3):  # three passes, so the accumulators matter
        loss, done = kernels.train_share(kernels.Entries(entries, as_float, order), 0, len(order),
                                         kernels.Parameters(p32["W"], p32["W_context"], p32["b"], p32["b_context"]),
                                         kernels.Parameters(sq32["W"], sq32["W_context"], sq32["b"],
                                                            sq32["b_context"]), 0.05, 100.0)
        ref_loss = sum(glove_adagrad_step(ref, sq_ref, rows[e], cols[e], x[e], 10.0, 0.75, 0.05)
                       for e in order)
        assert done == len(order)
        assert loss == pytest.approx(ref_loss, rel=1e-4)
    for name in ref:
        np.testing.assert_allclose(p32[name], ref[name], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(sq32[name], sq_ref[name], rtol=1e-4)


def test_kernel_clips_large_gradients_like_the_reference():
    params, rows, cols, x = random_problem(3, nnz=1)
    params["W"] *= 100.0  # huge diff: component gradients far beyond the clip
    ref = {k: v.astype(np.float32).astype(np.float64) for k, v in params.items()}
    p32 = {k: v.astype(np.float32) for k, v in params.items()}
    sq_ref = {k: np.ones_like(v) for k, v in ref.items()}
    sq32 = {k: np.ones_like(v) for k, v in p32.items()}
    glove_adagrad_step(ref, sq_ref, rows[0], cols[0], x[0], 10.0, 0.75, 0.05, grad_clip=1.0)
    entries, as_float = pack_entries(rows, cols, x, 10.0, 0.75)
    kernels.train_share(kernels.Entries(entries, as_float, np.zeros(1, np.int32)), 0, 1,
                        kernels.Parameters(p32["W"], p32["W_context"], p32["b"], p32["b_context"]),
                        kernels.Parameters(sq32["W"], sq32["W_context"], sq32["b"], sq32["b_context"]), 0.05, 1.0)
    j = cols[0]
    assert np.allclose(np.abs(params["W_context"][j] - ref["W_context"][j]), 0.05)  # every component clipped
    for name in ref:
        np.testing.assert_allclose(p32[name], ref[name], rtol=1e-5, atol=1e-6)


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("glove") / "synthetic.txt"
    synthetic.write_corpus(path, tokens=60_000, seed=0)
    return path


def small_glove(corpus_file, **options):
    settings = dict(corpus_file=str(corpus_file), vector_size=16, window=5, x_max=10.0, epochs=4,
                    min_count=2, workers=1, progress=False)
    settings.update(options)
    return GloVe(**settings)


def test_training_lowers_the_loss_and_learns(corpus_file):
    model = small_glove(corpus_file, epochs=6, workers=2)
    losses = [h["loss"] for h in model.history]
    assert len(losses) == 6 and losses[-1] < 0.7 * losses[0]
    assert all(h["updates"] == model.cooccurrence.nnz for h in model.history)
    assert model.wv.vectors.shape == (len(model.words), 16)
    np.testing.assert_array_equal(model.wv.vectors, model.params["W"] + model.params["W_context"])
    word_only = small_glove(corpus_file, epochs=1, output="word")
    np.testing.assert_array_equal(word_only.wv.vectors, word_only.params["W"])


def test_checkpoint_resumes_exactly(corpus_file, tmp_path):
    straight = small_glove(corpus_file, epochs=4)
    first = small_glove(corpus_file, epochs=2)
    first.save(tmp_path / "g.wv")
    resumed = GloVe.load(tmp_path / "g.wv")
    assert resumed.epochs_trained == 2
    resumed.train(epochs=2)
    for name in straight.params:
        assert np.array_equal(straight.params[name], resumed.params[name])
        assert np.array_equal(straight.gradsq[name], resumed.gradsq[name])
    assert [h["loss"] for h in straight.history] == [h["loss"] for h in resumed.history]
    from wordvec.vectors.files import load_vectors  # the model directory is also a vectors directory
    assert np.array_equal(load_vectors(tmp_path / "g.wv").vectors, first.wv.vectors)


@pytest.mark.parametrize("options, fragment", [({"x_max": 0}, "x_max"), ({"x_max": -1.0}, "x_max"),
                                               ({"window": 0}, "window"), ({"power": 0}, "power"),
                                               ({"output": "both"}, "output")])
def test_bad_hyperparameters(options, fragment):
    with pytest.raises(WordvecError, match=fragment):
        GloVe(**options)


def test_cli_glove(corpus_file, tmp_path, capsys):
    out = tmp_path / "glove.txt"
    status = main(["train", str(corpus_file), "-o", str(out), "--model", "glove", "--vector-size", "8",
                   "--window", "3", "--min-count", "2", "--x-max", "10", "--power", "0.75",
                   "--learning-rate", "0.05", "--epochs", "2", "--workers", "2", "--seed", "3",
                   "--asymmetric", "--no-progress", "--no-eval"])
    assert status == 0 and out.exists()
    status = main(["train", str(corpus_file), "-o", str(out), "--model", "glove", "--x-max", "0"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "x_max" in err[0]
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    status = main(["train", str(empty), "-o", str(out), "--model", "glove"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "empty" in err[0]


def test_the_model_weights_entries_with_the_reference_f():
    rng = np.random.default_rng(5)
    V = 30
    dense = np.where(rng.random((V, V)) < 0.3, rng.integers(1, 300, (V, V)), 0).astype(np.float32)
    model = GloVe(vector_size=4, x_max=100.0, power=0.75, progress=False)
    model.set_cooccurrence([f"w{i}" for i in range(V)], np.ones(V, np.int64), scipy.sparse.csr_matrix(dense))
    weights = model.entries().view(np.float32)[:, 3]
    x = model.cooccurrence.data
    np.testing.assert_array_equal(weights, glove_weight(x, 100.0, 0.75, dtype=np.float32))
    np.testing.assert_allclose(weights, glove_weight(x, 100.0, 0.75), rtol=1e-6)  # the float64 equation
    assert weights.max() == 1.0 and weights.min() > 0
