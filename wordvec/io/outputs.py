"""Output paths, checked before any work: one layer used by every command that writes.

A run of hours must not end in "cannot write the output" (the work is lost), and no
output may replace one of the command's own inputs (``wordvec train c.txt -o c.txt``
would destroy the corpus).  ``check_output`` therefore runs first and refuses, in one
sentence:

- an output that is one of the inputs: the same file by ``os.path.samefile`` (so through
  symlinks and hard links too), or a directory output that holds an input;
- an output whose directory cannot be created or written (a parent is a file, no write
  permission);
- a file output that is an existing directory, or a directory output that is an existing
  file, or an existing directory that is not a save of the same kind (``replaceable``).

``check_vectors_output`` adds the format: the name must say which vector format to write
(``formats.detect_format``).
"""

import os
from pathlib import Path

from wordvec.io.atomic import check_existing
from wordvec.errors import WordvecError
from wordvec.io import formats

FILE, DIRECTORY = "file", "directory"


def check_output(path, inputs=(), kind=FILE, replaceable=None):
    """Refuse (``WordvecError``) an output path that the command could not or must not write."""
    if not str(path).strip():
        raise WordvecError("the output path is empty")
    out = Path(path)
    for source in inputs:
        _refuse_input(out, source, kind)
    if out.exists():
        if kind == FILE and out.is_dir():
            raise WordvecError(f"cannot write {out}: it is a directory (give a file name)")
        if kind == DIRECTORY and not out.is_dir():
            raise WordvecError(f"cannot write {out}: a file of that name exists (this output is a directory)")
        if replaceable is not None:
            check_existing(out, replaceable)
    _check_directory_writable(out)


def check_vectors_output(path, inputs=(), fmt=None):
    """``check_output`` for a vectors file or native directory; returns its format."""
    if not str(path).strip():
        raise WordvecError("the output path is empty")
    kind = formats.detect_format(path, fmt)  # an unknown extension is refused here, not after training
    if kind == "native":
        check_output(path, inputs, DIRECTORY, replaceable=formats.check_replaceable)
    else:
        check_output(path, inputs, FILE)
    return kind


def _refuse_input(out, source, kind):
    if source is None or not out.exists() or not os.path.exists(source):
        return
    if os.path.samefile(out, source):
        raise WordvecError(f"refusing to write {out}: it is the input {source} (choose another output name)")
    if kind == DIRECTORY and out.is_dir():
        inside = Path(os.path.realpath(source))
        if Path(os.path.realpath(out)) in inside.parents:
            raise WordvecError(f"refusing to replace {out}: it holds the input {source}")


def _check_directory_writable(out):
    """The nearest existing ancestor of ``out`` must be a directory we may write in."""
    parent = Path(os.path.abspath(out)).parent
    while not parent.exists():
        if parent.is_symlink():  # a dangling link: makedirs would fail
            raise WordvecError(f"cannot write {out}: {parent} is a broken symbolic link")
        parent = parent.parent
    if not parent.is_dir():
        raise WordvecError(f"cannot write {out}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise WordvecError(f"cannot write {out}: the directory {parent} is not writable")
