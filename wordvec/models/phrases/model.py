"""gensim 4.4's ``Phrases`` / ``FrozenPhrases``: the same counts, scores and joins, so the
same ``threshold`` gives the same phrases.

    from wordvec.models.phrases.model import Phrases, ENGLISH_CONNECTOR_WORDS   # was gensim.models.phrases
    phrases = Phrases(sentences, min_count=1, threshold=1, connector_words=ENGLISH_CONNECTOR_WORDS)
    phrases[["trees", "graph", "minors"]]      # ['trees_graph', 'minors']
    frozen = phrases.freeze()                   # FrozenPhrases: only the phrases and their scores
    phrases.export_phrases()                    # {'trees_graph': 5.5, ...}

Counting (gensim's ``_learn_vocab``): one table holds every non-connector word and every
candidate "a [connectors...] b" joined by the delimiter; when it outgrows
``max_vocab_size`` after a sentence, the entries counted fewer than ``min_reduce`` times
are dropped and ``min_reduce`` grows.

Scores of a candidate a .. b with counts c_a, c_b, c_ab (Mikolov et al. 2013, section 4):

    default:  (c_ab - min_count) / (c_a c_b) * |table|      |table| = distinct words + candidates
    npmi:     ln(p_ab / (p_a p_b)) / -ln p_ab,  p = c / N      N = corpus tokens

gensim scales the default score by the size of its table, where word2phrase (and
``wordvec.data.phrases.Phrases``, the compiled one behind ``wordvec phrases``) scales it by
the corpus tokens N: a threshold T there is T * |table| / N here.  This class is plain
Python, as fast as gensim's; for big corpora use the compiled one.  No pickle: a frozen
model saves and loads as JSON (``FrozenPhrases.save`` / ``load``).
"""

import inspect
import itertools
import json
import logging
import math

from wordvec.errors import FormatError, WordvecError
from wordvec.io.atomic import atomic_write
from wordvec.io.gensim_pickle import is_pickle
from wordvec.models.base import gensim_models

logger = logging.getLogger(__name__)

NEGATIVE_INFINITY = float("-inf")

# gensim's set: may sit inside a phrase ("bank_of_america"), never start or end one
ENGLISH_CONNECTOR_WORDS = frozenset(
    "a an the  for of with without at from to in on by  and or".split())

SCORING_PARAMETERS = ("worda_count", "wordb_count", "bigram_count", "len_vocab", "min_count", "corpus_word_count")


def original_scorer(worda_count, wordb_count, bigram_count, len_vocab, min_count, corpus_word_count):
    """(c_ab - min_count) / (c_a c_b) * len_vocab; -inf when a count is zero."""
    denominator = worda_count * wordb_count
    if denominator == 0:
        return NEGATIVE_INFINITY
    return (bigram_count - min_count) / float(denominator) * len_vocab


def npmi_scorer(worda_count, wordb_count, bigram_count, len_vocab, min_count, corpus_word_count):
    """Normalised PMI (Bouma 2009) in [-1, 1]; -inf below ``min_count``."""
    if bigram_count < min_count:
        return NEGATIVE_INFINITY
    n = float(corpus_word_count)
    p_a, p_b, p_ab = worda_count / n, wordb_count / n, bigram_count / n
    if p_ab >= 1.0:
        return 1.0
    return math.log(p_ab / (p_a * p_b)) / -math.log(p_ab)


def _scorer(scoring):
    if isinstance(scoring, str):
        if scoring not in ("default", "npmi"):
            raise WordvecError(f"unknown scoring method string {scoring} specified")
        return original_scorer if scoring == "default" else npmi_scorer
    if not callable(scoring):
        raise WordvecError(f"scoring must be 'default', 'npmi' or a function, not {scoring!r}")
    missing = [p for p in SCORING_PARAMETERS if p not in inspect.signature(scoring).parameters]
    if missing:
        raise WordvecError(f"scoring function missing expected parameters {missing}")
    return scoring


def _is_single(obj):
    """(True, tokens) for one sentence (an iterable of strings, or empty), else (False, corpus)."""
    iterator = iter(obj)
    try:
        first = next(iterator)
    except StopIteration:
        return True, obj
    if isinstance(first, str):
        return True, itertools.chain([first], iterator)
    return False, (itertools.chain([first], iterator) if iterator is obj else obj)


class _PhrasedCorpus:
    """``phrases[corpus]``: the corpus's sentences with phrases joined, re-iterable like the corpus."""

    def __init__(self, model, corpus):
        self.model, self.corpus = model, corpus

    def __iter__(self):
        for sentence in self.corpus:
            yield self.model[sentence]


class _PhrasesTransformation:
    """Joining, shared by ``Phrases`` and ``FrozenPhrases``: each scores candidates its way."""

    def __init__(self, connector_words):
        self.connector_words = frozenset(connector_words)

    def score_candidate(self, word_a, word_b, in_between):
        raise NotImplementedError

    def analyze_sentence(self, sentence):
        """Yield (phrase, score) for joined candidates and (word, None) for the rest, left to right.

        A candidate runs from a non-connector word over any connectors to the next
        non-connector word; joined, both ends are used up, else the start is emitted and
        the end word starts the next candidate (the greedy rule of gensim and word2phrase).
        """
        start, between = None, []
        for word in sentence:
            if word in self.connector_words:
                if start:
                    between.append(word)
                else:
                    yield word, None
                continue
            if not start:
                start, between = word, []
                continue
            phrase, score = self.score_candidate(start, word, between)
            if score is not None:
                yield phrase, score
                start, between = None, []
            else:
                yield start, None
                yield from ((w, None) for w in between)
                start, between = word, []
        if start:
            yield start, None
            yield from ((w, None) for w in between)

    def __getitem__(self, sentence):
        """One sentence with its phrases joined, or (for a corpus) a re-iterable of such sentences."""
        single, sentence = _is_single(sentence)
        if not single:
            return _PhrasedCorpus(self, sentence)
        return [token for token, _ in self.analyze_sentence(sentence)]

    def find_phrases(self, sentences):
        """{phrase: score} for every phrase joined somewhere in ``sentences``."""
        return {phrase: score for sentence in sentences for phrase, score in self.analyze_sentence(sentence)
                if score is not None}


def _count(sentences, max_vocab_size, delimiter, connector_words):
    """gensim's counting pass: (min_reduce, {word or candidate: count}, tokens)."""
    counts, tokens, min_reduce = {}, 0, 1
    for sentence in sentences:
        start, between = None, []
        for word in sentence:
            tokens += 1
            if word in connector_words:
                if start is not None:
                    between.append(word)
                continue
            counts[word] = counts.get(word, 0) + 1
            if start is not None:
                candidate = delimiter.join(itertools.chain([start], between, [word]))
                counts[candidate] = counts.get(candidate, 0) + 1
            start, between = word, []  # the end of one candidate starts the next
        if len(counts) > max_vocab_size:
            _prune(counts, min_reduce)
            min_reduce += 1
    return min_reduce, counts, tokens


def _prune(counts, min_reduce):
    for key in [key for key, count in counts.items() if count < min_reduce]:
        del counts[key]


class PhrasesSettingError(WordvecError, ValueError):
    """A Phrases setting out of range (a ``ValueError``, as gensim raises)."""


class Phrases(_PhrasesTransformation):
    """Collocation counts of a corpus and gensim's rule for joining them (module docstring)."""

    def __init__(self, sentences=None, min_count=5, threshold=10.0, max_vocab_size=40000000, delimiter="_",
                 progress_per=10000, scoring="default", connector_words=frozenset()):
        super().__init__(connector_words)
        if min_count <= 0:
            raise PhrasesSettingError("min_count should be at least 1")
        if threshold <= 0 and scoring == "default":
            raise PhrasesSettingError("threshold should be positive for default scoring")
        if scoring == "npmi" and not -1 <= threshold <= 1:
            raise PhrasesSettingError("threshold should be between -1 and 1 for npmi scoring")
        if not isinstance(delimiter, str) or not delimiter:
            raise PhrasesSettingError(f"the delimiter must be a non-empty string, not {delimiter!r}")
        self.scoring = _scorer(scoring)
        self.min_count, self.threshold = min_count, threshold
        self.max_vocab_size, self.delimiter, self.progress_per = max_vocab_size, delimiter, progress_per
        self.vocab = {}  # word or joined candidate -> count
        self.min_reduce = 1
        self.corpus_word_count = 0
        if sentences is not None:
            self.add_vocab(sentences)

    def __str__(self):
        return (f"{type(self).__name__}<{len(self.vocab)} vocab, min_count={self.min_count}, "
                f"threshold={self.threshold}, max_vocab_size={self.max_vocab_size}>")

    def add_vocab(self, sentences):
        """Count ``sentences`` and merge the counts in (pruning as gensim does)."""
        if isinstance(sentences, (str, bytes)):
            raise WordvecError("sentences must be an iterable of token lists, not a string")
        min_reduce, counts, tokens = _count(sentences, self.max_vocab_size, self.delimiter, self.connector_words)
        self.corpus_word_count += tokens
        if not self.vocab:
            self.vocab = counts
            return
        self.min_reduce = max(self.min_reduce, min_reduce)
        for key, count in counts.items():
            self.vocab[key] = self.vocab.get(key, 0) + count
        if len(self.vocab) > self.max_vocab_size:
            _prune(self.vocab, self.min_reduce)
            self.min_reduce += 1

    def score_candidate(self, word_a, word_b, in_between):
        """(joined phrase, score) if the candidate scores above the threshold, else (None, None)."""
        count_a, count_b = self.vocab.get(word_a, 0), self.vocab.get(word_b, 0)
        if count_a <= 0 or count_b <= 0:
            return None, None
        phrase = self.delimiter.join([word_a, *in_between, word_b])
        count_ab = self.vocab.get(phrase, 0)
        if count_ab <= 0:
            return None, None
        score = self.scoring(worda_count=count_a, wordb_count=count_b, bigram_count=count_ab,
                             len_vocab=len(self.vocab), min_count=self.min_count,
                             corpus_word_count=self.corpus_word_count)
        if score <= self.threshold:
            return None, None
        return phrase, score

    def export_phrases(self):
        """{phrase: score} for every counted candidate that scores above the threshold."""
        result = {}
        for key in self.vocab:
            parts = key.split(self.delimiter)
            if len(parts) < 2:
                continue
            phrase, score = self.score_candidate(parts[0], parts[-1], parts[1:-1])
            if score is not None:
                result[phrase] = score
        return result

    def freeze(self):
        """A ``FrozenPhrases``: the phrases and scores only, smaller and faster, no more counting."""
        return FrozenPhrases(self)

    def save(self, path):
        """JSON (atomically; gensim pickles): the counts and the settings.  A scoring function
        of your own is saved by name only (a file never brings code): pass it again to ``load``."""
        record = {"format": PHRASES_FORMAT, "version": 1, "min_count": self.min_count,
                  "threshold": self.threshold, "max_vocab_size": self.max_vocab_size, "delimiter": self.delimiter,
                  "progress_per": self.progress_per, "scoring": _scoring_name(self.scoring),
                  "connector_words": sorted(self.connector_words), "min_reduce": self.min_reduce,
                  "corpus_word_count": self.corpus_word_count, "vocab": self.vocab}
        with atomic_write(path, "w", encoding="utf-8") as handle:
            json.dump(record, handle, ensure_ascii=False)

    @classmethod
    def load(cls, path, scoring=None):
        """A ``Phrases`` saved by :meth:`save` (``scoring``: the function of a model saved
        with one of your own).  A gensim pickle is read as data (``wordvec.models.gensim_load``)."""
        if is_pickle(path):
            return _phrases_from_gensim(cls, path)
        record = _read_record(path, PHRASES_FORMAT)
        name = record.get("scoring")
        if scoring is None and name not in ("default", "npmi"):
            raise WordvecError(f"{path} was saved with the scoring function {name!r}, which is not stored in "
                               "files; pass it again: Phrases.load(path, scoring=your_function)")
        try:
            phrases = cls(min_count=record["min_count"], threshold=record["threshold"],
                          max_vocab_size=record["max_vocab_size"], delimiter=str(record["delimiter"]),
                          progress_per=record["progress_per"], scoring=scoring or name,
                          connector_words=frozenset(map(str, record["connector_words"])))
            phrases.min_reduce, phrases.corpus_word_count = int(record["min_reduce"]), int(record["corpus_word_count"])
            phrases.vocab = {str(k): int(v) for k, v in record["vocab"].items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            raise FormatError(path, None, "not a wordvec phrases file (JSON)") from None
        return phrases


class FrozenPhrases(_PhrasesTransformation):
    """The phrases of a ``Phrases`` (``phrasegrams``: {phrase: score}) and nothing else."""

    def __init__(self, phrases_model):
        super().__init__(phrases_model.connector_words)
        self.threshold, self.min_count = phrases_model.threshold, phrases_model.min_count
        self.delimiter, self.scoring = phrases_model.delimiter, phrases_model.scoring
        self.phrasegrams = phrases_model.export_phrases()

    def __str__(self):
        return (f"{type(self).__name__}<{len(self.phrasegrams)} phrases, min_count={self.min_count}, "
                f"threshold={self.threshold}>")

    def score_candidate(self, word_a, word_b, in_between):
        phrase = self.delimiter.join([word_a, *in_between, word_b])
        score = self.phrasegrams.get(phrase, NEGATIVE_INFINITY)
        if score > self.threshold:
            return phrase, score
        return None, None

    def save(self, path):
        """JSON (atomically; gensim pickles): the phrases, their scores and the settings."""
        scoring = getattr(self.scoring, "__name__", "custom")
        record = {"format": "wordvec-frozen-phrases", "version": 1, "threshold": self.threshold,
                  "min_count": self.min_count, "delimiter": self.delimiter, "scoring": scoring,
                  "connector_words": sorted(self.connector_words), "phrasegrams": self.phrasegrams}
        with atomic_write(path, "w", encoding="utf-8") as handle:
            json.dump(record, handle, ensure_ascii=False)

    @classmethod
    def load(cls, path):
        """A file saved by :meth:`save`, or a gensim pickle (``Phrases`` ones are frozen)."""
        if is_pickle(path):
            return _frozen_from_gensim(cls, path)
        record = _read_record(path, "wordvec-frozen-phrases")
        try:
            frozen = cls.__new__(cls)
            _PhrasesTransformation.__init__(frozen, record["connector_words"])
            frozen.threshold, frozen.min_count = float(record["threshold"]), record["min_count"]
            frozen.delimiter, frozen.scoring = str(record["delimiter"]), record["scoring"]
            frozen.phrasegrams = {str(k): float(v) for k, v in record["phrasegrams"].items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            raise FormatError(path, None, "not a wordvec frozen-phrases file (JSON)") from None
        return frozen


PHRASES_FORMAT = "wordvec-phrases"


def _phrases_from_gensim(cls, path):
    """A gensim Phrases pickle read as data; a scoring function of its own is refused."""
    fields = gensim_models.fields_of(path, gensim_models.read_model(path, ("Phrases",)), gensim_models.phrases_fields)
    if not isinstance(fields["scoring"], str):
        raise WordvecError(f"{path} uses a scoring function of its own, which is not read from files")
    phrases = cls(min_count=fields["min_count"], threshold=fields["threshold"],
                  max_vocab_size=fields["max_vocab_size"], delimiter=fields["delimiter"],
                  scoring=str(fields["scoring"]), connector_words=fields["connector_words"])
    phrases.vocab, phrases.min_reduce = fields["vocab"], fields["min_reduce"]
    phrases.corpus_word_count = fields["corpus_word_count"]
    return phrases


def _frozen_from_gensim(cls, path):
    """A gensim FrozenPhrases/Phraser pickle (or a Phrases one, frozen) read as data."""
    top = gensim_models.read_model(path, ("FrozenPhrases", "Phraser", "Phrases"))
    if top.name == "Phrases":
        return cls(_phrases_from_gensim(Phrases, path))
    fields = gensim_models.fields_of(path, top, gensim_models.phrases_fields)
    frozen = cls.__new__(cls)
    _PhrasesTransformation.__init__(frozen, fields["connector_words"])
    frozen.threshold, frozen.min_count = fields["threshold"], fields["min_count"]
    scoring = str(fields["scoring"])
    frozen.delimiter, frozen.scoring = fields["delimiter"], _scorer(scoring) if scoring in ("default", "npmi") else scoring
    frozen.phrasegrams = fields["phrasegrams"]
    return frozen


def _scoring_name(scoring):
    return {original_scorer: "default", npmi_scorer: "npmi"}.get(scoring, getattr(scoring, "__name__", "custom"))


def _read_record(path, kind):
    """The JSON object of a saved (frozen) phrases file of ``kind``."""
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except OSError as error:
        raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError:
        raise FormatError(path, None, f"not a {kind} file (JSON)") from None
    if not isinstance(record, dict) or record.get("format") != kind:
        raise FormatError(path, None, f"not a {kind} file (JSON)")
    return record


Phraser = FrozenPhrases  # gensim's older name
