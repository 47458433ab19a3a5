"""Doc2Vec: paragraph vectors (Le & Mikolov 2014), PV-DBOW and PV-DM (its context rows
averaged, summed, or, with ``dm_concat=1``, concatenated), with inference.

    from wordvec.models.doc2vec.model import Doc2Vec
    model = Doc2Vec(dm=0, vector_size=100, epochs=20).fit(corpus_file="docs.txt")
    model = Doc2Vec(corpus_file="docs.txt", dm=0, vector_size=100, epochs=20)   # gensim's spelling
    model.dv[0]                      # the vector of line 0 (model.dv.vectors[i]: line i)
    model.dv.most_similar(0)         # the documents nearest to line 0
    model.infer_vector("a new text".split())
    model.save("docs.d2v"); Doc2Vec.load("docs.d2v")

Hyperparameters keep gensim's names and defaults (``dm=1``, ``dm_mean=1``, ``epochs=10``
...; ``wordvec.models.doc2vec.config.Doc2VecConfig``).  The maths is ``wordvec.math.doc2vec``;
the compiled loops are ``wordvec.kernels.doc2vec``, loaded through ``wordvec.kernels.loader``.
Training runs ``workers`` threads over chunks of whole documents (Hogwild; the driver:
``wordvec.models.base.epochs``), the chunks in a fresh seeded order every epoch
(``wordvec.data.schedule``), the learning rate decaying linearly over all tokens of all
epochs.  Inference (:meth:`Doc2Vec.infer_vectors`) trains many new documents at once,
spread over the threads, each one's random numbers a function of the seed and its words:
the same text and seed give the same vector, every time.

Documents are gensim's: an iterable of ``TaggedDocument(words, tags)`` (``wordvec.data.tagged``:
int tags are rows, str tags follow, several tags per document), or the lines of
``corpus_file`` (``wordvec.data.documents``), tagged by line number (the ints 0, 1, ... as in
gensim) or (``tags="first-token"``) by their first token.
"""

import logging
import math
import os
import threading
import time
from dataclasses import asdict
from functools import partial
from numbers import Integral
from os import PathLike

import numpy as np

from wordvec import limits
from wordvec.data import documents as docs
from wordvec.data import schedule
from wordvec.data import tagged
from wordvec.data.vocab import Vocabulary, alias_table
from wordvec.errors import FormatError, TrainingError, WordvecError
from wordvec.io import formats, word2vec_c
from wordvec.io.atomic import saved_directory
from wordvec.io.formats import json_safe, read_model_array
from wordvec.io.history import append_epoch
from wordvec.kernels import doc2vec as kernels
from wordvec.kernels import loader
from wordvec.io.gensim_pickle import is_pickle
from wordvec.kernels.word2vec import pack_alias_table
from wordvec.models.base import gensim_models
from wordvec.models.base.config import config_from, library_workers, shows_config
from wordvec.models.base.epochs import ThreadedEpoch
from wordvec.models.doc2vec.config import Doc2VecConfig
from wordvec.vectors.keyed import KeyedVectors

CHUNK_WORDS = 20_000
# With several threads, the HOT_WORDS most frequent words train in per-thread replica
# rows, merged after each chunk (``wordvec.kernels.doc2vec.train_documents``): two
# threads writing "the", "a" ... into the same rows example after example spent a third
# of their time passing those rows' cache lines between the cores.
HOT_WORDS = 1024
# ... with at most REPLICA_WORKERS threads.  Each thread adds its chunk's change of a
# replicated row to the shared row, every change computed from the row as it was when
# the chunks began; a frequent word's row moves most of the way to where its chunk pulls
# it, so k threads at once move it k times that way: past it by k - 1 times the distance,
# which grows round after round once k - 1 > 1.  gensim's test_parallel setting (Lee x20,
# PV-DM): document rows of mean norm 20.6 with shared rows at 1-6 threads, with replicas
# 20.4 (2 threads), 20.3 (3), 25.2 (4), 8.8e9 (6)
# (benchmarks/results/doc2vec/doc2vec-20261127-workers-replicas.json).
REPLICA_WORKERS = 2
FORMAT, VERSION, MANIFEST = "wordvec-doc2vec", 1, "model.json"
NULL_WORD = "\0"  # gensim's padding word of PV-DM with concatenation, never predicted
ARRAYS = {"P": "doc_vectors.npy", "W_out": "output_vectors.npy", "W_inner": "inner_vectors.npy"}
log = logging.getLogger(__name__)
__all__ = ["Doc2Vec", "Doc2VecConfig", "Doc2VecSettingError", "DocumentVectors", "is_doc2vec_model"]
# the kernels this process has loaded, by (warm-up, vector size): each through the loader once
_LOADED = set()


class Doc2VecSettingError(WordvecError, ValueError):
    """A gensim Doc2Vec setting wordvec does not train."""


class _ClassOnly(classmethod):
    """A classmethod that an instance does not have (an AttributeError, as gensim's
    ``model.load(path)``): ``Doc2Vec.load`` returns a new model, so ``model.load(path)``
    would leave ``model`` as it was."""

    def __get__(self, instance, owner=None):
        if instance is not None:
            raise AttributeError(self.__func__.__name__)
        return super().__get__(instance, owner)


class DocumentVectors(KeyedVectors):
    """The document vectors: a ``KeyedVectors`` whose keys are the tags (line tags are the
    ints 0, 1, ..., as gensim's).  An integer ``i`` means row i wherever a key is taken (gensim's
    ``model.dv[0]``, ``model.dv.most_similar(0)``), and a query row is never its own answer.
    As in gensim, int tags are plain row numbers: ``index_to_key`` lists every row's tag,
    ``key_to_index`` holds the str tags only, and ``tag in dv`` is True for both."""

    def __init__(self, tags, vectors):
        super().__init__(tags, vectors)
        self.key_to_index = {tag: row for row, tag in enumerate(tags) if not isinstance(tag, Integral)}

    def _row_of(self, tag):
        row = super()._row_of(tag)
        if row is None and isinstance(tag, Integral) and not isinstance(tag, bool) and 0 <= tag < len(self):
            return int(tag)
        return row

    def _key(self, key):
        if isinstance(key, Integral) and not isinstance(key, bool) and key not in self.key_to_index:
            return self.index_to_key[self.get_index(key)]
        return key

    def _query_terms(self, terms, default_weight):
        if isinstance(terms, (str, Integral, np.ndarray)):
            terms = [terms]
        if terms is not None:
            terms = [(self._key(t[0]), t[1]) if isinstance(t, tuple) else self._key(t) for t in terms]
        return super()._query_terms(terms, default_weight)


@shows_config(Doc2VecConfig, except_fields=("tags",))
class Doc2Vec:
    """Paragraph vectors: ``dm=1`` PV-DM, ``dm=0`` PV-DBOW (``dbow_words=1``: with
    skip-gram word training).  ``.dv`` the documents, ``.wv`` the words.  Every field of
    the config is an attribute (``model.alpha``; but ``model.tags`` is the documents'
    tags, ``model.config.tags`` the tag mode); assigning one replaces the config by a
    checked copy (gensim's code lowers ``model.alpha``, then ``model.min_alpha``, between
    ``train`` calls)."""

    def __init__(self, documents=None, corpus_file=None, config=None, *, workers=None, callbacks=(),
                 batch_words=10_000, trim_rule=None, comment=None, max_vocab_size=None, sorted_vocab=1,
                 **hyperparameters):
        """``hyperparameters``: the fields of :class:`wordvec.models.doc2vec.config.Doc2VecConfig`
        by name, gensim's (``dm=0, vector_size=100, epochs=20, ...``), or a whole ``config``;
        ``workers`` and ``callbacks`` are settings of this process.  With ``documents`` or
        ``corpus_file``, the model is trained at once (gensim's spelling of :meth:`fit`).
        gensim's ``batch_words`` and ``comment`` are taken and have no effect; its settings
        that wordvec does not train are refused.  ``dm_concat=1`` (with ``dm=1``) trains
        PV-DM with concatenation: the vocabulary gains gensim's null word ``"\\0"``, which
        fills the windows past a document's ends."""
        _refuse_untrained_settings(trim_rule, max_vocab_size, sorted_vocab)
        self.comment, self.batch_words = comment, batch_words
        self.corpus_count = 0
        self.config = config_from(Doc2VecConfig, config, hyperparameters)
        _check_rates(self.config)
        self.min_alpha_yet_reached = float(self.config.alpha)  # gensim's: the lowest rate trained at so far
        self.workers = library_workers() if workers is None else int(workers)
        limits.check_int("workers", self.workers)
        self.callbacks = tuple(callbacks)
        self.vocab = self.P = self.tags = None
        self.W_in = self.W_out = self.W_inner = None
        self.trained_words = self.planned_words = self.epochs_trained = 0
        self.history = []
        self.corpus_file = None
        # dv's object, and the sampling tables and token lookup of a vocabulary, made once
        # (gensim's code reads model.dv[tag] and calls infer_vector once a document)
        self._dv_made = self._vocab_made = None
        if documents is not None or corpus_file is not None:
            self.fit(documents, corpus_file)

    def fit(self, documents=None, corpus_file=None):
        """Build the vocabulary and the document rows from ``documents`` (TaggedDocuments or
        token lists) or the lines of ``corpus_file``, reading it once, and train the
        configured epochs; returns the model (``build_vocab`` then ``train``, gensim's)."""
        if corpus_file is not None and documents is not None:
            raise WordvecError("pass either corpus_file or documents, not both")
        if corpus_file is None and documents is None:
            raise WordvecError("fit needs the documents or a corpus_file")
        source = corpus_file if corpus_file is not None else documents
        # where the documents are, so that answers can quote them (``wordvec similar --docs``)
        self.corpus_file = os.path.abspath(corpus_file) if isinstance(corpus_file, (str, os.PathLike)) else None
        self._load_kernels(kernels.warm_up)
        vocab, encoded = self._read(source)
        self.set_vocabulary(vocab)
        self._train_encoded(encoded)
        return self

    def _load_kernels(self, warm_up):
        """Load a kernel for this vector size through the one loader, before the counts and
        vectors exist (``wordvec.kernels.loader``), once a process."""
        key = (warm_up.__name__, self.config.vector_size)
        if key not in _LOADED:
            loader.load_kernels(partial(warm_up, self.config.vector_size))
            _LOADED.add(key)

    def _read(self, source, vocab=None):
        """(vocabulary, encoded documents) of a corpus file, a TaggedDocument corpus or a
        list of token lists; with ``vocab``, encoded against it.  Sets ``corpus_count``."""
        if isinstance(source, (str, bytes, PathLike)):
            read = (docs.read_documents(source, self.config.tags, self.config.min_count) if vocab is None
                    else (vocab, docs.encode_documents(source, vocab, self.config.tags)))
            documents = read[1].offsets.size - 1
        elif tagged.is_tagged_corpus(source):
            *read, documents = tagged.read_tagged(source, self.config.min_count, vocab, self._tags_per_document())
        else:
            read = (docs.read_documents(source, self.config.tags, self.config.min_count) if vocab is None
                    else (vocab, docs.encode_documents(source, vocab, self.config.tags)))
            documents = read[1].offsets.size - 1
        if self._tags_per_document() and not tagged.is_tagged_corpus(source):
            raise Doc2VecSettingError(f"dm_tag_count={self.config.dm_tag_count} concatenates that many tags of each "
                                      "document, and lines of a file or token lists have one tag each; pass "
                                      f"TaggedDocuments with {self.config.dm_tag_count} tags, or dm_tag_count=1")
        self.corpus_count = documents
        return tuple(read)

    def _tags_per_document(self):
        """T when PV-DM with concatenation takes T > 1 tags of each document (documents with
        another number of tags are left out, as gensim leaves them out), else 0: every
        tag of a document trains its row on its own."""
        return self.config.concat if self.config.concat > 1 else 0

    def __getattr__(self, name):  # the config's fields are properties (``shows_config``)
        if name == "load":  # the descriptor refused an instance (_ClassOnly)
            raise AttributeError("load is called on the class, Doc2Vec.load(path), and returns the loaded model; "
                                 "calling it on a model would leave that model as it was")
        raise AttributeError(f"'Doc2Vec' object has no attribute {name!r}")

    def __str__(self):
        """gensim's short name of the settings, e.g. ``Doc2Vec<dbow,d100,n5,mc2,t2>`` (its
        IMDB tutorial names its models by it)."""
        c = self.config
        segments = [f'"{self.comment}"'] if self.comment else []
        segments.append(("dbow+w" if c.dbow_words else "dbow") if not c.dm else ("dm/m" if c.dm_mean else "dm/s"))
        segments.append(f"d{c.vector_size}")
        segments += [f"n{c.negative}"] if c.negative else []
        segments += ["hs"] if c.hs else []
        segments += [f"w{c.window}"] if c.dm or c.dbow_words else []
        segments += [f"mc{c.min_count}"] if c.min_count > 1 else []
        segments += [f"s{c.sample:g}"] if c.sample > 0 else []
        segments += [f"t{self.workers}"] if self.workers > 1 else []
        return f"{type(self).__name__}<{','.join(segments)}>"

    def __getitem__(self, tag):
        """gensim's ``model[key]``: the word's vector if ``key`` is a word of the vocabulary,
        else the document's (``model.dv[key]``, a KeyError if neither); a list of keys gives
        their rows stacked."""
        if isinstance(tag, (str, Integral)):
            words = self.wv
            return words[tag] if tag in words.key_to_index else self.dv[tag]
        return np.vstack([self[one] for one in tag])

    @property
    def corpus_total_words(self):
        """gensim's count of the corpus's words, every token before ``min_count`` (None
        before a vocabulary is built)."""
        return None if self.vocab is None else int(self.vocab.corpus_tokens)

    # -- vocabulary and parameters -------------------------------------------------------

    def build_vocab(self, corpus_iterable=None, corpus_file=None, update=False, progress_per=10_000,
                    keep_raw_vocab=False, trim_rule=None, **kwargs):
        """Count the words of the corpus (TaggedDocuments, a path, or a list of token lists)
        and initialise the word and document rows (``dv`` exists from here on)."""
        if update:
            raise Doc2VecSettingError("build_vocab(update=True) is not supported by Doc2Vec: build a new model")
        _refuse_untrained_settings(trim_rule, None, 1)
        vocab, encoded = self._read(_one_source(corpus_iterable, corpus_file))
        self.set_vocabulary(vocab)
        self._init_documents(encoded)
        return self

    def set_vocabulary(self, vocab):
        """Word rows uniform in ±0.5/D (word2vec), output rows zero; document rows are made
        by :meth:`train` once the documents are counted."""
        if self.config.concat and NULL_WORD not in vocab:  # gensim adds it with count 1: the last word
            vocab = Vocabulary(vocab.words + [NULL_WORD], np.append(vocab.counts, 1), corpus_tokens=vocab.corpus_tokens,
                               min_count=vocab.min_count)
        V, D, width = len(vocab), self.config.vector_size, self.config.layer_width()
        self.vocab = vocab
        rng = np.random.default_rng(self.config.seed)
        spare = self._replica_rows()
        self.W_in = _with_room((rng.random((V, D), dtype=np.float32) - np.float32(0.5)) / np.float32(D), spare)
        self.W_out = _with_room(np.zeros((V if self.config.negative else 0, width), np.float32), spare)
        self.W_inner = np.zeros((max(V - 1, 1) if self.config.hs else 0, width), np.float32)
        self.P, self.tags = None, None
        self.trained_words = self.planned_words = self.epochs_trained = 0
        self.history = []

    def _init_documents(self, encoded):
        rng = np.random.default_rng([self.config.seed, 1])
        D = self.config.vector_size
        self.P = (rng.random((len(encoded.tags), D), dtype=np.float32) - np.float32(0.5)) / np.float32(D)
        self.tags = list(encoded.tags)

    @property
    def wv(self):
        """The word vectors (shares memory with the model)."""
        self._need_vocab()
        return KeyedVectors(self.vocab.words, self.W_in, counts=self.vocab.counts)

    @property
    def dv(self):
        """The document vectors: row i of ``dv.vectors`` is line i (line tags)."""
        if self.P is None:
            raise WordvecError("the model has no document vectors yet; train it first")
        made = self.__dict__.get("_dv_made")
        if made is None or made[0] is not self.P or made[1] is not self.tags:
            made = self._dv_made = (self.P, self.tags, DocumentVectors(self.tags, self.P))
        return made[2]

    def _hot_words(self):
        """How many of the most frequent words each thread trains in replica rows (none
        with one thread, or more than ``REPLICA_WORKERS``, or hierarchical softmax)."""
        if (not 2 <= self.workers <= REPLICA_WORKERS or self.config.mode != kernels.NEGATIVE_SAMPLING
                or self.config.concat):
            return 0
        return min(HOT_WORDS, len(self.vocab))

    def _replica_rows(self):
        return self.workers * self._hot_words()

    def _need_vocab(self):
        if self.vocab is None:
            raise WordvecError("the model has no vocabulary yet; call build_vocab or train first")

    def _vocabulary_made(self):
        """(vocabulary, config, its tables, its token lookup), made once per vocabulary."""
        made = self.__dict__.get("_vocab_made")
        if made is None or made[0] is not self.vocab or made[1] is not self.config:
            made = (self.vocab, self.config, self._make_tables(), docs.vocabulary_byte_ids(self.vocab))
            self._vocab_made = made
        return made

    def _tables(self):
        """(keep, noise, points, codes, lengths) for the kernels."""
        return self._vocabulary_made()[2]

    def _make_tables(self):
        c, vocab, V = self.config, self.vocab, len(self.vocab)
        keep = vocab.keep_probability(c.sample).astype(np.float32)
        noise = np.zeros(1, np.uint64)
        if c.negative:
            noise = pack_alias_table(*alias_table(vocab.noise_distribution(c.ns_exponent)))
        if c.hs:
            tree = vocab.huffman()
            return keep, noise, tree.points, tree.codes, tree.lengths
        return keep, noise, np.zeros((V, 1), np.int32), np.zeros((V, 1), np.uint8), np.zeros(V, np.int32)

    def _settings(self, dbow_words):
        """The kernels' :data:`wordvec.kernels.doc2vec.Settings`."""
        c = self.config
        null_word = self.vocab.index[NULL_WORD] if c.concat else 0
        return kernels.make_settings(c.dm, c.mode, c.dm_mean, c.window, c.negative, dbow_words, c.shrink_windows,
                                     c.concat, null_word)

    @property
    def layer1_size(self):
        """gensim's width of the hidden layer and the output rows: (T + 2 window) vector_size
        with concatenation, else vector_size."""
        return self.config.layer_width()

    @property
    def null_word(self):
        """gensim's flag: 1 if the vocabulary holds the null word ``"\\0"`` (concatenation)."""
        return int(bool(self.config.concat))

    def _outputs(self):
        stand_in = np.zeros((1, self.config.layer_width()), np.float32)
        return (self.W_out if self.W_out.shape[0] else stand_in, self.W_inner if self.W_inner.shape[0] else stand_in)

    # -- training ------------------------------------------------------------------------

    def train(self, corpus_iterable=None, corpus_file=None, total_examples=None, total_words=None, epochs=None,
              start_alpha=None, end_alpha=None, word_count=0, queue_factor=2, report_delay=1.0, callbacks=(),
              **kwargs):
        """Train the documents of the corpus (those of ``build_vocab``: their tags fix the
        rows) for ``epochs`` (default: the configured number); returns the epochs' history.
        ``total_examples``/``total_words``/``queue_factor``/``report_delay`` are gensim's
        progress and queueing hints, taken and not needed (the corpus is counted here)."""
        self._need_vocab()
        if start_alpha is not None or end_alpha is not None:
            raise Doc2VecSettingError("start_alpha/end_alpha are not supported by Doc2Vec.train; "
                                      "set alpha and min_alpha on the model")
        source = _one_source(corpus_iterable, corpus_file)
        self._load_kernels(kernels.warm_up)
        _, encoded = self._read(source, self.vocab)
        self.callbacks = self.callbacks + tuple(callbacks)
        try:
            return self._train_encoded(encoded, epochs)
        finally:
            self.callbacks = self.callbacks[:len(self.callbacks) - len(callbacks)]

    def _train_encoded(self, encoded, epochs=None):
        _check_rates(self.config)
        if self.config.alpha > self.min_alpha_yet_reached:  # gensim's warning, in its words
            log.warning("Effective 'alpha' higher than previous training cycles")
        if self.P is None:
            self._init_documents(encoded)
        elif list(encoded.tags) != self.tags:
            encoded = self._onto_known_rows(encoded)
        if len(self.vocab) == 0:
            raise TrainingError(f"the vocabulary is empty: no word of the documents occurs {self.config.min_count} "
                                "times or more; lower min_count")
        if encoded.num_tokens == 0:
            raise TrainingError("the documents have no words of the vocabulary: an epoch would train nothing")
        epochs = self.config.epochs if epochs is None else epochs
        if not isinstance(epochs, Integral) or epochs < 1:
            raise WordvecError(f"epochs must be a positive integer, not {epochs!r}")
        if self.planned_words == 0:
            self.planned_words = self.config.epochs * encoded.num_tokens
        runner = _EpochRunner(self, encoded)
        done = []
        for _ in range(epochs):
            info = append_epoch(self.history, runner.epoch())
            if self.__dict__.get("_dv_made") is not None:  # its rows moved: its unit rows are stale
                self._dv_made[2].reset_norms()
            done.append(info)
            for callback in self.callbacks:
                callback(self, info)
        self.min_alpha_yet_reached = self._rate_reached()
        return done

    def _rate_reached(self):
        """The learning rate where training stands now (alpha before any)."""
        c = self.config
        return float(schedule.learning_rate(c.alpha, c.min_alpha, self.trained_words, self.planned_words))

    @property
    def syn1neg(self):
        """gensim's name of the negative-sampling output rows (V x layer1_size; empty without it)."""
        self._need_vocab()
        return self.W_out

    @property
    def syn1(self):
        """gensim's name of the hierarchical-softmax inner-node rows (V-1 x layer1_size; empty without hs)."""
        self._need_vocab()
        return self.W_inner

    def _onto_known_rows(self, encoded):
        """Documents whose tags the model has (gensim trains any of them, a subset too): their
        rows renumbered to the model's; a tag the model was not built with is refused."""
        row_of = {tag: row for row, tag in enumerate(self.tags)}
        unknown = [tag for tag in encoded.tags if tag not in row_of]
        if unknown:
            raise WordvecError(f"these documents have tags the model was not built with ({unknown[0]!r}, "
                               f"{len(unknown)} in all); build a vocabulary that includes them first")
        rows = np.array([row_of[tag] for tag in encoded.tags], dtype=np.int64)[encoded.rows]
        return docs.EncodedDocuments(encoded.ids, encoded.offsets, rows, list(self.tags))

    # -- inference -----------------------------------------------------------------------

    def similarity_unseen_docs(self, doc_words1, doc_words2, alpha=None, min_alpha=None, epochs=None):
        """Cosine similarity of two new documents' inferred vectors."""
        first = self.infer_vector(doc_words1, epochs, alpha, min_alpha)
        second = self.infer_vector(doc_words2, epochs, alpha, min_alpha)
        norms = float(np.linalg.norm(first) * np.linalg.norm(second))
        return float(np.dot(first, second) / norms) if norms > 0 else 0.0

    def infer_vector(self, doc_words, epochs=None, alpha=None, min_alpha=None, seed=None):
        """The vector of a new document (a list of tokens), trained against the frozen word
        and output rows; the same words and seed always give the same vector."""
        if isinstance(doc_words, str):
            raise WordvecError("infer_vector takes a list of tokens (e.g. text.split()), not a string")
        return self.infer_vectors([doc_words], epochs, alpha, min_alpha, seed, workers=1)[0]

    def infer_vectors(self, source, epochs=None, alpha=None, min_alpha=None, seed=None, workers=None):
        """Vectors (n_docs x D float32) of every document of ``source`` (a path: one per
        line, or a list of token lists), in one compiled pass per thread."""
        self._need_vocab()
        c = self.config
        epochs = c.epochs if epochs is None else epochs
        limits.check_int("epochs", epochs)
        alpha = c.alpha if alpha is None else float(alpha)
        min_alpha = c.min_alpha if min_alpha is None else float(min_alpha)
        if not (math.isfinite(alpha) and alpha > 0 and math.isfinite(min_alpha) and 0 <= min_alpha <= alpha):
            raise WordvecError(f"inference needs 0 < alpha and 0 <= min_alpha <= alpha, not {alpha}, {min_alpha}")
        seed = c.seed if seed is None else seed
        limits.check_int("seed", seed)
        encoded = docs.encode_documents(source, self.vocab, "line", self._vocabulary_made()[3])
        n = encoded.offsets.size - 1
        out = np.zeros((n, c.vector_size), np.float32)
        keep, noise, points, codes, lengths = self._tables()
        corpus = kernels.Corpus(encoded.ids, encoded.offsets, keep)
        args = (kernels.Matrices(self.W_in, *self._outputs()), kernels.Outputs(points, codes, lengths, noise),
                self._settings(False),
                kernels.make_inference(epochs, alpha, min_alpha, seed))
        ranges = _balanced_ranges(encoded.offsets, self.workers if workers is None else int(workers))
        self._load_kernels(kernels.warm_up_inference)  # before the threads
        if len(ranges) == 1:  # one document (infer_vector) or one thread: no thread to start
            kernels.infer_documents(corpus, *ranges[0], out, *args)
        else:
            threads = [threading.Thread(target=kernels.infer_documents, args=(corpus, begin, end, out) + args)
                       for begin, end in ranges]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        diverged = np.flatnonzero(~np.isfinite(out).all(axis=1))
        if len(diverged):  # as training checks its loss
            raise TrainingError(f"inference diverged: the vectors of {len(diverged)} of {n} documents (the first: "
                                f"document {diverged[0] + 1}) are not finite; try a smaller alpha than {alpha}")
        return out

    # -- persistence ---------------------------------------------------------------------

    def save(self, path, separately=None, sep_limit=None, ignore=frozenset(), pickle_protocol=None):
        """A directory: the word vectors as a native vectors save (``load_vectors`` reads
        it), plus doc_vectors.npy, the output rows and model.json; atomic, no pickle.  gensim's
        pickling options are taken and have no effect (every array is its own file)."""
        if self.P is None:
            raise WordvecError("cannot save a model before it is trained")
        manifest = {"format": FORMAT, "version": VERSION, "config": json_safe(asdict(self.config)),
                    "workers": self.workers, "corpus_tokens": self.vocab.corpus_tokens,
                    "tags": None if self.tags == list(range(len(self.tags))) else self.tags,
                    "documents": len(self.tags), "corpus_count": self.corpus_count,
                    "schedule": {"trained_words": self.trained_words, "planned_words": self.planned_words,
                                 "epochs_trained": self.epochs_trained},
                    "history": json_safe(self.history), "corpus_file": getattr(self, "corpus_file", None)}
        formats.write_native(path, self.vocab.words, self.W_in, self.vocab.counts,
                             extra_arrays={name: getattr(self, a) for a, name in ARRAYS.items()},
                             extra_json={MANIFEST: manifest})

    def save_word2vec_format(self, fname, doctag_vec=False, word_vec=True, prefix="*dt_", fvocab=None,
                             binary=False):
        """gensim's word2vec C-format file of the word vectors (``word_vec``) and/or the
        document vectors (``doctag_vec``, each key ``prefix`` + its tag), one header
        counting every row written: the words in descending count, then the documents in
        row order (int tags, then str tags as first seen; gensim puts str tags seen in
        more documents first).  ``fvocab`` writes the words' "word count" lines (words
        only: the documents' counts are not kept).  Written whole and atomically."""
        if not (doctag_vec or word_vec):
            raise WordvecError("save_word2vec_format with doctag_vec=False and word_vec=False has nothing to write")
        keys, blocks = [], []
        if word_vec:
            words = self.wv
            keys += list(words.index_to_key)
            blocks.append(words.vectors)
        if doctag_vec:
            documents = self.dv
            keys += [f"{prefix}{tag}" for tag in documents.index_to_key]
            blocks.append(documents.vectors)
        if fvocab is not None:
            if not word_vec:
                raise WordvecError("fvocab lists the words' counts: pass word_vec=True with it")
            word2vec_c.write_vocab(fvocab, self.vocab.words, self.vocab.counts)
        vectors = np.vstack(blocks)
        if binary:
            formats.write_word2vec_binary(fname, keys, vectors)
        else:
            formats.write_word2vec_text(fname, keys, vectors)

    @_ClassOnly
    def load(cls, path, mmap=None):
        """A model saved by :meth:`save`, or a gensim pickle read as data (``wordvec.models.gensim_load``)."""
        if is_pickle(path):
            return _from_gensim(cls, path, mmap)
        path = saved_directory(path, formats.NATIVE_META)
        meta = _read_manifest(path)
        try:
            model = cls(workers=meta["workers"], **meta["config"])
            words, vectors, counts = formats.read_native(path)
            model.vocab = Vocabulary(words, counts, corpus_tokens=meta["corpus_tokens"],
                                     min_count=model.config.min_count)
            n = int(meta["documents"])
            model.tags = list(range(n)) if meta["tags"] is None else [
                t if isinstance(t, int) else str(t) for t in meta["tags"]]
            model.corpus_count = int(meta.get("corpus_count", n))
            model.corpus_file = meta.get("corpus_file") if isinstance(meta.get("corpus_file"), str) else None
            sched = meta["schedule"]
            trained = (int(sched["trained_words"]), int(sched["planned_words"]), int(sched["epochs_trained"]))
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(path / MANIFEST, None, f"not a valid Doc2Vec model description ({error})") from None
        V, D = len(words), model.config.vector_size
        model.W_in = _with_room(np.ascontiguousarray(vectors, dtype=np.float32), model._replica_rows())
        if model.W_in.shape != (V, D) or len(model.tags) != n:
            raise FormatError(path, None, f"the word vectors are {model.W_in.shape}, the model says {(V, D)}")
        if model.config.concat and NULL_WORD not in model.vocab:
            raise FormatError(path, None, "a model with dm_concat=1 needs the null word \"\\0\" in its vocabulary")
        width = model.config.layer_width()
        shapes = {"P": (n, D), "W_out": (V if model.config.negative else 0, width),
                  "W_inner": (max(V - 1, 1) if model.config.hs else 0, width)}
        for attribute, name in ARRAYS.items():  # the kernels index these without bounds checks
            setattr(model, attribute, read_model_array(path, name, shapes[attribute]).astype(np.float32))
        model.W_out = _with_room(model.W_out, model._replica_rows())
        model.trained_words, model.planned_words, model.epochs_trained = trained
        model.min_alpha_yet_reached = model._rate_reached() if model.trained_words else float(model.config.alpha)
        model.history = list(meta.get("history", []))
        return model


def _one_source(corpus_iterable, corpus_file):
    """The corpus of a ``build_vocab``/``train`` call; a TypeError as gensim's when there
    is not exactly one, or ``corpus_file`` is not a path."""
    if (corpus_iterable is None) == (corpus_file is None):
        raise tagged.CorpusTypeError("pass exactly one of corpus_iterable and corpus_file")
    if corpus_file is not None and not isinstance(corpus_file, (str, PathLike)):
        raise tagged.CorpusTypeError(f"corpus_file must be the path of a file, not a {type(corpus_file).__name__} "
                                     "(documents in memory go in corpus_iterable)")
    return corpus_file if corpus_file is not None else corpus_iterable


def _check_rates(config):
    """The learning rate decays from alpha to min_alpha: a rising one is refused (checked
    when a model is made and when it trains, not by the config: gensim's code lowers
    ``model.alpha``, then ``model.min_alpha``, passing through min_alpha > alpha)."""
    if config.min_alpha > config.alpha:
        raise Doc2VecSettingError(f"min_alpha must be at most alpha ({config.alpha}), not {config.min_alpha}: the "
                                  "learning rate would rise during training")


def _refuse_untrained_settings(trim_rule, max_vocab_size, sorted_vocab):
    """gensim settings whose training wordvec does not have: refused, never ignored."""
    refused = {"trim_rule": trim_rule is not None, "max_vocab_size": max_vocab_size is not None,
               "sorted_vocab=0": not sorted_vocab}
    named = [name for name, given in refused.items() if given]
    if named:
        raise Doc2VecSettingError(f"Doc2Vec does not support {', '.join(named)}; leave it at gensim's default")


def _from_gensim(cls, path, mmap):
    """A gensim Doc2Vec pickle (3.x or 4.x) read as data (``wordvec.models.base.gensim_models``)."""
    top = gensim_models.read_model(path, ("Doc2Vec",), mmap)
    fields = gensim_models.fields_of(path, top, gensim_models.word_model_fields)
    state = top.state
    settings = {k: v for k, v in fields["settings"].items() if k not in ("sg", "cbow_mean")}
    model = cls(dm=0 if state.get("sg") else 1, dm_mean=int(state.get("cbow_mean", 1)),
                dbow_words=int(state.get("dbow_words", 0)), shrink_windows=bool(state.get("shrink_windows", True)),
                dm_concat=int(bool(state.get("dm_concat", 0))), dm_tag_count=int(state.get("dm_tag_count", 1)),
                **settings)
    model.vocab = fields["vocab"]
    if model.config.concat and NULL_WORD not in model.vocab:
        raise FormatError(path, None, "a gensim Doc2Vec with dm_concat=1 needs the null word \"\\0\" in its "
                                      "vocabulary, and this one has none")
    V, width = len(model.vocab), model.config.layer_width()  # output rows (T + 2 window) D wide with dm_concat
    model.W_in = _with_room(fields["W_in"], model._replica_rows())
    model.W_out = _with_room(gensim_models.rows_or_zeros(fields["syn1neg"], V if model.config.negative else 0, width),
                             model._replica_rows())
    model.W_inner = gensim_models.rows_or_zeros(fields["syn1"], max(V - 1, 1) if model.config.hs else 0, width)
    model.P = gensim_models.fields_of(path, top, gensim_models.document_rows)
    model.tags = gensim_models.fields_of(path, top, lambda t: gensim_models.document_tags(t, len(model.P)))
    model.corpus_count = int(fields["corpus_count"] or len(model.tags))
    return model


def _read_manifest(path):
    manifest = path / MANIFEST
    if not manifest.is_file():
        raise WordvecError(f"{path} is not a saved wordvec Doc2Vec model (no {MANIFEST})")
    meta = formats.read_json_object(manifest)
    if meta.get("format") != FORMAT:
        raise FormatError(manifest, None, "not a wordvec Doc2Vec model description")
    return meta


def is_doc2vec_model(path):
    """True if ``path`` is a directory saved by :meth:`Doc2Vec.save`."""
    manifest = saved_directory(path, formats.NATIVE_META) / MANIFEST
    try:
        return manifest.is_file() and formats.read_json_object(manifest).get("format") == FORMAT
    except WordvecError:
        return False


def _with_room(matrix, spare):
    """``matrix`` as the first rows of a float32 array ``spare`` rows longer (the threads'
    replica rows; the matrix itself keeps its shape), or itself if it is that already."""
    full = matrix.base
    if (spare == 0 or isinstance(full, np.ndarray) and full.dtype == np.float32 and full.flags.c_contiguous
            and full.shape == (matrix.shape[0] + spare, matrix.shape[1]) and matrix.ctypes.data == full.ctypes.data):
        return matrix
    full = np.zeros((matrix.shape[0] + spare, matrix.shape[1]), np.float32)
    full[:matrix.shape[0]] = matrix
    return full[:matrix.shape[0]]


def _balanced_ranges(offsets, parts):
    """Split documents into at most ``parts`` contiguous ranges of about equal tokens."""
    n = offsets.size - 1
    if n == 0:
        return []
    targets = offsets[-1] * np.arange(1, parts) / parts
    cuts = np.searchsorted(offsets[1:], targets, side="left") + 1
    bounds = np.unique(np.concatenate(([0], np.minimum(cuts, n), [n])))
    return list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))


class _ThreadSlots:
    """Each thread's number, 0, 1, ... in the order the threads first ask: the replica rows
    it trains in (``wordvec.kernels.doc2vec.train_documents``)."""

    def __init__(self):
        self._local, self._lock, self._next = threading.local(), threading.Lock(), 0

    def mine(self):
        slot = getattr(self._local, "slot", None)
        if slot is None:
            with self._lock:
                slot = self._local.slot = self._next
                self._next += 1
        return slot


class _EpochRunner:
    """One epoch at a time over encoded documents with ``model.workers`` threads (Hogwild;
    the driver: ``wordvec.models.base.epochs``)."""

    def __init__(self, model, encoded):
        self.model, self.encoded = model, encoded
        self.bounds = schedule.chunk_bounds(encoded.offsets, CHUNK_WORDS)
        self.chunk_sizes = np.diff(encoded.offsets[self.bounds])
        keep, noise, points, codes, lengths = model._tables()
        self.hot = model._hot_words()
        if self.hot:  # the kernels train in the replica rows past the matrices' own
            model.W_in = _with_room(model.W_in, model._replica_rows())
            model.W_out = _with_room(model.W_out, model._replica_rows())
            self.matrices = kernels.Matrices(model.W_in.base, model.W_out.base, model._outputs()[1])
        else:
            self.matrices = kernels.Matrices(model.W_in, *model._outputs())
        c = model.config
        self.corpus = kernels.Corpus(encoded.ids, encoded.offsets, keep)
        self.outputs = kernels.Outputs(points, codes, lengths, noise)
        self.settings = model._settings(c.dbow_words)

    def _train(self, begin, end, words_before, seed, slot):
        """Documents begin..end-1 in the thread numbered ``slot`` (its replica rows)."""
        m, c = self.model, self.model.config
        at = kernels.make_schedule(c.alpha, c.min_alpha, words_before, max(m.planned_words, 1), seed)
        return kernels.train_documents(self.corpus, self.encoded.rows, begin, end, m.P, self.matrices, self.outputs,
                                       self.settings, at, self.hot, len(m.vocab) + slot * self.hot)

    def epoch(self):
        m, c = self.model, self.model.config
        epoch, n_chunks = m.epochs_trained, self.bounds.size - 1
        order = schedule.chunk_order(c.seed, epoch, n_chunks) if c.shuffle else np.arange(n_chunks)
        words_before = m.trained_words + schedule.positions_in_epoch(self.chunk_sizes, order)
        losses, stats = np.zeros(n_chunks), np.zeros((n_chunks, 2), np.int64)
        slots = _ThreadSlots()

        def train_unit(index):
            return self._train(int(self.bounds[index]), int(self.bounds[index + 1]), int(words_before[index]),
                               schedule.chunk_seed(c.seed, epoch, index), slots.mine())

        def record(index, loss, chunk_stats):
            losses[index], stats[index] = loss, chunk_stats
            if not math.isfinite(loss):
                return TrainingError(f"training diverged (the loss became {loss}) in epoch {epoch + 1}; "
                                     f"try a smaller alpha than {c.alpha}")
            return None

        started = time.perf_counter()
        ThreadedEpoch(order=order.tolist(), train_unit=train_unit, workers=m.workers, record=record).run()
        seconds = time.perf_counter() - started
        loss = float(losses.sum())  # summed in chunk order: independent of the threads
        words, examples = (int(x) for x in stats.sum(axis=0))
        m.trained_words += words
        m.epochs_trained += 1
        return {"epoch": m.epochs_trained, "loss": loss / max(examples, 1), "examples": examples, "words": words,
                "seconds": seconds, "words_per_sec": words / max(seconds, 1e-9),
                "alpha": schedule.learning_rate(c.alpha, c.min_alpha, m.trained_words, m.planned_words)}
