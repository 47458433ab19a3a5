"""gensim's Doc2Vec corpus: an iterable of ``TaggedDocument(words, tags)``, read into the
same ``EncodedDocuments`` the document files give (``wordvec.data.documents``).

Tags are gensim's: an int tag ``t`` is row ``t`` of the document matrix (rows up to the
largest int tag exist, as in gensim), a str tag gets the next row after the ints in first-seen
order; ``keys`` lists the tag of every row (ints, then strs).  A document with several tags
trains each of its tags' rows on its words (it is listed once per tag); for PV-DM with
concatenation of T tags (``tags_per_document``) a document is listed once with its T rows,
and a document with another number of tags is left out, as gensim leaves it out.

The corpus must be re-iterable (a list, or an object whose ``__iter__`` starts again): it is
read once to count and once to train, so a generator is refused (``TypeError``, as gensim
does).  Anything that is not a (words, tags) pair of a list of str and a list of str or
int is refused in one sentence naming the document, never turned into text.
"""

import collections
import types
from numbers import Integral

import numpy as np

from wordvec.data.documents import EncodedDocuments, _FirstSeenIds, _vocabulary
from wordvec.errors import WordvecError


class CorpusTypeError(WordvecError, TypeError):
    """A Doc2Vec corpus that is not a re-iterable collection of TaggedDocuments."""


def is_tagged_corpus(source):
    """True if ``source`` is an in-memory corpus whose first item has ``words`` and ``tags``."""
    refuse_one_pass(source)
    first = next(iter(source), None)
    return hasattr(first, "words") and hasattr(first, "tags")


def refuse_one_pass(source):
    if isinstance(source, (types.GeneratorType, collections.abc.Iterator)):
        raise CorpusTypeError(f"the corpus is a {type(source).__name__}, which can be read only once; pass a list "
                              "or an object whose __iter__ starts again (it is read once to count, once to train)")
    if not isinstance(source, collections.abc.Iterable):
        raise CorpusTypeError(f"the corpus must be an iterable of TaggedDocument, not {type(source).__name__}")


def _checked(document, number):
    """(words, tags) of one document, or a refusal naming it."""
    words, tags = getattr(document, "words", None), getattr(document, "tags", None)
    if words is None or tags is None:
        raise CorpusTypeError(f"document {number} is a {type(document).__name__}, not a TaggedDocument(words, tags)")
    if isinstance(words, (str, bytes)) or not isinstance(words, (list, tuple)):
        raise CorpusTypeError(f"document {number}: words must be a list of str tokens (e.g. text.split()), "
                              f"not a {type(words).__name__}")
    if isinstance(tags, (str, bytes, Integral)) or not isinstance(tags, (list, tuple)):
        raise CorpusTypeError(f"document {number}: tags must be a list of tags (e.g. [{tags!r}]), "
                              f"not a {type(tags).__name__}")
    for token in words:
        if not isinstance(token, str):
            raise CorpusTypeError(f"document {number}: the token {token!r} is a {type(token).__name__}, not a str")
    for tag in tags:
        if isinstance(tag, bool) or not isinstance(tag, (str, Integral)) or (isinstance(tag, Integral) and tag < 0):
            raise CorpusTypeError(f"document {number}: the tag {tag!r} is not a str or a non-negative int")
    return words, tags


class TagSpace:
    """The rows of the tags: int tags are their own rows, str tags follow in first-seen order."""

    def __init__(self):
        self.max_int, self.strings = -1, {}

    def add(self, tag):
        if isinstance(tag, Integral):
            self.max_int = max(self.max_int, int(tag))
        else:
            self.strings.setdefault(tag, len(self.strings))

    def row(self, tag):
        return int(tag) if isinstance(tag, Integral) else self.max_int + 1 + self.strings[tag]

    def keys(self):
        return list(range(self.max_int + 1)) + list(self.strings)


def read_tagged(corpus, min_count=5, vocab=None, tags_per_document=0):
    """(vocabulary, :class:`EncodedDocuments`, number of documents) of a TaggedDocument
    corpus, in one pass; with ``vocab`` given, the documents are encoded against it (words
    outside it dropped).  ``tags_per_document`` T > 0: each document with T tags listed
    once, its rows ``rows[T d:T (d + 1)]`` (the others left out)."""
    refuse_one_pass(corpus)
    first_seen, space = _FirstSeenIds(), TagSpace()
    numbers, lengths, tag_lists = [], [], []
    for number, document in enumerate(corpus):
        words, tags = _checked(document, number)
        numbers.extend(map(first_seen.__getitem__, words))
        lengths.append(len(words))
        for tag in tags:
            space.add(tag)
        tag_lists.append(tags)
    numbers = np.array(numbers, dtype=np.int32)
    names = list(first_seen)
    if vocab is None:
        counts = collections.Counter(dict(zip(names, np.bincount(numbers, minlength=len(names)).tolist())))
        vocab = _vocabulary(corpus, counts, len(lengths), min_count)
    to_vocab = np.array([vocab.index.get(name, -1) for name in names] or [-1], dtype=np.int32)[numbers]
    return vocab, _encoded(to_vocab, lengths, tag_lists, space, tags_per_document), len(lengths)


def _encoded(to_vocab, lengths, tag_lists, space, tags_per_document=0):
    """Each document once per tag (or, with ``tags_per_document`` T, once with its T
    tags' rows if it has T tags), its unknown words dropped."""
    ends = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=ends[1:])
    pieces, sizes, rows = [], [], []
    for d, tags in enumerate(tag_lists):
        ids = to_vocab[ends[d]:ends[d + 1]]
        ids = ids[ids >= 0]
        if tags_per_document:
            if len(tags) == tags_per_document:
                pieces.append(ids)
                sizes.append(ids.size)
                rows.extend(space.row(tag) for tag in tags)
            continue
        for tag in tags:
            pieces.append(ids)
            sizes.append(ids.size)
            rows.append(space.row(tag))
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    ids = np.concatenate(pieces).astype(np.int32) if pieces else np.zeros(0, np.int32)
    return EncodedDocuments(ids, offsets, np.array(rows, dtype=np.int64), space.keys())
