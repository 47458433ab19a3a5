"""Compact word vectors: float16, int8 with one scale per row, fewer dimensions.

int8 (symmetric, per row):  for row x,  s = max_j |x_j| / 127,  q = round(x / s) in [-127, 127],
and x is read back as s * q.  The scale cancels in a cosine,

    cos(x, y) = (s q . y) / (s |q| |y|) = (q . y) / (|q| |y|),

so queries run on the codes directly (``wordvec.vectors.search`` turns one block of codes
at a time into float32) and the scales only matter for ``get_vector``.

Fewer dimensions: ``dims=N`` keeps the first N coordinates (right for Matryoshka-trained
vectors, whose leading coordinates carry the most).  For other vectors ``pca=N`` first
rotates onto the principal axes of the (uncentred) rows, the eigenvectors of

    G = X^T X = sum_w x_w x_w^T          (D x D, accumulated in float64 block by block)

sorted by eigenvalue, and keeps the first N: the rotation is orthogonal, so with N = D
every dot product and cosine is unchanged, and truncating it drops the least energy.
Not centred on purpose: centring would change every cosine even at N = D.

A compact save is a native directory (``vocab.json`` as in ``wordvec.io.formats``) whose
``vectors.npy`` is float16 or int8, plus ``scales.npy`` (int8), ``rotation.npy`` (pca:
D x N, to rotate query vectors from the original space) and ``compact.json``.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io import formats
from wordvec.io.arrays import read_array
from wordvec.io.atomic import atomic_directory, save_json, save_npy
from wordvec.vectors import search
from wordvec.vectors.keyed import KeyedVectors

COMPACT_META, SCALES, ROTATION = "compact.json", "scales.npy", "rotation.npy"
COMPACT_TAG = "wordvec-compact"
DTYPES = ("float32", "float16", "int8")
INT8_MAX = 127


@dataclass(frozen=True)
class CompactConfig:
    dtype: str = "float16"  # float32 | float16 | int8
    dims: int = None  # keep the first N coordinates
    pca: int = None  # rotate onto the principal axes, then keep the first N

    def __post_init__(self):
        if self.dtype not in DTYPES:
            raise WordvecError(f"unknown storage type {self.dtype!r}; choose one of {', '.join(DTYPES)}")
        if self.dims is not None and self.pca is not None:
            raise WordvecError("choose --dims (plain truncation) or --pca (rotate, then truncate), not both")
        for name in ("dims", "pca"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise WordvecError(f"--{name} must be a positive number of dimensions, got {value}")


def int8_codes(block):
    """Per-row symmetric int8 codes and scales of a float32 block (zero rows: scale 0)."""
    scales = np.abs(block).max(axis=1) / INT8_MAX
    safe = np.where(scales > 0, scales, 1)
    codes = np.rint(block / safe[:, None]).clip(-INT8_MAX, INT8_MAX).astype(np.int8)
    return codes, scales.astype(np.float32)


def pca_rotation(rows, n_rows, dims, keep):
    """D x keep orthonormal matrix: the top ``keep`` eigenvectors of X^T X (see module doc)."""
    gram = np.zeros((dims, dims), dtype=np.float64)
    step = search.block_rows(1, n_rows, dims)
    for start in range(0, n_rows, step):
        block = rows(start, min(n_rows, start + step)).astype(np.float64)
        gram += block.T @ block
    eigenvalues, eigenvectors = np.linalg.eigh(gram)  # ascending
    order = np.argsort(eigenvalues)[::-1][:keep]
    return eigenvectors[:, order].astype(np.float32)


def compact(kv, config):
    """A compact copy of ``kv`` (float16/float32 KeyedVectors, or CompactKeyedVectors for int8)."""
    dims = kv.vector_size
    keep = config.pca or config.dims or dims
    if keep > dims:
        raise WordvecError(f"cannot keep {keep} of {dims} dimensions")
    rotation = pca_rotation(kv._rows, len(kv), dims, keep) if config.pca else None
    n, step = len(kv), search.block_rows(1, len(kv), dims)
    if config.dtype == "int8":
        codes, scales = np.empty((n, keep), np.int8), np.empty(n, np.float32)
    else:
        codes, scales = np.empty((n, keep), np.dtype(config.dtype)), None
    for start in range(0, n, step):
        stop = min(n, start + step)
        block = kv._rows(start, stop)
        block = block @ rotation if rotation is not None else block[:, :keep]
        if scales is None:
            codes[start:stop] = block
        else:
            codes[start:stop], scales[start:stop] = int8_codes(block)
    if scales is None:
        out = KeyedVectors(kv.index_to_key, codes, kv.counts)
        out.rotation = rotation
        return out
    return CompactKeyedVectors(kv.index_to_key, codes, scales, kv.counts, rotation)


class CompactKeyedVectors(KeyedVectors):
    """KeyedVectors stored as int8 codes with one float32 scale per row.

    Queries (``most_similar``, ``most_similar_batch``, ``similarity`` ...) work on the
    codes; ``vectors`` decodes the whole matrix (a float32 copy) for code that wants it.
    """

    STORED_DTYPES = (np.int8,)

    def __init__(self, words, codes, scales, counts=None, rotation=None):
        codes = np.asarray(codes) if not isinstance(codes, np.memmap) else codes
        if codes.dtype != np.int8 or codes.ndim != 2:
            raise WordvecError(f"int8 codes must be a 2-D int8 array, got {codes.dtype} {codes.shape}")
        scales = np.asarray(scales, dtype=np.float32)
        if scales.shape != (codes.shape[0],):
            raise WordvecError(f"{codes.shape[0]} rows but {scales.size} scales")
        self.scales, self.rotation = scales, rotation
        super().__init__(words, codes, counts)

    @property
    def vectors(self):
        return self._rows(0, len(self))

    @vectors.setter
    def vectors(self, matrix):
        self._vectors = matrix
        self.reset_norms()

    @property
    def codes(self):
        return self._vectors

    def _rows(self, start, stop):
        return self._vectors[start:stop].astype(np.float32) * self.scales[start:stop, None]

    def get_vector(self, word, norm=False):
        i = self.get_index(word)
        return super().get_vector(word, norm) if norm else self._rows(i, i + 1)[0]

    def save(self, path):
        save_compact(path, self)

    @classmethod
    def load(cls, path, mmap_mode=None):
        return load_compact(path, mmap_mode)

    def __repr__(self):
        return f"CompactKeyedVectors({len(self)} words, {self.vector_size} dimensions, int8)"


def storage_dtype(kv):
    return "int8" if isinstance(kv, CompactKeyedVectors) else np.dtype(kv.vectors.dtype).name


def save_compact(path, kv):
    """Write ``kv`` (float16/float32 or int8) as a compact native directory, atomically."""
    dtype = storage_dtype(kv)
    stored = kv.codes if dtype == "int8" else kv.vectors
    meta = {"format": formats.NATIVE_TAG, "version": 1, "vector_size": int(stored.shape[1]),
            "words": list(kv.index_to_key), "counts": None if kv.counts is None else [int(c) for c in kv.counts]}
    rotation = getattr(kv, "rotation", None)
    with atomic_directory(Path(path), check_replaceable=formats.check_replaceable) as tmp:
        save_npy(tmp / formats.NATIVE_VECTORS, stored)
        if dtype == "int8":
            save_npy(tmp / SCALES, kv.scales)
        if rotation is not None:
            save_npy(tmp / ROTATION, rotation)
        save_json(tmp / COMPACT_META, {"format": COMPACT_TAG, "dtype": dtype, "rotation": rotation is not None})
        save_json(tmp / formats.NATIVE_META, meta)


def is_compact_save(path):
    return (Path(path) / COMPACT_META).is_file()


def load_compact(path, mmap_mode=None):
    """Read a compact directory written by ``save_compact`` (codes optionally memory-mapped)."""
    path = Path(path)
    info = formats.read_json_object(path / COMPACT_META)
    if info.get("format") != COMPACT_TAG or info.get("dtype") not in DTYPES:
        raise FormatError(path / COMPACT_META, None, f"not a wordvec compact description (format {COMPACT_TAG!r}, "
                                                     f"dtype one of {', '.join(DTYPES)})")
    words, counts, dims = formats.read_native_vocab(path)
    kinds = "i" if info["dtype"] == "int8" else "f"
    stored = read_array(path / formats.NATIVE_VECTORS, (len(words), dims), kinds=kinds, finite=False,
                        mmap_mode=mmap_mode)
    if stored.dtype != np.dtype(info["dtype"]):
        raise FormatError(path / formats.NATIVE_VECTORS, None, f"holds {stored.dtype}, compact.json says {info['dtype']}")
    rotation = None
    if info.get("rotation"):
        rotation = read_array(path / ROTATION, (None, dims))
    if info["dtype"] != "int8":
        kv = KeyedVectors(words, stored, counts)
        kv.rotation = rotation
        return kv
    scales = read_array(path / SCALES, (len(words),))
    return CompactKeyedVectors(words, stored, scales, counts, rotation)


def compaction_report(before, after, config):
    """One table of ``evaluate_all`` results before and after compaction, with the change."""
    label = config.dtype + (f", {config.dims} dims" if config.dims else "") + (f", pca {config.pca}" if config.pca else "")
    lines = [f"{'measure':<28} {'as stored':>10} {label:>18} {'change':>9}"]
    for part in ("semantic", "syntactic", "total"):
        if before.get("analogy"):
            old, new = before["analogy"][part], after["analogy"][part]
            lines.append(f"{'analogy ' + part:<28} {old:>10.1%} {new:>18.1%} {100 * (new - old):>+8.2f}pt")
    for name, stats in (before.get("similarity") or {}).items():
        old, new = stats["spearman"], after["similarity"][name]["spearman"]
        if old is None or new is None:
            lines.append(f"{'rho ' + name:<28} {'n/a':>10} {'n/a':>18}")
        else:
            lines.append(f"{'rho ' + name:<28} {old:>10.4f} {new:>18.4f} {new - old:>+9.4f}")
    return "\n".join(lines)
