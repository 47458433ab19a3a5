"""Scaling out on a Ray cluster: counting (``counting``) and data-parallel training
(``training``) over the project's own compiled counters and kernels.

Ray is an optional extra (``pip install -e '.[ray]'``) and is imported only here, lazily:
nothing else in wordvec needs it.  ``cluster.connect`` joins a running cluster
(``ray start --head`` elsewhere, then ``--ray HOST:PORT``) or starts a private local one.
"""

from wordvec.errors import WordvecError

INSTALL_HINT = "install the ray extra: pip install -e '.[ray]'"
SYNC_MODES = ("sparse", "sparse-sum", "average")  # see ``training``
DEFAULT_SYNC = "sparse-sum"  # word2vec on wordbench-10m: 24.0% analogy vs 20.2% averaged (benchmarks/)
# word2vec, words per worker between synchronisations of every row, and of the busiest
# rows of each matrix.  On wordbench-10m (CBOW, 2 workers; benchmarks/README.md): every row
# every 1M words 24.0% analogy, every 100k 25.3%, the 4,096 busiest rows every 100k and the
# rest every 1M 25.35% in 0.77x the time of the second; one process 26.2%
DEFAULT_SYNC_EVERY = 1_000_000
DEFAULT_HOT_ROWS = 4096
GLOVE_SYNC_EVERY = 1_000_000  # co-occurrences (non-zeros of X) per worker


class RayMissingError(WordvecError):
    pass


def require_ray():
    """The ``ray`` module, or a one-sentence error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayMissingError(f"--ray needs the Ray package, which is not installed; {INSTALL_HINT}") from None
    return ray
