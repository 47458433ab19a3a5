"""Compiled (Numba) kernels.  Each has a NumPy reference in ``wordvec.math``."""

import numba  # noqa: F401  -- imported here first so that LLVM's pages can be handed back

from wordvec.memory import release_compiler_pages

release_compiler_pages()  # importing Numba touched ~35 MB of LLVM that is not needed yet
