"""The encoded corpus: every in-vocabulary token as an int32 id, plus document offsets.

Models train on this, never on text: the text is tokenised once, written to a cache
file, and memory-mapped, so epochs 2..n (and later runs on the same corpus and
vocabulary) cost no tokenisation.  Out-of-vocabulary tokens are dropped, as in
word2vec.  Document ``d`` is ``ids[offsets[d]:offsets[d + 1]]``; documents left with no
known word are omitted.

Cache files live in ``cache_dir`` (default ``$WORDVEC_CACHE`` or ``~/.cache/wordvec``),
named by a fingerprint of the corpus files (paths, sizes, modification times), the
reading options and the vocabulary's word list, so a changed file or vocabulary never
reuses a stale encoding.  Files are written atomically and the small JSON manifest
last, so an interrupted encoding is simply redone.  A cached encoding is validated when
it is loaded (ids in range, offsets monotone, sizes, a CRC-32 of the ids): a damaged one
is encoded again with a warning, never trained on; a cache directory that cannot be
written means an in-memory encoding for that run.  The cache keeps the
``CACHE_ENTRIES`` most recently used encodings (4 bytes per token each: 232 MB for a
58M-token corpus) and deletes older ones whenever it writes a new one; re-encoding a
dropped one costs a second per ~10M tokens.
"""

import contextlib
import functools
import hashlib
import json
import logging
import mmap
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordvec.io.arrays import INTEGER, check_ids, check_offsets, one_line, read_array
from wordvec.io.atomic import atomic_write, save_json, save_npy
from wordvec.io.formats import read_json_object
from wordvec.errors import FormatError
from wordvec.kernels import tokens as kernels
from wordvec.data.parallel import in_order, reading_threads
from wordvec.data.token_table import TokenTable

log = logging.getLogger(__name__)
FORMAT_VERSION = 2  # 2: the manifest records a CRC-32 of the ids
CACHE_TAG = "wordvec-encoded-corpus"
CACHE_ENTRIES = 4
ENTRY_SUFFIXES = (".json", ".ids", ".offsets.npy")  # the manifest first: without it an entry is invalid


@dataclass
class EncodedCorpus:
    ids: np.ndarray  # int32[N], usually read-only and memory-mapped
    offsets: np.ndarray  # int64[n_docs + 1]
    mapping: mmap.mmap = None  # the memory map behind ``ids``, if any

    def release_pages(self):
        """Drop the mapped ids from this process's resident memory.

        They stay in the OS page cache and are faulted back in on the next access, so
        this costs almost nothing, but it keeps the resident set bounded by the model's
        parameters rather than growing with the corpus (232 MB of ids for 58M tokens).
        """
        if self.mapping is not None and hasattr(mmap, "MADV_DONTNEED"):
            self.mapping.madvise(mmap.MADV_DONTNEED)

    @property
    def num_tokens(self):
        return int(self.ids.shape[0])

    @property
    def num_documents(self):
        return int(self.offsets.shape[0] - 1)

    def document(self, d):
        return self.ids[self.offsets[d]:self.offsets[d + 1]]


def default_cache_dir():
    return Path(os.environ.get("WORDVEC_CACHE") or Path.home() / ".cache" / "wordvec")


def fingerprint(corpus, vocab):
    """A hex digest naming this corpus's encoding under this vocabulary."""
    digest = hashlib.sha256()
    digest.update(json.dumps({"version": FORMAT_VERSION, "corpus": corpus.fingerprint_parts()},
                             sort_keys=True).encode())
    for word in vocab.words:
        digest.update(word.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def encode_corpus(corpus, vocab, cache_dir=None, use_cache=True, threads=None):
    """Encode ``corpus`` with ``vocab``; cached and memory-mapped for corpora read from files.

    ``threads``: those that look up a text file's blocks
    (``wordvec.data.parallel.reading_threads``), the same encoding for any number.

    A cached encoding is validated before use (see ``_load_cached``); a damaged one is
    encoded again with a warning.  If the cache cannot be written (a read-only or full
    directory), the encoding is kept in memory for this run, with a warning.
    """
    if not corpus.is_text:
        return _encode_documents(corpus, vocab)
    if not use_cache:
        return _encode_text(corpus, vocab, None, reading_threads(threads))
    directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    stem = directory / "encoded" / fingerprint(corpus, vocab)
    try:
        cached = _load_cached(stem, len(vocab))
    except DamagedCache as damage:
        log.warning("the cached encoding %s is damaged (%s); encoding the corpus again", stem, damage)
        _remove_entry(stem)
        cached = None
    if cached is not None:
        log.info("using the cached encoding %s (%d tokens)", stem, cached.num_tokens)
        with contextlib.suppress(OSError):  # a read-only cache is still usable
            os.utime(stem.with_suffix(".json"))  # most recently used
        return cached
    try:
        _encode_text(corpus, vocab, stem, reading_threads(threads))
    except OSError as error:
        log.warning("cannot write the corpus cache in %s (%s); keeping the encoding in memory for this run",
                    stem.parent, error.strerror or error)
        return _encode_text(corpus, vocab, None, reading_threads(threads))
    prune_cache(stem.parent)
    return _load_cached(stem, len(vocab))


class DamagedCache(Exception):
    """A cache entry exists but fails validation (the message says how)."""


def prune_cache(directory, keep=None):
    """Delete all but the ``keep`` (default ``CACHE_ENTRIES``) most recently used
    encodings in ``directory``.

    A process still reading a deleted entry keeps its memory map (the files are
    unlinked, not truncated).
    """
    def last_used(manifest):
        try:
            return manifest.stat().st_mtime
        except OSError:  # deleted meanwhile by another process
            return 0.0

    keep = CACHE_ENTRIES if keep is None else keep
    manifests = sorted(Path(directory).glob("*.json"), key=last_used, reverse=True)
    for manifest in manifests[keep:]:
        stem = manifest.with_suffix("")
        _remove_entry(stem)
        log.info("removed the least recently used cached encoding %s", stem)


def _remove_entry(stem):
    for suffix in ENTRY_SUFFIXES:
        with contextlib.suppress(OSError):
            stem.with_suffix(suffix).unlink(missing_ok=True)


def _load_cached(stem, vocabulary_size):
    """The cached encoding at ``stem``, or None if there is none; raises ``DamagedCache``
    if it exists but is not exactly what ``_encode_text`` wrote.

    The training kernels index with these ids without bounds checks, so everything is
    checked here, vectorised: the manifest, the ids file size, the offsets (from 0 to
    the number of tokens, never decreasing), every id < the vocabulary size, and a
    CRC-32 of the ids against the one recorded when they were written.
    """
    manifest = stem.with_suffix(".json")
    try:
        meta = read_json_object(manifest)  # its FormatError is a ValueError
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise DamagedCache(f"unreadable manifest: {one_line(error)}") from None
    ids_file = stem.with_suffix(".ids")
    try:
        if not isinstance(meta, dict) or meta.get("format") != CACHE_TAG or meta.get("version") != FORMAT_VERSION:
            raise DamagedCache("not a manifest of this wordvec version")
        num_tokens, checksum = meta.get("num_tokens"), meta.get("ids_crc32")
        if type(num_tokens) is not int or num_tokens < 0 or type(checksum) is not int:
            raise DamagedCache("the manifest lacks its token count or checksum")
        if meta.get("vocabulary_size") != vocabulary_size:
            raise DamagedCache("it was made for another vocabulary")
        if ids_file.stat().st_size != 4 * num_tokens:
            raise DamagedCache(f"{ids_file.name} holds {ids_file.stat().st_size} bytes, not {4 * num_tokens}")
        offsets = read_array(stem.with_suffix(".offsets.npy"), (None,), kinds=INTEGER).astype(np.int64, copy=False)
        check_offsets(stem.with_suffix(".offsets.npy"), offsets, num_tokens)
        if num_tokens == 0:  # an empty file cannot be mapped
            return EncodedCorpus(np.zeros(0, dtype=np.int32), offsets)
        ids = np.memmap(ids_file, dtype=np.int32, mode="r", shape=(num_tokens,))
        _check_mapped_ids(ids_file, ids, vocabulary_size, checksum)
    except FormatError as error:
        raise DamagedCache(error.problem) from None
    except (OSError, ValueError) as error:
        raise DamagedCache(one_line(error)) from None
    # a plain ndarray view of the map: Numba does not accept the np.memmap subclass
    return EncodedCorpus(ids.view(np.ndarray), offsets, ids._mmap)


VALIDATION_BLOCK = 1 << 22  # ids per block: 16 MB, a whole number of pages


def _check_mapped_ids(ids_file, ids, vocabulary_size, checksum):
    """CRC-32 and id range of the mapped ids, a block at a time, each block's pages
    dropped from the resident set once read: a whole-file scan would keep all the ids
    resident (40 MB for 10M tokens) and set the run's peak memory before training."""
    crc = 0
    for start in range(0, ids.size, VALIDATION_BLOCK):
        block = ids[start:start + VALIDATION_BLOCK]
        crc = zlib.crc32(block, crc)
        check_ids(ids_file, block, vocabulary_size)
        if hasattr(mmap, "MADV_DONTNEED"):
            ids._mmap.madvise(mmap.MADV_DONTNEED, 4 * start, block.nbytes)
    if crc != checksum:
        raise DamagedCache(f"{ids_file.name} does not match its checksum")


def _encode_text(corpus, vocab, stem, threads):
    """Stream the text through the compiled encoder; write to ``stem`` or keep in memory."""
    table = TokenTable.from_words(vocab.words)
    if stem is None:
        pieces = []
        offsets = _encode_blocks(corpus, table, lambda ids: pieces.append(ids.copy()), threads)
        ids = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int32)
        return EncodedCorpus(ids, offsets)
    checksum = 0

    def write(ids):
        nonlocal checksum
        checksum = zlib.crc32(ids, checksum)
        handle.write(ids.tobytes())

    with atomic_write(stem.with_suffix(".ids"), "wb") as handle:
        offsets = _encode_blocks(corpus, table, write, threads)
    save_npy(stem.with_suffix(".offsets.npy"), offsets)
    num_tokens = int(offsets[-1])
    save_json(stem.with_suffix(".json"), {"format": CACHE_TAG, "version": FORMAT_VERSION,
                                          "num_tokens": num_tokens, "num_documents": len(offsets) - 1,
                                          "corpus": corpus.fingerprint_parts(), "vocabulary_size": len(vocab),
                                          "ids_crc32": checksum})
    log.info("encoded %d tokens in %d documents into %s", num_tokens, len(offsets) - 1, stem)
    return None


def _encode_blocks(corpus, table, emit, threads=1):
    """Encode every block, passing each block's ids to ``emit``; return the document offsets.

    Each block's tokens are looked up on one of ``threads`` threads (the expensive part,
    which depends on no other block); its documents are then cut in the blocks' order."""
    state = np.zeros(4, dtype=np.int64)
    doc_ends = [np.zeros(1, dtype=np.int64)]
    written = 0
    for raw, n_raw in in_order(functools.partial(_raw_stream, table), corpus.blocks(), threads):
        out_ids = np.empty(n_raw, dtype=np.int32)
        out_ends = np.empty(n_raw + 1, dtype=np.int64)
        state[kernels.N_IDS] = state[kernels.N_DOCS] = 0
        n_ids = kernels.finish_block(raw, n_raw, corpus.max_document_length, out_ids, out_ends, state)
        doc_ends.append(written + out_ends[:state[kernels.N_DOCS]])
        emit(out_ids[:n_ids])
        written += n_ids
    if state[kernels.DOC_HAS_IDS]:
        doc_ends.append(np.array([written], dtype=np.int64))
    return np.concatenate(doc_ends)


def _raw_stream(table, block):
    """(raw, its length): the block's tokens as ``table``'s word indices
    (``wordvec.kernels.tokens.lookup_block``)."""
    buf = np.frombuffer(block, dtype=np.uint8)
    raw = np.empty(max(1, buf.size), dtype=np.int32)
    return raw, kernels.lookup_block(buf, table.slots, table.hashes, table.word_start, table.word_len,
                                     table.arena, raw)


class _TinyText:
    """Just enough of a text ``Corpus`` for :func:`warm_up`."""
    max_document_length = 10

    def blocks(self):
        yield b"a b\n"


def warm_up():
    """Load the counting and encoding kernels (from Numba's cache, or compile them) on a
    tiny text, so that a caller can do it while memory is still empty
    (``wordvec.kernels.loader``)."""
    table = TokenTable.from_words(["a"])
    table.count(b"a b\n")
    block = TokenTable(capacity=16)  # what TokenTable.of_block counts, without its big table
    block.count(b"a b\n")
    table.merge(block)
    _encode_blocks(_TinyText(), table, lambda ids: None)


def _encode_documents(corpus, vocab):
    pieces, lengths = [], []
    for document in corpus:
        ids = vocab.lookup(document)
        ids = ids[ids >= 0]
        if ids.size:
            pieces.append(ids)
            lengths.append(ids.size)
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    ids = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int32)
    return EncodedCorpus(ids, offsets)
