"""The output gate: every command that writes a file passes it before it reads its inputs.

A command's parser says which of its arguments are outputs and which are inputs
(``mark(parser, outputs=[Output("output", ...)], inputs=[Input("corpus", text=True)])``;
the foreign command lines of ``wordvec word2vec`` and ``wordvec fasttext`` name their
flags in tables and call ``check_paths``). ``wordvec.cli.main`` runs the gate between
parsing and the command, so a refusal costs nothing and touches nothing. It refuses, in
one sentence:

- an output that is an input: the same file (``os.path.samefile``: through symbolic and
  hard links), an output inside an input directory (a model directory, a corpus
  directory), or an output directory that holds an input;
- an output on a virtual file system (``/proc``, ``/sys``): it takes no files;
- an output whose directory cannot be written: a parent that is a file, a directory
  read-only for everyone (root included), or one where a file cannot be created (tried,
  so a read-only mount counts as well as the permission bits);
- a file output that is a directory, a directory output that is a file, and an existing
  target that is not a save of the same kind (``Output.same_kind``);
- a text input that is mostly undecodable bytes (a binary file given as a corpus) unless
  ``--accept-undecodable`` says to read it anyway.

This module imports nothing heavy (``classify predict`` imports it and starts in 0.1 s).
"""

import os
from pathlib import Path
from typing import Callable, NamedTuple

from wordvec.errors import WordvecError

FILE, DIRECTORY, EITHER = "file", "directory", "file or directory"
VIRTUAL_ROOTS = ("/proc", "/sys")
SAMPLE_BYTES = 1 << 20  # the bytes of a text input looked at
UNDECODABLE_SHARE = 0.25  # more replaced characters than this: not text (random bytes give ~0.5)
ACCEPT_FLAG = "--accept-undecodable"


class Output(NamedTuple):
    """An argument naming what a command writes. ``paths(value)`` gives the [(path, kind)]
    it writes (default: the value itself, a FILE); ``same_kind(path)`` raises when an
    existing ``path`` is not a save this command may replace."""
    dest: str
    paths: Callable = None
    same_kind: Callable = None


class Input(NamedTuple):
    """An argument naming what a command reads (a path or a list of paths); ``text``: read
    as text (a corpus), checked for undecodable bytes."""
    dest: str
    text: bool = False


class Gate(NamedTuple):
    """A parser's outputs and inputs; ``wordvec.cli.main`` calls ``check(args)``."""
    outputs: tuple
    inputs: tuple

    def check(self, args):
        inputs = [path for i in self.inputs for path in _values(args, i.dest)]
        for output in self.outputs:
            for value in _values(args, output.dest):
                for path, kind in (output.paths or _one_file)(value):
                    check_output_path(path, kind, inputs, output.same_kind)
        accept = getattr(args, "accept_undecodable", False)
        for path in (p for i in self.inputs if i.text for p in _values(args, i.dest)):
            check_text_input(path, accept)


def mark(parser, outputs=(), inputs=()):
    """Declare ``parser``'s outputs and inputs (``Output``/``Input``, or a dest name for an
    input); a parser with text inputs gets ``--accept-undecodable``."""
    inputs = tuple(Input(i) if isinstance(i, str) else i for i in inputs)
    parser.set_defaults(gate=Gate(tuple(outputs), inputs))
    if any(i.text for i in inputs):
        parser.add_argument(ACCEPT_FLAG, action="store_true",
                            help="read a text input even when most of its bytes are not UTF-8")
    return parser


def check_paths(outputs, inputs, text_inputs=()):
    """The gate for a command line parsed by its own module: ``outputs`` [(path, kind)],
    ``inputs`` [path]; None entries are ignored."""
    inputs = [p for p in inputs if p is not None]
    for path, kind in outputs:
        if path is not None:
            check_output_path(path, kind, inputs)
    for path in text_inputs:  # these lines have no flag to go on: wordvec's own commands do
        if path is not None:
            check_text_input(path, accept=False, way_on=f"`wordvec train` and `wordvec classify train` take {ACCEPT_FLAG}")


def _one_file(value):
    return [(value, FILE)]


def directory(value):
    """``Output.paths`` of an output that is a directory."""
    return [(value, DIRECTORY)]


def file_or_directory(value):
    """``Output.paths`` of an output whose kind its name decides (vectors: a native directory
    or a file), which the command checks with the format it detects."""
    return [(value, EITHER)]


def _values(args, dest):
    value = getattr(args, dest, None)
    if value is None:
        return []
    values = value if isinstance(value, (list, tuple)) else [value]
    return [os.fspath(v) for v in values if v is not None and os.fspath(v) not in ("", "-")]


# ---------------------------------------------------------------------------- outputs

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


def file_magic(magic, what):
    """A ``same_kind`` check: an existing non-empty file must start with ``magic``."""
    def check(path):
        if path.is_file() and path.stat().st_size:
            with open(path, "rb") as handle:
                if handle.read(len(magic)) != magic:
                    raise WordvecError(f"refusing to replace {path}: it exists and is not {what}")
    return check


# ---------------------------------------------------------------------------- text inputs

def check_text_input(path, accept=False, way_on=f"give {ACCEPT_FLAG} to read it anyway"):
    """Refuse a text input whose first MiB is mostly not UTF-8 (a binary file given as a
    corpus trains on replacement characters) unless ``accept``."""
    sample = _sample(Path(path))
    if accept or not sample:
        return
    text = sample.decode("utf-8", "replace")
    replaced = text.count("\ufffd")
    if replaced > UNDECODABLE_SHARE * len(text):
        raise WordvecError(f"{path} does not look like text: {100 * replaced // len(text)}% of the characters in "
                           f"its first {len(sample)} bytes are not UTF-8 ({way_on})")


def _sample(path):
    """The first SAMPLE_BYTES of a text file (decompressed), or of a directory's first file."""
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file())
        if not files:
            return b""
        path = files[0]
    if not path.is_file():
        return b""  # the command says what is wrong with it
    opener = _opener(path)
    try:
        with opener(path, "rb") as handle:
            return handle.read(SAMPLE_BYTES)
    except Exception:  # a damaged compressed file (zlib, lzma errors ...): its reader names the problem
        return b""


def _opener(path):
    suffix = path.suffix.lower()
    if suffix == ".gz":
        import gzip  # only for a compressed corpus: `classify predict` starts without it
        return gzip.open
    if suffix == ".bz2":
        import bz2
        return bz2.open
    if suffix == ".xz":
        import lzma
        return lzma.open
    return open
