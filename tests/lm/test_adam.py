"""The Adam reference (wordvec.math.adam) against the paper's algorithm and against the
compiled update (wordvec.kernels.adam), which must agree bit for bit."""

import math

import numpy as np
import pytest

from wordvec.kernels.adam import adam_update
from wordvec.math.adam import adam_step, adam_step_size


def test_the_step_size_folds_in_both_bias_corrections():
    lr, beta1, beta2 = 1e-3, 0.9, 0.999
    for t in (1, 2, 10, 1000):
        assert adam_step_size(lr, beta1, beta2, t) == pytest.approx(lr * math.sqrt(1 - beta2**t) / (1 - beta1**t))


def test_the_reference_is_algorithm_1_of_the_paper():
    rng = np.random.default_rng(1)
    lr, beta1, beta2, eps = 1e-2, 0.9, 0.999, 1e-12  # eps small: its place (below) does not show
    param = rng.normal(size=20)
    expected, m_hat_form = param.copy(), param.copy()
    m, v = np.zeros(20), np.zeros(20)
    m_paper, v_paper = np.zeros(20), np.zeros(20)
    for t in range(1, 6):
        g = rng.normal(size=20)
        adam_step(param, g, m, v, adam_step_size(lr, beta1, beta2, t), beta1, beta2, eps)
        m_paper = beta1 * m_paper + (1 - beta1) * g
        v_paper = beta2 * v_paper + (1 - beta2) * g**2
        m_hat, v_hat = m_paper / (1 - beta1**t), v_paper / (1 - beta2**t)
        m_hat_form -= lr * m_hat / (np.sqrt(v_hat) + eps)
    # the efficient order differs from the bias-corrected form only through where eps sits
    np.testing.assert_allclose(param, m_hat_form, rtol=1e-8)
    np.testing.assert_allclose(m, m_paper, rtol=1e-12)
    np.testing.assert_allclose(v, v_paper, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_compiled_update_equals_the_reference_bitwise(dtype):
    rng = np.random.default_rng(0)
    beta1, beta2, eps, lr = 0.9, 0.999, 1e-8, 5e-3
    reference = rng.normal(size=(50, 8)).astype(dtype)
    compiled = reference.copy()
    m_ref, v_ref = np.zeros_like(reference), np.zeros_like(reference)
    m_fast, v_fast = np.zeros_like(reference), np.zeros_like(reference)
    s = np.dtype(dtype).type  # NumPy rounds a Python float to the array's dtype: the kernel takes them so
    for t in range(1, 31):  # gradients from 1e-7 to 10: every rounding path of the update
        g = (rng.normal(size=reference.shape) * 10.0 ** rng.integers(-7, 2)).astype(dtype)
        g[0, 0] = 0.0
        step = adam_step_size(lr, beta1, beta2, t)
        adam_step(reference, g, m_ref, v_ref, step, beta1, beta2, eps)
        adam_update(compiled.reshape(-1), g.reshape(-1), m_fast.reshape(-1), v_fast.reshape(-1), s(beta1),
                    s(1.0 - beta1), s(beta2), s(1.0 - beta2), s(step), s(eps))
    np.testing.assert_array_equal(compiled, reference)
    np.testing.assert_array_equal(m_fast, m_ref)
    np.testing.assert_array_equal(v_fast, v_ref)
