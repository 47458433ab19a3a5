"""Window classifier gradients: seed 000's Kronecker form vs the efficient form vs finite differences."""

import numpy as np
import pytest

from wordvec.math.gradcheck import check_gradient
from wordvec.math import window as wm

V, D, M, C, N = 6, 3, 3, 4, 5


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, V, size=(N, M))
    ids[0] = [2, 2, 5]  # a token repeated inside one window
    labels = rng.integers(0, C, size=N)
    E = rng.normal(scale=0.5, size=(V, D))
    W = rng.normal(scale=0.5, size=(M * D, C))
    return ids, labels, E, W


def test_commutation_matrix_transposes_vec():
    A = np.arange(12.0).reshape(3, 4)
    K = wm.commutation_matrix(3, 4)
    assert np.array_equal(K @ wm.vec(A), wm.vec(A.T))


def test_vec_transpose_identities():
    A = np.random.default_rng(1).normal(size=(6, 4))
    assert np.array_equal(wm.vec_transpose(A, 1), A.T)
    assert np.array_equal(wm.vec_transpose(A, 6), wm.vec(A))
    assert np.array_equal(wm.vec_transpose(wm.vec_transpose(A, 3), 3), A)
    with pytest.raises(ValueError):
        wm.vec_transpose(A, 4)


def test_kronecker_reference_matches_finite_differences():
    ids, labels, E, W = _problem()
    grads = wm.kronecker_gradients(ids, labels, E, W)

    def f():
        return wm.kronecker_log_likelihood(ids, labels, E, W)

    assert check_gradient(f, {"E": E, "W": W}, grads) < 1e-6


def test_kronecker_reference_matches_efficient_form():
    ids, labels, E, W = _problem(2)
    reference = wm.kronecker_gradients(ids, labels, E, W)
    params = {"W": W, "b": np.zeros(C)}
    loss, dense, sparse = wm.window_loss_and_gradients(params, [("E", E, ids)], labels)
    # Efficient form: mean negative log likelihood; the seed's L is the summed log likelihood.
    assert loss == pytest.approx(-wm.kronecker_log_likelihood(ids, labels, E, W) / N, rel=1e-12)
    assert np.allclose(dense["W"], -reference["W"] / N, rtol=1e-10, atol=1e-12)
    dE = wm.densify(*sparse["E"], E.shape)
    assert np.allclose(dE, -reference["E"] / N, rtol=1e-10, atol=1e-12)
    assert np.abs(dE[2]).sum() > 0  # the repeated token got a gradient


def test_repeated_token_gradient_counts_both_slots():
    # With fancy-index += the second slot's contribution would be lost.
    E = np.eye(2)
    ids = np.array([[1, 1]])
    rows, grad_rows = wm.scatter_window_gradient(np.array([[1.0, 2.0, 10.0, 20.0]]), ids, 2)
    assert rows.tolist() == [1]
    assert grad_rows.tolist() == [[11.0, 22.0]]
    assert wm.gather_windows(E, ids).tolist() == [[0.0, 1.0, 0.0, 1.0]]


@pytest.mark.parametrize("hidden", [0, 4])
def test_efficient_form_matches_finite_differences(hidden):
    rng = np.random.default_rng(3 + hidden)
    ids, labels, E, _ = _problem(4)
    case_table = rng.normal(size=(3, 2))
    case_ids = rng.integers(0, 3, size=(N, M))
    case_ids[1] = [1, 1, 1]
    F = M * (D + 2)
    if hidden:
        params = {
            "W1": rng.normal(scale=0.5, size=(F, hidden)),
            "b1": rng.normal(size=hidden),
            "W2": rng.normal(scale=0.5, size=(hidden, C)),
            "b2": rng.normal(size=C),
        }
    else:
        params = {"W": rng.normal(scale=0.5, size=(F, C)), "b": rng.normal(size=C)}
    l2 = 0.01
    tables = [("E", E, ids), ("case", case_table, case_ids)]
    _, dense, sparse = wm.window_loss_and_gradients(params, tables, labels, l2=l2)
    analytic = dict(dense)
    analytic["E"] = wm.densify(*sparse["E"], E.shape)
    analytic["case"] = wm.densify(*sparse["case"], case_table.shape)

    def f():
        return wm.window_loss_and_gradients(params, tables, labels, l2=l2)[0]

    arrays = dict(params, E=E, case=case_table)
    assert check_gradient(f, arrays, analytic) < 1e-6


def test_wrong_gradient_is_caught():
    # The check must be able to fail: drop the factor 2 of the L2 term.
    ids, labels, E, W = _problem(5)
    params = {"W": W, "b": np.zeros(C)}
    _, dense, sparse = wm.window_loss_and_gradients(params, [("E", E, ids)], labels, l2=0.1)
    wrong = {"W": dense["W"] - 0.1 * W, "E": wm.densify(*sparse["E"], E.shape)}

    def f():
        return wm.window_loss_and_gradients(params, [("E", E, ids)], labels, l2=0.1)[0]

    assert check_gradient(f, {"W": W, "E": E}, wrong) > 1e-3


def test_average_model_matches_finite_differences():
    rng = np.random.default_rng(7)
    E = rng.normal(size=(V, D))
    token_ids = np.array([1, 1, 4, 0, 2, 2, 2, 5])  # repeated tokens, sentences of length 3, 1, 4
    sentence_of_token = np.array([0, 0, 0, 1, 2, 2, 2, 2])
    labels = np.array([2, 0, 1])
    params = {"W": rng.normal(size=(D, C)), "b": rng.normal(size=C)}
    _, dense, sparse = wm.average_loss_and_gradients(params, E, token_ids, sentence_of_token, labels, l2=0.05)
    analytic = dict(dense, E=wm.densify(*sparse["E"], E.shape))

    def f():
        return wm.average_loss_and_gradients(params, E, token_ids, sentence_of_token, labels, l2=0.05)[0]

    assert check_gradient(f, dict(params, E=E), analytic) < 1e-6
    # x of sentence 0 is (2 E[1] + E[4]) / 3
    loss0 = wm.average_loss_and_gradients(params, E, token_ids[:3], sentence_of_token[:3], labels[:1])[0]
    x0 = (2 * E[1] + E[4]) / 3
    logits = x0 @ params["W"] + params["b"]
    assert loss0 == pytest.approx(np.log(np.exp(logits).sum()) - logits[2], rel=1e-12)
