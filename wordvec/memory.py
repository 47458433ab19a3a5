"""Keep the resident set small: LLVM's pages once the kernels are loaded, freed buffers.

Numba links LLVM into the process (``libllvmlite.so``, about 180 MB of code).  Importing
Numba and loading the cached kernels touches some 70 MB of it -- static initialisers, the
code generator, the object-code linker -- and every touched page counts in the process's
resident set, though training never runs LLVM again.  Those pages are clean, read-only
copies of the file, so the OS may simply drop them: ``madvise(MADV_PAGEOUT)`` (Linux 5.4+)
asks it to, and a page that is needed again (say, Numba compiles a new signature) is read
back from the file on its next access.  Nothing changes but the resident set.

Second, glibc's malloc serves a request of 128 KB or more with its own ``mmap`` and
unmaps it when freed -- until the first such free, after which it raises that threshold
to the freed size, so later buffers (2 MB text blocks, growing hash tables) come from the
heap and their pages stay resident after they are freed.  :func:`return_freed_buffers`
pins the threshold so that large buffers always go back to the OS.

Everywhere else (other systems, older kernels, no glibc) these are no-ops.
"""

import ctypes
import ctypes.util
import logging
import sys

log = logging.getLogger(__name__)

MADV_PAGEOUT = 21  # linux/mman.h
M_MMAP_THRESHOLD = -3  # malloc.h
MMAP_THRESHOLD_BYTES = 128 * 1024  # glibc's initial value
LLVM_LIBRARY = "libllvmlite"

_libc = None


def _glibc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        _libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        _libc.madvise.restype = ctypes.c_int
        _libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        _libc.mallopt.restype = ctypes.c_int
    return _libc


def read_only_mappings(library):
    """(start, end) of this process's mappings of ``library`` that are not writable.

    Writable segments are left alone: their written pages are private, and dropping a
    clean one gains nothing worth the risk.
    """
    ranges = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and library in fields[5] and "w" not in fields[1]:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                ranges.append((start, end))
    return ranges


def release_compiler_pages():
    """Drop LLVM's resident read-only pages; returns the bytes advised (0 if unsupported)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        madvise = _glibc().madvise
        advised = 0
        for start, end in read_only_mappings(LLVM_LIBRARY):
            if madvise(start, end - start, MADV_PAGEOUT) == 0:
                advised += end - start
        return advised
    except (OSError, AttributeError, ValueError) as error:  # no /proc, no libc: keep the pages
        log.debug("could not release LLVM pages: %s", error)
        return 0


def return_freed_buffers():
    """Pin glibc's mmap threshold at 128 KB (see the module docstring); True if set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return _glibc().mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1
    except (OSError, AttributeError) as error:  # not glibc
        log.debug("could not set the mmap threshold: %s", error)
        return False
