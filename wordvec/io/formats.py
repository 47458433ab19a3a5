"""Vector file formats: word2vec text and binary, GloVe text, and wordvec's native directory.

The readers here are the simple reference implementations (a Python loop per line);
``wordvec.vectors.reading`` holds the fast ones that ``load_vectors`` uses (compiled,
streaming, ``limit``/``float16``/compressed files), held to these by tests.

Readers return ``(words, vectors, counts)`` (``counts`` is None unless the format stores
them) and reject malformed input with ``FormatError(path, line, problem)``; writers take
the same triple.  ``KeyedVectors`` in ``wordvec.vectors.keyed`` wraps both directions.

Layouts
-------
word2vec text    ``"V D\\n"``, then V lines ``"word x1 ... xD\\n"`` (numbers in ``%.9g``,
                 which round-trips float32 exactly).
word2vec binary  ``"V D\\n"``, then per word ``"word "`` + D little-endian float32 + ``"\\n"``
                 (the C tool's ``-binary 1`` output, read by its ``distance`` program).
GloVe text       word2vec text without the header; D is taken from the first line.
native           a directory (conventionally named ``*.wv``) holding ``vectors.npy``
                 (V x D float32, loadable with ``mmap_mode="r"``) and ``vocab.json``
                 (words, counts, vector size).  Never pickled.  Version 2 (big
                 vocabularies: the memory-mapped cache of a word2vec file, a save of
                 vectors loaded from one) keeps the words out of the JSON, as arrays that
                 open without parsing: ``word_bytes.npy`` (uint8, every word's UTF-8 bytes
                 in order), ``word_offsets.npy`` (int64[V + 1]), optionally
                 ``word_counts.npy`` (int64[V]) and ``word_slots.npy`` (the hash table of
                 ``wordvec.vectors.wordtable``); ``vocab.json`` then says
                 ``"version": 2, "words": null, "word_count": V``.  Both versions load.

Atomic native saves: the whole directory is written into a temporary sibling and then
renamed into place, so a reader (or a kill -9 mid-save) sees the complete old save or the
complete new one.  Replacing an existing save takes two renames (old aside, new in); a
crash between them leaves the old save at ``.NAME.old-*``, which ``read_native`` falls
back to (``wordvec.io.atomic.atomic_directory`` does this for every directory save).  We chose a directory swap over per-file renames because with per-file renames a
crash between ``vectors.npy`` and ``vocab.json`` pairs new vectors with old words.

Rules shared with gensim's ``load_word2vec_format``: a word is everything before the first
space; a leading newline before a binary record is skipped; duplicate words keep the
first vector (with a warning); undecodable bytes in words become U+FFFD (counted and
reported once).  Stricter than gensim: NaN/infinite values, empty words, lines with the
wrong number of values and data after the announced V vectors are errors.
"""

import bz2
import gzip
import json
import logging
import lzma
import os
import zlib
from pathlib import Path

import numpy as np

from wordvec.io.arrays import FLOAT, read_array
from wordvec.io.atomic import atomic_directory, atomic_write, save_json, save_npy, saved_directory
from wordvec.errors import FormatError, TruncatedError, WordvecError
from wordvec.io.text import is_token

logger = logging.getLogger(__name__)

FORMATS = ("binary", "text", "glove", "native")
_ALIASES = {
    "binary": "binary", "bin": "binary", "word2vec-binary": "binary",
    "text": "text", "txt": "text", "vec": "text", "word2vec": "text", "word2vec-text": "text",
    "glove": "glove",
    "native": "native", "wv": "native",
}
_EXTENSIONS = {".bin": "binary", ".txt": "text", ".vec": "text", ".glove": "glove", ".wv": "native"}
COMPRESSED = {b"\x1f\x8b": gzip.open, b"BZh": bz2.open, b"\xfd7zXZ\x00": lzma.open}  # magic bytes
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")
DECOMPRESSION_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)
NATIVE_VECTORS, NATIVE_META = "vectors.npy", "vocab.json"
NATIVE_TAG = "wordvec-keyedvectors"
WORD_BYTES, WORD_OFFSETS, WORD_COUNTS = "word_bytes.npy", "word_offsets.npy", "word_counts.npy"
TEXT_ROWS_PER_BLOCK = 1024


def detect_format(path, fmt=None):
    """Return one of FORMATS for ``path``: ``fmt`` if given, else by directory/extension."""
    if fmt is not None:
        if str(fmt).lower() not in _ALIASES:
            raise WordvecError(f"unknown vector format {fmt!r}; choose one of {', '.join(FORMATS)}")
        return _ALIASES[str(fmt).lower()]
    path = Path(path)
    if path.is_dir():
        return "native"
    suffix = path.suffix.lower()
    if suffix in COMPRESSED_SUFFIXES:  # vectors.bin.gz: the format is the name inside
        suffix = Path(path.stem).suffix.lower()
    if suffix in _EXTENSIONS and _EXTENSIONS[suffix] != "native":
        return _EXTENSIONS[suffix]
    if path.suffix.lower() in _EXTENSIONS:
        return _EXTENSIONS[path.suffix.lower()]
    if path.is_file():
        return sniff_format(path)
    raise WordvecError(
        f"cannot tell the format of {path} from its name; use a .bin, .txt, .vec, .glove or .wv name "
        "(or a directory), or name the format explicitly"
    )


def sniff_format(path):
    """Guess the format of a file with an unfamiliar name from its first bytes."""
    with open_bytes(path) as handle:
        first_line = handle.readline(1 << 16)
        sample = handle.read(4096)
    parts = first_line.split()
    if not (len(parts) == 2 and all(p.isdigit() for p in parts)):
        return "glove"
    text = sample.decode("utf-8", errors="replace")[:-4]  # the sample may end mid-character
    return "binary" if any(ch == "\ufffd" or (ch < " " and ch not in "\t\r\n") for ch in text) else "text"


# ----------------------------------------------------------------------------- reading

class _WordDecoder:
    """Decode words as UTF-8, replacing bad bytes; remember how many needed it."""

    def __init__(self, path):
        self.path, self.replaced = path, 0

    def __call__(self, raw):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            self.replaced += 1
            return raw.decode("utf-8", errors="replace")

    def report(self):
        if self.replaced:
            logger.warning("%s: %d words were not valid UTF-8; bad bytes were replaced by U+FFFD",
                           self.path, self.replaced)


def _parse_header(path, line):
    parts = line.split()
    try:
        if len(parts) != 2:
            raise ValueError
        n_words, dims = int(parts[0]), int(parts[1])
    except ValueError:
        shown = line[:60].decode("utf-8", errors="replace").strip()
        raise FormatError(path, 1, f"bad header {shown!r}: expected two integers 'V D' "
                                   "(number of words, vector size)") from None
    if n_words < 0 or dims < 1:
        raise FormatError(path, 1, f"bad header: {n_words} words of size {dims} is impossible")
    return n_words, dims


def _keep_first(path, words, vectors):
    """Drop repeated words after the first, as gensim does; returns (words, vectors)."""
    seen, keep = set(), []
    for i, word in enumerate(words):
        if word not in seen:
            seen.add(word)
            keep.append(i)
    if len(keep) == len(words):
        return words, vectors
    logger.warning("%s: %d duplicate words; kept the first vector of each", path, len(words) - len(keep))
    return [words[i] for i in keep], vectors[np.asarray(keep, dtype=np.int64)]


def _check_finite(path, words, vectors, first_line):
    bad = np.flatnonzero(~np.isfinite(vectors).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise FormatError(path, first_line + i, f"the vector of {words[i]!r} contains NaN or infinity")


def open_bytes(path):
    """A binary reading handle on ``path``, decompressing gzip, bzip2 and xz files (known by magic bytes)."""
    try:
        with open(path, "rb") as handle:
            magic = handle.read(6)
    except OSError as error:
        raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
    for prefix, opener in COMPRESSED.items():
        if magic.startswith(prefix):
            return opener(path, "rb")
    return open(path, "rb")


def parse_header(path, line):
    """``(V, D)`` from a word2vec header line, or a FormatError naming line 1."""
    return _parse_header(path, line)


def check_finite_rows(path, words, vectors, first_line):
    """FormatError naming the first row holding NaN or infinity (row i is line first_line + i)."""
    _check_finite(path, words, vectors, first_line)


def has_word2vec_header(path):
    """True if the first line of ``path`` is two integers (word2vec text), False for GloVe."""
    with open_bytes(path) as handle:
        parts = handle.readline(1 << 16).split()
    return len(parts) == 2 and all(p.isdigit() for p in parts)


def read_word2vec_text(path, header=True):
    """Read word2vec text (``header=True``), GloVe text (False) or either (None: sniff)."""
    if header is None:
        header = has_word2vec_header(path)
    decode = _WordDecoder(path)
    words, rows = [], []
    n_words, dims = None, None
    blank_line = None  # a blank line is fine only at the very end
    with open(path, "rb") as handle, np.errstate(over="ignore"):  # overflow -> inf -> error below
        size = os.fstat(handle.fileno()).st_size
        line_no = 0
        if header:
            line_no = 1
            n_words, dims = _parse_header(path, handle.readline())
            if n_words * (2 * dims + 2) > size:  # each line is at least "w x x ... x\n"
                raise TruncatedError(path, 1, f"header promises {n_words} vectors of size {dims}, "
                                           f"more than a {size}-byte file can hold")
        for raw in handle:
            line_no += 1
            line = raw.rstrip(b"\r\n").rstrip(b" ")
            if not line.strip():
                blank_line = blank_line or line_no
                continue
            if blank_line:
                raise FormatError(path, blank_line, "empty line")
            if n_words is not None and len(words) == n_words:
                raise FormatError(path, line_no, f"more vectors than the {n_words} the header announces")
            raw_word, _, rest = line.partition(b" ")
            if not raw_word:
                raise FormatError(path, line_no, "line starts with a space (empty word)")
            values = rest.split()
            if dims is None:
                dims = len(values)
                if dims == 0:
                    raise FormatError(path, line_no, "a word with no numbers after it")
            if len(values) != dims:
                raise FormatError(path, line_no, f"expected {dims} numbers after the word, found {len(values)}")
            try:
                rows.append(np.array(values, dtype=np.float32))
            except ValueError:
                bad = next(v for v in values if not _is_number(v))
                raise FormatError(path, line_no, f"{bad[:30].decode('utf-8', 'replace')!r} is not a number") from None
            words.append(decode(raw_word))
    if n_words is not None and len(words) < n_words:
        raise TruncatedError(path, line_no, f"file ends after {len(words)} of the {n_words} vectors the header announces")
    if not words and not header:
        raise FormatError(path, None, "no vectors in the file")
    decode.report()
    vectors = np.vstack(rows) if rows else np.zeros((0, dims), dtype=np.float32)
    _check_finite(path, words, vectors, 2 if header else 1)
    words, vectors = _keep_first(path, words, vectors)
    return words, vectors, None


def is_number(token):
    """True if Python's float() reads ``token`` (the reference for the compiled parser)."""
    return _is_number(token)


def _is_number(token):
    try:
        float(token)
        return True
    except ValueError:
        return False


def read_glove(path):
    """Read headerless GloVe text (one ``word x1 ... xD`` line per word)."""
    return read_word2vec_text(path, header=False)


def read_word2vec_binary(path):
    """Read the C tool's binary format, one whole float32 row per ``np.frombuffer``."""
    decode = _WordDecoder(path)
    with open(path, "rb") as handle:
        header = handle.readline()
        n_words, dims = _parse_header(path, header)
        data = handle.read()
    row_bytes = 4 * dims
    if n_words * (row_bytes + 2) > len(data):  # "w" + " " + floats per record, at least
        raise TruncatedError(path, 1, f"header promises {n_words} vectors of size {dims} "
                                   f"({n_words * (row_bytes + 2)}+ bytes) but only {len(data)} bytes follow")
    words, vectors = [], np.empty((n_words, dims), dtype=np.float32)
    pos, end = 0, len(data)
    for i in range(n_words):
        while pos < end and data[pos] == 0x0A:  # the "\n" that ends the previous record
            pos += 1
        space = data.find(b" ", pos)
        record = i + 2  # counted like lines: header is line 1
        if space < 0 or space + 1 + row_bytes > end:
            raise FormatError(path, record, f"vector {i + 1} of {n_words} is truncated (file ends at byte "
                                            f"{len(header) + end})")
        if space == pos:
            raise FormatError(path, record, f"vector {i + 1} of {n_words} has an empty word")
        words.append(decode(data[pos:space]))
        vectors[i] = np.frombuffer(data, dtype="<f4", count=dims, offset=space + 1)
        pos = space + 1 + row_bytes
    if data[pos:].strip():
        raise FormatError(path, n_words + 2, f"unexpected data after the {n_words} vectors the header announces")
    decode.report()
    _check_finite(path, words, vectors, 2)
    words, vectors = _keep_first(path, words, vectors)
    return words, vectors, None


def read_native(path, mmap_mode=None):
    """Read a native directory: ``vocab.json`` then ``vectors.npy`` (optionally memory-mapped)."""
    path = saved_directory(path, NATIVE_META)
    if not path.exists():
        raise WordvecError(f"cannot access {path}: no such file or directory")
    if not path.is_dir():
        raise FormatError(path, None, "a native vectors save must be a directory holding vectors.npy and vocab.json")
    meta_path, npy_path = path / NATIVE_META, path / NATIVE_VECTORS
    if not meta_path.is_file():
        raise FormatError(path, None, f"not a wordvec vectors directory (no {NATIVE_META})")
    meta = _read_meta(meta_path)
    words, counts, dims = meta["words"], meta.get("counts"), meta["vector_size"]
    if words is None:  # version 2: the words are arrays
        words, counts = _decoded_words(path, read_word_arrays(path, meta))
    if not npy_path.is_file():
        raise FormatError(path, None, f"{NATIVE_VECTORS} is missing")
    vectors = read_array(npy_path, (len(words), dims), finite=False, mmap_mode=mmap_mode)
    if vectors.dtype not in (np.float32, np.float16):  # float16: a compact save, kept half-size
        vectors = vectors.astype(np.float32)
    if mmap_mode is None:
        _check_finite(npy_path, words, vectors, 0)
    return words, vectors, counts


def read_native_vocab(path):
    """``(words, counts, vector_size)`` of a native directory's checked ``vocab.json``."""
    meta = _read_meta(Path(path) / NATIVE_META)
    if meta["words"] is None:
        return (*_decoded_words(path, read_word_arrays(path, meta)), meta["vector_size"])
    return meta["words"], meta.get("counts"), meta["vector_size"]


def read_vocab_meta(path):
    """The checked ``vocab.json`` of a native directory, as a dict."""
    return _read_meta(Path(path) / NATIVE_META)


def read_word_arrays(path, meta, mmap_mode=None):
    """A version-2 save's word arrays: ``(bytes, offsets, counts or None)``, checked for
    shape and type here, for consistency by ``wordvec.vectors.wordtable.WordTable.check``."""
    path, n = Path(path), meta["word_count"]
    blob = read_array(path / WORD_BYTES, (None,), kinds="u", mmap_mode=mmap_mode)
    offsets = read_array(path / WORD_OFFSETS, (n + 1,), kinds="i", mmap_mode=mmap_mode)
    if blob.dtype != np.uint8 or offsets.dtype != np.int64:
        raise FormatError(path, None, f"{WORD_BYTES} must hold uint8 and {WORD_OFFSETS} int64")
    if int(offsets[0]) != 0 or int(offsets[-1]) != len(blob):
        raise FormatError(path / WORD_OFFSETS, None, f"word offsets must run from 0 to {len(blob)}")
    counts = None
    if (path / WORD_COUNTS).is_file():
        counts = read_array(path / WORD_COUNTS, (n,), kinds="i", mmap_mode=mmap_mode)
        if n and int(counts.min()) < 0:
            raise FormatError(path / WORD_COUNTS, None, "word counts must not be negative")
    return blob, offsets, counts


def _decoded_words(path, arrays):
    """(list of str, list of int or None) of version-2 word arrays, checked as version 1's JSON is."""
    blob, offsets, counts = arrays
    data, bounds = blob.tobytes(), offsets.tolist()
    if any(b <= a for a, b in zip(bounds[:-1], bounds[1:])):
        raise FormatError(Path(path) / WORD_OFFSETS, None, "word offsets must increase (no empty word)")
    try:
        words = [data[a:b].decode("utf-8") for a, b in zip(bounds[:-1], bounds[1:])]
    except UnicodeDecodeError:
        raise FormatError(Path(path) / WORD_BYTES, None, "the words are not UTF-8") from None
    if len(set(words)) != len(words):
        raise FormatError(Path(path) / WORD_BYTES, None, "the words contain duplicates")
    return words, None if counts is None else counts.tolist()


def read_json_object(path):
    """A JSON file that must hold one object: the dict, or a one-sentence ``FormatError``."""
    try:
        with open(path, "rb") as handle:
            meta = json.loads(handle.read().decode("utf-8"))
    except UnicodeDecodeError:
        raise FormatError(path, None, "not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise FormatError(path, error.lineno, f"invalid JSON ({error.msg})") from None
    except RecursionError:
        raise FormatError(path, None, "JSON nested too deeply") from None
    if not isinstance(meta, dict):
        raise FormatError(path, None, "expected a JSON object")
    return meta


def _read_meta(meta_path):
    try:
        meta = read_json_object(meta_path)
    except FormatError as error:
        if error.problem != "expected a JSON object":
            raise
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != NATIVE_TAG:
        raise FormatError(meta_path, None, f"not a wordvec vocabulary file (missing \"format\": \"{NATIVE_TAG}\")")
    words, counts, dims = meta.get("words"), meta.get("counts"), meta.get("vector_size")
    if meta.get("version") == 2 and words is None:
        if type(meta.get("word_count")) is not int or meta["word_count"] < 0 or counts is not None:
            raise FormatError(meta_path, None, "a version 2 vocabulary needs \"word_count\" (words are arrays)")
        words = []  # checked with the arrays
    if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
        raise FormatError(meta_path, None, "\"words\" must be a list of non-empty strings")
    if len(set(words)) != len(words):
        raise FormatError(meta_path, None, "\"words\" contains duplicates")
    if type(dims) is not int or dims < 1:
        raise FormatError(meta_path, None, "\"vector_size\" must be a positive integer")
    if counts is not None and (not isinstance(counts, list) or len(counts) != len(words)
                               or not all(type(c) is int and c >= 0 for c in counts)):
        raise FormatError(meta_path, None, "\"counts\" must be null or one non-negative integer per word")
    return meta


# ----------------------------------------------------------------------------- writing

def _check_writable_words(words):
    """Words must read back as one token each (``io.text.is_token``: the tokenizer's own
    definition of whitespace, so every word a corpus yields can be written)."""
    for word in words:
        if not is_token(word):
            raise WordvecError(f"cannot write {word!r} in a word2vec/GloVe file: words must be "
                               "non-empty and contain no ASCII whitespace")


def write_word2vec_text(path, words, vectors, header=True):
    """word2vec text (``header=True``) or GloVe text (``header=False``), written atomically."""
    _check_writable_words(words)
    vectors = np.asarray(vectors, dtype=np.float32)
    with atomic_write(path, "w", encoding="utf-8") as handle:
        if header:
            handle.write(f"{vectors.shape[0]} {vectors.shape[1]}\n")
        for start in range(0, len(words), TEXT_ROWS_PER_BLOCK):  # bounded memory: no whole-matrix tolist()
            block = vectors[start:start + TEXT_ROWS_PER_BLOCK].tolist()
            handle.write("".join(word + " " + " ".join(["%.9g" % x for x in row]) + "\n"
                                 for word, row in zip(words[start:start + TEXT_ROWS_PER_BLOCK], block)))


def write_word2vec_binary(path, words, vectors):
    """The C tool's binary layout: ``"V D\\n"`` then ``word`` ``" "`` float32[D] ``"\\n"``."""
    _check_writable_words(words)
    rows = np.ascontiguousarray(vectors, dtype="<f4")
    with atomic_write(path, "wb") as handle:
        handle.write(f"{rows.shape[0]} {rows.shape[1]}\n".encode())
        for word, row in zip(words, rows):
            handle.write(word.encode("utf-8") + b" " + row.tobytes() + b"\n")


def write_native(path, words, vectors, counts=None, extra_arrays=None, extra_json=None, word_arrays=None):
    """Write ``vectors.npy`` + ``vocab.json`` into a temporary directory, then rename it into place.

    ``extra_arrays`` / ``extra_json`` (name -> array / object) add files to the same
    directory: a model (e.g. ``Word2Vec``) saves its vectors this way, so that the model
    directory is also a vectors directory that ``load_vectors`` reads.  ``word_arrays``
    (UTF-8 bytes, offsets) instead of ``words`` writes version 2 (see the module doc).
    """
    path = Path(path)
    vectors = np.asarray(vectors, dtype=np.float32)
    meta = {"format": NATIVE_TAG, "version": 1, "vector_size": int(vectors.shape[1])}
    extra_arrays = dict(extra_arrays or {})
    if word_arrays is None:
        meta.update(words=list(words), counts=None if counts is None else [int(c) for c in counts])
    else:
        meta.update(version=2, words=None, counts=None, word_count=len(word_arrays[1]) - 1)
        extra_arrays.update({WORD_BYTES: word_arrays[0], WORD_OFFSETS: word_arrays[1]})
        if counts is not None:
            extra_arrays[WORD_COUNTS] = np.asarray(counts, dtype=np.int64)
    with atomic_directory(path, check_replaceable=check_replaceable) as tmp:
        save_npy(tmp / NATIVE_VECTORS, vectors)
        for name, array in extra_arrays.items():
            save_npy(tmp / name, array)
        for name, obj in (extra_json or {}).items():
            save_json(tmp / name, obj)
        save_json(tmp / NATIVE_META, meta)  # last: a directory without it is no save


def read_model_array(path, name, shape=None, kinds=FLOAT, finite=True):
    """One ``.npy`` of a model directory (no pickle), validated by ``wordvec.io.arrays.read_array``
    (shape with ``None`` for any length, dtype kinds, finite values) before it is used."""
    return np.ascontiguousarray(read_array(Path(path) / name, shape, kinds=kinds, finite=finite))


def json_safe(value):
    """A copy of ``value`` for a model's JSON description (NumPy scalars to Python numbers)."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def check_replaceable(path):
    """Only ever replace a previous native save (vocab.json plus .npy/.json files), never a user's other files."""
    names = [p.name for p in path.iterdir()] if path.is_dir() else []
    if not (path / NATIVE_META).is_file() or not all(n.endswith((".npy", ".json")) for n in names):
        raise WordvecError(f"refusing to replace {path}: it is not a wordvec save directory "
                           f"({NATIVE_META} and nothing but .npy and .json files)")
