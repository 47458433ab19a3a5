"""Vectors from and to files in any supported format, chosen by the caller or by the path.

The one place that knows both kinds of vectors (plain ``KeyedVectors`` and subword
``SubwordKeyedVectors``), so neither of their modules imports the other.
"""

from pathlib import Path

from wordvec.errors import WordvecError
from wordvec.io import formats
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors


def load_vectors(path, fmt=None, mmap_mode=None):
    """Load vectors in any supported format, chosen by ``fmt`` or by the path.

    ``.bin`` word2vec binary; ``.txt``/``.vec`` word2vec text (a file without the
    ``V D`` header is read as GloVe); ``.glove`` or ``fmt="glove"`` headerless GloVe text;
    a directory or ``.wv`` path the native format.
    """
    maybe_native = Path(path).suffix.lower() == ".wv" or (fmt is not None
                                                          and formats.detect_format(path, fmt) == "native")
    if not Path(path).exists() and not maybe_native:  # (a native save may survive as a backup)
        raise WordvecError(f"cannot access {path}: no such file or directory")
    kind = formats.detect_format(path, fmt)
    if kind == "native":
        if SubwordKeyedVectors.is_saved_at(path):  # vectors for unseen words from n-grams
            return SubwordKeyedVectors.load(path, mmap_mode=mmap_mode)
        return KeyedVectors.load(path, mmap_mode=mmap_mode)
    if Path(path).is_dir():
        raise WordvecError(f"{path} is a directory; only the native format is a directory")
    if kind == "binary":
        return KeyedVectors(*formats.read_word2vec_binary(path))
    if kind == "glove":
        return KeyedVectors(*formats.read_glove(path))
    header = True if fmt is not None else None  # by extension: accept headerless GloVe .txt too
    return KeyedVectors(*formats.read_word2vec_text(path, header=header))


def save_vectors(kv, path, fmt=None):
    """Save ``kv`` in the format chosen by ``fmt`` or by the extension (see ``load_vectors``)."""
    kind = formats.detect_format(path, fmt)
    if kind == "native":
        kv.save(path)
    elif kind == "binary":
        formats.write_word2vec_binary(path, kv.index_to_key, kv.vectors)
    elif kind == "glove":
        formats.write_word2vec_text(path, kv.index_to_key, kv.vectors, header=False)
    else:
        formats.write_word2vec_text(path, kv.index_to_key, kv.vectors)
