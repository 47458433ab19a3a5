"""gensim's vocabulary rules: ``trim_rule``, ``max_final_vocab``, unsorted vocabularies,
growing a vocabulary with new text (``build_vocab(update=True)``), and a corpus's size
in gensim's units (``corpus_count`` sentences, ``corpus_total_words`` raw words).

Each follows gensim 4.4's ``Word2Vec.prepare_vocab`` (and ``gensim.utils.keep_vocab_item``):

* ``trim_rule(word, count, min_count)`` returns ``RULE_KEEP`` (keep the word whatever its
  count), ``RULE_DISCARD`` (drop it) or ``RULE_DEFAULT`` (keep it if ``count >=
  min_count``); it decides when the vocabulary is chosen (the memory pruning of
  ``max_vocab_size`` ignores it);
* ``max_final_vocab=K`` raises ``min_count`` to one more than the count of the (K+1)-th
  most frequent word, so that at most K words remain (ties may leave fewer);
* ``sorted_vocab=0`` keeps the words in order of first appearance;
* an update adds the new text's words that pass the rule at the end, in order of first
  appearance, and adds the new counts to every word already there.
"""

import numpy as np

from wordvec.data.vocab import Vocabulary

RULE_DEFAULT, RULE_DISCARD, RULE_KEEP = 0, 1, 2  # gensim.utils's values


def keep_vocab_item(word, count, min_count, trim_rule=None):
    """gensim's rule: keep ``word`` seen ``count`` times?"""
    default = count >= min_count
    if trim_rule is None:
        return default
    decision = trim_rule(word, count, min_count)
    if decision == RULE_KEEP:
        return True
    if decision == RULE_DISCARD:
        return False
    return default


def effective_min_count(counts, min_count, max_final_vocab=None):
    """``min_count``, raised so that at most ``max_final_vocab`` words remain (gensim's
    ``effective_min_count``); ``counts`` of every distinct word counted."""
    if max_final_vocab is None or max_final_vocab >= len(counts):
        return min_count
    ranked = np.sort(np.asarray(counts, dtype=np.int64))[::-1]
    return max(int(ranked[max_final_vocab]) + 1, min_count)


class VocabularyRule:
    """Which counted words a vocabulary keeps: ``min_count``, raised by
    ``max_final_vocab``, overruled word by word by ``trim_rule``."""

    def __init__(self, min_count, trim_rule=None, max_final_vocab=None):
        self.min_count, self.trim_rule, self.max_final_vocab = int(min_count), trim_rule, max_final_vocab

    def select(self, counts, words_at):
        """Indices (in first-seen order) of the words to keep, and those words;
        ``counts``: every counted word's count, ``words_at(indices)``: their strings."""
        threshold = effective_min_count(counts, self.min_count, self.max_final_vocab)
        if self.trim_rule is None:  # only the kept words become Python strings
            chosen = np.flatnonzero(np.asarray(counts) >= threshold)
            return chosen, words_at(chosen)
        words = words_at(np.arange(len(counts)))
        keep = [keep_vocab_item(w, c, threshold, self.trim_rule) for w, c in zip(words, np.asarray(counts).tolist())]
        chosen = np.flatnonzero(np.array(keep, dtype=bool))
        return chosen, [words[i] for i in chosen]


def grown_vocabulary(old, words, counts, rule, corpus_tokens):
    """``old`` with the new text's counts (``words``, ``counts`` in first-seen order):
    every old word keeps its index and gains its new count; new words that pass ``rule``
    are appended.  Returns (vocabulary, number of new words)."""
    counts = np.asarray(counts, dtype=np.int64)
    chosen, kept = rule.select(counts, lambda indices: [words[i] for i in indices])
    merged = old.counts.copy()
    added_words, added_counts = [], []
    new_count = dict(zip(words, counts.tolist()))
    for word in kept:
        if word in old.index:
            continue
        added_words.append(word)
        added_counts.append(new_count[word])
    for word, count in new_count.items():  # gensim adds the new counts of all old words
        index = old.index.get(word)
        if index is not None:
            merged[index] += count
    vocab = Vocabulary(old.words + added_words, np.concatenate([merged, np.array(added_counts, np.int64)]),
                       corpus_tokens=old.corpus_tokens + int(corpus_tokens), min_count=old.min_count)
    return vocab, len(added_words)


def corpus_size(corpus):
    """(sentences, raw words) of a ``Corpus`` as gensim counts them: a document per line
    with at least one token, lines longer than ``max_document_length`` tokens split (as
    ``LineSentence`` splits at 10,000), every token counted, in the vocabulary or not."""
    if not corpus.is_text:
        sentences = words = 0
        for document in corpus:
            sentences += 1
            words += len(document)
        return sentences, words
    limit = corpus.max_document_length
    sentences = words = pending = 0  # pending: tokens of a line that goes on in the next block
    for block in corpus.blocks():  # blocks end on whitespace, so no token is cut
        lines = block.split(b"\n")
        for number, line in enumerate(lines):
            tokens = pending + len(line.split())
            if number == len(lines) - 1:
                pending = tokens
                continue
            pending = 0
            sentences += -(-tokens // limit)
            words += tokens
    sentences += -(-pending // limit)
    return sentences, words + pending
