"""Word-word co-occurrence counts X (seed 002, "Global Vectors for Word Representation":
X_ij = how often word j occurs in the context of word i), memory-bounded.

The plan (compiled loops in ``wordvec/kernels/cooccur.py``):

1. Frequent words (ids are frequency ranks) co-occur so often that pairs with
   (i+1)(j+1) <= P are added straight into a dense table, as the Stanford ``cooccur`` tool
   does (its ``-max-product``); P is sized from the memory limit (a quarter of it).
   Measured on wordbench-10m, window 10: a 230 MB table takes 89% of the pairs, where a
   4096 x 4096 square (128 MB) takes 72%.
2. All other pairs go into a fixed-size buffer of (row, col, weight) triples.  When it
   is full, the buffer is summed into a sorted CSR chunk (counting sort by row, scatter
   into a dense row accumulator).  Chunks stay in memory until they exceed their share of
   the budget; then they are spilled to temporary files and memory-mapped back.
3. A k-way merge walks the rows once to size the result and once to fill it, in blocks,
   dropping the spilled pages it has read after each block.

Weights are integers (units of 1/scale) summed in int64, so the matrix is exactly the
same whatever the memory limit; ``data`` is the quotient count / scale computed in
float64 (the exact rational count correctly rounded) and stored as float32 by default.
With ``weighting="harmonic"`` (GloVe's 1/distance) scale = lcm(1..window) for windows up to 22, else 2**30 (1/d then rounded to
a multiple of 2**-30).  With ``"uniform"`` scale = 1 and X holds plain counts.

Window: ``window`` tokens on each side (``symmetric=True``, GloVe's ``-symmetric 1``) or
only to the left (``symmetric=False``: X_ij counts j occurring up to ``window`` tokens
before i).  Windows never cross a document boundary.
"""

import dataclasses
import logging
import mmap
import os
import tempfile
import time
import zipfile

import numpy as np
import scipy.sparse
from numba.typed import List

from wordvec.io.arrays import check_csr, one_line
from wordvec.io.atomic import atomic_write
from wordvec.data.cooccur_options import (WEIGHTINGS, check_options, parse_memory, weight_scale,  # noqa: F401
                                          weight_units)
from wordvec.errors import FormatError, WordvecError
from wordvec.kernels import cooccur as kernels
from wordvec.progress import bar as progress_bar

logger = logging.getLogger(__name__)

MAX_DENSE_BYTES = 2**28  # measured (10m, window 10): 256 MB beat 32, 64, 128 and 512 MB
BYTES_PER_BUFFERED_PAIR = 44  # triple (12) + bucketed copy (8) + chunk output (12) + its trimmed copy (12)
MERGE_BLOCKS = 64  # the merge walks the rows in this many blocks, releasing spilled pages
@dataclasses.dataclass
class CooccurrenceCounts:
    """The result of ``count_cooccurrences``: the matrix and how it was made."""

    matrix: scipy.sparse.csr_matrix  # V x V, float32 (or float64) data, int32 indices, sorted rows
    pairs: int  # token pairs counted (left pairs; a symmetric window adds each twice to X)
    seconds: float
    cpu_seconds: float  # process CPU time while counting: on a busy machine, less than seconds
    chunks: int  # sparse chunks merged
    spilled: int  # chunks written to disk

    @property
    def pairs_per_second(self):
        return self.pairs / max(self.seconds, 1e-9)


def count_cooccurrences(ids, offsets, V, window=10, symmetric=True, weighting="harmonic",
                        memory="2GB", tmp_dir=None, progress=False, dtype=np.float32, integer_units=False):
    """Count X from an encoded corpus (ids int32[N] in [0, V), offsets int64[n_docs+1]).

    ``memory`` bounds the working set of the counting (dense table, pair buffer, chunks
    kept in RAM); the returned matrix (8 bytes per non-zero in float32, 12 in float64)
    comes on top of it.  ``dtype`` of the values: float32 (default; counts to 7 digits,
    what GloVe and the SVD consume) or float64.  ``integer_units=True``: int64 data holding the
    exact integer weights in units of 1/``weight_scale`` (partial counts that sum exactly,
    for ``wordvec.distributed.counting``; ``dtype`` is then ignored).
    """
    check_options(window, weighting)
    budget = parse_memory(memory)
    ids = np.asarray(ids)
    offsets = np.asarray(offsets, dtype=np.int64)
    if V < 1:
        raise WordvecError("cannot count co-occurrences over an empty vocabulary")
    if len(ids) and (int(ids.min()) < 0 or int(ids.max()) >= V):  # the kernels index without checks
        raise WordvecError(f"word ids must lie in [0, {V}); found {int(ids.min())}..{int(ids.max())}")
    started, cpu_started = time.perf_counter(), time.process_time()
    scale = weight_scale(window, weighting)
    units = weight_units(window, weighting)

    pairs_bound = 2 * window * max(int(offsets[-1] - offsets[0]), 1) if len(offsets) else 1
    row_start = dense_table_layout(V, min(MAX_DENSE_BYTES // 8, budget // 4 // 8, pairs_bound))
    dense = np.zeros(int(row_start[-1]), np.int64)
    capacity = max(4 * window, int(budget * 0.4) // BYTES_PER_BUFFERED_PAIR)
    keep_in_ram = budget * 0.25 - 8 * (V + 1)  # bytes of chunks before spilling
    rows = np.empty(capacity, np.int32)
    cols = np.empty(capacity, np.int32)
    vals = np.empty(capacity, np.int32)

    chunks, spilled, ram_bytes, pairs = [], 0, 0, 0
    doc, pos = 0, int(offsets[0]) if len(offsets) > 1 else 0
    total_tokens = int(offsets[-1] - offsets[0]) if len(offsets) else 0
    bar = progress_bar(total_tokens, "cooccur", unit="tok", enabled=progress, unit_scale=True)
    with tempfile.TemporaryDirectory(prefix="wordvec-cooccur-", dir=tmp_dir) as spill_dir:
        while True:
            before = pos
            doc, pos, n, n_pairs = kernels.count_pairs(ids, offsets, doc, pos, window, units,
                                                       symmetric, dense, row_start, rows, cols, vals)
            pairs += n_pairs
            bar.update(pos - before if doc < len(offsets) - 1 else total_tokens - bar.n)
            if n:
                chunk = kernels.compress_pairs(rows, cols, vals, n, V)
                size = sum(a.nbytes for a in chunk)
                if ram_bytes + size > keep_in_ram:
                    chunk = _SpilledChunk(chunk, spill_dir, len(chunks))
                    spilled += 1
                else:
                    ram_bytes += size
                chunks.append(chunk)
            if doc >= len(offsets) - 1:
                break
        bar.close()
        del rows, cols, vals
        n_chunks = len(chunks)
        if integer_units:  # integers below 2**53 pass through float64 exactly
            matrix = _merge(chunks, dense, row_start, 1, np.float64)
            matrix.data = matrix.data.astype(np.int64)
        else:
            matrix = _merge(chunks, dense, row_start, scale, dtype)
        del chunks
    seconds = time.perf_counter() - started
    result = CooccurrenceCounts(matrix, pairs, seconds, time.process_time() - cpu_started, n_chunks, spilled)
    logger.info("counted %d pairs in %.1f s, %.1f s CPU (%.2fM pairs/s): %d non-zeros, %d chunks, %d spilled",
                pairs, seconds, result.cpu_seconds, pairs / max(seconds, 1e-9) / 1e6, matrix.nnz,
                result.chunks, spilled)
    return result


def dense_table_layout(V, max_entries):
    """row_start int64[V+1] of the dense table: row r holds min(V, P // (r+1)) columns, with
    the largest product bound P whose table has at most ``max_entries`` entries."""
    ranks = np.arange(1, V + 1, dtype=np.int64)
    lo, hi = 0, V * V
    while lo < hi:  # largest P with sum_r min(V, P // r) <= max_entries
        mid = (lo + hi + 1) // 2
        if np.minimum(V, mid // ranks).sum() <= max_entries:
            lo = mid
        else:
            hi = mid - 1
    row_start = np.zeros(V + 1, np.int64)
    np.cumsum(np.minimum(V, lo // ranks), out=row_start[1:])
    return row_start


class _SpilledChunk:
    """A chunk's arrays written to raw files and memory-mapped back read-only.  The merge
    drops the mapped pages after each block of rows (``release``), so pages it has read
    do not stay resident and count against the memory limit."""

    def __init__(self, chunk, spill_dir, number):
        self.maps, self.arrays = [], []
        for name, array in zip(("indptr", "indices", "values"), chunk):
            path = os.path.join(spill_dir, f"chunk{number:05d}.{name}")
            with open(path, "wb") as handle:
                array.tofile(handle)
            if array.size == 0:
                self.arrays.append(array)
                continue
            with open(path, "rb") as handle:
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            self.maps.append(mapped)
            self.arrays.append(np.frombuffer(mapped, dtype=array.dtype))

    def release(self):
        for mapped in self.maps:
            mapped.madvise(mmap.MADV_DONTNEED)


def _merge(chunks, dense, row_start, scale, dtype):
    """k-way merge of the CSR chunks and the dense table into one CSR matrix, in blocks of
    rows (twice: sizes, then values), releasing spilled pages after each block."""
    V = len(row_start) - 1
    spilled = [c for c in chunks if isinstance(c, _SpilledChunk)]
    arrays = [c.arrays if isinstance(c, _SpilledChunk) else c for c in chunks]
    if not arrays:  # keep the typed lists typed: one empty chunk
        arrays = [(np.zeros(V + 1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64))]
    indptrs, indices_list, values_list = List(), List(), List()
    for indptr, indices, values in arrays:
        for array, typed in ((indptr, indptrs), (indices, indices_list), (values, values_list)):
            array = array.view()
            array.flags.writeable = False  # spilled chunks are read-only maps: one type for all
            typed.append(array)
    blocks = _balanced_row_blocks(arrays, row_start, MERGE_BLOCKS)
    lengths = np.zeros(V, np.int64)
    for r0, r1 in zip(blocks[:-1], blocks[1:]):
        kernels.merged_row_lengths(indptrs, indices_list, values_list, dense, row_start, r0, r1, lengths)
        for chunk in spilled:
            chunk.release()
    out_indptr = np.zeros(V + 1, np.int64)
    np.cumsum(lengths, out=out_indptr[1:])
    del lengths
    nnz = int(out_indptr[-1])
    out_indices = np.empty(nnz, np.int32)
    out_data = np.empty(nnz, dtype)
    for r0, r1 in zip(blocks[:-1], blocks[1:]):
        kernels.merge_rows(indptrs, indices_list, values_list, dense, row_start, float(scale), r0, r1,
                           out_indptr, out_indices, out_data)
        for chunk in spilled:
            chunk.release()
    return scipy.sparse.csr_matrix((out_data, out_indices, out_indptr), shape=(V, V))


def _balanced_row_blocks(arrays, row_start, n_blocks):
    """Row boundaries int64[n_blocks+1] splitting the merge's input entries evenly (the
    frequent words' rows hold most of them, so equal row counts would not do)."""
    weights = np.diff(row_start).astype(np.float64)
    for indptr, _, _ in arrays:
        weights += np.diff(indptr)
    cumulative = np.cumsum(weights)
    targets = np.linspace(0, cumulative[-1], n_blocks + 1)[1:-1]
    inner = np.searchsorted(cumulative, targets, side="right")
    return np.unique(np.concatenate([[0], inner, [len(weights)]])).astype(np.int64)


def save_cooccurrence(path, matrix, words=None, counts=None, **meta):
    """Write X as SciPy sparse ``.npz`` (readable by ``scipy.sparse.load_npz``), atomically,
    plus the vocabulary (``words``, ``counts``) and counting options (``meta``) when given."""
    matrix = scipy.sparse.csr_matrix(matrix)
    arrays = {"format": np.array(b"csr"), "shape": np.array(matrix.shape), "data": matrix.data,
              "indices": matrix.indices, "indptr": matrix.indptr}
    if words is not None:
        arrays["words"] = np.array(list(words), dtype=str)
    if counts is not None:
        arrays["counts"] = np.asarray(counts, dtype=np.int64)
    for key, value in meta.items():
        arrays[f"meta_{key}"] = np.array(value)
    with atomic_write(path, "wb") as handle:
        np.savez(handle, **arrays)


def load_cooccurrence(path):
    """Read a file written by ``save_cooccurrence`` (or ``scipy.sparse.save_npz``).

    Returns (matrix csr, words list or None, counts int64[V] or None, meta dict).
    """
    try:
        with np.load(path, allow_pickle=False) as stored:
            shape = tuple(int(s) for s in stored["shape"])
            data, indices, indptr = stored["data"], stored["indices"], stored["indptr"]
            if len(shape) != 2 or indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
                raise ValueError("the matrix parts have the wrong shape or type")
            check_csr(path, data, indices, indptr, *shape)  # the kernels index X without bounds checks
            matrix = scipy.sparse.csr_matrix((data, indices, indptr), shape=shape)
            words = [str(w) for w in stored["words"]] if "words" in stored else None
            counts = stored["counts"] if "counts" in stored else None
            meta = {k[5:]: stored[k].item() for k in stored.files if k.startswith("meta_")}
    except FormatError:
        raise
    except (KeyError, ValueError, OSError, EOFError, zipfile.BadZipFile) as error:
        if isinstance(error, FileNotFoundError):
            raise
        raise FormatError(path, None, f"not a co-occurrence .npz file ({one_line(error)})") from None
    return matrix, words, counts, meta
