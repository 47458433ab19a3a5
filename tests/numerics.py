"""Comparisons of float32 results that hold on every x86-64 CPU.

Two float32 computations that add the same terms in another order (NumPy against a kernel,
an AVX-512 machine against an AVX2 one, a float64 mean against a float32 one) agree to a few
units of float32's precision *relative to the terms*, not to each element of the result: an
element that is a near-cancellation (-4.1e-05 out of terms near 0.1) can differ by several
parts in a million of itself. And a trained model's numbers themselves differ from machine
to machine, so which element lands near zero is not fixed either. Hence an absolute
tolerance scaled to the largest value, beside the relative one.
"""
import numpy as np


def assert_float32_close(actual, desired, rtol=1e-5):
    """actual == desired to rtol of the largest |desired| (and of each element)."""
    desired = np.asarray(desired, dtype=np.float64)
    scale = float(np.abs(desired).max(initial=0.0))
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64), desired, rtol=rtol, atol=rtol * scale)
