"""Phrases: find word pairs that occur together far more often than chance, and join them.

    from wordvec.data.phrases import Phrases, phrase_corpus
    phrases = Phrases(min_count=5, threshold=100).learn("corpus.txt")
    phrases.top(10)                                     # [(phrase, count, score), ...]
    phrases.transform(["in", "new", "york", "city"])    # ['in', 'new_york', 'city']
    phrases.transform_file("corpus.txt", "phrased.txt")
    phrase_corpus("corpus.txt", "phrased.txt", passes=2)  # longer ones: new_york_times

A phrase is a pair of adjacent words ``a b`` whose score is above ``threshold``; the
text is rewritten left to right, joining such a pair into ``a_b`` unless ``a`` was
itself just joined to the word before it (word2phrase's and gensim's greedy rule).  A
second pass over the rewritten text joins phrases with further words.

Learning takes two streaming passes through compiled kernels
(``wordvec.kernels.phrases``): the words are counted exactly as ``wordvec vocab``
counts them, then every pair of adjacent words that are both in that table; pairs
never cross a line (or a ``max_document_length`` split).  Memory is bounded by
``max_vocab_size``: whenever the words, or the pairs, outnumber it, the entries seen at
most ``min_reduce`` times are dropped and ``min_reduce`` grows, as word2phrase and
gensim prune.

Scores (the kernels compute exactly these):

- ``default``: Mikolov et al. (2013), "Distributed Representations of Words and Phrases
  and their Compositionality", section 4, times the corpus size as in word2phrase.c.
- ``npmi``: normalised pointwise mutual information (Bouma 2009), as gensim's
  ``npmi_scorer``.
"""

import math
import os
import time
from pathlib import Path

import numpy as np

from wordvec.io.atomic import atomic_write
from wordvec.data.corpus import Corpus, is_token, split_tokens
from wordvec.errors import WordvecError
from wordvec.kernels import phrases as kernels
from wordvec.data.vocab import count_tokens

SCORINGS = {"default": kernels.DEFAULT, "npmi": kernels.NPMI}
BLOCK_BYTES = 2 << 20
INITIAL_PAIR_SLOTS = 1 << 16  # grows by doubling at half full


def default_score(count_a, count_b, count_ab, min_count, total):
    """Mikolov et al. 2013 (section 4): score(a, b) = (count(ab) - δ) / (count(a) count(b)) · N.

    δ = ``min_count`` discounts pairs of rare words; N = ``total`` tokens in the corpus
    (word2phrase's ``train_words``), which makes the score a ratio of probabilities:
    p(ab) / (p(a) p(b)) with the discounted pair count.  gensim's ``default`` scorer
    multiplies by the number of distinct entries of its vocabulary (words and pairs)
    instead of N, so its threshold T is ours T · N / (its vocabulary size).
    """
    count_a, count_b, count_ab = (np.asarray(x, dtype=np.float64) for x in (count_a, count_b, count_ab))
    return (count_ab - min_count) / (count_a * count_b) * total


def npmi_score(count_a, count_b, count_ab, min_count, total):
    """Normalised PMI: ln(p(ab) / (p(a) p(b))) / -ln p(ab), in [-1, 1], p = count / N.

    1 when a and b only ever occur together, 0 when independent; pairs seen fewer than
    ``min_count`` times score -inf (gensim's ``npmi_scorer``).
    """
    count_a, count_b, count_ab = (np.asarray(x, dtype=np.float64) for x in (count_a, count_b, count_ab))
    p_a, p_b, p_ab = count_a / total, count_b / total, count_ab / total
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(p_ab >= 1.0, 1.0, np.log(p_ab / (p_a * p_b)) / -np.log(p_ab))
    return np.where(count_ab < min_count, -np.inf, value)


class Phrases:
    """Pair counts of a corpus, and the rule that joins the pairs scoring above ``threshold``."""

    def __init__(self, min_count=5, threshold=100.0, scoring="default", delimiter="_",
                 max_vocab_size=20_000_000, lowercase=False, max_document_length=10_000):
        if scoring not in SCORINGS:
            raise WordvecError(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
        if not (isinstance(min_count, (int, np.integer)) and min_count >= 1):
            raise WordvecError(f"min_count must be a whole number of at least 1, not {min_count}")
        if not math.isfinite(threshold):
            raise WordvecError(f"threshold must be a finite number, not {threshold}")
        if scoring == "npmi" and not -1.0 <= threshold <= 1.0:
            raise WordvecError(f"an npmi threshold lies between -1 and 1, not {threshold}")
        if not is_token(delimiter):  # the tokenizer's own whitespace (corpus.WHITESPACE)
            raise WordvecError(f"the delimiter must be a non-empty string without whitespace, not {delimiter!r}")
        if max_vocab_size is not None and max_vocab_size < 1:
            raise WordvecError(f"max_vocab_size must be at least 1, not {max_vocab_size}")
        self.min_count = int(min_count)
        self.threshold = float(threshold)
        self.scoring = scoring
        self.delimiter = delimiter
        self.max_vocab_size = max_vocab_size
        self.lowercase = bool(lowercase)
        self.max_document_length = int(max_document_length)
        self.words = None  # TokenTable of every word counted
        self.pair_keys = self.pair_counts = None  # the pair table, see kernels.phrases
        self.total_tokens = 0
        self.learn_seconds = self.write_seconds = 0.0

    # -- learning ------------------------------------------------------------------

    def learn(self, source):
        """Count the words and adjacent word pairs of ``source`` (a path, or token lists)."""
        corpus = self._corpus(source)
        # a Corpus passed in decides how documents are read, for later rewriting too
        self.lowercase, self.max_document_length = corpus.lowercase, corpus.max_document_length
        start = time.perf_counter()
        self.words = count_tokens(_blocks(corpus), self.max_vocab_size)
        self.total_tokens = int(self.words.counts.sum()) + self.words.pruned_tokens
        if self.total_tokens == 0:
            raise WordvecError(f"the corpus is empty: {corpus} contains no tokens")
        self.pair_keys, self.pair_counts = _empty_pairs(INITIAL_PAIR_SLOTS)
        state = np.array([0, -1, 0], dtype=np.int64)  # pairs, previous word, tokens in document
        min_reduce = 1
        table = self.words
        for block in _blocks(corpus):
            buf = np.frombuffer(block, dtype=np.uint8)
            position = 0
            while True:
                position = kernels.count_pairs_block(
                    buf, position, table.slots, table.hashes, table.word_start, table.word_len,
                    table.arena, self.pair_keys, self.pair_counts, self.max_document_length, state)
                if position >= buf.size:
                    break
                self._resize_pairs(state, 2 * self.pair_keys.size, keep_from_count=1)
            if self.max_vocab_size is not None and state[kernels.N_PAIRS] > self.max_vocab_size:
                self._resize_pairs(state, self.pair_keys.size, keep_from_count=min_reduce + 1)
                min_reduce += 1
        self.learn_seconds = time.perf_counter() - start
        return self

    def _resize_pairs(self, state, size, keep_from_count):
        keys, counts = _empty_pairs(size)
        state[kernels.N_PAIRS] = kernels.rehash_pairs(self.pair_keys, self.pair_counts, keys, counts,
                                                      keep_from_count)
        self.pair_keys, self.pair_counts = keys, counts

    def _corpus(self, source):
        if isinstance(source, Corpus):
            return source
        return Corpus(source, lowercase=self.lowercase, max_document_length=self.max_document_length)

    def _require_learned(self):
        if self.words is None:
            raise WordvecError("these phrases have not learned any counts yet; call learn(corpus) first")

    # -- scores --------------------------------------------------------------------

    @property
    def num_pairs(self):
        self._require_learned()
        return int(np.count_nonzero(self.pair_keys != kernels.EMPTY))

    def pair_counts_by_words(self):
        """``{(a, b): count}`` for every pair counted (for inspection and tests; builds
        Python objects for every pair, so not for big corpora)."""
        self._require_learned()
        occupied = np.flatnonzero(self.pair_keys != kernels.EMPTY)
        keys = self.pair_keys[occupied]
        first, second = self.words.words(keys >> 32), self.words.words(keys & 0xFFFFFFFF)
        return dict(zip(zip(first, second), self.pair_counts[occupied].tolist()))

    def _word_counts(self):
        return self.words.counts[:len(self.words)]

    def score_function(self):
        return default_score if self.scoring == "default" else npmi_score

    def top(self, n=None):
        """The phrases (pairs above the threshold) as ``(phrase, count, score)``, best first."""
        self._require_learned()
        scores = np.empty(self.pair_keys.size, dtype=np.float64)
        kernels.score_pairs(self.pair_keys, self.pair_counts, self._word_counts(),
                            SCORINGS[self.scoring], float(self.min_count), float(self.total_tokens), scores)
        chosen = np.flatnonzero(scores > self.threshold)
        chosen = chosen[np.lexsort((self.pair_keys[chosen], -scores[chosen]))]  # ties: a fixed order
        if n is not None:
            chosen = chosen[:n]
        keys = self.pair_keys[chosen]
        first, second = self.words.words(keys >> 32), self.words.words(keys & 0xFFFFFFFF)
        return [(a + self.delimiter + b, int(c), float(s)) for a, b, c, s in
                zip(first, second, self.pair_counts[chosen].tolist(), scores[chosen].tolist())]

    # -- rewriting -----------------------------------------------------------------

    def transform(self, tokens):
        """One document (a list of tokens) with its phrases joined."""
        self._require_learned()
        line = (" ".join(tokens) + "\n").encode("utf-8")
        if len(line.split()) != len(tokens):
            raise WordvecError("a token to transform is empty or contains whitespace")
        out, _ = self._join(np.frombuffer(line, dtype=np.uint8),
                            np.array([-1, 0, 0, 0], dtype=np.int64))
        return split_tokens(out.decode("utf-8"))

    def transform_file(self, source, output):
        """Rewrite the corpus ``source`` into the text file ``output`` (atomically), one
        document per line; returns the number of phrases joined."""
        self._require_learned()
        corpus = self._corpus(source)
        start = time.perf_counter()
        state = np.array([-1, 0, 0, 0], dtype=np.int64)
        with atomic_write(output, "wb") as handle:
            for block in _blocks(corpus):
                out, state = self._join(np.frombuffer(block, dtype=np.uint8), state, corpus.max_document_length)
                handle.write(out)
        self.write_seconds = time.perf_counter() - start
        return int(state[kernels.N_JOINED])

    def _join(self, buf, state, max_document_length=None):
        delimiter = np.frombuffer(self.delimiter.encode("utf-8"), dtype=np.uint8)
        out = np.empty(buf.size + (delimiter.size - 1) * (buf.size // 2 + 1) + 2, dtype=np.uint8)
        table = self.words
        words = kernels.Words(table.slots, table.hashes, table.word_start, table.word_len, table.arena,
                              self._word_counts())
        scoring = kernels.make_scoring(SCORINGS[self.scoring], self.min_count, self.total_tokens, self.threshold)
        written = kernels.join_block(buf, words, kernels.Pairs(self.pair_keys, self.pair_counts), scoring, delimiter,
                                     max_document_length or self.max_document_length, out, state)
        return out[:written].tobytes(), state

    # -- export --------------------------------------------------------------------

    def export(self, path):
        """Write ``phrase<TAB>count<TAB>score`` lines, best first (atomically)."""
        with atomic_write(path, "w", encoding="utf-8") as handle:
            for phrase, count, value in self.top():
                handle.write(f"{phrase}\t{count}\t{value:.6g}\n")


def phrase_corpus(source, output, passes=1, **options):
    """Learn phrases from ``source`` and write it rewritten to ``output``; each further
    pass learns from the previous pass's text (so phrases grow by a word or a phrase).
    Returns the ``Phrases`` of every pass."""
    if passes < 1:
        raise WordvecError(f"passes must be at least 1, not {passes}")
    output = Path(output)
    learned, current = [], source
    try:
        for number in range(1, passes + 1):
            phrases = Phrases(**options).learn(current)
            target = output if number == passes else output.with_name(f".{output.name}.pass{number}")
            phrases.transform_file(current, target)
            learned.append(phrases)
            if number > 1:
                os.unlink(current)  # the previous pass's text, read for the last time
            current = target
    finally:
        if current != output and current != source and os.path.exists(current):
            os.unlink(current)
    return learned


def _empty_pairs(size):
    return np.full(size, kernels.EMPTY, dtype=np.int64), np.zeros(size, dtype=np.int64)


def _blocks(corpus):
    """UTF-8 byte blocks of the corpus, one document per line (files stream as they are)."""
    if corpus.is_text:
        yield from corpus.blocks()
        return
    pending, size = [], 0
    for tokens in corpus:
        line = (" ".join(tokens) + "\n").encode("utf-8")
        if len(line.split()) != len(tokens):
            raise WordvecError("a token of the corpus contains whitespace; split documents into tokens first")
        pending.append(line)
        size += len(line)
        if size >= BLOCK_BYTES:
            yield b"".join(pending)
            pending, size = [], 0
    if pending:
        yield b"".join(pending)
