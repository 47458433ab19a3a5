"""The one loader of compiled kernels.

A kernels module that a model loads ahead of training has a ``warm_up`` function: it calls
the module's kernels on empty arrays of the types training passes (an empty range of
documents, so nothing is trained), which makes Numba load them from its cache, or compile
them.  :func:`load_kernels` runs the warm-ups a model needs and then hands back the LLVM
pages that loading touched, so that a process's peak memory is not the compiler's pages on
top of the model's: models call it before their counts and vectors exist.
"""

import logging
import time

from wordvec.memory import release_compiler_pages

log = logging.getLogger(__name__)
COMPILING_SECONDS = 1.0  # a cached kernel loads in milliseconds; longer means it was compiled


def load_kernels(*warm_ups):
    """Run each of ``warm_ups`` (callables without arguments, e.g.
    ``functools.partial(wordvec.kernels.word2vec.warm_up, 100)``), then release the
    compiler's pages (``wordvec.memory.release_compiler_pages``).  Compiling is logged as
    its own step, so that no later step's time hides it."""
    started = time.perf_counter()
    for warm_up in warm_ups:
        warm_up()
    release_compiler_pages()
    seconds = time.perf_counter() - started
    if seconds > COMPILING_SECONDS:
        log.info("compiled the kernels in %.1f s (a first run, or new settings such as a new vector size; "
                 "later runs load them from the cache)", seconds)
