"""wordvec: word embeddings with hand-derived gradients and fast compiled kernels."""

__version__ = "0.1.0"

from wordvec.errors import WordvecError  # noqa: E402,F401
