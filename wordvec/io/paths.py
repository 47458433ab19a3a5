"""Output paths checked before any work: the one place that decides whether a command may
write a path (``wordvec.cli.gate`` runs it for every command before it reads its inputs;
``wordvec.io.outputs`` adds the vector formats).

It refuses, in one sentence: an output that is an input (the same file through symbolic and
hard links, an output inside an input directory, an output directory that holds an input);
an output on a virtual file system (``/proc``, ``/sys``); an output whose directory cannot
be written (a parent that is a file, a directory read-only for everyone, root included, or
one where a file cannot be created: tried, so a read-only mount counts); a file output that
is a directory, a directory output that is a file, and an existing target that is not a
save of the same kind (``same_kind``).

This module imports nothing heavy (``classify predict`` imports it and starts in 0.1 s).
"""

import os
from pathlib import Path

from wordvec.errors import WordvecError

FILE, DIRECTORY, EITHER = "file", "directory", "file or directory"
VIRTUAL_ROOTS = ("/proc", "/sys")


def check_output_path(path, kind=FILE, inputs=(), same_kind=None):
    """Refuse (``WordvecError``) an output the command could not or must not write."""
    text = os.fspath(path)
    if not text.strip():
        raise WordvecError("the output path is empty")
    out = Path(text)
    anchor = _existing_ancestor(out)
    if any(anchor == root or anchor.startswith(root + "/") for root in VIRTUAL_ROOTS):
        raise WordvecError(f"cannot write {out}: {anchor} is on a virtual file system, which takes no files")
    for source in inputs:
        _refuse_input(out, Path(source), kind)
    if out.exists():
        if kind == FILE and out.is_dir():
            raise WordvecError(f"cannot write {out}: it is a directory (give a file name)")
        if kind == DIRECTORY and not out.is_dir():
            raise WordvecError(f"cannot write {out}: a file of that name exists (this output is a directory)")
        if same_kind is not None:
            same_kind(out)
    _check_writable(out)


def _existing_ancestor(out):
    """The real path of ``out``, or of its nearest existing ancestor."""
    path = Path(os.path.abspath(out))
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return os.path.realpath(path)


def _refuse_input(out, source, kind):
    if not os.path.exists(source):
        return
    if out.exists() and os.path.samefile(out, source):
        raise WordvecError(f"refusing to write {out}: it is the input {source} (choose another output name)")
    real_out, real_source = Path(os.path.realpath(out)), Path(os.path.realpath(source))
    if real_source.is_dir() and real_source in real_out.parents:
        raise WordvecError(f"refusing to write {out}: it is inside the input {source} (choose another place)")
    if real_out in real_source.parents:
        raise WordvecError(f"refusing to write {out}: it holds the input {source} (choose another output name)")


def _check_writable(out):
    """The nearest existing ancestor of ``out`` must be a directory a file can be created in."""
    parent = Path(os.path.abspath(out)).parent
    while not parent.exists():
        if parent.is_symlink():  # a dangling link: makedirs would fail
            raise WordvecError(f"cannot write {out}: {parent} is a broken symbolic link")
        parent = parent.parent
    if not parent.is_dir():
        raise WordvecError(f"cannot write {out}: {parent} is not a directory")
    if not parent.stat().st_mode & 0o222:  # read-only for everyone: meant so, even for root
        raise WordvecError(f"cannot write {out}: the directory {parent} is read-only")
    probe = parent / f".wordvec-write-check-{os.getpid()}"
    try:  # os.access says yes to root, and no file system flag is visible to it: try
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as error:
        raise WordvecError(f"cannot write {out}: the directory {parent} is not writable "
                           f"({error.strerror or error})") from None
    os.unlink(probe)
