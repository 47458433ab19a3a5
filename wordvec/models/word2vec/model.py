"""word2vec: skip-gram and CBOW with negative sampling, hierarchical or full softmax.

    from wordvec.models.word2vec.model import Word2Vec
    model = Word2Vec(corpus_file="text.txt", sg=1, epochs=5)   # builds vocab and trains
    model.wv.most_similar("king")
    model.save("model.w2v"); Word2Vec.load("model.w2v").train(epochs=1)
    model.build_vocab(more, update=True)                       # gensim's online training
    model.train(more, total_examples=model.corpus_count, epochs=model.epochs)

Hyperparameters keep gensim's names and meanings.  The maths of every update is in
``wordvec.math.word2vec`` (checked against finite differences); the compiled loops in
``wordvec.kernels.word2vec`` perform exactly those steps.  Threads (``workers``) each
train whole chunks of documents, updating the shared float32 matrices without locks;
every epoch takes the chunks in a fresh seeded order (``shuffle=True``, see
``wordvec.data.schedule``).

Continued training, two ways.  gensim's calls (``build_vocab(new, update=True)``, then
``train(new, total_examples=model.corpus_count, epochs=model.epochs)``: the vocabulary
and training API of gensim 4.4, in ``wordvec.models.word2vec.training``) are each a run
of their own, from alpha down to min_alpha.  wordvec's calls (``train(epochs=k)``, no
``total_examples`` / ``total_words``) continue one learning-rate schedule instead: the
plan is fixed by the first ``train`` call as P = epochs x corpus tokens, and the word at
position p of the model's whole training life (tokens before subsampling, counted over
all calls) gets alpha - (alpha - min_alpha) * min(1, p / P).  So ``train(epochs=2)``
then ``train(epochs=3)`` is the same run as one 5-epoch ``train`` (bitwise, with one
worker), and training past the plan runs at ``min_alpha``.

The loss in ``history`` is the online loss: each example's exact loss at the parameters
just before its own update.  While the learning rate is high it sits below the objective
of the parameters as they stand (the model has just adapted to the surrounding text), so
it can rise in late epochs while that objective still falls (``benchmarks/bench_loss.py``).
"""

import contextlib
import dataclasses
import logging
import math
import os

import numpy as np

from wordvec.data.corpus import Corpus, CorpusTypeError
from wordvec.data.encode import encode_corpus
from wordvec.data.subword import ngram_table
from wordvec.data.vocab import Vocabulary
from wordvec.errors import TrainingError, WordvecError
from wordvec.io.gensim_pickle import is_pickle
from wordvec.io.history import append_epoch
from wordvec.kernels import subword as subword_kernels
from wordvec.kernels import word2vec as kernels
from wordvec.models.base import estimate
from wordvec.models.word2vec import io as word2vec_io
from wordvec.models.word2vec import training as word2vec_training
from wordvec.models.base.callbacks import Callbacks
from wordvec.models.word2vec.config import Word2VecConfig, check_rates
from wordvec.models.base.config import config_from, corpus_with_options, hyperparameters, shows_config
from wordvec.models.word2vec.epochs import EpochRunner, load_kernels, progress_bar
from wordvec.vectors.keyed import KeyedVectors, LockFactors
from wordvec.vectors.subword import SubwordKeyedVectors

log = logging.getLogger(__name__)

HYPERPARAMETERS = tuple(field.name for field in dataclasses.fields(Word2VecConfig))  # saved in model.json


class class_only(classmethod):
    """A classmethod that, like gensim's ``load``, refuses to be called on an instance
    (``model.load(path)`` would return a new model and leave ``model`` as it was)."""

    def __get__(self, instance, owner=None):
        if instance is not None:
            raise AttributeError(f"load is a class method: call {type(instance).__name__}.load(path), "
                                 "which returns the loaded model")
        return super().__get__(instance, owner)


@shows_config(Word2VecConfig)
class Word2Vec:
    """Skip-gram (``sg=1``) or CBOW (``sg=0``) word vectors; ``.wv`` holds them.

    Output layer: negative sampling with ``negative`` noise words (default), hierarchical
    softmax with ``hs=1, negative=0`` (both when ``hs=1`` and ``negative>0``, as in
    gensim), or ``loss="softmax"``: the exact full softmax, O(V) per example, for small
    vocabularies and for checking the others.  ``loss="ns"`` / ``"hs"`` are shorthands.

    ``shared_negatives`` (skip-gram with negative sampling): draw the negatives once per
    centre word and share them across its window's pairs (each pair still takes the
    exact reference step) -- ~1.5-2x faster; ``False`` draws per pair like gensim.
    ``None`` (default): shared for plain skip-gram, per pair with ``subwords=True``.  The
    subword kernels run in fastText's direction, where every pair of a window reads the
    same input h (the centre word's bag): a shared draw would push the same K noise rows
    away from the same h once per pair, i.e. K negatives per window instead of K per
    pair.  Measured on wordbench-10m: analogy 47.1% shared vs 57.0% per pair.

    ``ns_exponent``: the noise distribution is unigram^ns_exponent.  ``None`` (default):
    0.75 (word2vec, gensim), or 0.5 with ``subwords=True``, the exponent of fastText's
    own negatives table: 57.0% -> 58.2% analogy (syntactic 72.9% -> 75.2%) on
    wordbench-10m, where fastText itself gave 58.2-58.4% in two runs.

    ``subwords=True`` (fastText's model, Bojanowski et al. 2017): a word's input vector is
    the mean of its own row and the rows of its character ``min_n``..``max_n``-grams,
    hashed into ``bucket`` rows exactly as fastText does (``wordvec.data.subword``); ``.wv``
    is then a ``SubwordKeyedVectors`` that also gives vectors for unseen words.
    ``cbow_mean`` applies to the bag of rows (fastText averages it).

    ``batched`` (skip-gram): train each window as ONE step on the summed loss of its
    pairs, all read at the parameters before the window -- small dense products
    (contexts x output rows) instead of per-pair steps (Ji et al. 2016, HogBatch;
    ``wordvec.math.word2vec.skipgram_*_window``).  No effect on CBOW.

    ``deterministic``: with ``workers > 1``, each worker trains fixed shards in a private
    replica, merged in a fixed order every few chunks (``wordvec.models.word2vec.sync``):
    the same seed and number of workers give bitwise identical vectors whatever the
    thread timing.  ``False`` (default): Hogwild, lock-free shared updates.

    ``shuffle``: train each epoch's chunks of about 20k tokens (whole documents) in a
    fresh seeded order (:mod:`wordvec.data.schedule`); ``False`` keeps the corpus order every
    epoch, as gensim and word2vec.c do.
    """

    def __init__(self, sentences=None, corpus_file=None, config=None, *, progress=True, callbacks=(),
                 cache_dir=None, memory_check=True, compute_loss=False, trim_rule=None, **hyperparameters):
        """``hyperparameters``: the fields of :class:`wordvec.models.word2vec.config.Word2VecConfig`
        by name, gensim's (``vector_size=300, sg=1, negative=10, ...``), or a whole
        ``config``; ``progress``, ``callbacks``, ``cache_dir``, ``memory_check`` and
        ``compute_loss`` are settings of this process, not of the model, and are not
        saved; ``trim_rule`` applies to the vocabulary built here (gensim's).  gensim's
        ``hashfxn``, ``null_word``, ``batch_words`` and ``comment`` are accepted and have
        no effect (docs/migrating.md)."""
        self.null_word = hyperparameters.get("null_word", 0)  # gensim's attribute, as given
        for name in word2vec_training.GENSIM_NO_OPS:
            hyperparameters.pop(name, None)
        self.config = config_from(Word2VecConfig, config, hyperparameters)
        check_rates(self.alpha, self.min_alpha)
        self.progress, self.callbacks, self.cache_dir = progress, tuple(callbacks), cache_dir
        self.vocab = None
        self.W_in = self.W_out = self.W_inner = None
        self.W_ngrams = self.ngram_offsets = self.ngram_ids = self.ngram_overlaps = None  # subwords only
        self.trained_words = 0      # schedule position p: tokens trained over all calls
        self.planned_words = 0      # schedule length P (0 until the first train)
        self.epochs_trained = 0
        self.history = []
        self.epoch_progress = None  # a checkpoint's unfinished epoch (wordvec.io.checkpoint)
        self.memory_check = bool(memory_check)  # refuse a vocabulary whose arrays cannot fit (models.estimate)
        self._corpus = None
        self._wv = None
        self.lock_factors = LockFactors()  # gensim's wv.vectors_lockf, shared with every wv handed out
        # gensim's training state (wordvec.models.word2vec.training)
        self.compute_loss, self.running_training_loss = bool(compute_loss), 0.0
        self.corpus_total_words = 0
        self._corpus_count = self._corpus_size = None
        self.min_alpha_yet_reached = float(self.alpha)  # gensim's: the lowest rate trained at so far
        self.raw_vocab = {}  # gensim's scan_vocab counts, until prepare_vocab uses them
        self._sizes = {}  # corpus file fingerprint -> (sentences, raw words)
        if sentences is not None and corpus_file is not None:
            raise CorpusTypeError("pass either sentences or corpus_file, not both")
        if sentences is not None or corpus_file is not None:
            self.build_vocab(sentences, corpus_file, trim_rule=trim_rule)
            self.train(compute_loss=self.compute_loss)

    # -- configuration -------------------------------------------------------------------

    @property
    def mode(self):
        """The kernels' output-layer flags for this configuration."""
        if self.loss == "softmax":
            return kernels.FULL_SOFTMAX
        return (kernels.HIERARCHICAL_SOFTMAX if self.hs else 0) | (
            kernels.NEGATIVE_SAMPLING if self.negative > 0 else 0)

    def describe(self):
        """Short name of the configuration, e.g. 'sg-ns', 'cbow-hs', 'sg-softmax', 'sg-ns with subwords'."""
        outputs = {kernels.NEGATIVE_SAMPLING: "ns", kernels.HIERARCHICAL_SOFTMAX: "hs",
                   kernels.FULL_SOFTMAX: "softmax"}
        names = [name for flag, name in outputs.items() if self.mode & flag]
        return ("sg-" if self.sg else "cbow-") + "+".join(names) + (" with subwords" if self.subwords else "")

    def hyperparameters(self):
        return hyperparameters(self.config)

    # -- vocabulary and parameters -------------------------------------------------------

    def _corpus_of(self, sentences, corpus_file):
        if sentences is not None and corpus_file is not None:
            raise CorpusTypeError("pass either sentences or corpus_file, not both")
        if corpus_file is not None and not isinstance(corpus_file, (str, os.PathLike, Corpus)):
            raise CorpusTypeError(f"corpus_file must be a path (str or os.PathLike), not {type(corpus_file).__name__}; "
                                  "pass token lists as corpus_iterable")
        if sentences is not None and not isinstance(sentences, (str, os.PathLike, Corpus)):
            try:
                iterator = iter(sentences)
            except TypeError:
                raise CorpusTypeError("a corpus must be a file path, a directory or an iterable of token lists, "
                                      f"not {type(sentences).__name__}") from None
            if iterator is sentences:
                raise WordvecError(
                    "sentences is a one-shot iterator (e.g. a generator), but training reads it "
                    "once per epoch; pass a list or an object whose __iter__ starts over "
                    "(gensim would silently train on nothing after the first epoch)")
        source = corpus_file if corpus_file is not None else sentences
        return corpus_with_options(source, self.lowercase, self.max_document_length)

    def build_vocab_from_freq(self, word_freq, keep_raw_vocab=False, corpus_count=None, trim_rule=None,
                              update=False):
        """gensim's: the vocabulary of a {word: count} table (``min_count``, ``max_final_vocab``,
        ``trim_rule`` as in ``build_vocab``) and fresh vectors; ``update=True`` adds its new
        words to the model's and its counts to the old words'.  ``corpus_count`` is taken as
        given (0 by default); ``keep_raw_vocab`` has no effect."""
        word2vec_training.build_vocab_from_freq(self, word_freq, corpus_count, trim_rule, update)

    def scan_vocab(self, corpus_iterable=None, corpus_file=None, progress_per=10000, workers=None, trim_rule=None):
        """gensim's first step of ``build_vocab``: count every word into ``raw_vocab``; returns
        (raw words, sentences).  ``progress_per``, ``workers``, ``trim_rule`` have no effect."""
        corpus = self._corpus_of(corpus_iterable, corpus_file)
        return word2vec_training.scan_vocab(self, corpus)

    def prepare_vocab(self, update=False, keep_raw_vocab=False, trim_rule=None, min_count=None, sample=None,
                      dry_run=False):
        """gensim's second step: the vocabulary from ``raw_vocab`` and gensim's report
        (:func:`wordvec.models.word2vec.training.prepare_vocab`)."""
        return word2vec_training.prepare_vocab(self, update, keep_raw_vocab, trim_rule, min_count, sample, dry_run)

    def reset_from(self, other_model):
        """gensim's: take ``other_model``'s vocabulary (shared, not copied) and corpus size,
        and start this model's vectors afresh from its own seed."""
        self.set_vocabulary(other_model.vocab)
        self.corpus_total_words = other_model.corpus_total_words
        self._corpus, self._corpus_count, self._corpus_size = (other_model._corpus, other_model._corpus_count,
                                                               other_model._corpus_size)

    def build_vocab(self, corpus_iterable=None, corpus_file=None, update=False, progress_per=10000,
                    keep_raw_vocab=False, trim_rule=None, *, sentences=None):
        """Count the corpus and keep its words seen ``min_count`` times (raised by
        ``max_final_vocab``, overruled by ``trim_rule``; in order of first appearance with
        ``sorted_vocab=0``), then initialise the vectors.  ``update=True`` adds the
        corpus's new words to a trained model instead, keeping every trained row
        (:func:`wordvec.models.word2vec.training.grow_vocabulary`).  ``corpus_count`` and
        ``corpus_total_words`` then describe this corpus.  gensim's ``progress_per`` and
        ``keep_raw_vocab`` have no effect (no raw count table is kept)."""
        corpus = self._corpus_of(_either(corpus_iterable, sentences), corpus_file)
        load_kernels(corpus.is_text, subwords=self.subwords, vector_size=self.vector_size)  # memory still empty
        if update:
            self.corpus_total_words = word2vec_training.grow_vocabulary(self, corpus, trim_rule)
        else:
            vocab = Vocabulary.build(corpus, min_count=self.min_count, max_vocab_size=self.max_vocab_size,
                                     rule=word2vec_training.vocabulary_rule(self, trim_rule),
                                     sort=bool(self.sorted_vocab), threads=self.workers)
            self.set_vocabulary(vocab)
            self.corpus_total_words = vocab.corpus_tokens
        self._corpus, self._corpus_count, self._corpus_size = corpus, None, None
        return self

    @property
    def corpus_count(self):
        """gensim's: the sentences (documents) of the corpus ``build_vocab`` last read,
        counted on first use; 0 before any."""
        if self._corpus_count is None:
            return 0 if self._corpus is None else word2vec_training.size_of(self, self._corpus)[0]
        return self._corpus_count

    @corpus_count.setter
    def corpus_count(self, value):
        self._corpus_count = int(value)

    def corpus_description(self):
        """gensim's ``corpus_count`` (where the corpus is known) and ``corpus_total_words``,
        as saved with the model so that a loaded model still answers them."""
        known = self.corpus_count if self._corpus_count is not None or self._corpus is not None else None
        counts = {} if self.corpus_total_words is None else {"corpus_total_words": int(self.corpus_total_words)}
        return counts if known is None else {"corpus_count": int(known), **counts}

    def output_rows(self, V):
        """Rows of the output matrices for V words: W_out (negative sampling, full softmax),
        W_inner (hierarchical softmax: one per inner node of the Huffman tree); 0 if unused."""
        uses_out = self.mode & (kernels.NEGATIVE_SAMPLING | kernels.FULL_SOFTMAX)
        return {"W_out": V if uses_out else 0, "W_inner": max(V - 1, 1) if self.hs and self.loss is None else 0}

    def set_vocabulary(self, vocab):
        """Use ``vocab`` and (re)initialise: input vectors uniform in ±0.5/D as in word2vec,
        output vectors zero; all from ``numpy.random.default_rng(seed)``."""
        V, D = len(vocab), self.vector_size
        if self.memory_check:
            estimate.check_fits(self.estimate_memory(V), "lower vector_size, or raise min_count")
        self.vocab = vocab
        rng = np.random.default_rng(self.seed)
        self.W_in = ((rng.random((V, D), dtype=np.float32) - np.float32(0.5)) / np.float32(D))
        rows = self.output_rows(V)
        self.W_out = np.zeros((rows["W_out"], D), dtype=np.float32)
        self.W_inner = np.zeros((rows["W_inner"], D), dtype=np.float32)
        if self.subwords:
            self._init_subwords(rng)
        self.trained_words = self.planned_words = self.epochs_trained = 0
        self.history = []
        self._wv = None

    def _init_subwords(self, rng=None, W_ngrams=None):
        """The vocabulary's n-gram table (CSR, ``wordvec.data.subword``) and, unless given, the
        n-gram rows, initialised like the word rows (uniform in ±0.5/D)."""
        self.ngram_offsets, self.ngram_ids = ngram_table(self.vocab.words, self.min_n, self.max_n, self.bucket)
        self.ngram_overlaps = subword_kernels.bag_overlaps(self.ngram_offsets, self.ngram_ids)
        if W_ngrams is None:
            W_ngrams = rng.random((self.bucket, self.vector_size), dtype=np.float32)  # in place: 1 copy
            W_ngrams -= np.float32(0.5)
            W_ngrams /= np.float32(self.vector_size)
        self.W_ngrams = W_ngrams

    def estimate_memory(self, vocab_size=None, report=None, longest_document=None):
        """What training will allocate for ``vocab_size`` words (default: this model's
        vocabulary): a :class:`wordvec.models.base.estimate.MemoryEstimate` (arrays in bytes,
        peak) that also answers gensim's dictionary, ``estimate["total"]`` ... (its
        ``report``, added to gensim's ``report`` argument when one is given)."""
        V = len(self.vocab) if vocab_size is None else int(vocab_size)
        plan = estimate.word2vec(self, V, longest_document)
        plan.report = self._memory_report(V, report)
        return plan

    def _memory_report(self, V, report):
        """gensim's ``estimate_memory`` dictionary of this class (``word2vec_training``)."""
        return word2vec_training.memory_report(self, V, report)

    @property
    def wv(self):
        """The input vectors as ``KeyedVectors`` (shares memory with the model)."""
        if self.vocab is None:
            raise WordvecError("the model has no vocabulary yet; call build_vocab or train first")
        if self._wv is None and self.subwords:  # composed vectors: a copy, made once per train
            self._wv = SubwordKeyedVectors(self.vocab.words, self.composed_vectors(), self.W_ngrams,
                                           self.min_n, self.max_n, self.bucket, counts=self.vocab.counts,
                                           vectors_vocab=self.W_in)
        if self._wv is None:
            self._wv = KeyedVectors(self.vocab.words, self.W_in, counts=self.vocab.counts)
            if self.hs and self.loss is None:  # gensim's per-word Huffman attributes, built if read
                vocab = self.vocab
                self._wv.expandos.derive("code", lambda: word2vec_training.huffman_attribute(vocab, "codes"))
                self._wv.expandos.derive("point", lambda: word2vec_training.huffman_attribute(vocab, "points"))
        self._wv.lock_factors = self.lock_factors
        return self._wv

    @wv.setter
    def wv(self, keyed_vectors):
        """gensim's ``model.wv = kv``: the model's words and input vectors become ``kv``'s
        (:func:`wordvec.models.word2vec.training.set_word_vectors`)."""
        word2vec_training.set_word_vectors(self, keyed_vectors)

    @property
    def syn1neg(self):
        """gensim's name of the negative-sampling output rows (V x D; 0 rows without them)."""
        if self.vocab is None:
            raise WordvecError("the model has no vocabulary yet; call build_vocab or train first")
        return self.W_out

    @property
    def cum_table(self):
        """gensim's negative-sampling table of the vocabulary's counts^ns_exponent (uint32 (V,),
        :func:`wordvec.models.word2vec.training.cum_table`); None without negative sampling
        or a vocabulary, as in gensim."""
        if self.vocab is None or self.negative <= 0:
            return None
        return word2vec_training.cum_table(self.vocab.counts, self.ns_exponent)

    @property
    def syn1(self):
        """gensim's name of the hierarchical-softmax inner-node rows, V x D as gensim allocates
        them: the V-1 inner nodes (``W_inner``), then a row no word's path uses; 0 rows
        without hs.  ``W_inner`` becomes a view of its first V-1 rows, so a write to
        ``syn1`` reaches training."""
        if self.vocab is None:
            raise WordvecError("the model has no vocabulary yet; call build_vocab or train first")
        inner, V = self.W_inner, len(self.vocab)
        if inner.shape[0] == 0 or inner.shape[0] >= V:
            return inner
        base = inner.base
        if (type(base) is np.ndarray and base.shape == (V, inner.shape[1]) and base.dtype == inner.dtype
                and base.ctypes.data == inner.ctypes.data):
            return base
        rows = np.zeros((V, inner.shape[1]), dtype=inner.dtype)
        rows[:inner.shape[0]] = inner
        self.W_inner = rows[:inner.shape[0]]
        return rows

    def input_lock_factors(self):
        """The kernels' learning-rate factor of each input row (``Settings.lockf``): gensim's
        ``wv.vectors_lockf``, row i taking entry ``i mod len(vectors_lockf)`` as gensim indexes
        it, as (V,) float32; empty (``NO_LOCKS``) when every factor is 1, the plain step."""
        factors = self.lock_factors.array
        if np.all(factors == 1.0):
            return kernels.NO_LOCKS
        if self.subwords:
            raise WordvecError("a model with subwords trains every row at the full rate: wv.vectors_lockf must "
                               "be all 1.0 (gensim's FastText ignores vectors_lockf too)")
        return np.resize(factors, len(self.vocab)).astype(np.float32, copy=False)

    def composed_vectors(self):
        """Subword models: each vocabulary word's vector, the mean (or sum, ``cbow_mean=0``)
        of its own row and its n-gram rows (V x D float32)."""
        out = np.empty_like(self.W_in)
        subword_kernels.compose_vectors(self.W_in, self.W_ngrams, self.ngram_offsets, self.ngram_ids,
                                        bool(self.cbow_mean), out)
        return out

    # -- training ------------------------------------------------------------------------

    def fit(self, corpus_file, checkpointer=None):
        """Count ``corpus_file`` (a path or a ``Corpus``) unless the vocabulary is already
        there (a model loaded from a checkpoint), then train the rest of the plan, writing
        checkpoints through ``checkpointer``; returns ``self``."""
        if self.vocab is None:
            self.build_vocab(corpus_file=corpus_file)
            self.train(checkpointer=checkpointer)
        else:
            self.train(corpus_file=corpus_file, checkpointer=checkpointer)
        return self

    def train(self, corpus_iterable=None, corpus_file=None, total_examples=None, total_words=None, epochs=None,
              start_alpha=None, end_alpha=None, word_count=0, queue_factor=2, report_delay=1.0,
              compute_loss=False, callbacks=(), *, sentences=None, checkpointer=None):
        """Train on ``corpus_iterable`` / ``corpus_file``, or on the corpus ``build_vocab`` read.

        gensim's call (``total_examples`` or ``total_words`` given): ``epochs`` epochs
        decaying from ``start_alpha or alpha`` to ``end_alpha or min_alpha``, whatever
        came before; returns (trained words, raw words) (``wordvec.models.word2vec.training``).  wordvec's
        call (neither): ``epochs`` more epochs (default: the rest of the plan) of the one
        schedule the first call planned; returns this call's ``history`` entries.
        ``callbacks``: this call's (gensim's objects or functions f(model, info),
        ``wordvec.models.base.callbacks``); a wordvec call without any runs the constructor's.
        ``word_count``, ``queue_factor`` and ``report_delay`` have no effect.
        ``checkpointer`` (``wordvec.io.checkpoint.Checkpointer``): write checkpoints while
        training, and turn Ctrl-C into "finish the chunk, checkpoint, stop"."""
        corpus_iterable = _either(corpus_iterable, sentences)
        gensim_call = total_examples is not None or total_words is not None
        if self.vocab is not None:
            word2vec_training.check_output_layer(self)
        if not gensim_call:
            word2vec_training.refuse_mixed_call(start_alpha, end_alpha)
        if self.vocab is None:
            if corpus_iterable is None and corpus_file is None:
                raise WordvecError("nothing to train on: pass sentences or corpus_file")
            if gensim_call:
                raise WordvecError("you must first build vocabulary before training the model (build_vocab)")
            self.build_vocab(corpus_iterable, corpus_file)
            corpus_iterable = corpus_file = None
        if gensim_call and corpus_iterable is None and corpus_file is None:
            raise CorpusTypeError("train(total_examples=...) or train(total_words=...) is gensim's call, which "
                                  "trains on the corpus it is given: pass corpus_iterable or corpus_file")
        corpus = self._corpus if corpus_iterable is None and corpus_file is None else self._corpus_of(
            corpus_iterable, corpus_file)
        if corpus is None:
            raise WordvecError("this model was loaded without its corpus: pass sentences or corpus_file to train")
        encoded = encode_corpus(corpus, self.vocab, cache_dir=self.cache_dir, threads=self.workers)
        N = encoded.num_tokens
        if N == 0 and not gensim_call:
            raise TrainingError(f"{corpus} has no words of the vocabulary: an epoch would train nothing")
        plan = None
        if gensim_call:
            plan = word2vec_training.call_plan(self, corpus, N, total_examples, total_words, epochs, start_alpha,
                                               end_alpha)
            if N == 0:  # gensim answers (0, raw words) here too
                log.warning("%s has no words of the vocabulary: nothing to train", corpus)
                return 0, word2vec_training.size_of(self, corpus)[1] * plan.epochs
            epochs, self.planned_words = plan.epochs, self.planned_words or plan.epochs * N
        else:
            epochs = self._native_epochs(N, epochs)
        chosen = Callbacks(callbacks if callbacks or gensim_call else self.callbacks)
        done = self._run_epochs(encoded, epochs, plan, chosen, compute_loss, checkpointer)
        if gensim_call:
            return sum(info["words"] for info in done), word2vec_training.size_of(self, corpus)[1] * epochs
        return done

    def _native_epochs(self, N, epochs):
        """The epochs of a wordvec call on N tokens: ``epochs``, or the rest of the plan."""
        if self.planned_words == 0:
            self.planned_words = self.epochs * N
        if epochs is None:
            epochs = max(0, math.ceil((self.planned_words - self.trained_words) / N))
            if epochs == 0:
                raise WordvecError(f"the {self.epochs} planned epochs are done; pass epochs=k to train "
                                   f"k more (at min_alpha={self.min_alpha}, the end of the schedule), or "
                                   f"total_examples=model.corpus_count for gensim's call, which starts at alpha")
        if not isinstance(epochs, (int, np.integer)) or epochs < 1:
            raise WordvecError(f"epochs must be a positive integer, not {epochs!r}")
        return epochs

    def _run_epochs(self, encoded, epochs, plan, callbacks, compute_loss, checkpointer):
        """Train ``epochs`` epochs of ``encoded`` on the model's schedule or a gensim
        call's ``plan``, calling ``callbacks``; returns their history entries."""
        N = encoded.num_tokens
        alpha, min_alpha = (self.alpha, self.min_alpha) if plan is None else (plan.alpha, plan.min_alpha)
        check_rates(alpha, min_alpha)
        word2vec_training.warn_as_gensim(self, plan)
        self._wv = None
        self.compute_loss, self.running_training_loss = bool(compute_loss), 0.0
        log.info("training %s on %d tokens x %d epochs with %d worker(s), alpha %.4g -> %.4g",
                 self.describe(), N, epochs, self.workers, alpha, min_alpha)
        run = EpochRunner(self, encoded, checkpointer, plan)
        run.compile()  # so a cold Numba cache does not count as epoch 1's training time
        done = []
        interrupts = checkpointer.handle_interrupts() if checkpointer is not None else contextlib.nullcontext()
        callbacks.train_begin(self)
        with interrupts, progress_bar(self, N * epochs) as bar:
            for number in range(epochs):
                if plan is not None:
                    plan.epoch, plan.epoch_start = number, self.trained_words
                callbacks.epoch_begin(self)
                info = run.epoch(bar)
                append_epoch(self.history, info)
                done.append(info)
                if self.compute_loss:  # gensim's running sum over this call
                    self.running_training_loss += info["loss"] * info["examples"]
                bar.set_postfix(epoch=info["epoch"], loss=f"{info['loss']:.4f}")
                self._vectors_changed()
                callbacks.epoch_end(self, info)
        callbacks.train_end(self)
        self.min_alpha_yet_reached = word2vec_training.rate_reached(self, plan)
        return done

    def _vectors_changed(self):
        """After training: ``wv``'s cached norms (or, for subwords, its composed copy) are stale."""
        if self.subwords:
            self._wv = None
        elif self._wv is not None:
            self._wv.reset_norms()

    def get_latest_training_loss(self):
        """gensim's: the sum of the examples' losses over the last ``train`` call so far
        (0.0 unless it was called with ``compute_loss=True``); ``history`` holds each
        epoch's exact mean per example (``wordvec.models.word2vec.training``)."""
        return self.running_training_loss

    def score(self, sentences, total_sentences=int(1e6), chunksize=100, queue_factor=2, report_delay=1):
        """gensim's: each sentence's log-probability under hierarchical softmax, a float32
        array, for at most ``total_sentences`` sentences (:func:`wordvec.math.sentence_score`;
        ``chunksize``, ``queue_factor`` and ``report_delay`` have no effect)."""
        return word2vec_training.score(self, sentences, total_sentences)

    def predict_output_word(self, context_words_list, topn=10):
        """gensim's: the ``topn`` most probable centre words given the context words, as
        (word, probability) (:func:`wordvec.models.word2vec.training.predict_output_word`)."""
        return word2vec_training.predict_output_word(self, context_words_list, topn)

    def chunk_trainer(self, encoded):
        """A trainer of document ranges of ``encoded`` with this model's kernels and tables
        (``train_documents_at``): the hook of data-parallel training
        (``wordvec.distributed.training``), which decides the chunks and their schedule."""
        return EpochRunner(self, encoded)

    # -- persistence ---------------------------------------------------------------------

    def save(self, path, extra_json=None, separately=None, sep_limit=None, ignore=frozenset(), pickle_protocol=None):
        """Save to directory ``path`` (npy + JSON, atomic files, no pickle); ``extra_json``
        (file name -> object) adds files, e.g. a checkpoint's description.  gensim's pickling
        options (``separately``, ``sep_limit``, ``ignore``, ``pickle_protocol``) are taken and
        have no effect: every array is its own ``.npy`` file."""
        word2vec_io.save_model(self, path, extra_json=extra_json)

    @class_only
    def load(cls, path, **settings):
        """Load a model saved by :meth:`save`; ``train(corpus, ...)`` continues it.
        ``settings`` (``workers``, ``progress``, ``memory_check``) are this run's, not the
        saved model's.  A gensim pickle is read as data (``wordvec.models.gensim_load``);
        gensim's ``mmap="r"`` maps its arrays."""
        mmap = settings.pop("mmap", None)
        if is_pickle(path):
            return word2vec_io.load_gensim_model(cls, path, mmap)
        return word2vec_io.load_model(cls, path, settings)


def _either(corpus_iterable, sentences):
    """gensim's ``corpus_iterable``, or wordvec's earlier name for it, ``sentences``."""
    if corpus_iterable is not None and sentences is not None:
        raise WordvecError("pass the corpus once: corpus_iterable or sentences, not both")
    return sentences if corpus_iterable is None else corpus_iterable
