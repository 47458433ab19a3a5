"""Optional approximate nearest-neighbour index (``pip install 'wordvec[ann]'``: usearch).

An HNSW graph (Malkov & Yashunin 2016) over the rows, cosine metric, vectors kept in
float16 inside the index.  usearch was chosen over hnswlib and faiss-cpu after measuring
build time, recall@10 and queries/s on the synthetic 400k x 300 file (benchmarks/README.md,
"Pretrained vectors at full size"): its queries were the fastest relative to exact search and
its peak memory the smallest (its build was the slowest of the three there, and that file's
recall says little: its rows have no real neighbourhoods); it ships wheels for every
platform (hnswlib compiles from source), and it can memory-map a saved index.  At 3M x 300
(benchmarks/bench_ann.py) a build takes ~8 minutes on two cores; ``build_index(stop=N)``
and ``resume_index`` split one into parts.

The index is saved beside the vectors (``VECTORS.usearch`` with ``VECTORS.usearch.json``
naming the rows it holds: their count, size and a fingerprint of the words, and the index
file's size and SHA-256, checked before usearch opens it) and reloaded from there.  It is never rebuilt behind the user's back: a missing or stale index is an
error that says how to build one (``wordvec index VECTORS`` or ``build_index``).
"""

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io.atomic import save_json
from wordvec.io.formats import read_json_object

INDEX_SUFFIX, META_SUFFIX = ".usearch", ".usearch.json"
INDEX_TAG = "wordvec-ann-usearch"
INSTALL_HINT = "the approximate index needs usearch: pip install 'wordvec[ann]'"


@dataclass(frozen=True)
class AnnConfig:
    """Defaults from benchmarks/bench_ann.py (record ann-3000000.json): over 300k rows
    ef_add 64 built in ~57% of 128's time for at most 0.006 less recall@10, int8 storage
    capped recall@10 near 0.94, float32 took 1.4x as long to build for the same recall;
    over 3M rows ef 64 found 99% of the exact top 10 at 31-35x the exact batched queries/s."""

    connectivity: int = 16  # HNSW's M: graph edges per node
    expansion_add: int = 64  # ef_construction: candidates kept while inserting
    expansion_search: int = 64  # ef: candidates kept while searching (recall against speed)
    dtype: str = "f16"  # how the index stores the vectors


def _usearch():
    try:
        from usearch.index import Index  # optional dependency: only for approximate search
    except ImportError:
        raise WordvecError(INSTALL_HINT) from None
    return Index


def fingerprint(words):
    """SHA-256 of the words in order: an index belongs to exactly these rows."""
    digest = hashlib.sha256()
    for start in range(0, len(words), 100000):
        digest.update("\n".join(words[start:start + 100000]).encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def fingerprint_of(kv):
    """``fingerprint(kv.index_to_key)``, from the word table's bytes when ``kv`` has one (3M
    words: no 3M Python strings just to check an index).  Valid UTF-8 bytes are exactly what
    the words encode to; a table with other bytes takes the list's way, so both agree."""
    table = kv.word_table
    if table is not None:
        offsets = np.asarray(table.offsets)
        blob = np.asarray(table.blob)[offsets[0]:offsets[-1]]
        try:
            blob.tobytes().decode("utf-8")
        except UnicodeDecodeError:
            table = None
    if table is None:
        return fingerprint(kv.index_to_key)
    ends = offsets[1:] - offsets[0] + np.arange(len(offsets) - 1)  # where each word's "\n" goes
    lines = np.full(len(blob) + len(ends), ord("\n"), dtype=np.uint8)
    is_byte = np.ones(len(lines), dtype=bool)
    is_byte[ends] = False
    lines[is_byte] = blob
    return hashlib.sha256(lines.tobytes()).hexdigest()


class ApproximateIndex:
    """The usearch index of a table's rows; ``query`` answers unit queries approximately."""

    def __init__(self, index, meta):
        self.index, self.meta = index, meta

    def query(self, queries, k, n_rows):
        """(rows n x k, cosines n x k) per query, -1 where fewer were found; only rows < n_rows."""
        total = self.meta["rows"]
        fetch = k if n_rows >= total else min(total, 4 * k)  # restrict_vocab: ask more, keep the first rows
        matches = self.index.search(np.ascontiguousarray(queries, dtype=np.float32), fetch, threads=0)
        keys = np.asarray(matches.keys, dtype=np.int64).reshape(len(queries), -1)
        cosines = (1.0 - np.asarray(matches.distances, dtype=np.float32)).reshape(len(queries), -1)
        counts = matches.counts if hasattr(matches, "counts") else [len(matches.keys)]  # one query: no batch
        found = np.asarray(counts).reshape(len(queries), 1) > np.arange(keys.shape[1])
        keys = np.where(found & (keys < n_rows), keys, -1)
        order = np.argsort(keys < 0, axis=1, kind="stable")[:, :k]  # found rows first, best first
        return np.take_along_axis(keys, order, axis=1), np.take_along_axis(cosines, order, axis=1)


def build_index(kv, config=AnnConfig(), threads=0, stop=None):
    """Build the index of every row of ``kv`` (all cores unless ``threads``); ``stop`` builds
    only rows [0, stop): a partial index, finished by ``resume_index`` (a long build in parts)."""
    Index = _usearch()
    index = Index(ndim=kv.vector_size, metric="cos", dtype=config.dtype, connectivity=config.connectivity,
                  expansion_add=config.expansion_add, expansion_search=config.expansion_search)
    return _add_rows(index, kv, config, threads, len(kv) if stop is None else min(len(kv), stop))


def resume_index(kv, partial_path, config=AnnConfig(), threads=0):
    """Add the rows a partial index (``build_index(..., stop=N)`` saved by ``index.save``)
    lacks; the partial file must have been built from the first rows of ``kv`` with ``config``."""
    index = _usearch().restore(os.fspath(partial_path), view=False)
    if index is None or index.ndim != kv.vector_size or index.size > len(kv) or \
            index.connectivity != config.connectivity:
        raise FormatError(partial_path, None, "not a partial index of these vectors with this configuration")
    index.expansion_add, index.expansion_search = config.expansion_add, config.expansion_search
    return _add_rows(index, kv, config, threads, len(kv))


def _add_rows(index, kv, config, threads, stop):
    step = 100000
    for start in range(index.size, stop, step):  # float32 rows one block at a time (float16/int8 tables too)
        end = min(stop, start + step)
        index.add(np.arange(start, end), kv._rows(start, end), threads=threads)
    meta = {"format": INDEX_TAG, "rows": len(kv), "vector_size": kv.vector_size,
            "words": fingerprint_of(kv), "config": asdict(config)}
    return ApproximateIndex(index, meta)


def index_path(vectors_path):
    return Path(str(vectors_path).rstrip("/") + INDEX_SUFFIX)


def save_index(ann, vectors_path):
    """Write the index beside the vectors, atomically (index first, then its description)."""
    path = index_path(vectors_path)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")  # usearch writes the file itself
    try:
        ann.index.save(os.fspath(temporary))
        meta = dict(ann.meta, **file_checksum(temporary))
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()
    save_json(Path(str(path)[: -len(INDEX_SUFFIX)] + META_SUFFIX), meta)
    return path


def file_checksum(path):
    """{"bytes": size, "sha256": digest} of a file: usearch trusts the bytes of an index it
    opens (one byte changed can crash the process), so they are checked against these first."""
    with open(path, "rb") as handle:
        return {"bytes": os.fstat(handle.fileno()).st_size, "sha256": hashlib.file_digest(handle, "sha256").hexdigest()}


def _check_bytes(path, meta, vectors_path):
    if not isinstance(meta.get("sha256"), str) or not isinstance(meta.get("bytes"), int):
        raise FormatError(path, None, "has no checksum in its description (written by an older wordvec); "
                                      f"rebuild it with `wordvec index {vectors_path}`")
    size = path.stat().st_size
    if size != meta["bytes"] or file_checksum(path)["sha256"] != meta["sha256"]:
        raise FormatError(path, None, f"is damaged (its bytes do not match the checksum written with it: "
                                      f"{size} bytes, {meta['bytes']} written); rebuild it with "
                                      f"`wordvec index {vectors_path}`")


def load_index(kv, vectors_path, view=True):
    """The saved index of ``kv``'s file, checked to belong to exactly these rows (mapped if ``view``)."""
    path = index_path(vectors_path)
    meta_path = Path(str(path)[: -len(INDEX_SUFFIX)] + META_SUFFIX)
    if not path.is_file() or not meta_path.is_file():
        raise WordvecError(f"no approximate index for {vectors_path} (expected {path}); build it with "
                           f"`wordvec index {vectors_path}`")
    meta = read_json_object(meta_path)
    if meta.get("format") != INDEX_TAG:
        raise FormatError(meta_path, None, f"not a wordvec index description (format {INDEX_TAG!r})")
    if (meta.get("rows"), meta.get("vector_size")) != (len(kv), kv.vector_size) or \
            meta.get("words") != fingerprint_of(kv):
        raise WordvecError(f"the approximate index {path} was built for other vectors than {vectors_path} "
                           f"now holds; rebuild it with `wordvec index {vectors_path}`")
    _check_bytes(path, meta, vectors_path)
    index = _usearch().restore(os.fspath(path), view=view)
    if index is None or index.ndim != kv.vector_size:
        raise FormatError(path, None, f"not a readable usearch index of {kv.vector_size}-dimensional vectors")
    if index.size != len(kv):
        raise FormatError(path, None, f"holds {index.size} of the {len(kv)} rows (an unfinished build); "
                                      f"rebuild it with `wordvec index {vectors_path}`")
    index.expansion_search = int(meta.get("config", {}).get("expansion_search", AnnConfig.expansion_search))
    return ApproximateIndex(index, meta)


def attach_index(kv, vectors_path, view=True):
    """Load the saved index of ``vectors_path`` into ``kv`` (for ``most_similar(approximate=True)``)."""
    kv.ann_index = load_index(kv, vectors_path, view=view)
    return kv


def describe(ann):
    return json.dumps(ann.meta["config"])
