"""gensim's ``Word2Vec`` training API over wordvec's model: ``build_vocab(update=True)``,
``train(corpus, total_examples=..., epochs=..., start_alpha=..., compute_loss=...)``,
``predict_output_word``.  ``wordvec.models.word2vec.model.Word2Vec`` delegates here; the
kernels, the epoch runner and the native schedule stay there.

Two kinds of ``train`` call, told apart as gensim itself requires them to be written:

* **gensim's** (``total_examples`` or ``total_words`` given; gensim refuses a call with
  neither): every call is a run of its own.  It sets ``model.alpha = start_alpha or
  model.alpha``, ``model.min_alpha = end_alpha or model.min_alpha`` and ``model.epochs =
  epochs``, as gensim does, and decays the rate linearly from alpha to min_alpha over
  its ``epochs`` epochs, so a second call starts again at alpha.  Epoch e of the call
  covers the share [e, e + 1) / epochs of the decay, measured against the stated size
  (``total_examples`` sentences or ``total_words`` raw words) as gensim measures it: a
  stated size that is not the corpus's own stretches or shrinks each epoch's share
  exactly as in gensim.  It returns gensim's pair (trained words, raw words).
* **wordvec's** (neither given): one schedule planned by the first call, continued over
  calls (``wordvec.models.word2vec.model``'s docstring); it returns the epochs' history.

``compute_loss=True`` keeps gensim's ``running_training_loss``: the sum of every
example's loss over this ``train`` call (reset when a call begins, 0.0 when
``compute_loss`` is off), read with ``get_latest_training_loss()``.  Where gensim sums
its table-lookup approximation of each loss (and updates it while it trains), wordvec
adds each epoch's exact sum when the epoch ends, so ``on_epoch_end`` callbacks see the
running sum so far, and ``model.history`` keeps the exact mean per example of every
epoch in any case.  One "example" is what the kernels count: a (centre, context) pair in
skip-gram, a centre word in CBOW, as in gensim.
"""

import dataclasses
import json
import logging

import numpy as np

from wordvec.data.vocab import Vocabulary
from wordvec.data.vocab_rules import VocabularyRule, corpus_size, grown_vocabulary
from wordvec.errors import WordvecError
from wordvec.models.base import estimate

log = logging.getLogger(__name__)

GENSIM_NO_OPS = ("hashfxn", "null_word", "batch_words", "comment")  # gensim's constructor arguments without effect here


@dataclasses.dataclass
class CallPlan:
    """The learning-rate schedule of one gensim-style ``train`` call: epoch ``epoch`` of
    the call starts at position ``epoch * per_epoch`` of ``epochs * per_epoch`` tokens,
    counted from ``epoch_start`` (the model's ``trained_words`` when that epoch began)."""

    alpha: float
    min_alpha: float
    per_epoch: int
    epochs: int
    epoch: int = 0
    epoch_start: int = 0

    def rate_arguments(self, words_before):
        """(alpha, min_alpha, position, planned) of a chunk starting at the model's
        schedule position ``words_before``."""
        position = self.epoch * self.per_epoch + (words_before - self.epoch_start)
        return self.alpha, self.min_alpha, position, self.epochs * self.per_epoch


# -- build_vocab ----------------------------------------------------------------------------

def vocabulary_rule(model, trim_rule):
    return VocabularyRule(model.min_count, trim_rule, model.max_final_vocab)


def grow_vocabulary(model, corpus, trim_rule=None):
    """gensim's ``build_vocab(corpus, update=True)``: add the corpus's new words that pass
    the rules at the end of the vocabulary, add its counts to the old words, and give the
    new words rows initialised as gensim's ``update_weights`` does (input rows uniform in
    ±1/D from ``default_rng(seed)``, output rows zero); every old row is kept.  The
    Huffman tree and the noise table follow the new counts (they are derived from the
    vocabulary when training starts).  Returns the corpus's tokens (``corpus_total_words``)."""
    if model.vocab is None:
        raise WordvecError("You cannot do an online vocabulary-update of a model which has no prior vocabulary; "
                           "build the vocabulary with a corpus first (build_vocab without update=True)")
    counted = Vocabulary.build(corpus, min_count=1, max_vocab_size=model.max_vocab_size, sort=False)
    vocab, added = grown_vocabulary(model.vocab, counted.words, counted.counts, vocabulary_rule(model, trim_rule),
                                    counted.corpus_tokens)
    if model.memory_check:
        estimate.check_fits(model.estimate_memory(len(vocab)), "lower vector_size, or raise min_count")
    old_size, model.vocab = len(model.vocab), vocab
    model.W_in = np.concatenate([model.W_in, gensim_new_rows(model.seed, len(vocab), model.vector_size)[old_size:]])
    rows = model.output_rows(len(vocab))
    for name in ("W_out", "W_inner"):
        matrix = getattr(model, name)
        pad = np.zeros((rows[name] - matrix.shape[0], model.vector_size), dtype=np.float32)
        setattr(model, name, np.concatenate([matrix, pad]))
    if model.subwords:
        model._init_subwords(W_ngrams=model.W_ngrams)  # the new words' n-gram lists
    model._wv = None
    log.info("added %d new words to the vocabulary (now %d)", added, len(vocab))
    return counted.corpus_tokens


def gensim_new_rows(seed, rows, vector_size):
    """gensim's ``prep_vectors``: ``default_rng(seed)``, uniform in [-1, 1) / D, float32."""
    fresh = np.random.default_rng(seed=seed).random((rows, vector_size), dtype=np.float32)
    fresh *= 2.0
    fresh -= 1.0
    fresh /= vector_size
    return fresh


# -- train ----------------------------------------------------------------------------------

def refuse_mixed_call(start_alpha, end_alpha):
    """A call without total_examples / total_words is wordvec's own; gensim's arguments
    that only make sense in gensim's call are refused with gensim's sentence."""
    if start_alpha is not None or end_alpha is not None:
        raise WordvecError("You must specify either total_examples or total_words, for proper learning-rate "
                           "and progress calculations (start_alpha/end_alpha are gensim's per-call schedule); "
                           "after build_vocab on the same corpus, pass total_examples=model.corpus_count")


def call_plan(model, corpus, tokens, total_examples, total_words, epochs, start_alpha, end_alpha):
    """Set gensim's per-call attributes and return the call's :class:`CallPlan`;
    ``tokens``: the encoded corpus's size (vocabulary words), the schedule's unit."""
    if epochs is None or epochs <= 0:
        raise WordvecError("You must specify an explicit epochs count. The usual value is epochs=model.epochs.")
    if not isinstance(epochs, (int, np.integer)):
        raise WordvecError(f"epochs must be a positive integer, not {epochs!r}")
    model.alpha = start_alpha or model.alpha  # gensim keeps them for later calls
    model.min_alpha = end_alpha or model.min_alpha
    model.epochs = int(epochs)
    sentences, raw_words = size_of(model, corpus)
    stated, actual = (total_words, raw_words) if total_words is not None else (total_examples, sentences)
    if stated <= 0:
        raise WordvecError(f"total_examples / total_words must be positive, not {stated}")
    per_epoch = max(1, round(tokens * stated / max(actual, 1)))
    return CallPlan(model.alpha, model.min_alpha, per_epoch, int(epochs))


def size_of(model, corpus):
    """(sentences, raw words) of ``corpus``; counted once per file corpus."""
    if corpus is model._corpus and model._corpus_size is not None:
        return model._corpus_size
    key = json.dumps(corpus.fingerprint_parts(), sort_keys=True) if corpus.is_text else None
    if key is not None and key in model._sizes:
        return model._sizes[key]
    size = corpus_size(corpus)
    if key is not None:
        model._sizes[key] = size
    if corpus is model._corpus:
        model._corpus_size = size
    return size


# -- predict_output_word ----------------------------------------------------------------------

def predict_output_word(model, context_words_list, topn=10):
    """gensim's ``predict_output_word``: the distribution of the centre word given the
    context words (str or int index), a CBOW-style pass through the negative-sampling
    output layer (the mean of the context rows with ``cbow_mean=1``, else their sum), its
    ``topn`` most probable words as (word, probability) pairs; None (with a warning) when
    every context word is unknown."""
    if not model.negative:
        raise RuntimeError("We have currently only implemented predict_output_word for the negative sampling "
                           "scheme, so you need to have run word2vec with negative > 0 for this to work.")
    if model.vocab is None:
        raise RuntimeError("Parameters required for predicting the output words not found.")
    kv = model.wv
    indices = [kv.get_index(word) for word in context_words_list if word in kv.key_to_index or (
        isinstance(word, (int, np.integer)) and 0 <= word < len(kv))]
    if not indices:
        log.warning("All the input context words are out-of-vocabulary for the current model.")
        return None
    hidden = np.sum(kv.vectors[indices], axis=0)
    if model.cbow_mean:
        hidden /= len(indices)
    probabilities = np.exp(np.dot(hidden, model.W_out.T))
    probabilities /= np.sum(probabilities)
    top = np.argsort(-probabilities, kind="stable")[:topn]
    return [(kv.index_to_key[i], probabilities[i]) for i in top]
