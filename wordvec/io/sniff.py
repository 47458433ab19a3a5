"""What a file holds, told from its first bytes rather than its name.

``identify(path)`` reads at most the first 64 KiB (decompressed, for a gzip, bzip2 or xz
file) and answers one of

    "fasttext"   a fastText model file (.bin/.ftz; its magic number, or before fastText 0.9
                 plausible args in its place)
    "header"     a first line of two whole numbers: word2vec text or binary ("V D")
    "rows"       a first line of a word and numbers: headerless (GloVe) text vectors
    "unknown"    too little to tell (empty, one word on the first line): the name decides
    None         no vector file: ``describe_head`` names what it looks like instead

so that a reader is chosen by what is in the file, and a file that is not vectors is
refused with one sentence naming what it seems to be ("an HTML page", "plain text: a
corpus?"), never its bytes.
"""

import bz2
import gzip
import lzma
import struct
import zlib

from wordvec.io.fasttext_bin import old_layout_head

FASTTEXT_MAGIC = struct.pack("<i", 793712314)
HEAD_BYTES = 1 << 16
COMPRESSIONS = {b"\x1f\x8b": ("gzip", gzip.decompress), b"BZh": ("bzip2", bz2.decompress),
                b"\xfd7zXZ\x00": ("xz", lzma.decompress)}
# magic bytes of files people pass by mistake -> what they are
KNOWN_BINARIES = {b"\x93NUMPY": "a NumPy array (.npy)", b"PK\x03\x04": "a ZIP archive (a .npz of arrays?)",
                  b"%PDF": "a PDF document", b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image",
                  b"\x80\x04": "a Python pickle (a gensim .model?)", b"\x80\x03": "a Python pickle (a gensim .model?)",
                  b"\x80\x02": "a Python pickle (a gensim .model?)", b"\x7fELF": "a program (ELF executable)",
                  b"SQLite format 3": "an SQLite database"}


def read_head(path):
    """The first bytes of ``path`` (decompressed when compressed) and the compression's name or None."""
    with open(path, "rb") as handle:
        raw = handle.read(HEAD_BYTES)
    for magic, (name, _) in COMPRESSIONS.items():
        if raw.startswith(magic):
            return _decompressed_head(path, name), name
    return raw, None


def _decompressed_head(path, name):
    opener = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}[name]
    try:
        with opener(path, "rb") as handle:
            return handle.read(HEAD_BYTES)
    except (OSError, EOFError, lzma.LZMAError, zlib.error):
        return b""  # damaged: described as an empty (or broken) compressed file


def identify(path):
    """"fasttext", "header", "rows", "unknown" or None for the file at ``path`` (see the module doc)."""
    head, _ = read_head(path)
    return identify_head(head)


def identify_head(head):
    if head.startswith(FASTTEXT_MAGIC) or old_layout_head(head):
        return "fasttext"
    first = head.split(b"\n", 1)[0]
    fields = first.split()
    if len(fields) == 2 and all(f.isdigit() for f in fields):
        return "header"
    if len(fields) == 2 and fields[1].isdigit() and _as_text(head) is not None:
        return None  # "word count": a vocabulary
    if len(fields) >= 2 and _mostly_numbers(fields[1:]):
        return "rows"
    if len(fields) < 2 and describe_head(head) in ("an empty file", "an empty text file", "plain text: a corpus?"):
        return "unknown"  # empty, or one word a line: the reader of its name says what is wrong
    return None


def _mostly_numbers(fields):
    """At least half of ``fields`` read as numbers: vector rows (maybe damaged), not words."""
    numbers = 0
    for field in fields:
        try:
            float(field)
            numbers += 1
        except ValueError:
            pass
    return numbers * 2 >= len(fields)


def describe(path):
    """What the file at ``path`` looks like, as a noun phrase ("an HTML page")."""
    head, compression = read_head(path)
    inside = describe_head(head)
    if compression is None:
        return inside
    if not head:
        return f"a damaged or empty {compression}-compressed file"
    return f"a {compression}-compressed file holding {inside}"


def describe_head(head):
    """A noun phrase for bytes that are not a vector file."""
    if not head:
        return "an empty file"
    for magic, name in KNOWN_BINARIES.items():
        if head.startswith(magic):
            return name
    text = _as_text(head)
    if text is None:
        return "binary data of unknown kind"
    start = text.lstrip("\ufeff \t\r\n")[:1024].lower()
    if start.startswith("<!doctype html") or start.startswith("<html") or "<html" in start[:256]:
        return "an HTML page"
    if start.startswith("<?xml") or start.startswith("<"):
        return "an XML or HTML document"
    if start.startswith(("{", "[")):
        return "JSON text"
    if not start.strip():
        return "an empty text file"
    first = start.split("\n", 1)[0].split()
    if first and first[0].startswith("__label__"):
        return "labelled text: a classifier's training or test file?"
    if len(first) == 2 and first[1].isdigit():
        return "a list of words and counts: a vocabulary?"
    return "plain text: a corpus?"


def _as_text(head):
    """``head`` decoded as UTF-8 (its last character may be cut), or None for binary data."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:
            return None
        text = head[:error.start].decode("utf-8")
    controls = sum(1 for ch in text if ch < " " and ch not in "\t\r\n\f")
    return text if controls * 100 <= len(text) else None
