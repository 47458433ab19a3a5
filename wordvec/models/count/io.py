"""What the count-based models (GloVe, PPMI-SVD) share: reading a corpus into (vocabulary,
co-occurrence matrix), and the native model directory.

A model directory is a native vectors directory (``vectors.npy`` + ``vocab.json``, so
``load_vectors`` reads it) plus ``model.json`` (format tag, hyperparameters, training
state, history), the model's own arrays, and optionally X as
``cooccurrence_{data,indices,indptr}.npy``.  Written whole and renamed into place by
``formats.write_native``; read with ``allow_pickle=False``.
"""

import logging
import os
from pathlib import Path

import numpy as np
import scipy.sparse

from wordvec.data.cooccur import count_cooccurrences
from wordvec.data.encode import encode_corpus
from wordvec.data.vocab import Vocabulary
from wordvec.errors import WordvecError
from wordvec.io import formats
from wordvec.io.arrays import FLOAT, INTEGER, check_csr
from wordvec.io.formats import read_model_array
from wordvec.io.manifest import MANIFEST, manifest, model_from_manifest, read_manifest
from wordvec.models.base.config import corpus_with_options

log = logging.getLogger(__name__)

CSR_PARTS = ("data", "indices", "indptr")


def count_corpus(model, sentences, corpus_file):
    """Vocabulary and X of a corpus, with the model's options.

    Returns (words, counts int64[V], X csr V x V, info dict with timing and pair counts).
    """
    if sentences is not None and corpus_file is not None:
        raise WordvecError("pass either sentences or corpus_file, not both")
    if sentences is not None and not isinstance(sentences, (str, os.PathLike)) and iter(sentences) is sentences:
        raise WordvecError("sentences is a one-shot iterator (e.g. a generator), but the corpus is read "
                           "twice (vocabulary, then co-occurrences); pass a list")
    source = corpus_file if corpus_file is not None else sentences
    corpus = corpus_with_options(source, model.lowercase, model.max_document_length)
    vocab = Vocabulary.build(corpus, min_count=model.min_count, max_vocab_size=model.max_vocab_size)
    encoded = encode_corpus(corpus, vocab, cache_dir=model.cache_dir)
    counted = count_cooccurrences(encoded.ids, encoded.offsets, len(vocab), window=model.window,
                                  symmetric=model.symmetric, weighting=model.weighting,
                                  memory=model.memory, progress=model.progress)
    info = {"tokens": encoded.num_tokens, "pairs": counted.pairs, "nnz": int(counted.matrix.nnz),
            "seconds": counted.seconds, "cpu_seconds": counted.cpu_seconds, "pairs_per_sec": counted.pairs_per_second}
    return vocab.words, vocab.counts, counted.matrix, info


def save_model(model, path, tag, vectors, arrays, state, include_cooccurrence=True, extra_json=None):
    if model.words is None:
        raise WordvecError("cannot save a model that has not been trained")
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise WordvecError(f"{path} exists and is not a directory; a model is saved as a directory")
    arrays = dict(arrays)
    if include_cooccurrence and model.cooccurrence is not None:
        for part in CSR_PARTS:
            arrays[f"cooccurrence_{part}.npy"] = getattr(model.cooccurrence, part)
    description = manifest(tag, 1, model.hyperparameters(), model.history, state=state)
    formats.write_native(path, model.words, vectors, model.counts, extra_arrays=arrays,
                         extra_json={MANIFEST: description, **(extra_json or {})})


def load_model(cls, path, tag, settings=None):
    """Rebuild ``cls`` from a directory written by ``save_model``: returns (model, state)."""
    path, manifest_path, meta = read_manifest(path, tag, tag)
    model = model_from_manifest(cls, meta, manifest_path, tag, required=("state",), settings=settings)
    state = meta["state"]
    words, _, counts = formats.read_native(path)
    model.words = list(words)
    model.counts = None if counts is None else np.asarray(counts, dtype=np.int64)
    model.history = list(meta.get("history", []))
    V = len(words)
    if all((path / f"cooccurrence_{part}.npy").is_file() for part in CSR_PARTS):
        data, indices, indptr = (read_model_array(path, f"cooccurrence_{part}.npy", (None,), kinds)
                                 for part, kinds in zip(CSR_PARTS, (FLOAT, INTEGER, INTEGER)))
        check_csr(path, data, indices, indptr, V, V)
        model.cooccurrence = scipy.sparse.csr_matrix((data, indices, indptr), shape=(V, V))
    return model, state
