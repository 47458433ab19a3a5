"""Atomic file writes: write to a temporary file beside the target, then rename.

A reader (or a crash, or a kill -9 in the middle of a save) therefore sees either the
complete old file or the complete new one, never a torn mix.
"""

import contextlib
import json
import os
import tempfile

import numpy as np


@contextlib.contextmanager
def atomic_write(path, mode="wb", encoding=None):
    """Open a temporary file next to ``path``; on success fsync it and rename it over ``path``."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp makes files private (0600); use the usual mode
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def current_umask():
    """The process's umask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_json(path, obj):
    """Write ``obj`` as pretty JSON, atomically."""
    with atomic_write(path, "w", encoding="utf-8") as handle:
        json.dump(obj, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


def save_npy(path, array):
    """Write one array in NumPy's ``.npy`` format (never pickled), atomically."""
    with atomic_write(path, "wb") as handle:
        np.save(handle, np.asarray(array), allow_pickle=False)
