"""GloVe: global vectors from weighted least squares on log co-occurrence counts.

    from wordvec.models.count.glove import GloVe
    model = GloVe(corpus_file="text.txt", window=10, x_max=10, epochs=15)  # counts and trains
    model.wv.most_similar("king")
    model.save("glove.wv"); GloVe.load("glove.wv").train(epochs=5)        # resumes exactly

The objective and the exact step are in ``wordvec.math.glove`` (seed 002, "Global Vectors
for Word Representation"); ``wordvec.kernels.glove`` runs them.  Each epoch shuffles the
non-zero entries of X with a permutation that depends only on (seed, epoch), splits it
into ``workers`` contiguous shares and trains them in threads without locks (Hogwild),
AdaGrad accumulators per parameter starting at 1.0, as in the Stanford ``glove.c``.

The reported loss of an epoch is glove.c's "cost": 0.5 * sum f(X_ij) diff_ij^2 / nnz
(summed over the updates of the epoch, as they happen).  Output vectors: W + W~
(``output="sum"``, glove.c's ``-model 2``) or W (``output="word"``).

Defaults: ``x_max=100, power=0.75, learning_rate=0.05`` are glove.c's; ``window=10,
epochs=15`` are the settings of the project's benchmark (glove.c's own are 15 and 25).
"""

import contextlib
import dataclasses
import logging
import math
import time

import numpy as np

from wordvec.errors import TrainingError, WordvecError
from wordvec.io.atomic import saved_directory
from wordvec.io.formats import NATIVE_META, read_model_array
from wordvec.io.history import append_epoch
from wordvec.kernels import glove as kernels
from wordvec.math.glove import glove_weight
from wordvec.models.count import io as count_io
from wordvec.models.base import estimate
from wordvec.models.count.config import GloVeConfig
from wordvec.models.base.config import config_from, hyperparameters, shows_config
from wordvec.models.base.epochs import ThreadedEpoch
from wordvec.vectors.keyed import KeyedVectors
from wordvec import progress

log = logging.getLogger(__name__)

BLOCK = 1 << 20  # entries per kernel call: the progress bar's step; no effect on results
HYPERPARAMETERS = tuple(field.name for field in dataclasses.fields(GloVeConfig))  # saved in model.json
PARAMETERS = ("W", "W_context", "b", "b_context")


@shows_config(GloVeConfig)
class GloVe:
    """GloVe word vectors; ``.wv`` holds them.  Give a corpus to count and train at once."""

    def __init__(self, corpus_file=None, sentences=None, config=None, *, progress=True, cache_dir=None,
                 memory_check=True, **hyperparameters):
        """``hyperparameters``: the fields of :class:`wordvec.models.count.config.GloVeConfig` by
        name, or a whole ``config``; ``progress``, ``cache_dir`` and ``memory_check`` are
        settings of this process, not saved with the model."""
        self.config = config_from(GloVeConfig, config, hyperparameters)
        self.progress, self.cache_dir = progress, cache_dir
        self.words = self.counts = self.cooccurrence = None
        self.params, self.gradsq = {}, {}
        self.epochs_trained = 0
        self.history = []
        self.counting = {}
        self.memory_check = bool(memory_check)  # refuse an X whose arrays cannot fit (models.estimate)
        if corpus_file is not None or sentences is not None:
            self.build_cooccurrence(sentences=sentences, corpus_file=corpus_file)
            self.train()

    def hyperparameters(self):
        return hyperparameters(self.config)

    # -- data ------------------------------------------------------------------------

    def build_cooccurrence(self, sentences=None, corpus_file=None):
        """Count the vocabulary and X from a corpus, then initialise the parameters."""
        words, counts, matrix, self.counting = count_io.count_corpus(self, sentences, corpus_file)
        self.set_cooccurrence(words, counts, matrix)
        return self

    def set_cooccurrence(self, words, counts, matrix):
        """Train on a given V x V matrix (e.g. from ``wordvec cooccur``); re-initialise like
        glove.c: every vector entry and bias uniform in (-0.5, 0.5) / D, accumulators 1.0."""
        V, D = len(words), self.vector_size
        if matrix.shape != (V, V):
            raise WordvecError(f"the co-occurrence matrix is {matrix.shape}, the vocabulary has {V} words")
        if matrix.nnz == 0:
            raise TrainingError("the co-occurrence matrix is empty: no two words share a window")
        if self.memory_check:
            estimate.check_fits(self.estimate_memory(V, matrix.nnz), "lower vector_size, or raise min_count")
        self.words, self.counts, self.cooccurrence = list(words), counts, matrix.tocsr()
        rng = np.random.default_rng(self.seed)
        half, scale = np.float32(0.5), np.float32(D)
        self.params = {"W": (rng.random((V, D), dtype=np.float32) - half) / scale,
                       "W_context": (rng.random((V, D), dtype=np.float32) - half) / scale,
                       "b": (rng.random(V, dtype=np.float32) - half) / scale,
                       "b_context": (rng.random(V, dtype=np.float32) - half) / scale}
        self.gradsq = {name: np.ones_like(array) for name, array in self.params.items()}
        self.epochs_trained, self.history, self._wv = 0, [], None

    def estimate_memory(self, vocab_size=None, nnz=None):
        """What training allocates for ``vocab_size`` words and ``nnz`` non-zeros of X
        (defaults: this model's); a :class:`wordvec.models.base.estimate.MemoryEstimate`."""
        V = len(self.words) if vocab_size is None else int(vocab_size)
        if nnz is None and vocab_size is None and self.cooccurrence is not None:
            nnz = self.cooccurrence.nnz
        return estimate.glove(self, V, nnz)

    def entries(self):
        """The non-zeros as int32[nnz, 4]: (i, j, log X_ij, f(X_ij)), the last two float32 bits."""
        X = self.cooccurrence
        entries = np.empty((X.nnz, 4), np.int32)
        as_float = entries.view(np.float32)
        entries[:, 0] = np.repeat(np.arange(X.shape[0], dtype=np.int32), np.diff(X.indptr))
        entries[:, 1] = X.indices
        as_float[:, 2] = np.log(X.data)
        as_float[:, 3] = glove_weight(X.data, self.x_max, self.power, dtype=X.data.dtype)
        return entries

    # -- training --------------------------------------------------------------------

    def fit(self, corpus_file, checkpointer=None):
        """Count ``corpus_file`` (a path or a ``Corpus``) unless X is already there (a model
        loaded from a checkpoint), then train the remaining epochs; returns ``self``."""
        if self.cooccurrence is None:
            self.build_cooccurrence(corpus_file=corpus_file)
        self.train(checkpointer=checkpointer)
        return self

    def train(self, epochs=None, checkpointer=None):
        """Train ``epochs`` more epochs (default: up to ``self.epochs``); returns their history.
        ``checkpointer`` (``wordvec.io.checkpoint.Checkpointer``): consulted after every
        epoch; Ctrl-C finishes the epoch, writes a checkpoint and stops."""
        if self.cooccurrence is None:
            raise WordvecError("nothing to train on: give a corpus or call set_cooccurrence first")
        if epochs is None:
            epochs = self.epochs - self.epochs_trained
            if epochs < 1:
                raise WordvecError(f"the {self.epochs} planned epochs are done; pass epochs=k to train k more")
        if not isinstance(epochs, (int, np.integer)) or epochs < 1:
            raise WordvecError(f"epochs must be a positive whole number, not {epochs!r}")
        if len(self.cooccurrence.data) >= 2**31:
            raise WordvecError("more than 2**31 non-zero co-occurrences; raise min_count")
        entries = self.entries()
        as_float = entries.view(np.float32)
        order = np.empty(len(entries), np.int32)
        self._wv = None
        done = []
        interrupts = checkpointer.handle_interrupts() if checkpointer is not None else contextlib.nullcontext()
        with interrupts:
            for _ in range(epochs):
                done.append(self._train_epoch(entries, as_float, order, checkpointer))
        return done

    def _train_epoch(self, entries, as_float, order, checkpointer):
        """One epoch, logged into ``history``; a checkpoint after it if one is due."""
        started, cpu_started = time.perf_counter(), time.process_time()
        kernels.shuffle_order(order, self.seed, self.epochs_trained)
        loss, updates = self._epoch(entries, as_float, order)
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
        if not math.isfinite(loss) or updates == 0:
            raise TrainingError(f"training diverged in epoch {self.epochs_trained + 1}; "
                                f"try a smaller learning_rate than {self.learning_rate}")
        self.epochs_trained += 1
        info = {"epoch": self.epochs_trained, "loss": loss / updates, "updates": updates,
                "seconds": seconds, "cpu_seconds": cpu_seconds,
                "updates_per_sec": updates / max(seconds, 1e-9), "learning_rate": self.learning_rate,
                "words_per_sec": self._corpus_tokens() / max(seconds, 1e-9) or None}
        log.info("epoch %d: loss %.5f, %d updates, %.2fM updates/s, %.1f s", info["epoch"],
                 info["loss"], updates, info["updates_per_sec"] / 1e6, seconds)
        append_epoch(self.history, info)
        if checkpointer is not None and checkpointer.advance(updates):
            checkpointer.save(self, f"after epoch {self.epochs_trained} of {self.epochs}")
        return info

    def _corpus_tokens(self):
        """Tokens of the corpus that X counts (the vocabulary's counts add up to them)."""
        return int(np.sum(self.counts)) if self.counts is not None else 0

    def _epoch(self, entries, as_float, order):
        """One pass: share t = order[bounds[t]:bounds[t+1]] trained by one of ``workers``
        threads (the driver: ``wordvec.models.base.epochs``) in blocks of BLOCK."""
        bounds = np.linspace(0, len(order), self.workers + 1).astype(np.int64)
        results = [(0.0, 0)] * self.workers
        bar = _progress_bar(self, len(order), self.epochs_trained)

        def train_share(t):
            return self._train_share(entries, as_float, order, int(bounds[t]), int(bounds[t + 1]), bar)

        def record(t, loss, updates):
            results[t] = (loss, updates)

        try:
            ThreadedEpoch(order=list(range(self.workers)), train_unit=train_share, workers=self.workers,
                          record=record).run()
        finally:
            if bar is not None:
                bar.close()
        return sum(r[0] for r in results), sum(r[1] for r in results)

    def _train_share(self, entries, as_float, order, begin, end, bar):
        """Train the entries order[begin:end]; (loss, updates)."""
        p, g = self.params, self.gradsq
        return train_entries(kernels.Entries(entries, as_float, order), begin, end,
                             kernels.Parameters(p["W"], p["W_context"], p["b"], p["b_context"]),
                             kernels.Parameters(g["W"], g["W_context"], g["b"], g["b_context"]),
                             self.learning_rate, self.grad_clip, bar)

    # -- results ---------------------------------------------------------------------

    def vectors(self):
        """V x D float32: W + W~ (``output="sum"``) or W (``output="word"``)."""
        if self.output == "sum":
            return self.params["W"] + self.params["W_context"]
        return self.params["W"].copy()

    @property
    def wv(self):
        if self.words is None:
            raise WordvecError("the model has no vocabulary yet; give it a corpus first")
        if getattr(self, "_wv", None) is None:
            self._wv = KeyedVectors(self.words, self.vectors(), counts=self.counts)
        return self._wv

    def save(self, path, cooccurrence=True, extra_json=None):
        """Save to directory ``path``: vectors (a native vectors directory), parameters,
        AdaGrad accumulators and, unless ``cooccurrence=False``, X, so that ``load`` +
        ``train`` continues exactly; ``extra_json`` (file name -> object) adds files."""
        arrays = {f"glove_{name}.npy": self.params[name] for name in PARAMETERS}
        arrays.update({f"glove_gradsq_{name}.npy": self.gradsq[name] for name in PARAMETERS})
        count_io.save_model(self, path, "wordvec-glove", self.vectors(), arrays,
                            {"epochs_trained": self.epochs_trained}, cooccurrence, extra_json)

    @classmethod
    def load(cls, path, **settings):
        """Load a model saved by :meth:`save`; ``settings`` (``workers``, ``progress``,
        ``memory_check``) are this run's, not the saved model's."""
        path = saved_directory(path, NATIVE_META)  # a crash mid-replace leaves the old save aside
        model, state = count_io.load_model(cls, path, "wordvec-glove", settings)
        V, D = len(model.words), model.vector_size
        for name in PARAMETERS:
            shape = (V, D) if name.startswith("W") else (V,)
            model.params[name] = read_model_array(path, f"glove_{name}.npy", shape)
            model.gradsq[name] = read_model_array(path, f"glove_gradsq_{name}.npy", shape)
        model.epochs_trained = int(state["epochs_trained"])
        return model


def train_entries(data, begin, end, params, gradsq, learning_rate, grad_clip, bar=None):
    """The GloVe kernel on the entries order[begin:end] of ``data`` in blocks of BLOCK
    (the progress bar's step), for the model's threads and the Ray workers
    (``wordvec.distributed.training``) alike; (loss, updates)."""
    loss, updates = 0.0, 0
    for start in range(begin, end, BLOCK):
        stop = min(start + BLOCK, end)
        block_loss, block_updates = kernels.train_share(data, start, stop, params, gradsq, float(learning_rate),
                                                        float(grad_clip))
        loss, updates = loss + block_loss, updates + block_updates
        if bar is not None:
            bar.update(stop - start)
    return loss, updates


def _progress_bar(model, total, epoch):
    return progress.bar(total, f"epoch {epoch + 1}", unit="upd", enabled=model.progress, unit_scale=True)
