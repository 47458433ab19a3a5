"""Vectors from and to files in any supported format, chosen by the caller or by the path.

The one place that knows both kinds of vectors (plain ``KeyedVectors`` and subword
``SubwordKeyedVectors``), so neither of their modules imports the other.

Memory-mapping a word2vec file: ``load_vectors("vectors.bin", mmap_mode="r")`` parses it
once into a native cache beside it (``vectors.bin.wv``: ``vectors.npy`` + version 2's word
arrays and hash table (``wordvec.io.formats``), plus ``source.json`` naming the size and
modification time of the file it came from and ``inverse_norms.npy`` for the first query) and
maps that; the next call (in any process: they share the pages) only opens the cache.
A cache whose source has changed is rebuilt; one that cannot be written (a read-only
directory) is skipped with a warning and the file is read into memory.
"""

import json
import logging
import os
from pathlib import Path

from wordvec.errors import FormatError, WordvecError
from wordvec.io import formats
from wordvec.io import sniff
from wordvec.io.arrays import read_array
from wordvec.vectors import compact, reading, search
from wordvec.vectors.fasttext_words import fasttext_word_vectors
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors
from wordvec.vectors.wordtable import WORD_SLOTS

logger = logging.getLogger(__name__)

CACHE_SUFFIX, CACHE_SOURCE, CACHE_NORMS = ".wv", "source.json", "inverse_norms.npy"


def load_vectors(path, limit=None, dtype=None, mmap_mode=None, fmt=None):
    """Load vectors in any supported format, chosen by ``fmt`` or by the path.

    ``.bin`` word2vec binary; ``.txt``/``.vec`` word2vec text (a file without the
    ``V D`` header is read as GloVe); ``.glove`` or ``fmt="glove"`` headerless GloVe text;
    each optionally compressed (``.gz``, ``.bz2``, ``.xz``); a directory or ``.wv`` path
    the native format (also compact int8/float16 saves of ``wordvec convert``).
    ``limit=N`` keeps the first N words; ``dtype="float16"`` halves the matrix;
    ``mmap_mode="r"`` maps a native save, or a native cache of a word2vec file (see above).
    A fastText model file (``.bin``/``.ftz``, any name) gives its word vectors
    (``wordvec.vectors.fasttext_words``).  The first bytes decide where they tell: a file
    that is no vector file is refused in one sentence naming what it looks like.
    """
    maybe_native = Path(path).suffix.lower() == ".wv" or (fmt is not None
                                                          and formats.detect_format(path, fmt) == "native")
    if not Path(path).exists() and not maybe_native:  # (a native save may survive as a backup)
        raise WordvecError(f"cannot access {path}: no such file or directory")
    kind = formats.detect_format(path, fmt)
    if kind == "native":
        return _first(_load_native(path, mmap_mode, dtype), limit)
    if Path(path).is_dir():
        raise WordvecError(f"{path} is a directory; only the native format is a directory")
    kind = kind_from_bytes(path, kind, fmt)
    if kind == "fasttext":
        kv = _first(fasttext_word_vectors(path), limit)
        if dtype is not None:
            kv.vectors = kv.vectors.astype(reading.target_dtype(path, dtype))
        return kv
    if mmap_mode is not None and dtype is None:
        return _first(_mapped(path, kind, fmt, mmap_mode), limit)
    return KeyedVectors(*_read(path, kind, fmt, limit, dtype))


def kind_from_bytes(path, kind, fmt=None):
    """The reader for the file at ``path``: a fastText model under any name, else the
    name's ``kind``.  A file whose first bytes hold no vectors (``wordvec.io.sniff``) is
    refused in one sentence saying what it looks like, unless ``fmt`` names a format."""
    found = sniff.identify(path)
    if found == "fasttext":
        return "fasttext"
    if found is None and fmt is None:  # a format named by the caller: its reader says what is wrong
        raise WordvecError(f"{path} is not a vector file: it looks like {sniff.describe(path)}")
    return kind


def _read(path, kind, fmt, limit, dtype):
    if kind == "binary":
        return reading.read_word2vec_binary(path, limit=limit, dtype=dtype, table=True)
    if kind == "glove":
        return reading.read_glove(path, limit=limit, dtype=dtype, table=True)
    header = True if fmt is not None else None  # by extension: accept headerless GloVe .txt too
    return reading.read_word2vec_text(path, header=header, limit=limit, dtype=dtype, table=True)


def _load_native(path, mmap_mode, dtype):
    if compact.is_compact_save(path):
        return compact.CompactKeyedVectors.load(path, mmap_mode=mmap_mode)
    if SubwordKeyedVectors.is_saved_at(path):  # vectors for unseen words from n-grams
        kv = SubwordKeyedVectors.load(path, mmap_mode=mmap_mode)
    else:
        kv = KeyedVectors.load(path, mmap_mode=mmap_mode)
        if (Path(path) / CACHE_NORMS).is_file():  # a cache of a word2vec file, opened by its own path
            kv = _with_norms(kv, Path(path))
    if dtype is not None and kv.vectors.dtype != reading.target_dtype(path, dtype):
        kv.vectors = kv.vectors.astype(reading.target_dtype(path, dtype))
    return kv


def _first(kv, limit):
    """The first ``limit`` words of ``kv`` (a view: a mapped matrix stays mapped)."""
    if limit is None or limit >= len(kv) or not type(kv) is KeyedVectors:
        return kv
    limit = max(0, int(limit))
    counts = None if kv.counts is None else kv.counts[:limit]
    words = kv.word_table.first(limit) if kv.word_table is not None else kv.index_to_key[:limit]
    return KeyedVectors(words, kv.vectors[:limit], counts)


def _source_stamp(path):
    stat = os.stat(path)
    return {"source": os.path.basename(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _mapped(path, kind, fmt, mmap_mode):
    """The word2vec file mapped through its native cache, (re)built if needed (see module doc)."""
    cache = Path(str(path) + CACHE_SUFFIX)
    stamp = _source_stamp(path)
    try:
        if json.loads((cache / CACHE_SOURCE).read_text(encoding="utf-8")) == stamp and (cache / CACHE_NORMS).is_file():
            return _with_norms(KeyedVectors.load(cache, mmap_mode=mmap_mode), cache)
    except (OSError, ValueError):
        pass
    words, vectors, counts = _read(path, kind, fmt, None, None)
    try:
        norms = search.norms_of(search.array_rows(vectors), len(words), vectors.shape[1])
        formats.write_native(cache, None, vectors, counts, extra_json={CACHE_SOURCE: stamp},
                             extra_arrays={CACHE_NORMS: norms, WORD_SLOTS: words.slots},
                             word_arrays=(words.blob, words.offsets))
    except (OSError, WordvecError, FormatError) as error:
        logger.warning("%s: could not write the memory-mappable cache %s (%s); reading into memory", path, cache, error)
        return KeyedVectors(words, vectors, counts)
    logger.info("%s: wrote the memory-mappable cache %s", path, cache)
    del vectors  # the parsed copy goes; the mapped one stays
    return _with_norms(KeyedVectors.load(cache, mmap_mode=mmap_mode), cache)


def _with_norms(kv, cache):
    """Hand the cache's inverse row norms to the blocked search, so the first query after
    opening reads the matrix once (the dot products), not twice (norms, then products)."""
    kv._inverse_norms = read_array(cache / CACHE_NORMS, (len(kv),), mmap_mode="r")
    return kv


def save_vectors(kv, path, fmt=None):
    """Save ``kv`` in the format chosen by ``fmt`` or by the extension (see ``load_vectors``)."""
    kind = formats.detect_format(path, fmt)
    if kind == "native" and (isinstance(kv, compact.CompactKeyedVectors) or kv.vectors.dtype != "float32"):
        compact.save_compact(path, kv)
    elif kind == "native":
        kv.save(path)
    elif kind == "binary":
        formats.write_word2vec_binary(path, kv.index_to_key, kv.vectors)
    elif kind == "glove":
        formats.write_word2vec_text(path, kv.index_to_key, kv.vectors, header=False)
    else:
        formats.write_word2vec_text(path, kv.index_to_key, kv.vectors)
