"""The word vectors of any fastText model file: skipgram, cbow or supervised, ``.bin`` or
quantized ``.ftz``, as ``load_vectors`` and every command that reads vectors give them.

A word's vector is fastText's ``getWordVector``: the mean of its own input row and the rows
of its character n-grams (its own row alone where the model has no n-grams, ``maxn 0``, as
most classifiers, and for fastText's line-end token ``</s>``).  Where the model keeps every
n-gram row (not pruned by ``quantize -cutoff``) the result is ``SubwordKeyedVectors``, which
answers unseen words from their n-grams as fastText's ``print-word-vectors`` does; otherwise
``KeyedVectors`` of the vocabulary.  A supervised model's labels are not words: they are left out.
"""

import numpy as np

from wordvec.io import fasttext_bin
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors

LINE_END = "</s>"  # fastText's end-of-line token: a word without n-grams


def fasttext_word_vectors(path):
    """``KeyedVectors`` (or ``SubwordKeyedVectors``) of the fastText model file at ``path``."""
    model = fasttext_bin.read_fasttext(path)
    matrix = model.input.dense() if isinstance(model.input, fasttext_bin.QuantizedMatrix) else model.input
    nwords = model.nwords
    words, counts = list(model.words[:nwords]), np.asarray(model.counts[:nwords])
    word_rows = np.ascontiguousarray(matrix[:nwords], dtype=np.float32)
    ngram_rows = np.ascontiguousarray(matrix[nwords:], dtype=np.float32)
    minn, maxn, bucket = model.args["minn"], model.args["maxn"], model.args["bucket"]
    if maxn == 0 or bucket == 0 or ngram_rows.shape[0] == 0:
        return KeyedVectors(words, word_rows, counts=counts)
    from wordvec.kernels import subword as subword_kernels  # Numba: only for a model with n-grams

    offsets, ids = _ngram_rows_of(words, minn, maxn, bucket, model.prune_index)
    vectors = np.empty_like(word_rows)
    subword_kernels.compose_vectors(word_rows, ngram_rows, offsets, ids, True, vectors)
    if model.prune_index is not None:  # rows of the kept n-grams only: no vectors for unseen words
        return KeyedVectors(words, vectors, counts=counts)
    return SubwordKeyedVectors(words, vectors, ngram_rows, minn, maxn, bucket, counts=counts,
                               vectors_vocab=word_rows)


def _ngram_rows_of(words, minn, maxn, bucket, prune_index):
    """CSR table of each word's n-gram rows: its hashed buckets (``</s>`` has none), mapped
    through the kept rows of a pruned model (an n-gram whose row was dropped counts no more)."""
    from wordvec.data.subword import ngram_table

    offsets, ids = ngram_table(words, minn, maxn, bucket)
    owner = np.repeat(np.arange(len(words)), np.diff(offsets))
    keep = np.ones(len(ids), dtype=bool)
    if LINE_END in words:
        keep &= owner != words.index(LINE_END)
    if prune_index is not None:
        kept = np.array(sorted(prune_index), dtype=np.int64)
        rows = np.array([prune_index[b] for b in kept.tolist()], dtype=np.int32)
        where = np.minimum(np.searchsorted(kept, ids), max(len(kept) - 1, 0))
        found = (kept[where] == ids) if len(kept) else np.zeros(len(ids), dtype=bool)
        keep &= found
        ids = rows[where] if len(kept) else ids
    offsets = np.concatenate([[0], np.cumsum(np.bincount(owner[keep], minlength=len(words)))]).astype(np.int64)
    return offsets, np.ascontiguousarray(ids[keep], dtype=np.int32)
