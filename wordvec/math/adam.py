"""Adam (Kingma & Ba 2015, "Adam: A Method for Stochastic Optimization", Algorithm 1),
the reference NumPy update that ``wordvec.kernels.adam.adam_update`` performs bit for bit.

With gradient g of step t (t = 1, 2, ...), moments m, v (zero at t = 0)::

    m_t = beta1 m_{t-1} + (1 - beta1) g
    v_t = beta2 v_{t-1} + (1 - beta2) g^2
    param_t = param_{t-1} - alpha_t m_t / (sqrt(v_t) + eps),
    alpha_t = lr sqrt(1 - beta2^t) / (1 - beta1^t)

the paper's bias correction folded into the step size (its "more efficient order of
computation", end of section 2).  The expressions below are written in the order the
compiled kernel evaluates them, so the two agree exactly (``tests/lm/test_adam.py``).
"""

import math

import numpy as np


def adam_step_size(lr, beta1, beta2, t):
    """alpha_t: the learning rate with both bias corrections of step ``t`` (t >= 1)."""
    return lr * math.sqrt(1.0 - beta2**t) / (1.0 - beta1**t)


def adam_step(param, grad, m, v, step_size, beta1, beta2, eps):
    """One Adam update in place: ``m``, ``v`` (the moments, the shape of ``param``) and
    ``param``; ``step_size`` is :func:`adam_step_size` of this step."""
    m *= beta1
    m += (1.0 - beta1) * grad
    v *= beta2
    v += (1.0 - beta2) * (grad * grad)
    param -= step_size * m / (np.sqrt(v) + eps)
