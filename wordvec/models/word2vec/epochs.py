"""word2vec's epochs: the runner that trains an encoded corpus chunk by chunk with
``workers`` threads (the driver: ``wordvec.models.base.epochs``), its checkpoint hooks, the
kernels' loading and the progress bar.  ``wordvec.models.word2vec.model.Word2Vec`` owns the
model and the schedule's plan; this module runs it.

An epoch takes the corpus's chunks of about ``CHUNK_WORDS`` words in a fresh seeded order
(``wordvec.data.schedule``); each chunk is one call of the compiled kernel
(``wordvec.kernels.word2vec.train_chunk``, or ``wordvec.kernels.subword``'s), seeded by
(model seed, epoch, chunk), at the learning rate of its position in the model's plan, so
that results depend neither on the thread count's timing nor on resuming.
"""

import logging
import math
import time
from functools import partial

import numpy as np

from wordvec.data import encode, schedule
from wordvec.data.vocab import alias_table
from wordvec.errors import TrainingError, WordvecError
from wordvec.kernels import loader
from wordvec.kernels import subword as subword_kernels
from wordvec.kernels import word2vec as kernels
from wordvec.models.word2vec import sync as word2vec_sync
from wordvec.models.base.epochs import ThreadedEpoch
from wordvec import progress

log = logging.getLogger(__name__)

CHUNK_WORDS = 20_000


def read_only(array):
    """A read-only view, so that the kernel sees one array type whatever the source
    (a read-only memory map of the cache, or an array in memory)."""
    view = array.view()
    view.flags.writeable = False
    return view


def load_kernels(text=True, subwords=False, *, vector_size):
    """Load the training kernel for ``vector_size`` (and the kernels that count and encode
    text, and the subword kernel) through the one loader (``wordvec.kernels.loader``).
    Called before the counts and vectors exist, so that the process's peak memory is not
    LLVM's pages on top of the model's."""
    warm_ups = [encode.warm_up] if text else []
    warm_ups.append(partial(kernels.warm_up, vector_size))
    if subwords:
        warm_ups.append(partial(subword_kernels.warm_up, vector_size))
    loader.load_kernels(*warm_ups)


class EpochRunner:
    """Runs epochs over an encoded corpus with ``model.workers`` threads."""

    def __init__(self, model, encoded, checkpointer=None, plan=None):
        self.model, self.encoded, self.checkpointer = model, encoded, checkpointer
        self.plan = plan  # a gensim call's schedule (word2vec_training.CallPlan); None: the model's own
        self.ids, self.offsets = read_only(encoded.ids), np.ascontiguousarray(encoded.offsets, dtype=np.int64)
        self.bounds = schedule.chunk_bounds(self.offsets, CHUNK_WORDS)
        self.chunk_sizes = np.diff(self.offsets[self.bounds])
        vocab = model.vocab
        self.keep = vocab.keep_probability(model.sample).astype(np.float32)
        if model.mode & kernels.NEGATIVE_SAMPLING:
            self.noise = kernels.pack_alias_table(*alias_table(vocab.noise_distribution(model.ns_exponent)))
        else:
            self.noise = np.zeros(1, dtype=np.uint64)
        if model.mode & kernels.HIERARCHICAL_SOFTMAX:
            tree = vocab.huffman()
            self.points, self.codes, self.lengths = tree.points, tree.codes, tree.lengths
        else:
            self.points = np.zeros((len(vocab), 1), np.int32)
            self.codes = np.zeros((len(vocab), 1), np.uint8)
            self.lengths = np.zeros(len(vocab), np.int32)
        D = model.vector_size
        self.W_out = model.W_out if model.W_out.shape[0] else np.zeros((1, D), np.float32)
        self.W_inner = model.W_inner if model.W_inner.shape[0] else np.zeros((1, D), np.float32)
        self.concurrent = False  # whether several threads train in the same matrices now
        # the kernels' argument tables that stay the same for the whole run
        self.corpus = kernels.Corpus(self.ids, self.offsets, self.keep)
        self.outputs = kernels.Outputs(self.points, self.codes, self.lengths, self.noise)
        self.settings = kernels.make_settings(model.sg, model.mode, model.cbow_mean, model.window, model.negative,
                                              model.shared_negatives, model.batched, model.shrink_windows,
                                              model.input_lock_factors())
        if model.subwords:
            self.subwords = subword_kernels.Subwords(model.W_ngrams, model.ngram_offsets, model.ngram_ids,
                                                     model.ngram_overlaps)

    def trained_matrices(self):
        """The matrices training writes: W_in, W_out, W_inner (or their 1-row stand-ins)."""
        return [self.model.W_in, self.W_out, self.W_inner]

    def _chunk(self, index, words_before, epoch, matrices=None):
        begin, end = int(self.bounds[index]), int(self.bounds[index + 1])
        return self._train_documents(begin, end, int(words_before),
                                     np.uint64(schedule.chunk_seed(self.model.seed, epoch, index)), matrices)

    def _train_documents(self, begin, end, words_before, seed, matrices=None):
        m = self.model
        trained = kernels.Matrices(*(matrices or self.trained_matrices()))
        at = kernels.make_schedule(*self._rate(words_before), seed)
        if m.subwords:
            return subword_kernels.train_chunk(self.corpus, begin, end, trained, self.subwords, self.outputs,
                                               self.settings, at)
        return kernels.train_chunk(self.corpus, begin, end, trained, self.outputs, self.settings, at,
                                   concurrent=self.concurrent)

    def _rate(self, words_before):
        """(alpha, min_alpha, position, planned) of the schedule at the model's position ``words_before``."""
        m = self.model
        if self.plan is None:
            return m.alpha, m.min_alpha, words_before, m.planned_words
        return self.plan.rate_arguments(words_before)

    def train_documents_at(self, begin, end, words_before, seed):
        """Train documents [begin, end) at schedule position ``words_before`` with random
        state ``seed``; returns (loss, stats) of the kernel."""
        return self._train_documents(int(begin), int(end), int(words_before), np.uint64(seed))

    def compile(self):
        """Compile (or load from Numba's cache) the kernel for these arrays before any
        clock starts, by training an empty range of documents (a no-op after
        :func:`load_kernels`)."""
        self._train_documents(0, 0, 0, np.uint64(0))

    def _resume_epoch(self, epoch, order, losses, stats):
        """Restore the chunks of ``epoch`` that a checkpoint already trained (into
        ``losses`` and ``stats``); returns how many of ``order`` they are."""
        progress, self.model.epoch_progress = self.model.epoch_progress, None
        if not progress or progress["epoch"] != epoch:
            return 0
        done = progress["done"]
        if progress["chunks"] != order.size or sorted(row[0] for row in done) != sorted(order[:len(done)].tolist()):
            raise TrainingError("the checkpoint's unfinished epoch does not match this corpus's chunks; "
                                "resume with the corpus the checkpoint was trained on")
        for index, loss, words, examples in done:
            losses[index], stats[index] = loss, (words, examples)
        return len(done)

    def _checkpoint(self, checkpointer, epoch, done_order, losses, stats):
        """Save the model with the chunks ``done_order`` of ``epoch`` trained."""
        m = self.model
        done = [[int(i), float(losses[i]), int(stats[i, 0]), int(stats[i, 1])] for i in done_order]
        m.epoch_progress = {"epoch": epoch, "chunks": int(self.bounds.size - 1), "done": done}
        try:
            checkpointer.save(m, f"in epoch {epoch + 1} after {len(done)} of its "
                                 f"{self.bounds.size - 1} chunks")
        finally:
            m.epoch_progress = None

    def epoch(self, bar):
        """Train one epoch of the model's plan with ``model.workers`` threads (the driver:
        ``wordvec.models.base.epochs``); returns its history entry."""
        m = self.model
        epoch, n_chunks = m.epochs_trained, self.bounds.size - 1
        order = schedule.chunk_order(m.seed, epoch, n_chunks) if m.shuffle else np.arange(n_chunks, dtype=np.int64)
        words_before = m.trained_words + schedule.positions_in_epoch(self.chunk_sizes, order)
        losses, stats = np.zeros(n_chunks), np.zeros((n_chunks, 2), dtype=np.int64)
        done = self._resume_epoch(epoch, order, losses, stats)  # chunks a checkpoint already holds
        threads = min(m.workers, n_chunks)
        sharded = m.deterministic and threads > 1  # fixed shards, replicas merged in order
        if sharded and done:
            raise WordvecError("deterministic=True with several workers cannot resume inside an "
                               "epoch yet; resume with workers=1 or from an epoch's end")
        self.concurrent = threads > 1 and not sharded  # Hogwild (the shards train private replicas)

        def record(index, loss, chunk_stats):
            losses[index], stats[index] = loss, chunk_stats
            if not math.isfinite(loss):
                return TrainingError(f"training diverged (the loss became {loss}) in epoch {epoch + 1}; "
                                     f"try a smaller alpha than {m.alpha}")
            bar.update(int(chunk_stats[kernels.STAT_WORDS]))
            # Keep RSS independent of the corpus size: drop the mapped ids after every
            # chunk.  In shuffled order each chunk faults in whole page-cache folios
            # around it (~0.5 MB of a freshly written file on Linux 6.18), so releasing
            # every 1M words let 24 MB of ids pile up; per chunk it stays ~3 MB.
            self.encoded.release_pages()
            return None

        started = time.perf_counter()
        ThreadedEpoch(
            order=order.tolist(), train_unit=lambda index: self._chunk(index, words_before[index], epoch),
            workers=m.workers, record=record, done=done,
            checkpoint=None if sharded or self.checkpointer is None else _ChunkCheckpoint(
                self, epoch, order, losses, stats),
            targets=(lambda results, stop: word2vec_sync.shard_workers(self, order, words_before, epoch, results,
                                                                       stop)) if sharded else None).run()
        return self._finish_epoch(epoch, losses, stats, time.perf_counter() - started)

    def _finish_epoch(self, epoch, losses, stats, seconds):
        """Advance the model's schedule by the epoch just trained; its history entry."""
        m = self.model
        words, examples = (int(x) for x in stats.sum(axis=0))
        if words == 0:
            raise TrainingError(f"epoch {epoch + 1} trained no words")
        if examples == 0:  # gensim trains nothing here too (its 9-sentence common_texts, sample=1e-3)
            log.warning("epoch %d trained no example: subsampling (sample=%g) dropped nearly every word, or "
                        "the documents are too short for a window; for a corpus this small use sample=0",
                        epoch + 1, m.sample)
        m.trained_words += words
        m.epochs_trained += 1
        total_loss = float(np.sum(losses))  # summed in chunk order: independent of threads
        info = {"epoch": m.epochs_trained, "loss": total_loss / examples if examples else 0.0,
                "examples": examples, "words": words, "seconds": seconds,
                "words_per_sec": words / max(seconds, 1e-9), "alpha": schedule.learning_rate(*self._rate(
                    m.trained_words))}
        log.info("epoch %d: loss %.4f per example, %d words, %.0f words/s, %.1f s",
                 info["epoch"], info["loss"], words, info["words_per_sec"], seconds)
        return info


class _ChunkCheckpoint:
    """The epoch driver's checkpoint hooks for word2vec: due after a chunk's words when the
    checkpointer says so; saves the model with the chunks trained so far."""

    def __init__(self, runner, epoch, order, losses, stats):
        self.runner, self.epoch, self.order, self.losses, self.stats = runner, epoch, order, losses, stats

    def due(self, index):
        return self.runner.checkpointer.advance(int(self.stats[index, kernels.STAT_WORDS]))

    def save(self, done):
        self.runner._checkpoint(self.runner.checkpointer, self.epoch, self.order[:done], self.losses, self.stats)


def progress_bar(model, total):
    """A tqdm bar over all words of this ``train`` call (with ETA); disabled when
    ``progress=False`` or stderr is not a terminal."""
    return progress.bar(total, "word2vec", unit="word", enabled=model.progress, unit_scale=True, smoothing=0.1)
