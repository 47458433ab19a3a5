"""Compiling, made visible: which kernels this process compiles instead of loading them
from Numba's on-disk cache, announced when it starts and timed.

Numba compiles a kernel the first time it is called with new argument types (a first run,
a new vector size) and saves it beside the module; later processes load it in
milliseconds.  Compiling takes seconds per kernel, and a command's first run would
otherwise fold them silently into whatever step was running.  Numba signals every cache
miss as a ``numba:compile`` event (a load from the cache signals nothing); the listener
here turns the first one of a process into a log line before the wait, and keeps the
seconds, so that a step can say how much of its time was compiling
(:func:`seconds` before and after) and a command can sum it up at its end.
``wordvec compile`` fills the cache ahead of time (``wordvec.cli.compile``).
"""

import logging
import time

from numba.core import event, types

log = logging.getLogger(__name__)

ANNOUNCEMENT = ("compiling kernels (first run only: later runs load them from the cache; "
                "`wordvec compile` compiles them ahead of time)...")


class CompileWatch(event.Listener):
    """Counts and times the outermost compiles (a kernel's compile also compiles the
    kernels it calls: those are part of its time)."""

    def __init__(self):
        self.seconds = 0.0
        self.kernels = []  # (name, seconds) of each outermost compile, in order
        self._depth = 0
        self._started = None

    def on_start(self, event):
        self._depth += 1
        if self._depth > 1:
            return
        self._started = time.perf_counter()
        name = kernel_name(event.data["dispatcher"], event.data["args"])
        if not self.kernels:
            log.info(ANNOUNCEMENT)
        log.debug("compiling %s", name)
        self.kernels.append((name, None))

    def on_end(self, event):
        self._depth -= 1
        if self._depth > 0:
            return
        elapsed = time.perf_counter() - self._started
        self.seconds += elapsed
        name, _ = self.kernels[-1]
        self.kernels[-1] = (name, elapsed)


def kernel_name(dispatcher, args):
    """``word2vec.train_chunk_compiled`` and, where an argument's type carries it (a tuple
    of D elements, see ``kernels.word2vec.vector_size_token``), ``for vector size D``."""
    function = dispatcher.py_func
    name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}"
    sizes = [arg.count for arg in args if isinstance(arg, types.UniTuple) and arg.dtype == types.int8]
    return f"{name} for vector size {sizes[0]}" if sizes and sizes[0] else name


WATCH = CompileWatch()
event.register("numba:compile", WATCH)


def seconds():
    """Seconds this process has spent compiling kernels so far."""
    return WATCH.seconds


def count():
    """How many kernels this process has compiled (outermost compiles)."""
    return len(WATCH.kernels)


def of_it(seconds_before):
    """``", 12.3 s of it compiling kernels"`` when compiling took a noticeable part of a
    step that began when :func:`seconds` was ``seconds_before``; else ``""``."""
    spent = seconds() - seconds_before
    return f", {spent:.1f} s of it compiling kernels" if spent >= 0.05 else ""
