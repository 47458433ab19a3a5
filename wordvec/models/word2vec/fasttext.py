"""FastText under gensim's name: ``Word2Vec(subwords=True)`` with gensim 4.4's constructor.

    from wordvec.models.word2vec.fasttext import FastText      # was: from gensim.models import FastText
    model = FastText(sentences, vector_size=100, window=5, min_count=1, epochs=10)
    model.wv["unseenword"]                             # from its character n-grams
    "unseenword" in model.wv                           # True, as in gensim

Every argument keeps gensim's name, default and meaning and is handed to ``Word2Vec``'s
public constructor (``subwords=True, min_n, max_n, bucket``), whose class docstring
describes the model (Bojanowski et al. 2017: a word's input vector is the mean of its
own row and its hashed character n-gram rows).  Intentional differences (each one
sentence, also in docs/migrating.md):

* ``workers=None`` means wordvec's default (at most 2 threads), gensim's is 3;
* ``hashfxn``, ``batch_words`` and ``null_word`` have no effect: wordvec hashes n-grams
  with fastText's own FNV-1a and batches by documents, and ``null_word`` padding is a
  gensim internal;
* ``trim_rule``, ``max_final_vocab``, ``sorted_vocab=0``, ``shrink_windows=False`` and
  ``word_ngrams > 1`` are refused with one sentence rather than ignored;
* ``word_ngrams=0``, ``bucket=0`` or ``max_n < min_n`` train plain word vectors (no
  n-grams; ``wv`` has ``bucket`` 0), as gensim does.

Other ``Word2Vec`` keywords (``loss``, ``shuffle``, ``shared_negatives`` ...) pass through.

fastText's own model files, under gensim's names (``wordvec.io.fasttext_bin`` reads and
writes the bytes):

    load_facebook_vectors("cc.en.300.bin")   # SubwordKeyedVectors: vectors for any word
    load_facebook_model("model.bin")         # a FastText model (vocabulary, all matrices)
    save_facebook_model(model, "model.bin")  # fastText (and gensim) load it

Files written before fastText 0.9 (no magic number) load as gensim loads them, and
``encoding=`` decodes the words of a file in another encoding, as gensim's.

A fastText file's input matrix is the word rows followed by the ``bucket`` n-gram rows,
exactly wordvec's ``W_in`` and ``W_ngrams``; its output matrix is ``W_out`` (negative
sampling) or, for hierarchical softmax, the Huffman tree's inner-node rows padded to
one row per word (fastText builds its own tree from the counts when it trains on).
fastText's ``</s>`` (its line-end token) is an ordinary word here; as in fastText it
has no n-grams.  Only unsupervised (skipgram, cbow) files are word-vector models; a
supervised one is refused here (``wordvec.models.classifier.model.Classifier.load`` reads it).
"""

import codecs

import numpy as np

from wordvec.data.subword import ngram_table
from wordvec.data.vocab import Vocabulary
from wordvec.errors import WordvecError
from wordvec.io import fasttext_bin
from wordvec.kernels import subword as subword_kernels
from wordvec.models.word2vec import training as word2vec_training
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors

LINE_END = "</s>"  # fastText's end-of-line token: a word without n-grams
LOSS_IDS = {"hs": 1, "ns": 2, "softmax": 3}
MODEL_IDS = {0: 1, 1: 2}  # sg -> fastText's model id (1 cbow, 2 skipgram)

_NO_EFFECT = ("hashfxn", "batch_words", "null_word")


def _refuse_unsupported(word_ngrams):
    if word_ngrams not in (0, 1):
        raise WordvecError(f"word_ngrams={word_ngrams}: gensim's FastText takes 0 or 1 "
                           "(word n-grams are fastText's classifier option)")


class FastText(Word2Vec):
    """gensim 4.4's ``FastText`` signature over wordvec's subword ``Word2Vec``."""

    def __init__(self, sentences=None, corpus_file=None, sg=0, hs=0, vector_size=100, alpha=0.025,
                 window=5, min_count=5, max_vocab_size=None, word_ngrams=1, sample=1e-3, seed=1,
                 workers=None, min_alpha=0.0001, negative=5, ns_exponent=0.75, cbow_mean=1, hashfxn=hash,
                 epochs=5, null_word=0, min_n=3, max_n=6, sorted_vocab=1, bucket=2000000, trim_rule=None,
                 batch_words=10000, callbacks=(), max_final_vocab=None, shrink_windows=True, **wordvec_options):
        _refuse_unsupported(word_ngrams)
        if max_n < min_n:
            bucket = 0  # gensim's: no n-gram length is left, so no n-gram rows
        no_ngrams = not word_ngrams or bucket == 0
        subwords = wordvec_options.pop("subwords", not no_ngrams)  # a saved model names it
        self.word_ngrams = 1 if subwords else 0
        super().__init__(sentences=sentences, corpus_file=corpus_file, sg=sg, hs=hs, vector_size=vector_size,
                         alpha=alpha, window=window, min_count=min_count, max_vocab_size=max_vocab_size,
                         sample=sample, seed=seed, workers=workers, min_alpha=min_alpha, negative=negative,
                         ns_exponent=ns_exponent, cbow_mean=cbow_mean, epochs=epochs, callbacks=callbacks,
                         subwords=subwords, min_n=min_n, max_n=max_n, bucket=bucket, trim_rule=trim_rule,
                         max_final_vocab=max_final_vocab, sorted_vocab=sorted_vocab, shrink_windows=shrink_windows,
                         null_word=null_word, **wordvec_options)


    def _memory_report(self, V, report):
        """gensim's ``FastText.estimate_memory`` dictionary (``syn0_vocab``, ``syn0_ngrams`` ...)."""
        return word2vec_training.fasttext_memory_report(self, V, report)

    @property
    def wv(self):
        """gensim's ``FastTextKeyedVectors``: ``SubwordKeyedVectors``, whose ``vectors_vocab``
        are this model's word rows; without n-grams (``bucket=0``, ``max_n < min_n``)
        ``bucket`` is 0 and ``vectors`` are the word rows themselves, as in gensim."""
        if self.subwords or self.vocab is None or isinstance(self._wv, SubwordKeyedVectors):
            return super().wv
        self._wv = SubwordKeyedVectors(self.vocab.words, self.W_in, np.zeros((0, self.vector_size), np.float32),
                                       self.min_n, self.max_n, 0, counts=self.vocab.counts,
                                       vectors_vocab=self.W_in)
        self._wv.lock_factors = self.lock_factors
        return self._wv

    @wv.setter
    def wv(self, keyed):
        """Assigning ``wv`` does what it does on ``Word2Vec``."""
        if Word2Vec.wv.fset is None:
            raise AttributeError(f"property 'wv' of '{type(self).__name__}' object has no setter")
        Word2Vec.wv.fset(self, keyed)


class SupervisedModelError(WordvecError, NotImplementedError):
    """A supervised fastText file given to a loader of word-vector models (gensim raises
    NotImplementedError here, which this error also is)."""


# ----------------------------------------------------------------------------- fastText's files

def _read_unsupervised(path, encoding="utf-8"):
    """The fastText file at ``path`` as (FastTextModel, word rows, n-gram rows), dense; its
    words decoded from ``encoding`` (gensim's: bytes that do not decode are written as
    ``\\xNN`` escapes)."""
    codec = _codec(encoding)
    model = fasttext_bin.read_fasttext(path)
    if model.model_name == "supervised":
        raise SupervisedModelError(f"{path} is a supervised fastText model (a classifier); load it with "
                           "wordvec.models.classifier.model.Classifier.load")
    if codec != "utf-8":
        model.words = [_decoded(raw, codec) for raw in model.raw_words]
    matrix = model.input.dense() if isinstance(model.input, fasttext_bin.QuantizedMatrix) else model.input
    nwords = model.nwords
    return model, np.ascontiguousarray(matrix[:nwords]), np.ascontiguousarray(matrix[nwords:])


def composed_vectors(words, word_rows, ngram_rows, min_n, max_n):
    """fastText's ``getWordVector`` for every vocabulary word: the mean of its own row and
    its n-gram rows (``</s>``: its own row only)."""
    offsets, ids = ngram_table(words, min_n, max_n, ngram_rows.shape[0])
    if LINE_END in words:  # fastText computes no subwords for its end-of-line token
        w = words.index(LINE_END)
        ids = np.delete(ids, np.arange(offsets[w], offsets[w + 1]))
        offsets[w + 1:] -= offsets[w + 1] - offsets[w]
    out = np.empty_like(word_rows)
    subword_kernels.compose_vectors(word_rows, ngram_rows, offsets, ids, True, out)
    return out


def load_facebook_vectors(path, encoding="utf-8"):
    """A fastText ``.bin``'s word vectors (gensim's name): ``SubwordKeyedVectors`` that answer
    unseen words from their n-grams (plain ``KeyedVectors`` for a model without n-grams)."""
    model, word_rows, ngram_rows = _read_unsupervised(path, encoding)
    words, counts = model.words[:model.nwords], model.counts[:model.nwords]
    minn, maxn = model.args["minn"], model.args["maxn"]
    if maxn == 0 or ngram_rows.shape[0] == 0:
        return KeyedVectors(words, word_rows, counts=counts)
    vectors = composed_vectors(words, word_rows, ngram_rows, minn, maxn)
    return SubwordKeyedVectors(words, vectors, ngram_rows, minn, maxn, ngram_rows.shape[0], counts=counts,
                               vectors_vocab=word_rows)


def load_facebook_model(path, encoding="utf-8"):
    """A fastText ``.bin`` as a ``FastText`` model (gensim's name): vocabulary, word and
    n-gram rows and the output layer, ready for queries, ``save`` and further training.

    As gensim reads it, a file of loss ``hs`` whose ``neg`` is above 0 (what gensim's
    ``save_facebook_model`` writes for a model with both output layers, and fastText's
    default ``neg`` 5) gives a model with both layers, each started from the file's output
    matrix; a file without n-grams (``maxn`` 0) a model with ``bucket`` 0.  What the file does
    not hold takes gensim's ``FastText`` defaults, as gensim's loader gives them: its noise
    distribution is unigram^0.75 (``ns_exponent``; fastText itself draws from ^0.5)."""
    ft, word_rows, ngram_rows = _read_unsupervised(path, encoding)
    args = ft.args
    ngrams = args["maxn"] > 0 and ngram_rows.shape[0] > 0
    softmax = ft.loss_name == "softmax"
    model = FastText(vector_size=args["dim"], window=args["ws"], min_count=max(1, args["min_count"]),
                     sg=int(ft.model_name == "skipgram"), hs=int(ft.loss_name == "hs"),
                     negative=0 if softmax else args["neg"], sample=args["t"], alpha=0.05,
                     epochs=args["epoch"], min_n=args["minn"] if ngrams else 3, max_n=args["maxn"] if ngrams else 6,
                     bucket=args["bucket"] if ngrams else 0, progress=False,
                     **({"loss": "softmax"} if softmax else {}))
    nwords = ft.nwords
    model.set_vocabulary(Vocabulary(ft.words[:nwords], ft.counts[:nwords], corpus_tokens=ft.ntokens,
                                    min_count=args["min_count"]))
    model.W_in[...] = word_rows
    if ngrams:
        model.W_ngrams[...] = ngram_rows
    output = ft.output.dense() if isinstance(ft.output, fasttext_bin.QuantizedMatrix) else ft.output
    if model.W_out.shape[0]:
        model.W_out[...] = output[:model.W_out.shape[0]]
    if model.W_inner.shape[0]:
        model.W_inner[...] = output[:model.W_inner.shape[0]]
    return model


def save_facebook_model(model, path, encoding="utf-8", lr_update_rate=100, word_ngrams=1):
    """Write a ``FastText`` / ``Word2Vec`` model as fastText's ``.bin`` (gensim's name); a model
    without subwords is written as fastText writes ``-maxn 0`` (no n-gram rows, bucket 0).

    fastText's file holds one output layer.  A model training both hierarchical softmax and
    negative sampling is written as gensim writes it: loss ``hs``, its ``negative`` as
    ``neg``, and the negative-sampling rows as the output matrix (``load_facebook_model``
    gives both layers back, started from those rows)."""
    _check_encoding(encoding)
    if model.vocab is None:
        raise WordvecError("save_facebook_model needs a trained model (build_vocab and train first)")
    loss = "softmax" if model.loss == "softmax" else "hs" if model.hs else "ns"
    V, D = len(model.vocab), model.vector_size
    subwords = bool(getattr(model, "subwords", False))
    ngram_rows = model.W_ngrams if subwords else np.zeros((0, D), np.float32)
    bucket, minn, maxn = (model.bucket, model.min_n, model.max_n) if subwords else (0, 0, 0)
    if loss == "hs" and model.negative <= 0:  # the tree's inner nodes, padded to one row per word
        output = np.vstack([model.W_inner[:V], np.zeros((1, D), np.float32)])[:V]
    else:
        output = model.W_out
    args = {"dim": D, "ws": model.window, "epoch": model.epochs, "min_count": model.min_count,
            "neg": max(model.negative, 0), "word_ngrams": word_ngrams, "loss": LOSS_IDS[loss],
            "model": MODEL_IDS[model.sg], "bucket": bucket, "minn": minn, "maxn": maxn,
            "lr_update_rate": lr_update_rate, "t": model.sample}
    ft = fasttext_bin.FastTextModel(
        args, list(model.vocab.words), np.asarray(model.vocab.counts, np.int64), np.zeros(V, np.uint8),
        int(model.vocab.corpus_tokens), None, np.vstack([model.W_in, ngram_rows]), output)
    fasttext_bin.write_fasttext(path, ft)


def _codec(encoding):
    """Python's name of ``encoding`` ("utf-8", "cp852", ...), or one sentence if unknown."""
    try:
        return codecs.lookup(str(encoding)).name
    except LookupError:
        raise WordvecError(f"unknown encoding {encoding!r} for a fastText file's words") from None


def _decoded(raw, codec):
    try:
        return raw.decode(codec)
    except UnicodeDecodeError:
        return raw.decode(codec, "backslashreplace")


def _check_encoding(encoding):
    if _codec(encoding) != "utf-8":
        raise WordvecError(f"fastText files are written in UTF-8 here, not {encoding!r}")
