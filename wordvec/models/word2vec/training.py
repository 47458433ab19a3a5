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

from wordvec.data.vocab import EmptyVocabularyError, Vocabulary
from wordvec.data.vocab_rules import (VocabularyRule, corpus_size, effective_min_count, grown_vocabulary,
                                      keep_vocab_item)
from wordvec.errors import WordvecError
from wordvec.math.sentence_score import score_sentence
from wordvec.models.base import estimate
from wordvec.models.word2vec.config import Word2VecSettingError

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
    refuse_update_without_vocabulary(model)
    counted = Vocabulary.build(corpus, min_count=1, max_vocab_size=model.max_vocab_size, sort=False)
    grow_with_counts(model, counted.words, counted.counts, counted.corpus_tokens, vocabulary_rule(model, trim_rule))
    return counted.corpus_tokens


def refuse_update_without_vocabulary(model):
    if model.vocab is None:
        raise EmptyVocabularyError("You cannot do an online vocabulary-update of a model which has no prior "
                                   "vocabulary; build the vocabulary with a corpus first (build_vocab without "
                                   "update=True)")


def grow_with_counts(model, words, counts, tokens, rule):
    """The update of :func:`grow_vocabulary` from counted ``words`` (first-seen order):
    the new words that ``rule`` keeps are added."""
    vocab, added = grown_vocabulary(model.vocab, words, counts, rule, tokens)
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


def gensim_new_rows(seed, rows, vector_size):
    """gensim's ``prep_vectors``: ``default_rng(seed)``, uniform in [-1, 1) / D, float32."""
    fresh = np.random.default_rng(seed=seed).random((rows, vector_size), dtype=np.float32)
    fresh *= 2.0
    fresh -= 1.0
    fresh /= vector_size
    return fresh


# -- build_vocab_from_freq, scan_vocab, prepare_vocab -----------------------------------------

def vocabulary_from_counts(model, words, counts, tokens, rule):
    """The vocabulary that ``rule`` keeps of counted ``words`` (first-seen order), sorted by
    descending count unless ``sorted_vocab=0``; an empty one is refused as
    ``Vocabulary.build`` refuses it."""
    counts = np.asarray(counts, dtype=np.int64)
    chosen, kept = rule.select(counts, lambda indices: [words[i] for i in indices])
    if len(kept) == 0:
        raise EmptyVocabularyError(f"the vocabulary is empty: none of the {len(words)} distinct words occurs "
                                   f"{rule.min_count} times or more; lower min_count")
    if model.sorted_vocab:
        vocab = Vocabulary.from_counts(zip(kept, counts[chosen].tolist()), corpus_tokens=tokens)
    else:
        vocab = Vocabulary(kept, counts[chosen], corpus_tokens=tokens)
    vocab.min_count = model.min_count
    return vocab


def build_vocab_from_freq(model, word_freq, corpus_count=None, trim_rule=None, update=False):
    """gensim's ``build_vocab_from_freq``: the vocabulary of a {word: count} table, as if a
    corpus with those counts had been read (``update=True`` grows the model's instead)."""
    words = list(word_freq)
    counts = np.fromiter((int(word_freq[word]) for word in words), dtype=np.int64, count=len(words))
    tokens = int(counts.sum())
    log.info("collected %i unique word types, with total frequency of %i", len(words), tokens)
    if update:
        refuse_update_without_vocabulary(model)
        grow_with_counts(model, words, counts, tokens, vocabulary_rule(model, trim_rule))
    else:
        model.set_vocabulary(vocabulary_from_counts(model, words, counts, tokens, vocabulary_rule(model, trim_rule)))
    model._corpus, model._corpus_size = None, None
    model.corpus_count = corpus_count or 0


def scan_vocab(model, corpus):
    """gensim's ``scan_vocab``: count every word of ``corpus`` into ``model.raw_vocab``
    ({word: count}, first-seen order; ``max_vocab_size`` prunes while counting) and return
    (raw words, sentences)."""
    counted = Vocabulary.build(corpus, min_count=1, max_vocab_size=model.max_vocab_size, sort=False)
    model.raw_vocab = dict(zip(counted.words, counted.counts.tolist()))
    sentences, _ = size_of(model, corpus)
    log.info("collected %i word types from a corpus of %i raw words and %i sentences",
             len(model.raw_vocab), counted.corpus_tokens, sentences)
    return counted.corpus_tokens, sentences


def prepare_vocab(model, update=False, keep_raw_vocab=False, trim_rule=None, min_count=None, sample=None,
                  dry_run=False):
    """gensim's ``prepare_vocab``: apply ``min_count`` (raised by ``max_final_vocab``: the
    model's ``effective_min_count``), ``trim_rule`` and ``sample`` to ``model.raw_vocab``
    and report gensim's figures, {"drop_unique", "retain_total", "downsample_unique",
    "downsample_total", "num_retained_words"}; unless ``dry_run``, the kept words become
    the model's vocabulary with fresh vectors (``update``: are added to it, as
    ``build_vocab(update=True)`` adds them)."""
    raw = getattr(model, "raw_vocab", None)
    if not raw:
        raise WordvecError("prepare_vocab needs the counts of scan_vocab(corpus) first")
    if update:
        refuse_update_without_vocabulary(model)
    min_count, sample = min_count or model.min_count, model.sample if sample is None else sample
    words = list(raw)
    counts = np.fromiter(raw.values(), dtype=np.int64, count=len(words))
    threshold = effective_min_count(counts, min_count, model.max_final_vocab)
    model.effective_min_count = threshold
    rule = VocabularyRule(threshold, trim_rule)  # max_final_vocab is in the threshold already
    keep = np.array([keep_vocab_item(w, c, threshold, trim_rule) for w, c in zip(words, counts.tolist())], bool)
    retained = counts[keep]
    report = {"drop_unique": int((~keep).sum()), "retain_total": int(retained.sum()),
              **downsampling(retained, sample), "num_retained_words": int(keep.sum())}
    if dry_run:
        return report
    if update:
        grow_with_counts(model, words, counts, int(counts.sum()), rule)
    else:
        model.min_count, model.sample = min_count, sample  # gensim keeps the settings applied
        model.set_vocabulary(vocabulary_from_counts(model, words, counts, int(counts.sum()), rule))
    if not keep_raw_vocab:
        model.raw_vocab = {}
    return report


def downsampling(counts, sample):
    """gensim's report of ``sample`` over the kept words' ``counts``: {"downsample_unique":
    words whose keep probability is below 1, "downsample_total": the expected tokens kept}
    (word2vec's keep probability; ``sample >= 1`` is gensim's count threshold)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    if not sample:
        threshold = total
    elif sample < 1.0:
        threshold = sample * total
    else:
        threshold = int(sample * (3 + np.sqrt(5)) / 2)
    if counts.size == 0 or threshold == 0:
        return {"downsample_unique": 0, "downsample_total": 0}
    keep = (np.sqrt(counts / threshold) + 1) * (threshold / counts)
    sampled = keep < 1.0
    expected = np.where(sampled, keep * counts, counts).sum()
    return {"downsample_unique": int(sampled.sum()), "downsample_total": int(expected)}


# -- train ----------------------------------------------------------------------------------

def refuse_mixed_call(start_alpha, end_alpha):
    """A call without total_examples / total_words is wordvec's own; gensim's arguments
    that only make sense in gensim's call are refused with gensim's sentence."""
    if start_alpha is not None or end_alpha is not None:
        raise Word2VecSettingError("You must specify either total_examples or total_words, for proper "
                                   "learning-rate and progress calculations (start_alpha/end_alpha are gensim's "
                                   "per-call schedule); after build_vocab on the same corpus, pass "
                                   "total_examples=model.corpus_count")


def call_plan(model, corpus, tokens, total_examples, total_words, epochs, start_alpha, end_alpha):
    """Set gensim's per-call attributes and return the call's :class:`CallPlan`;
    ``tokens``: the encoded corpus's size (vocabulary words), the schedule's unit."""
    if epochs is None or epochs <= 0:
        raise Word2VecSettingError("You must specify an explicit epochs count. The usual value is "
                                   "epochs=model.epochs.")
    if not isinstance(epochs, (int, np.integer)):
        raise Word2VecSettingError(f"epochs must be a positive integer, not {epochs!r}")
    model.alpha = start_alpha or model.alpha  # gensim keeps them for later calls
    model.min_alpha = end_alpha or model.min_alpha
    model.epochs = int(epochs)
    sentences, raw_words = size_of(model, corpus)
    stated, actual = (total_words, raw_words) if total_words is not None else (total_examples, sentences)
    if stated <= 0:
        raise Word2VecSettingError(f"total_examples / total_words must be positive, not {stated}")
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


# -- gensim's model.wv = kv, and the per-word Huffman attributes ------------------------------

def memory_report(model, V, report=None):
    """gensim's ``Word2Vec.estimate_memory`` dictionary for V words (bytes): ``vocab`` (gensim's
    500 a word, 700 with hs), ``vectors``, ``syn1`` with hs, ``syn1neg`` with negatives, and
    ``total``, added to ``report`` when one is given, as gensim does."""
    report = {} if report is None else report
    rows = V * model.vector_size * np.dtype(np.float32).itemsize
    report["vocab"] = V * (700 if model.hs else 500)
    report["vectors"] = rows
    if model.hs:
        report["syn1"] = rows
    if model.negative:
        report["syn1neg"] = rows
    report["total"] = sum(report.values())
    return report


def fasttext_memory_report(model, V, report=None):
    """gensim's ``FastText.estimate_memory`` dictionary for V words: as :func:`memory_report`
    with the word rows as ``syn0_vocab``, plus with n-grams ``syn0_ngrams`` (the bucket rows)
    and ``buckets_word`` (gensim's per-word n-gram lists: 64 + 100 a word + 4 an n-gram; the
    n-grams counted in the vocabulary's table when it has V words, else 30 a word)."""
    report = {} if report is None else report
    row = model.vector_size * np.dtype(np.float32).itemsize
    report["vocab"] = V * (700 if model.hs else 500)
    report["syn0_vocab"] = V * row
    if model.hs:
        report["syn1"] = V * row
    if model.negative:
        report["syn1neg"] = V * row
    if model.subwords and model.bucket:
        report["syn0_ngrams"] = model.bucket * row
        known = model.ngram_offsets is not None and len(model.ngram_offsets) == V + 1
        ngrams = int(model.ngram_offsets[-1]) if known else 30 * V
        report["buckets_word"] = 64 + 100 * V + 4 * ngrams
    report["total"] = sum(report.values())
    return report


def cum_table(counts, exponent, domain=2**31 - 1):
    """gensim's ``make_cum_table``: uint32 (V,), entry w the share of count^exponent of words
    0..w, scaled to ``domain`` (the last entry is ``domain``).  gensim draws its negatives
    from it; wordvec's kernels draw from an alias table of the same distribution."""
    cumulative = np.cumsum(np.asarray(counts, dtype=np.int64).astype(np.float64) ** float(exponent))
    if cumulative.size == 0:
        return np.zeros(0, dtype=np.uint32)
    return np.round(cumulative / cumulative[-1] * domain).astype(np.uint32)


def huffman_attribute(vocab, field):
    """gensim's ``"code"`` (uint8) or ``"point"`` (uint32) attribute: one array per word,
    the word's Huffman codes or inner-node rows (of ``syn1``), root first."""
    tree = vocab.huffman()
    rows, dtype = (tree.codes, np.uint8) if field == "codes" else (tree.points, np.uint32)
    values = np.empty(len(vocab), dtype=object)
    for word, length in enumerate(tree.lengths.tolist()):
        values[word] = rows[word, :length].astype(dtype)
    return values


def set_word_vectors(model, kv):
    """``model.wv = kv``: ``kv``'s words (with its counts, or gensim's made-up descending
    ones) and vectors become the model's vocabulary and input vectors.  The output layer
    is kept when the words are the model's own, in the same order; otherwise the model
    has none (as a gensim model given vectors this way): it can answer queries and be
    saved, and ``train`` refuses it until ``build_vocab`` gives it one."""
    if model.subwords:
        raise WordvecError("a model with subwords takes its vectors with its n-grams: set them by training or "
                           "loading, not with model.wv = kv")
    words = list(kv.index_to_key)
    if None in words:
        raise WordvecError(f"model.wv = kv: {words.count(None)} of kv's {len(words)} rows have no key")
    vectors = np.ascontiguousarray(kv.vectors, dtype=np.float32)
    counts = kv.counts if kv.counts is not None else np.arange(len(words), 0, -1)
    same_words = model.vocab is not None and model.vocab.words == words and model.vector_size == vectors.shape[1]
    if model.vector_size != vectors.shape[1]:
        model.vector_size = int(vectors.shape[1])
    model.vocab = Vocabulary(words, counts, min_count=model.min_count)
    model.W_in = vectors
    model.lock_factors.array = kv.vectors_lockf  # gensim's: kv's factors come with it
    if not same_words:
        model.W_out = np.zeros((0, model.vector_size), dtype=np.float32)
        model.W_inner = np.zeros((0, model.vector_size), dtype=np.float32)
    model._wv = None


def has_output_layer(model):
    """True if the output matrices have the rows the model's settings train."""
    rows = model.output_rows(len(model.vocab))
    return model.W_out.shape[0] == rows["W_out"] and model.W_inner.shape[0] == rows["W_inner"]


def check_output_layer(model):
    """Training needs the output rows of the settings (``hs``, ``negative``, ``loss``)."""
    if not has_output_layer(model):
        raise Word2VecSettingError(
            f"this model has no output layer for hs={model.hs}, negative={model.negative} (its vectors came from "
            "KeyedVectors through model.wv = kv, or hs/negative changed after build_vocab); call build_vocab "
            "on a corpus to train it")


def warn_as_gensim(model, plan):
    """gensim's warnings at the start of training: both output layers on (allowed, and
    trained), and a gensim call starting above the lowest rate an earlier call reached."""
    if model.hs and model.negative:
        log.warning("Both hierarchical softmax and negative sampling are activated. This is probably a mistake. "
                    "You should set either 'hs=0' or 'negative=0' to disable one of them. ")
    if plan is not None and plan.alpha > model.min_alpha_yet_reached:
        log.warning("Effective 'alpha' higher than previous training cycles")


def rate_reached(model, plan):
    """The learning rate at the end of the call just trained (gensim's ``min_alpha_yet_reached``)."""
    if plan is not None:
        return float(plan.min_alpha)
    done = min(1.0, model.trained_words / max(model.planned_words, 1))
    return float(model.alpha - (model.alpha - model.min_alpha) * done)


# -- score --------------------------------------------------------------------------------------

def score(model, sentences, total_sentences=int(1e6)):
    """gensim's ``score``: log p(sentence) of each of the first ``total_sentences``
    sentences (lists of tokens; unknown tokens are dropped) under the model's hierarchical
    softmax (:func:`wordvec.math.sentence_score.score_sentence`), float32 like gensim's."""
    if model.vocab is None:
        raise RuntimeError("you must first build vocabulary before scoring new data")
    if not model.hs or model.loss is not None or model.W_inner.shape[0] != model.output_rows(len(model.vocab))["W_inner"]:
        raise RuntimeError("We have currently only implemented score for the hierarchical softmax scheme, "
                           "so you need to have run word2vec with hs=1 and negative=0 for this to work.")
    tree, index = model.vocab.huffman(), model.vocab.index
    scores = []
    for number, sentence in enumerate(sentences):
        if number >= total_sentences:
            log.warning("terminating after %i sentences (set higher total_sentences if you want more).",
                        total_sentences)
            break
        ids = [index[token] for token in sentence if token in index]
        scores.append(score_sentence(ids, model.W_in, model.W_inner, tree.points, tree.codes, tree.lengths,
                                     model.window, sg=bool(model.sg), cbow_mean=bool(model.cbow_mean)))
    return np.array(scores, dtype=np.float32)


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
    if model.vocab is None or model.W_out.shape[0] != len(model.vocab):
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
