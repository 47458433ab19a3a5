"""Static models asked about files and queries: what `wordvec embed` and `wordvec similar`
do with a static model directory."""

import numpy as np

from wordvec.errors import WordvecError
from wordvec.models.static.model import StaticModel
from wordvec.vectors.embed import read_sentences


def sentences_of(path):
    """The lines of a text file (plain or compressed), row i for line i, empty lines kept."""
    return [" ".join(tokens) for tokens in read_sentences(path)]


def embed_file(model_path, path):
    """The static model's sentence vectors of the lines of ``path`` (n x D float32)."""
    return StaticModel.load(model_path).encode(sentences_of(path))


def nearest(model_path, query, topn, sentences=None):
    """(text, cosine) of the ``topn`` lines of the file ``sentences`` nearest to the sentence
    ``query``, or of the model's tokens (their weighted rows) without a file."""
    model = StaticModel.load(model_path)
    vector = model.encode([query], normalize=True)[0]
    if not vector.any():
        raise WordvecError(f"the query has no token known to {model_path}")
    if sentences:
        names = sentences_of(sentences)
        candidates = model.encode(names, normalize=True)
    else:
        names = model.tokens
        rows = model.vectors * model.weights[:, None]
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        candidates = np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
    scores = candidates @ vector
    best = np.argsort(-scores, kind="stable")[:topn]
    return [(names[i], float(scores[i])) for i in best]
