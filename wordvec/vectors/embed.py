"""Sentence embeddings from any word vectors: mean, SIF and Zipf+PCA pooling.

    from wordvec.vectors.files import load_vectors
    kv = load_vectors("vectors.bin")
    E = kv.embed([["a", "good", "film"], ["dull"]], pooling="sif")   # n x D float32

Poolings (the weights are per word; a sentence is the weighted mean of its known words'
vectors, ``wordvec.kernels.pooling``):

``mean``  every word weight 1.
``sif``   Arora, Liang & Ma 2017 ("A simple but tough-to-beat baseline for sentence
          embeddings"): weight a / (a + p(w)), p(w) the word's corpus frequency, a = 1e-3;
          then the projection on the first singular vector of all the sentence vectors is
          removed (``remove_pc=1``): v_s <- v_s - u u^T v_s.
``zipf``  Model2Vec's post-processing (Tulkens & van Dongen 2024): the word vectors are
          centred and rotated onto their principal axes (PCA, all D kept), and word w of
          frequency rank r (1 = most frequent) weighs log(1 + r).  Model2Vec uses
          log(r), which zeroes the most frequent word; log(1 + r) keeps it, small.

Frequencies come from ``counts`` (a ``{word: count}`` mapping, e.g. :func:`read_counts`
of a ``word count`` file), else the vectors' own counts (a wordvec model or native save
keeps them), else Zipf's law over the file's order (rank r has p proportional to 1/r; word2vec,
GloVe and fastText files list words by descending frequency).

Words without a vector are skipped, unless the vectors are subword vectors
(``SubwordKeyedVectors``, fastText-style): then an unseen word gets its vector from its
character n-grams, weighted as the rarest word.  A sentence with no usable word is zero.

This module takes the vectors as an argument (anything with ``vectors``,
``key_to_index``, ``counts``; subword vectors also ``has_vector`` and ``get_vector``) and
does not import ``wordvec.vectors.keyed``, which delegates ``KeyedVectors.embed`` here.
"""

import logging
import math
from dataclasses import dataclass

import numpy as np

from wordvec.blas import blas_threads
from wordvec.data.corpus import open_binary, open_text, truncate_token
from wordvec.errors import FormatError, WordvecError
from wordvec.io.text import split_tokens

log = logging.getLogger(__name__)

POOLINGS = ("mean", "sif", "zipf")


@dataclass(frozen=True)
class PoolingConfig:
    pooling: str = "mean"
    remove_pc: int = None   # principal components removed; None: 1 for SIF, 0 otherwise
    sif_a: float = 1e-3     # SIF's a in a / (a + p(w))

    def validate(self):
        if self.pooling not in POOLINGS:
            raise WordvecError(f"pooling must be one of {', '.join(POOLINGS)}, not {self.pooling!r}")
        if self.remove_pc is not None and (not isinstance(self.remove_pc, int) or self.remove_pc < 0):
            raise WordvecError(f"remove_pc must be a whole number >= 0, not {self.remove_pc!r}")
        if not (math.isfinite(self.sif_a) and self.sif_a > 0):
            raise WordvecError(f"the SIF parameter a must be a positive number, not {self.sif_a}")
        return self

    @property
    def components_removed(self):
        return (1 if self.pooling == "sif" else 0) if self.remove_pc is None else self.remove_pc


# ---------------------------------------------------------------------------------------
# Word weights
# ---------------------------------------------------------------------------------------


def frequencies(words, own_counts=None, counts=None):
    """p(w) for each word (float64), from ``counts`` (mapping), ``own_counts`` (array),
    or Zipf's law over the order of ``words``.  Words a mapping does not list get 0."""
    if counts is not None:
        values = np.array([counts.get(w, 0) for w in words], dtype=np.float64)
    elif own_counts is not None:
        values = np.asarray(own_counts, dtype=np.float64)
    else:
        log.info("no word counts: estimating frequencies from the vectors' order (Zipf's law)")
        values = 1.0 / np.arange(1, len(words) + 1, dtype=np.float64)
    total = values.sum()
    return values / total if total > 0 else values


def sif_weights(p, a=1e-3):
    """a / (a + p(w)): Arora et al. 2017, the smooth inverse frequency."""
    return (a / (a + p)).astype(np.float32)


def zipf_weights(p):
    """log(1 + r), r the 1-based rank of each word by descending frequency (ties by order)."""
    order = np.argsort(-p, kind="stable")
    rank = np.empty(p.size, dtype=np.float64)
    rank[order] = np.arange(1, p.size + 1)
    return np.log1p(rank).astype(np.float32)


def principal_axes(W, sample=100_000):
    """(mean, R): the centre of the word vectors and the D x D rotation onto their
    principal axes (right singular vectors of the centred matrix, largest first).  Fitted
    on the first ``sample`` rows (the most frequent words) so that a 2M-word table costs
    no more than a 100k-word one."""
    rows = np.asarray(W[:sample], dtype=np.float64)
    mean = rows.mean(axis=0)
    _, _, Vt = np.linalg.svd(rows - mean, full_matrices=False)
    return mean, Vt.T


def remove_principal_components(E, k):
    """E - E U U^T with U the top-k right singular vectors of E (SIF's common-component
    removal; not centred, as Arora et al.'s TruncatedSVD).  Returns a new float32 array."""
    if k == 0 or E.shape[0] == 0:
        return E
    E64 = np.asarray(E, dtype=np.float64)
    with blas_threads(1):  # E's right singular vectors are the eigenvectors of the D x D E^T E
        _, eigenvectors = np.linalg.eigh(E64.T @ E64)  # (an n x D SVD under OpenBLAS's threads took seconds)
        U = eigenvectors[:, ::-1][:, :k]
        return (E64 - (E64 @ U) @ U.T).astype(np.float32)


# ---------------------------------------------------------------------------------------
# Sentences to ids
# ---------------------------------------------------------------------------------------


def encode_sentences(sentences, key_to_index, unseen=None):
    """(ids int32, offsets int64, new words) of token lists.  ``unseen``: a function telling
    whether an unknown word can still get a vector (subwords); such words get ids V, V+1..."""
    ids, lengths, new_words = [], [], {}
    get, V = key_to_index.get, len(key_to_index)
    for number, tokens in enumerate(sentences):
        if isinstance(tokens, (str, bytes)):
            raise WordvecError(f"sentence {number} is a string, but sentences must be lists of tokens "
                               "(e.g. text.split())")
        before = len(ids)
        for token in tokens:
            i = get(token)
            if i is None and unseen is not None and unseen(token):
                i = new_words.setdefault(token, V + len(new_words))
            if i is not None:
                ids.append(i)
        lengths.append(len(ids) - before)
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return np.array(ids, dtype=np.int32), offsets, list(new_words)


def read_sentences(path):
    """The lines of a text file (plain or compressed) as token lists, one per line, empty
    lines included (row i of the output is line i)."""
    with open_binary(path) as handle:
        return [[truncate_token(t).decode("utf-8", errors="replace") for t in line.split()] for line in handle]


# ---------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------


def embed(kv, sentences, pooling="mean", counts=None, remove_pc=None, sif_a=1e-3):
    """Sentence vectors (n x D float32) of ``sentences`` (token lists) over the vectors ``kv``."""
    config = PoolingConfig(pooling, remove_pc, sif_a).validate()
    unseen = getattr(kv, "has_vector", None) if hasattr(kv, "vectors_ngrams") else None
    ids, offsets, new_words = encode_sentences(sentences, kv.key_to_index, unseen)
    W = np.asarray(kv.vectors, dtype=np.float32)
    if new_words:  # subword vectors of the unseen words, appended as rows V, V+1, ...
        W = np.concatenate([W, np.stack([kv.get_vector(w) for w in new_words]).astype(np.float32)])
    weights = word_weights(config, kv.index_to_key, getattr(kv, "counts", None), counts, len(new_words))
    out = np.zeros((offsets.size - 1, W.shape[1]), dtype=np.float32)
    mean_w = np.zeros(offsets.size - 1, dtype=np.float64)
    from wordvec.kernels.pooling import weighted_means  # here: loading vectors needs no Numba

    weighted_means(ids, offsets, weights, W, out, mean_w)
    if config.pooling == "zipf":
        centre, R = principal_axes(kv.vectors)
        out = ((out - mean_w[:, None] * centre) @ R).astype(np.float32)  # pooling commutes with the affine map
    return remove_principal_components(out, config.components_removed)


def word_weights(config, words, own_counts, counts, n_new):
    """The pooling's weight of each word, and of ``n_new`` unseen (subword) words after them."""
    if config.pooling == "mean":
        return np.ones(len(words) + n_new, dtype=np.float32)
    p = np.concatenate([frequencies(words, own_counts, counts), np.zeros(n_new)])  # unseen: rarest
    return sif_weights(p, config.sif_a) if config.pooling == "sif" else zipf_weights(p)


def read_counts(path):
    """A ``word count`` file (one pair a line, as word2vec's -save-vocab and
    ``wordvec vocab`` write it) as {word: count}; a bad line raises ``FormatError``
    naming the file and line."""
    counts = {}
    with open_text(path) as handle:
        for number, line in enumerate(handle, 1):
            fields = split_tokens(line)
            if not fields:
                continue
            if len(fields) != 2:
                raise FormatError(path, number, f"expected 'word count', found {len(fields)} fields")
            word, count = fields
            if not (count.isascii() and count.isdigit()):
                raise FormatError(path, number, f"the count of {word!r} is not a whole number >= 0: {count!r}")
            counts[word] = counts.get(word, 0) + int(count)
    if not counts:
        raise FormatError(path, None, "no 'word count' lines")
    return counts
