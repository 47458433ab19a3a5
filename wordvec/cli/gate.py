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
from wordvec.io.paths import DIRECTORY, EITHER, FILE, check_output_path

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
