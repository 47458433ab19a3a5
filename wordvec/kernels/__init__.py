"""Compiled (Numba) kernels.  Each has a NumPy reference in ``wordvec.math``."""

import sys

import numba  # noqa: F401  -- imported here first so that LLVM's pages can be handed back

from wordvec.memory import release_compiler_pages


def _load_array_math_without_scipy():
    """Numba's array functions, loaded when a kernel is first called, import SciPy's linear
    algebra (0.3 s and ~20 MB, measured in `wordvec classify predict`) only to choose a loop
    or BLAS for np.convolve/np.correlate, which no kernel uses: load them with that import
    refused. np.dot and np.linalg still import SciPy themselves, when compiled or called."""
    if "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # `import scipy.linalg...` raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


_load_array_math_without_scipy()
release_compiler_pages()  # importing Numba touched ~35 MB of LLVM that is not needed yet

from wordvec.kernels import compiling  # noqa: E402,F401  -- watches every compile from here on
