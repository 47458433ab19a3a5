"""Where commands that compute one vector per input line write them (`embed`, `doc2vec
infer`): the same formats for both, chosen by the name of OUT.

    .npy          an n x D float32 array (atomic, no pickle); row i is line i
    .txt, .vec    word2vec text with keys 0..n-1 (line numbers counted from 0)
"""

from pathlib import Path

from wordvec.errors import WordvecError
from wordvec.io import formats
from wordvec.io.atomic import save_npy
from wordvec.io.outputs import FILE, check_output

SUFFIXES = (".npy", ".txt", ".vec")
HELP = "vectors.npy (n x D float32) or vectors.txt/.vec (word2vec text, keys 0..n-1)"


def check_rows_output(path, inputs):
    """Refuse an OUT whose format its name does not tell, or that cannot be written, before any work."""
    if Path(path).suffix.lower() not in SUFFIXES:
        raise WordvecError(f"cannot tell the format of {path}: name it .npy, .txt or .vec")
    check_output(path, inputs=inputs, kind=FILE)


def write_rows(path, vectors):
    """``vectors`` (row i: line i) to ``path`` in the format its name tells."""
    if Path(path).suffix.lower() == ".npy":
        save_npy(path, vectors)
    elif Path(path).suffix.lower() in (".txt", ".vec"):
        formats.write_word2vec_text(path, [str(i) for i in range(len(vectors))], vectors)
    else:
        raise WordvecError(f"cannot tell the format of {path}: name it .npy, .txt or .vec")
