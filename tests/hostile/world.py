"""The small, valid inputs that hostile cases start from (built once per test session),
and the ways each one is damaged.

Everything is tiny (a 30-word corpus, 8-dimensional vectors, a 4-unit language model) so
that a case costs interpreter start-up, not computation.
"""

import bz2
import gzip
import io
import json
import lzma
import os
import random
import shutil
import tarfile
from pathlib import Path

import numpy as np

WORDS = ["the", "king", "queen", "man", "woman", "paris", "france", "rome", "italy", "cat", "dog", "sat",
         "on", "mat", "a", "of", "and", "to", "in", "is", "it", "was", "for", "he", "she", "they", "we",
         "you", "that", "this"]


def corpus_text(lines=200, seed=0):
    rng = random.Random(seed)
    return "".join(" ".join(rng.choice(WORDS) for _ in range(12)) + "\n" for _ in range(lines))


def keyed_vectors(words=WORDS, dims=8, seed=0):
    from wordvec.vectors.keyed import KeyedVectors

    rng = np.random.default_rng(seed)
    return KeyedVectors(list(words), rng.standard_normal((len(words), dims)).astype(np.float32),
                        counts=np.arange(len(words), 0, -1))


def conll_text():
    rows = ["-DOCSTART- O", ""]
    for i in range(12):
        rows += [f"{WORDS[i % 10]} NN B-PER", "sat VB O", ". . O", ""]
    return "\n".join(rows) + "\n"


def build(root):
    """Write every base input under ``root``; returns ``root``."""
    from wordvec.io.formats import write_word2vec_binary, write_word2vec_text
    from wordvec.data.lm_data import LMVocab
    from wordvec.models.lm.rnn import RNNLM

    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    text = corpus_text()
    (root / "corpus.txt").write_text(text, encoding="utf-8")
    (root / "corpus.txt.gz").write_bytes(gzip.compress(text.encode()))
    (root / "corpus.txt.xz").write_bytes(lzma.compress(text.encode()))
    (root / "corpus.txt.bz2").write_bytes(bz2.compress(text.encode()))
    (root / "corpus_dir").mkdir()
    (root / "corpus_dir" / "part.txt").write_text(text, encoding="utf-8")
    (root / "empty.txt").write_bytes(b"")
    (root / "names.txt").write_text("rex\nraptor\nceratops\ntrex\nbronto\n" * 4, encoding="utf-8")

    kv = keyed_vectors()
    write_word2vec_binary(root / "vec.bin", kv.index_to_key, kv.vectors)
    write_word2vec_text(root / "vec.txt", kv.index_to_key, kv.vectors)
    write_word2vec_text(root / "vec.glove", kv.index_to_key, kv.vectors, header=False)
    kv.save(root / "vec.wv")
    keyed_vectors(["a", "b", "c"]).save(root / "abc.wv")

    lines = ["rex", "raptor", "ceratops"]
    model = RNNLM(LMVocab.build(lines, "char"), cell="lstm", hidden_size=4, embedding_size=3, seed=1)
    model.save(root / "lm")

    conll = root / "conll"
    conll.mkdir()
    for name in ("train.txt.xz", "valid.txt.xz", "test.txt.xz"):
        (conll / name).write_bytes(lzma.compress(conll_text().encode()))

    brown = root / "brown"
    brown.mkdir()
    with tarfile.open(brown / "brown_tagged_original.tar.xz", "w:xz") as tar:
        for member in ("brown/ca01", "brown/ca05", "brown/ca10"):
            data = "\n\tThe/at king/nn sat/vbd ./.\n\n\tA/at queen/nn-tl ran/vbd ./.\n".encode()
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))

    sst = root / "sst" / "trees"
    sst.mkdir(parents=True)
    trees = "(3 (2 It) (4 works))\n(1 (1 Bad) (2 film))\n"
    (sst / "train.txt.xz").write_bytes(lzma.compress(trees.encode()))
    (sst / "dev.txt").write_text(trees, encoding="utf-8")
    (sst / "test.txt").write_text(trees, encoding="utf-8")
    return root


def copy_into(base, names, target):
    """Copy the named base inputs (files or directories) into ``target``."""
    for name in names:
        source, destination = Path(base) / name, Path(target) / name
        if source.is_dir():
            shutil.copytree(source, destination, symlinks=True)
        else:
            shutil.copy2(source, destination)


# -- damage ---------------------------------------------------------------------------

def truncate(path, keep=0.5):
    data = Path(path).read_bytes()
    Path(path).write_bytes(data[: int(len(data) * keep)])


def flip_bytes(path, offset, count=2):
    data = bytearray(Path(path).read_bytes())
    for i in range(offset, min(offset + count, len(data))):
        data[i] ^= 0xFF
    Path(path).write_bytes(bytes(data))


def save_array(path, array):
    """Replace an .npy with ``array`` (allow_pickle only where the case is a pickled array)."""
    np.save(path, array, allow_pickle=np.asarray(array).dtype.hasobject)


def edit_json(path, change):
    meta = json.loads(Path(path).read_text(encoding="utf-8"))
    change(meta)
    Path(path).write_text(json.dumps(meta), encoding="utf-8")


def no_whitespace_file(path, size):
    """``size`` bytes of one enormous token (the text8 layout without a single space)."""
    chunk = b"abcdefghij" * 100_000
    with open(path, "wb") as handle:
        for _ in range(size // len(chunk)):
            handle.write(chunk)


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
