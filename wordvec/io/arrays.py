"""Validation of arrays read from disk: one layer that every loader goes through.

A model directory, an LM checkpoint or a cached corpus encoding is a set of ``.npy``
files that the compiled kernels later index without bounds checks (a range check in the
hot loop would cost speed).  So everything is checked once, at load time, with
vectorised NumPy: the header before any allocation (shape, dtype, enough bytes), then
the values (finite floats, ids inside the vocabulary, monotone offsets).  A failed check
is a ``FormatError`` naming the file, never a crash in a kernel later.
"""

import os
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError

FLOAT = "f"
INTEGER = "iu"


def one_line(error):
    """An exception as one short line (NumPy messages can span lines)."""
    return " ".join(str(error).split())[:200] or type(error).__name__


def read_npy_header(file):
    """(shape, dtype, data offset, file size) of a ``.npy`` file, reading only its header."""
    try:
        with open(file, "rb") as handle:
            version = np.lib.format.read_magic(handle)
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read_header is None:
                raise ValueError(f"unsupported .npy version {version}")
            shape, fortran, dtype = read_header(handle)
            return tuple(shape), dtype, handle.tell(), os.fstat(handle.fileno()).st_size
    except FileNotFoundError:
        raise FormatError(file, None, "the file is missing") from None
    except (OSError, UnicodeError) as error:
        raise FormatError(file, None, f"cannot be read ({one_line(error)})") from None
    except Exception as error:  # NumPy parses untrusted header text; any failure means "malformed"
        raise FormatError(file, None, f"not a valid NumPy array file ({one_line(error)})") from None


def _shape_matches(found, expected):
    return len(found) == len(expected) and all(e is None or f == e for f, e in zip(found, expected))


def _shown(shape):
    return "(" + ", ".join("any" if n is None else str(n) for n in shape) + (",)" if len(shape) == 1 else ")")


def read_array(file, shape=None, kinds=FLOAT, finite=True, mmap_mode=None):
    """Load one ``.npy`` (never pickled) after checking it is what the caller expects.

    ``shape``: the expected shape (``None`` entries match any length); ``kinds``: the
    allowed ``dtype.kind`` letters (``"f"`` floats, ``"iu"`` integers); ``finite``: refuse
    NaN or infinity (floats only; skipped for memory-mapped arrays, which are not read).
    """
    file = Path(file)
    found, dtype, data_start, size = read_npy_header(file)
    if shape is not None and not _shape_matches(found, tuple(shape)):
        raise FormatError(file, None, f"array of shape {found}, expected {_shown(tuple(shape))}")
    if dtype.hasobject or dtype.kind not in kinds:
        wanted = {FLOAT: "floating-point numbers", INTEGER: "integers"}.get(kinds, f"dtype kind {kinds!r}")
        raise FormatError(file, None, f"array holds {dtype}, not {wanted}")
    if data_start + int(np.prod(found, dtype=np.int64)) * dtype.itemsize > size:
        raise FormatError(file, None, "the file is truncated")
    try:
        array = np.load(file, mmap_mode=mmap_mode, allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise FormatError(file, None, f"not a valid NumPy array file ({one_line(error)})") from None
    if finite and mmap_mode is None:
        check_finite(file, array)
    return array


def check_finite(file, array):
    if array.dtype.kind == "f" and array.size and not np.isfinite(array).all():
        raise FormatError(file, None, "the array contains NaN or infinity")


def check_ids(file, ids, vocabulary_size):
    """Every id is a row of a ``vocabulary_size``-row matrix (0 <= id < V)."""
    if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= vocabulary_size):
        raise FormatError(file, None, f"word ids range from {int(ids.min())} to {int(ids.max())}, "
                                      f"outside the {vocabulary_size} words of the vocabulary")


def check_offsets(file, offsets, length):
    """Offsets of pieces of a ``length``-long array: start at 0, never decrease, end at ``length``."""
    if offsets.ndim != 1 or offsets.size < 1 or int(offsets[0]) != 0 or int(offsets[-1]) != length:
        raise FormatError(file, None, f"offsets must run from 0 to {length}")
    if offsets.size > 1 and (np.diff(offsets) < 0).any():
        raise FormatError(file, None, "offsets decrease somewhere")


def check_csr(directory, data, indices, indptr, n_rows, n_cols):
    """A CSR matrix's parts agree with each other and with its shape."""
    where = Path(directory)
    if indptr.shape != (n_rows + 1,):
        raise FormatError(where, None, f"the co-occurrence matrix has {indptr.size - 1} rows, expected {n_rows}")
    if data.shape != indices.shape or data.ndim != 1:
        raise FormatError(where, None, "the co-occurrence matrix's data and indices differ in length")
    check_offsets(where, indptr, data.size)
    check_ids(where, indices, n_cols)
