"""Finite-difference gradient checks: the test every hand-derived gradient must pass.

Usage (``f`` reads the *current contents* of the arrays, so perturbing them in place
changes what it returns)::

    W = rng.normal(size=(5, 3))
    loss, grads = my_loss_and_grad(W)
    error = check_gradient(lambda: my_loss_and_grad(W)[0], {"W": W}, {"W": grads})
    assert error < 1e-6

Definition of the error (``check_gradient``), per parameter array with analytic
gradient ``a`` and central-difference estimate ``n``::

    scale = max_j (|a_j| + |n_j|)
    error = max_i |a_i - n_i| / max(|a_i| + |n_i|, 1e-3 * scale, 1e-12)

i.e. the largest element-wise relative error, except that entries below 0.1% of the
array's largest gradient entry are judged against that level instead of their own
size.  Why the floor: a central difference in float64 carries a round-off error of
about ``1e-16 * |f| / eps`` (~1e-11 at the default ``eps=1e-5``) in *every* entry, so
an entry whose true value is 1e-9 cannot be estimated to relative precision 1e-6 at all; judged
against the floor, round-off stays far below 1e-6 while a wrong entry of any
meaningful size (a dropped repeated row, a missing factor) still gives an error near 1.
An entry that is exactly zero in both gives 0.  The returned value is the maximum of
``error`` over all parameters.
"""

import numpy as np

RELATIVE_FLOOR = 1e-3


def numerical_gradient(f, array, eps=1e-5):
    """Central-difference gradient of the scalar ``f()`` with respect to ``array``.

    ``array`` must be a float64 NumPy array that ``f`` reads; each entry is perturbed
    in place (by ``±eps`` and ``±2 eps``) and restored exactly afterwards.  The
    fourth-order central difference

        g = (8 (f(x+eps) - f(x-eps)) - (f(x+2eps) - f(x-2eps))) / (12 eps)

    has truncation error O(eps^4) (~1e-20 at the default eps) and round-off about
    1e-16 |f| / eps (~1e-11), so even gradient entries near 1e-4 are estimated to a
    relative 1e-6 -- the plain two-point difference at eps=1e-6 carries ~1e-10 of
    round-off and cannot do that.  Returns a new float64 array of the same shape.
    """
    if not isinstance(array, np.ndarray) or array.dtype != np.float64:
        raise TypeError("numerical_gradient needs a float64 NumPy array (perturbed in place)")
    grad = np.zeros(array.shape, dtype=np.float64)
    flat = array.reshape(-1)  # a view: writing through it perturbs ``array``
    if array.size > 0 and not np.shares_memory(flat, array):
        raise ValueError("numerical_gradient needs a contiguous array it can perturb in place")
    grad_flat = grad.reshape(-1)
    for i in range(flat.size):
        original = flat[i]
        values = []
        for step in (eps, -eps, 2.0 * eps, -2.0 * eps):
            flat[i] = original + step
            values.append(float(f()))
        flat[i] = original
        f_plus, f_minus, f_plus2, f_minus2 = values
        grad_flat[i] = (8.0 * (f_plus - f_minus) - (f_plus2 - f_minus2)) / (12.0 * eps)
    return grad


def relative_error(analytic, numeric):
    """The floored element-wise relative error defined in the module docstring."""
    a = np.asarray(analytic, dtype=np.float64)
    n = np.asarray(numeric, dtype=np.float64)
    if a.shape != n.shape:
        raise ValueError(f"gradient shapes differ: analytic {a.shape} vs numerical {n.shape}")
    if a.size == 0:
        return 0.0
    size = np.abs(a) + np.abs(n)
    floor = max(RELATIVE_FLOOR * float(size.max()), 1e-12)
    return float(np.max(np.abs(a - n) / np.maximum(size, floor)))


def check_gradient(f, params, analytic, eps=1e-5):
    """Largest relative error between ``analytic`` gradients and central differences.

    ``params`` maps names to the float64 arrays ``f`` reads; ``analytic`` maps the same
    names to their claimed gradients of ``f()``.  Returns ``max`` over parameters of
    :func:`relative_error` (see the module docstring for the exact definition).
    """
    missing = set(params) ^ set(analytic)
    if missing:
        raise ValueError(f"params and analytic name different arrays: {sorted(missing)}")
    worst = 0.0
    for name, array in params.items():
        numeric = numerical_gradient(f, array, eps)
        worst = max(worst, relative_error(analytic[name], numeric))
    return worst
