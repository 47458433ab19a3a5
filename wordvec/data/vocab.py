"""Vocabulary: word counts, and the tables word2vec derives from them.

``Vocabulary.build`` counts a corpus in one streaming pass (compiled byte hashing for
files; a ``Counter`` for in-memory token lists), drops words below ``min_count`` and
sorts the rest by descending count, ties in order of first appearance (a stable sort;
gensim 4.4 puts tied words in reverse order of first appearance: the same words, counts
and ranks, ties aside).  ``max_vocab_size`` bounds memory *during* counting the way gensim
does: whenever the table outgrows it, every word seen at most ``min_reduce`` times is
dropped and ``min_reduce`` grows by one.

Derived tables (seed 002, "Negative Sampling" and "Hierarchical Softmax"):
``keep_probability`` (word2vec's frequent-word subsampling), ``noise_distribution``
(unigram^0.75) with an O(1) ``alias_table`` sampler, and ``huffman()`` (codes and
inner-node paths for hierarchical softmax).
"""

import collections
from pathlib import Path

import numpy as np

from wordvec.io.atomic import atomic_write, save_json
from wordvec.io.formats import read_json_object
from wordvec.errors import FormatError, VocabularyError, WordvecError
from wordvec.data.huffman import HuffmanTree, build_huffman
from wordvec.data.parallel import in_order, reading_threads
from wordvec.data.token_table import TokenTable

__all__ = ["Vocabulary", "EmptyVocabularyError", "alias_table", "HuffmanTree"]


class EmptyVocabularyError(WordvecError, RuntimeError):
    """No word to train on: an empty corpus, or none of its words kept (gensim's RuntimeError)."""


class Vocabulary:
    """Words sorted by descending count, with their counts and an index."""

    def __init__(self, words, counts, corpus_tokens=None, min_count=1):
        self.words = list(words)
        self.counts = np.asarray(counts, dtype=np.int64)
        if self.counts.shape != (len(self.words),):
            raise WordvecError("a vocabulary needs exactly one count per word")
        self.index = {word: i for i, word in enumerate(self.words)}
        if len(self.index) != len(self.words):
            raise WordvecError("a vocabulary cannot list the same word twice")
        self.min_count = int(min_count)
        # tokens in the corpus, including those dropped by min_count / pruning
        self.corpus_tokens = int(self.counts.sum() if corpus_tokens is None else corpus_tokens)
        self._huffman = None

    # -- construction ----------------------------------------------------------------

    @classmethod
    def build(cls, corpus, min_count=5, max_vocab_size=None, rule=None, sort=True, threads=None):
        """Count ``corpus`` (a ``Corpus``) and keep the words seen at least ``min_count`` times.

        ``rule``: an object whose ``select(counts, words_at)`` picks the words to keep
        instead (gensim's ``trim_rule`` / ``max_final_vocab``:
        ``wordvec.data.vocab_rules.VocabularyRule``); ``sort=False`` keeps the words in
        order of first appearance (gensim's ``sorted_vocab=0``); ``threads``: those that
        count a text file's blocks (``wordvec.data.parallel.reading_threads``), the same
        vocabulary for any number."""
        if min_count < 1:
            raise WordvecError(f"min_count must be at least 1, not {min_count}")
        if max_vocab_size is not None and max_vocab_size < 1:
            raise WordvecError(f"max_vocab_size must be at least 1, not {max_vocab_size}")
        select = rule.select if rule is not None else _at_least(min_count)
        if corpus.is_text:
            counted = _selected(count_tokens(corpus.blocks(), max_vocab_size, threads), select)
        else:
            counted = _count_documents(corpus, max_vocab_size, select)
        return cls._of_counted(*counted, min_count, sort, corpus)

    @classmethod
    def from_table(cls, table, min_count=5, source="the corpus"):
        """The words of a counted ``TokenTable`` seen at least ``min_count`` times, sorted as
        :meth:`build` sorts them: the vocabulary of tables counted apart and merged in the
        corpus's order (``TokenTable.merge``) is the one :meth:`build` counts."""
        if min_count < 1:
            raise WordvecError(f"min_count must be at least 1, not {min_count}")
        return cls._of_counted(*_selected(table, _at_least(min_count)), min_count, True, source)

    @classmethod
    def _of_counted(cls, words, counts, total, distinct, min_count, sort, source):
        """The vocabulary of the kept ``words`` and ``counts``, in first-appearance order,
        of a corpus of ``total`` tokens and ``distinct`` words."""
        if total == 0:
            raise EmptyVocabularyError(f"the corpus is empty: {source} contains no tokens")
        if sort:
            vocab = cls.from_counts(zip(words, counts), corpus_tokens=total)
        else:
            vocab = cls(words, counts, corpus_tokens=total)
        vocab.min_count = int(min_count)
        if len(vocab) == 0:
            raise EmptyVocabularyError(
                f"the vocabulary is empty: none of the {distinct} distinct words occurs "
                f"{min_count} times or more; lower min_count")
        return vocab

    @classmethod
    def from_counts(cls, counts, min_count=1, corpus_tokens=None):
        """From a ``{word: count}`` mapping or ``(word, count)`` pairs, in first-seen order for ties."""
        pairs = list(counts.items() if hasattr(counts, "items") else counts)
        words = [w for w, c in pairs if c >= min_count]
        values = np.array([c for _, c in pairs if c >= min_count], dtype=np.int64)
        order = np.argsort(-values, kind="stable")
        return cls([words[i] for i in order], values[order], corpus_tokens=corpus_tokens,
                   min_count=min_count)

    # -- lookup ----------------------------------------------------------------------

    def __len__(self):
        return len(self.words)

    def __contains__(self, word):
        return word in self.index

    def __iter__(self):
        return iter(self.words)

    def __repr__(self):
        return f"Vocabulary({len(self)} words, {self.total} tokens, min_count={self.min_count})"

    def id(self, word):
        try:
            return self.index[word]
        except KeyError:
            raise VocabularyError(f"word {word!r} is not in the vocabulary") from None

    def lookup(self, tokens, unknown=-1):
        """Ids of ``tokens`` as int32, ``unknown`` for words not in the vocabulary."""
        get = self.index.get
        return np.fromiter((get(t, unknown) for t in tokens), dtype=np.int32)

    @property
    def total(self):
        """Tokens of the corpus that are in the vocabulary."""
        return int(self.counts.sum())

    # -- derived tables --------------------------------------------------------------

    def keep_probability(self, sample):
        """Probability of keeping each occurrence of each word under subsampling threshold ``sample``.

        word2vec's formula (the C tool's and gensim's): with f = count / total and
        t = sample, keep = (sqrt(f / t) + 1) * t / f, capped at 1.  ``sample=0`` keeps all.
        """
        if sample < 0:
            raise WordvecError(f"sample must be >= 0, not {sample}")
        if sample == 0:
            return np.ones(len(self), dtype=np.float64)
        threshold = sample * self.total
        counts = self.counts.astype(np.float64)
        return np.minimum(1.0, (np.sqrt(counts / threshold) + 1.0) * threshold / counts)

    def noise_distribution(self, exponent=0.75):
        """The negative-sampling distribution P_n(w) proportional to count(w)^exponent."""
        weights = self.counts.astype(np.float64) ** exponent
        return weights / weights.sum()

    def huffman(self):
        """The Huffman tree over word counts (cached): codes and inner-node paths for hierarchical softmax."""
        if self._huffman is None:
            self._huffman = build_huffman(self.counts)
        return self._huffman

    # -- persistence -----------------------------------------------------------------

    def save(self, path):
        """Write as JSON (``.json``) or as ``word<TAB>count`` lines (any other extension), atomically."""
        path = Path(path)
        if path.suffix.lower() == ".json":
            save_json(path, {"format": "wordvec-vocabulary", "version": 1, "min_count": self.min_count,
                             "corpus_tokens": self.corpus_tokens, "words": self.words,
                             "counts": self.counts.tolist()})
            return
        bad = next((w for w in self.words if any(c in w for c in "\t\n\r")), None)
        if bad is not None:
            raise WordvecError(f"word {bad!r} contains a tab or newline and cannot be saved as TSV; use .json")
        with atomic_write(path, "w", encoding="utf-8") as handle:
            for word, count in zip(self.words, self.counts.tolist()):
                handle.write(f"{word}\t{count}\n")

    @classmethod
    def load(cls, path):
        """Read a vocabulary written by ``save`` (JSON or TSV), checking every line."""
        path = Path(path)
        if not path.exists():
            raise WordvecError(f"vocabulary file {path} does not exist")
        if path.suffix.lower() == ".json":
            return cls._load_json(path)
        pairs, number = [], 0
        with open(path, encoding="utf-8", errors="strict") as handle:
            try:
                for number, line in enumerate(handle, 1):
                    word, sep, count = line.rstrip("\n").rpartition("\t")
                    if not sep or not word or not count.isdigit():
                        raise FormatError(path, number, "expected 'word<TAB>count'")
                    pairs.append((word, int(count)))
            except UnicodeDecodeError:
                raise FormatError(path, number + 1, "not valid UTF-8") from None
        if not pairs:
            raise FormatError(path, None, "the vocabulary file is empty")
        return cls.from_counts(pairs)

    @classmethod
    def _load_json(cls, path):
        try:
            data = read_json_object(path)  # its FormatError is a ValueError
            words, counts = data["words"], data["counts"]
            if not (isinstance(words, list) and isinstance(counts, list) and len(words) == len(counts)):
                raise ValueError
            if not all(isinstance(w, str) for w in words) or not all(
                    isinstance(c, int) and c >= 0 for c in counts):
                raise ValueError
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise FormatError(path, None, "not a wordvec vocabulary JSON file") from None
        return cls(words, counts, corpus_tokens=data.get("corpus_tokens"),
                   min_count=data.get("min_count", 1))


def count_tokens(blocks, max_vocab_size=None, threads=None):
    """Count every token of the UTF-8 byte ``blocks`` into a ``TokenTable``.

    With ``max_vocab_size``, whenever the table outgrows it every word seen at most
    ``min_reduce`` times is dropped and ``min_reduce`` grows by one (gensim's pruning).
    With several ``threads`` (default: the library's, ``wordvec.data.parallel.reading_threads``)
    each block is counted into a table of its own and the tables are merged in the blocks'
    order: the same table.
    """
    table = TokenTable()
    threads = reading_threads(threads)
    if threads > 1:
        steps = ((table.merge, counted) for counted in in_order(TokenTable.of_block, blocks, threads))
    else:
        steps = ((table.count, block) for block in blocks)
    min_reduce = 1
    for add, part in steps:
        add(part)
        if max_vocab_size is not None and len(table) > max_vocab_size:
            table.keep(table.counts > min_reduce)
            min_reduce += 1
    return table


def _at_least(min_count):
    """The default selection: the words seen ``min_count`` times or more."""
    def select(counts, words_at):
        chosen = np.flatnonzero(np.asarray(counts) >= min_count)  # only these become Python strings
        return chosen, words_at(chosen)
    return select


def _selected(table, select):
    """(words, counts) of the words of a counted ``TokenTable`` that ``select`` keeps, all
    tokens, distinct words."""
    counts = table.counts[:len(table)]
    total = int(counts.sum()) + table.pruned_tokens
    chosen, words = select(counts, table.words)
    return words, counts[chosen].tolist(), total, counts.size


def _count_documents(corpus, max_vocab_size, select):
    counts = collections.Counter()
    total = 0
    min_reduce = 1
    for document in corpus:
        counts.update(document)
        total += len(document)
        if max_vocab_size is not None and len(counts) > max_vocab_size:
            counts = collections.Counter({w: c for w, c in counts.items() if c > min_reduce})
            min_reduce += 1
    words, values = list(counts), np.fromiter(counts.values(), dtype=np.int64, count=len(counts))
    chosen, kept = select(values, lambda indices: [words[i] for i in indices])
    return kept, values[chosen].tolist(), total, len(counts)


def alias_table(probabilities):
    """Walker/Vose alias table: draw ``i`` with probability p_i in O(1).

    Returns ``(accept, alias)``: pick a uniform column ``k``, then a uniform ``u`` in
    [0, 1); the draw is ``k`` if ``u < accept[k]`` else ``alias[k]``.
    """
    p = np.asarray(probabilities, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or np.any(p < 0) or not np.isfinite(p).all() or p.sum() <= 0:
        raise WordvecError("an alias table needs a non-empty vector of non-negative finite weights")
    n = p.size
    scaled = p * (n / p.sum())
    accept = np.ones(n, dtype=np.float64)
    alias = np.arange(n, dtype=np.int32)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        accept[s] = scaled[s]
        alias[s] = g
        scaled[g] -= 1.0 - scaled[s]
        (small if scaled[g] < 1.0 else large).append(g)
    return accept, alias  # leftovers (rounding) keep accept = 1
