"""Native save/load of a ``Word2Vec`` model: a directory of .npy arrays and JSON.

    vectors.npy           W_in, V x D float32 (the word vectors)
    vocab.json            words and counts (the native vectors format's metadata)
    output_vectors.npy    W_out, V x D (negative sampling / full softmax), or 0 x D
    inner_vectors.npy     W_inner, (V-1) x D (hierarchical softmax), or 0 x D
    model.json            hyperparameters, schedule position, history
    vectors_lockf.npy     gensim's per-row learning-rate factors, where not the default 1.0

A subword model (``subwords=True``) saves its ``wv`` (``SubwordKeyedVectors``) instead:
``vectors.npy`` then holds the composed word vectors (what every reader of vectors
should see), ``ngram_vectors.npy`` + ``subwords.json`` the n-gram rows, and
``word_vectors.npy`` the words' own input rows (W_in), needed to continue training.

The first two files are exactly a native vectors save, so ``load_vectors(path)`` and
every command that takes vectors read a model directory as its word vectors.  The
directory is written whole into a temporary sibling and renamed into place
(``formats.write_native``), so an interrupted save leaves the previous one intact.
Nothing is pickled: arrays are read with ``allow_pickle=False``.
"""

from pathlib import Path

import numpy as np

from wordvec.data.vocab import Vocabulary
from wordvec.errors import FormatError, WordvecError
from wordvec.io import formats
from wordvec.io.formats import read_model_array
from wordvec.io.manifest import MANIFEST, manifest, model_from_manifest, read_manifest
from wordvec.models.base import gensim_models
from wordvec.vectors.keyed import checked_lock_factors
from wordvec.vectors.subword import NGRAM_VECTORS

FORMAT = "wordvec-word2vec"
VERSION = 1
ARRAYS = {"W_out": "output_vectors.npy", "W_inner": "inner_vectors.npy"}
WORD_ROWS = "word_vectors.npy"  # subword models: W_in (vectors.npy holds the composed vectors)
LOCK_FACTORS = "vectors_lockf.npy"  # wv.vectors_lockf, saved where some factor is not 1
NAME = "wordvec Word2Vec"  # in error messages


def save_model(model, path, extra_json=None):
    if model.vocab is None:
        raise WordvecError("cannot save a model without a vocabulary; call build_vocab or train first")
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise WordvecError(f"{path} exists and is not a directory; a model is saved as a directory")
    schedule = {"trained_words": model.trained_words, "planned_words": model.planned_words,
                "epochs_trained": model.epochs_trained}
    schedule.update(model.corpus_description())  # gensim's corpus_count / corpus_total_words, where known
    if getattr(model, "epoch_progress", None):  # a checkpoint inside an epoch (wordvec.io.checkpoint)
        schedule["epoch_in_progress"] = model.epoch_progress
    description = manifest(FORMAT, VERSION, model.hyperparameters(), model.history, schedule=schedule,
                           corpus_tokens=model.vocab.corpus_tokens)
    extra_arrays = {name: getattr(model, attr) for attr, name in ARRAYS.items()}
    if not np.all(model.lock_factors.array == 1.0):
        extra_arrays[LOCK_FACTORS] = model.lock_factors.array
    if model.subwords:
        model.wv.save(path, extra_arrays={WORD_ROWS: model.W_in, **extra_arrays},
                      extra_json={MANIFEST: description, **(extra_json or {})})
        return
    formats.write_native(path, model.vocab.words, model.W_in, model.vocab.counts,
                         extra_arrays=extra_arrays, extra_json={MANIFEST: description, **(extra_json or {})})


def load_model(cls, path, settings=None):
    path, manifest_path, meta = read_manifest(path, FORMAT, NAME)
    model = model_from_manifest(cls, meta, manifest_path, NAME, required=("schedule",), settings=settings)
    sched = meta["schedule"]
    words, vectors, counts = formats.read_native(path)
    if counts is None:
        raise FormatError(path / formats.NATIVE_META, None, "a model's vocabulary needs its word counts")
    model.vocab = Vocabulary(words, counts, corpus_tokens=meta.get("corpus_tokens"),
                             min_count=model.min_count)
    V, D = len(model.vocab), model.vector_size
    if model.subwords:
        vectors = read_model_array(path, WORD_ROWS, shape=(V, D))
        model._init_subwords(W_ngrams=read_model_array(path, NGRAM_VECTORS, shape=(model.bucket, D)).astype(
            np.float32, copy=False))
    model.W_in = np.ascontiguousarray(vectors, dtype=np.float32)
    if model.W_in.shape != (V, D):
        raise FormatError(path / formats.NATIVE_VECTORS, None, f"expected shape {(V, D)}, found {model.W_in.shape}")
    rows = model.output_rows(V)  # the kernels index these without bounds checks
    for attribute, name in ARRAYS.items():
        array = read_model_array(path, name, (None, D))
        if array.shape[0] not in (rows[attribute], 0):  # 0: no output layer (vectors set by model.wv = kv)
            raise FormatError(path / name, None, f"expected {rows[attribute]} rows (or none), found {array.shape[0]}")
        setattr(model, attribute, array.astype(np.float32, copy=False))
    try:
        model.trained_words = int(sched["trained_words"])
        model.planned_words = int(sched["planned_words"])
        model.epochs_trained = int(sched["epochs_trained"])
        if "corpus_count" in sched:
            model.corpus_count = int(sched["corpus_count"])
        model.corpus_total_words = int(sched.get("corpus_total_words", 0))
    except (KeyError, TypeError, ValueError):
        raise FormatError(manifest_path, None, "its schedule entry is malformed") from None
    model.history = list(meta.get("history", []))
    model.epoch_progress = _epoch_in_progress(sched.get("epoch_in_progress"), manifest_path)
    if (path / LOCK_FACTORS).is_file():
        model.lock_factors.array = checked_lock_factors(read_model_array(path, LOCK_FACTORS, (None,)))
    return model


def _epoch_in_progress(progress, manifest_path):
    """A checkpoint's unfinished epoch: {"epoch", "chunks", "done": [[chunk, loss, words, examples]]}."""
    if progress is None:
        return None
    try:
        done = [[int(i), float(loss), int(w), int(e)] for i, loss, w, e in progress["done"]]
        return {"epoch": int(progress["epoch"]), "chunks": int(progress["chunks"]), "done": done}
    except (KeyError, TypeError, ValueError):
        raise FormatError(manifest_path, None, "its epoch_in_progress entry is malformed") from None


def load_gensim_model(cls, path, mmap=None):
    """A gensim Word2Vec or FastText pickle as ``cls``, read as data (a FastText one as a
    subword model, whichever of the two classes reads it)."""
    top = gensim_models.read_model(path, ("Word2Vec", "FastText"), mmap)
    fields = gensim_models.fields_of(path, top, gensim_models.word_model_fields)
    subword = fields["keyed"]["subword"]
    extra = {"subwords": bool(subword)}
    if subword:
        extra.update(min_n=subword["min_n"], max_n=subword["max_n"], bucket=subword["bucket"])
    model = cls(**fields["settings"], **extra)
    model.vocab = fields["vocab"]
    model.W_in = fields["W_in"]
    V, D = model.W_in.shape
    if subword:
        model._init_subwords(W_ngrams=np.ascontiguousarray(subword["ngrams"], dtype=np.float32))
    rows = model.output_rows(V)
    model.W_out = gensim_models.rows_or_zeros(fields["syn1neg"], rows["W_out"], D)
    model.W_inner = gensim_models.rows_or_zeros(fields["syn1"], rows["W_inner"], D)
    if fields["corpus_count"] is not None:
        model.corpus_count = int(fields["corpus_count"])
    total = fields["corpus_total_words"]  # None in a save of gensim before 3.x, as gensim loads it
    model.corpus_total_words = None if total is None else int(total)
    if fields["keyed"]["expandos"]:
        model.wv.expandos.update(fields["keyed"]["expandos"])
    if fields["lockf"] is not None:
        model.wv.vectors_lockf = fields["lockf"]
    return model
