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

from wordvec.kernels import compiling
from wordvec.memory import release_compiler_pages

log = logging.getLogger(__name__)


def load_kernels(*warm_ups):
    """Run each of ``warm_ups`` (callables without arguments, e.g.
    ``functools.partial(wordvec.kernels.word2vec.warm_up, 100)``), then release the
    compiler's pages (``wordvec.memory.release_compiler_pages``).  Compiling is logged as
    its own step, so that no later step's time hides it."""
    started, compiled_before = time.perf_counter(), compiling.seconds()
    for warm_up in warm_ups:
        warm_up()
    release_compiler_pages()
    if compiling.seconds() > compiled_before:
        log.info("loaded the kernels in %.1f s%s", time.perf_counter() - started, compiling.of_it(compiled_before))
