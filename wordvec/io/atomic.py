"""Atomic saves: write to a temporary sibling, then rename it into place.

A reader (or a crash, or a kill -9 in the middle of a save) therefore sees either the
complete old save or the complete new one, never a torn mix.  Files (``atomic_write``)
take one rename.  Directories (``atomic_directory``: native models, LM checkpoints,
window classifiers) are written whole into ``.NAME.tmp-PID-*`` and swapped in with two
renames (old aside to ``.NAME.old-PID-*``, new in) while holding an exclusive lock on the
parent directory, so concurrent writers of one path queue instead of losing a run (the
last one to finish wins, complete).  A crash between the two renames leaves the old save
aside; ``saved_directory`` finds the newest complete one.  Leftovers of dead processes
(temporaries whose PID is gone, old saves once a complete save is in place) are removed
by the next save of the same name, so they do not pile up.
"""

import contextlib
import fcntl
import functools
import logging
import os
import sys
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)


@contextlib.contextmanager
def atomic_write(path, mode="wb", encoding=None):
    """Open a temporary file next to ``path``; on success fsync it and rename it over ``path``."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    remove_stale_temporaries(directory, os.path.basename(path))
    tmp = _temporary_name(directory, os.path.basename(path), ".tmp")
    try:
        # the name is fixed before the file exists, so a Ctrl-C at any point (even between
        # the creation and the assignment) lands where this cleanup removes it; no signal is
        # blocked (a SIGINT blocked in the main thread goes to a BLAS/Numba thread, and
        # CPython then notices it only at its next explicit check: a Ctrl-C lost for minutes)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)  # 0666 less the umask
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as error:
        if not _is_clash(error, tmp):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise


class Writeback:
    """Starts the disk writes of a big save while it is still being written: call it after
    each write; every ``every`` bytes it hands what was written since its last call to
    Linux's ``sync_file_range(SYNC_FILE_RANGE_WRITE)``, which queues those pages for the
    disk and returns (they stay cached). The fsync that ends :func:`atomic_write` then
    finds most of the file already on its way instead of writing it all after the last
    byte: an 800 MB fastText .bin (SST bigrams, 2M bucket rows) took 0.55 s to write and
    fsync, 0.31-0.39 s this way (measured on this project's ext4 disk). Elsewhere (no
    glibc, a file system that refuses) it does nothing: the fsync does it all, as before."""

    def __init__(self, handle, every=16 << 20):
        self.handle, self.every = handle, every
        self.started = handle.tell()
        self._sync_file_range = _sync_file_range()

    def __call__(self):
        if self._sync_file_range is None:
            return
        position = self.handle.tell()
        if position - self.started < self.every:
            return
        self.handle.flush()
        if self._sync_file_range(self.handle.fileno(), self.started, position - self.started,
                                 SYNC_FILE_RANGE_WRITE) != 0:
            self._sync_file_range = None  # refused (an old kernel, a pipe): leave it to the fsync
        self.started = position


SYNC_FILE_RANGE_WRITE = 2  # linux/fs.h


@functools.cache
def _sync_file_range():
    """glibc's ``sync_file_range`` through ctypes (Python has no binding), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes  # only big binary saves need it (~1 ms of every process that reads a model)
        function = ctypes.CDLL("libc.so.6", use_errno=True).sync_file_range
    except (OSError, AttributeError) as error:  # not glibc
        log.debug("no sync_file_range: %s", error)
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint)
    function.restype = ctypes.c_int
    return function


def _temporary_name(directory, name, suffix=""):
    """A fresh ``.NAME.tmp-PID-RANDOM`` path in ``directory`` (created by the caller with
    O_EXCL / mkdir, so a clash fails instead of sharing)."""
    # os.urandom(8).hex() is secrets.token_hex(8), without importing secrets (hashlib, hmac,
    # random: ~3.5 ms of every process that reads a model, such as `classify predict`)
    return os.path.join(directory, f"{_temporary_prefix(name)}{os.urandom(8).hex()}{suffix}")


def _is_clash(error, tmp):
    """True if ``error`` says ``tmp`` already existed: then it is not ours to remove."""
    return isinstance(error, FileExistsError) and error.filename == os.fspath(tmp)


def save_json(path, obj):
    """Write ``obj`` as pretty JSON, atomically."""
    import json  # only here: a process that only reads models never writes JSON (~1 ms)
    with atomic_write(path, "w", encoding="utf-8") as handle:
        json.dump(obj, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


def save_npy(path, array):
    """Write one array in NumPy's ``.npy`` format (never pickled), atomically."""
    with atomic_write(path, "wb") as handle:
        np.save(handle, np.asarray(array), allow_pickle=False)


# ----------------------------------------------------------------------------- directories

def _temporary_prefix(name):
    return f".{name}.tmp-{os.getpid()}-"


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by someone else
        return True
    return True


def _temporary_owner(entry_name, name):
    """The PID in ``.NAME.tmp-PID-...`` (or None if ``entry_name`` is not such a temporary)."""
    prefix = f".{name}.tmp-"
    if not entry_name.startswith(prefix):
        return None
    pid = entry_name[len(prefix):].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def _remove(path):
    with contextlib.suppress(OSError):
        if os.path.isdir(path) and not os.path.islink(path):
            _remove_tree(path)
        else:
            os.unlink(path)


def _remove_tree(path):
    import shutil  # here: it imports zlib, bz2 and lzma (~2 ms of every process that only reads models)
    shutil.rmtree(path, ignore_errors=True)


def remove_stale_temporaries(directory, name):
    """Delete ``.NAME.tmp-PID-*`` left in ``directory`` by processes that no longer run."""
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            pid = _temporary_owner(entry.name, name)
            if pid is not None and pid != os.getpid() and not _pid_alive(pid):
                _remove(entry.path)


def old_saves(path):
    """Saves of ``path`` set aside by an interrupted replace, newest first."""
    path = Path(path)
    found = [p for p in path.parent.glob(f".{path.name}.old-*") if p.is_dir()]
    return sorted(found, key=lambda p: p.stat().st_mtime_ns, reverse=True)


def saved_directory(path, marker):
    """``path``, or (if a crash left it missing) the newest complete old save: one that
    holds ``marker``, the file a save writes last."""
    path = Path(path)
    if path.exists():
        return path
    for old in old_saves(path):
        if (old / marker).is_file():
            log.warning("%s is missing; loading the save left at %s by an interrupted replace", path, old)
            return old
    return path


@contextlib.contextmanager
def _directory_lock(directory):
    """An exclusive flock on a directory: one swap at a time per parent directory."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def check_existing(path, check_replaceable):
    """Run ``check_replaceable(path)`` if ``path`` exists, under the lock that swaps take,
    so a concurrent writer's swap (path briefly absent) is never mistaken for damage."""
    path = Path(path)
    if not path.parent.is_dir():
        return
    with _directory_lock(path.parent):
        if path.exists() or path.is_symlink():
            check_replaceable(path)


@contextlib.contextmanager
def atomic_directory(path, check_replaceable=None):
    """Yield a fresh temporary directory beside ``path``; on success swap it in as ``path``.

    ``check_replaceable(path)`` is called (under the lock) before an existing ``path``
    is replaced, so a save never replaces something that is not an earlier save.
    """
    path = Path(path)
    parent = path.parent
    parent.mkdir(parents=True, exist_ok=True)
    if check_replaceable is not None:
        check_existing(path, check_replaceable)  # before the work, not only at the swap
    remove_stale_temporaries(parent, path.name)
    tmp = Path(_temporary_name(parent, path.name))
    try:
        tmp.mkdir(mode=0o777)  # 0777 less the umask; a Ctrl-C here lands in the cleanup below (see atomic_write)
        yield tmp
        with _directory_lock(parent):
            if path.exists() or path.is_symlink():
                if check_replaceable is not None:
                    check_replaceable(path)
                old = parent / f".{path.name}.old-{os.getpid()}-{os.urandom(8).hex()}"
                old.mkdir(mode=0o700)  # as tempfile.mkdtemp, whose import (with random's) predict would pay
                os.replace(path, old)  # replaces the empty placeholder directory
                os.replace(tmp, path)
            else:
                os.replace(tmp, path)
            fsync_directory(parent)
            for old in old_saves(path):  # ours, and any a crash left behind: path is complete now
                _remove_tree(old)
    except BaseException as error:
        if not _is_clash(error, tmp):
            _remove_tree(tmp)
        raise


def fsync_directory(directory):
    """Make renames in ``directory`` durable (best effort: not every file system allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
