"""Static models asked about files and queries: what `wordvec embed`, `wordvec similar`
and the explorer (`wordvec serve` with a static model) do with a static model directory."""

import numpy as np

from wordvec.errors import WordvecError
from wordvec.memory import check_allocation
from wordvec.models.static.model import StaticModel
from wordvec.models.static.vocabulary import token_rows
from wordvec.vectors.embed import read_sentences


def sentences_of(path):
    """The lines of a text file (plain or compressed), row i for line i, empty lines kept."""
    return [" ".join(tokens) for tokens in read_sentences(path)]


def embed_file(model_path, path):
    """The static model's sentence vectors of the lines of ``path`` (n x D float32)."""
    return StaticModel.load(model_path).encode(sentences_of(path))


def query_vector(model, query, source):
    """The unit sentence vector of ``query``; a query with no token the model knows is an
    error naming ``source`` (the model's path)."""
    vector = model.encode([query], normalize=True)[0]
    if not vector.any():
        raise WordvecError(f"the query has no token known to {source}")
    return vector


def ranked(names, candidates, vector, topn):
    """(name, cosine) of the ``topn`` unit rows of ``candidates`` nearest to the unit ``vector``."""
    scores = candidates @ vector
    best = np.argsort(-scores, kind="stable")[:topn]
    return [(names[i], float(scores[i])) for i in best]


class SentenceIndex:
    """The non-empty lines of a text file and their unit sentence vectors under a static
    model, encoded once: the explorer ranks them for each typed sentence."""

    def __init__(self, model, path):
        lines = sentences_of(path)
        self.line_numbers = [number for number, line in enumerate(lines, 1) if line.strip()]
        self.lines = [lines[number - 1] for number in self.line_numbers]
        if not self.lines:
            raise WordvecError(f"{path} has no sentences (every line is empty)")
        check_allocation(len(self.lines) * model.dim * 4, f"{path}: {len(self.lines):,} sentence vectors")
        self.vectors = model.encode(self.lines, normalize=True)

    def __len__(self):
        return len(self.lines)

    def nearest(self, vector, topn):
        """(line number, line, cosine) of the ``topn`` lines nearest to the unit ``vector``."""
        scores = self.vectors @ vector
        best = np.argsort(-scores, kind="stable")[:topn]
        return [(self.line_numbers[i], self.lines[i], float(scores[i])) for i in best]


def nearest(model_path, query, topn, sentences=None):
    """(text, cosine) of the ``topn`` lines of the file ``sentences`` nearest to the sentence
    ``query``, or of the model's tokens (their weighted rows) without a file."""
    model = StaticModel.load(model_path)
    vector = query_vector(model, query, model_path)
    if sentences:
        names = sentences_of(sentences)
        return ranked(names, model.encode(names, normalize=True), vector, topn)
    return ranked(model.tokens, token_rows(model), vector, topn)
