"""Keep the resident set small: LLVM's pages once the kernels are loaded, freed buffers.

Numba links LLVM into the process (``libllvmlite.so``, about 180 MB of code).  Importing
Numba and loading the cached kernels touches some 70 MB of it -- static initialisers, the
code generator, the object-code linker -- and every touched page counts in the process's
resident set, though training never runs LLVM again.  Most of them are clean copies of
the file (its code and constants), so ``madvise(MADV_DONTNEED)`` can unmap them from this
process: they stay in the OS page cache, and a page that is needed again (say, Numba
compiles a new signature) is mapped back by a minor fault.  Only mappings with no private
(written) page are advised -- the relocated read-only segment, for one, must keep its
pages, which ``DONTNEED`` would revert to the file's.  Nothing changes but the resident
set.  (``MADV_PAGEOUT`` would also evict the pages from the page cache, so that every
later start read LLVM from disk again: 0.3 s more per ``wordvec`` command.)

Second, glibc's malloc serves a request of 128 KB or more with its own ``mmap`` and
unmaps it when freed -- until the first such free, after which it raises that threshold
to the freed size, so later buffers (2 MB text blocks, growing hash tables) come from the
heap and their pages stay resident after they are freed.  :func:`return_freed_buffers`
pins the threshold so that large buffers always go back to the OS.  It changes malloc
for the whole process, so the command line calls it (it owns its process); importing
the library does not.

Elsewhere (other systems, no glibc) both are no-ops.

Third, the memory gate: :func:`check_allocation` is what every allocation whose size
comes from a file's field or a flag passes before it is made (the classifier's n-gram
buckets and matrices, word2vec's classes, a quantized model's dequantized matrices,
per-line buffers; training's whole-model estimates, ``wordvec.models.base.estimate``, use the
same :func:`available_memory`): a size that cannot fit is refused in one sentence naming
the flag or the field, instead of an out-of-memory kill. Memory available is the smallest
of ``MemAvailable`` (/proc/meminfo), the cgroup's ``memory.max`` minus its
``memory.current``, and the ``RLIMIT_AS`` / ``RLIMIT_DATA`` soft limits of this process
(all that exist on this system).
"""

import ctypes
import logging
import os
import resource
import sys

from wordvec.errors import WordvecError

log = logging.getLogger(__name__)

MADV_DONTNEED = 4  # linux/mman.h
M_MMAP_THRESHOLD = -3  # malloc.h
MMAP_THRESHOLD_BYTES = 128 * 1024  # glibc's initial value
LLVM_LIBRARY = "libllvmlite"

_libc = None


def _glibc():
    global _libc
    if _libc is None:
        # glibc's soname, not ctypes.util.find_library("c"): that imports subprocess and runs
        # ldconfig (~7 ms of every command); without glibc this fails and the callers no-op
        _libc = ctypes.CDLL("libc.so.6", use_errno=True)
        _libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        _libc.madvise.restype = ctypes.c_int
        _libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        _libc.mallopt.restype = ctypes.c_int
    return _libc


def clean_mappings(library):
    """(start, end) of this process's mappings of ``library`` that are read-only and hold
    no private page (``Anonymous: 0 kB`` in ``/proc/self/smaps``): exact copies of the file."""
    ranges, current = [], None
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if not fields:
                continue
            if not fields[0].endswith(":"):  # a mapping's header: range, permissions, ..., path
                current = None
                if len(fields) >= 6 and library in fields[5] and "w" not in fields[1]:
                    current = tuple(int(x, 16) for x in fields[0].split("-"))
            elif fields[0] == "Anonymous:" and current is not None:
                if int(fields[1]) == 0:
                    ranges.append(current)
                current = None
    return ranges


def release_compiler_pages():
    """Unmap LLVM's clean resident pages; returns the bytes advised (0 if unsupported)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        madvise = _glibc().madvise
        advised = 0
        for start, end in clean_mappings(LLVM_LIBRARY):
            if madvise(start, end - start, MADV_DONTNEED) == 0:
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


def release_free_heap():
    """Hand the heap's free pages back to the OS (glibc's ``malloc_trim(0)``): after the
    compiler's temporary allocations, before a big allocation, so the process's peak is
    what it holds, not what it once held.  True if it gave pages back."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = _glibc().malloc_trim
        trim.argtypes, trim.restype = (ctypes.c_size_t,), ctypes.c_int
        return trim(0) == 1
    except (OSError, AttributeError) as error:  # not glibc
        log.debug("could not trim the heap: %s", error)
        return False


# ---------------------------------------------------------------------------- the memory gate

MB = 1 << 20


def check_allocation(nbytes, what):
    """Refuse (``WordvecError``) an allocation of ``nbytes`` that cannot fit the memory
    available; ``what`` names the flag or the file's field that sized it ("--bucket
    2147483647", "model.ftz: the input matrix (4,300,000 x 1,024)")."""
    available = available_memory()
    if available is not None and nbytes > available:
        raise WordvecError(f"{what} needs {format_bytes(nbytes)} of memory but only {format_bytes(available)} "
                           "is available")


def format_bytes(size):
    for unit, scale in (("GB", 1 << 30), ("MB", MB), ("kB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def available_memory():
    """Bytes this process may still allocate (see the module docstring), or None if unknown."""
    limits = [_meminfo_available(), _cgroup_headroom()]
    for name in ("RLIMIT_AS", "RLIMIT_DATA"):
        kind = getattr(resource, name, None)
        if kind is not None:
            soft, _ = resource.getrlimit(kind)
            if soft != resource.RLIM_INFINITY:
                limits.append(soft)
    known = [limit for limit in limits if limit is not None]
    return min(known) if known else None


def _meminfo_available():
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_headroom():
    try:
        with open("/proc/self/cgroup", encoding="ascii") as handle:
            lines = handle.read().splitlines()
        path = next(line.split("::", 1)[1] for line in lines if line.startswith("0::"))
        base = os.path.join("/sys/fs/cgroup", path.lstrip("/"))
        with open(os.path.join(base, "memory.max"), encoding="ascii") as handle:
            maximum = handle.read().strip()
        if maximum == "max":
            return None
        with open(os.path.join(base, "memory.current"), encoding="ascii") as handle:
            current = int(handle.read().strip())
        return max(0, int(maximum) - current)
    except (OSError, ValueError, StopIteration, IndexError):
        return None
