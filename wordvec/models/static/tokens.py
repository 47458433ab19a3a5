"""Text to token ids for a static model: the model's own ``tokenizers`` tokenizer, used as
Model2Vec's ``encode`` uses it (no special tokens, no padding, the unknown token dropped,
at most ``max_length`` tokens after cutting the text at ``max_length`` times the median
token length in characters), giving flat int32 ids and int64 offsets for the kernels.

Tokenizers whose every step stays inside a whitespace-separated word (BERT's normalizer,
its whitespace-and-punctuation pre-tokenizer, WordPiece or a word-level model) give a text
the concatenation of its words' ids, so such a tokenizer runs once per distinct word and
the ids are reused from a cache; a text outside printable ASCII goes to the tokenizer whole
(Python's and the tokenizer's notions of whitespace and of removable control characters
differ outside it)."""

import json
import re
import threading

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.kernels.static import Sentences


def tokenizer_class():
    """``tokenizers.Tokenizer``, imported on first use: the `static` extra, which the rest of
    wordvec does not need."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise WordvecError("static models need the tokenizers package: pip install 'wordvec[static]'") from None
    return Tokenizer


def read_tokenizer(text, path):
    """A ``Tokenizer`` from the text of a tokenizer.json; damage is a ``FormatError``."""
    try:
        tokenizer = tokenizer_class().from_str(text)
    except Exception as error:  # tokenizers raises a bare Exception for every kind of damage
        raise FormatError(path, None, f"not a readable tokenizer.json ({str(error).splitlines()[0][:160]})") from None
    if tokenizer.get_vocab_size() == 0:
        raise FormatError(path, None, "the tokenizer has an empty vocabulary")
    return tokenizer


def unknown_id(tokenizer):
    """The id of the unknown token, or None (Unigram models keep it as ``unk_id``)."""
    model = tokenizer.model
    if hasattr(model, "unk_token"):
        token = model.unk_token
        return None if token is None else tokenizer.token_to_id(token)
    return json.loads(tokenizer.to_str())["model"].get("unk_id")


WORD_LOCAL = {"normalizer": {None, "BertNormalizer", "Lowercase", "StripAccents", "NFD", "NFKD", "NFC", "NFKC"},
              "pre_tokenizer": {"BertPreTokenizer", "Whitespace", "WhitespaceSplit"},
              "model": {"WordPiece", "WordLevel"}}
OUTSIDE_PLAIN_ASCII = re.compile(r"[^\x20-\x7e\t\n\r]")
CACHE_WORDS = 1_000_000
JOINED = 1024  # new words tokenized per text


def word_local(tokenizer_json):
    """True if the tokenizer (its parsed tokenizer.json) maps a text to the concatenation of
    its whitespace-separated words' ids: see the module docstring."""
    def kind(part):
        return None if part is None else part.get("type")

    normalizer = tokenizer_json.get("normalizer")
    normalizers = normalizer.get("normalizers", []) if kind(normalizer) == "Sequence" else [normalizer]
    pre = tokenizer_json.get("pre_tokenizer")
    pres = pre.get("pretokenizers", []) if kind(pre) == "Sequence" else [pre]
    return (all(kind(n) in WORD_LOCAL["normalizer"] for n in normalizers)
            and len(pres) >= 1 and all(kind(p) in WORD_LOCAL["pre_tokenizer"] for p in pres)
            and kind(tokenizer_json.get("model")) in WORD_LOCAL["model"]
            and not any(re.search(r"\s", t.get("content", " ")) for t in tokenizer_json.get("added_tokens") or []))


class TokenEncoder:
    """Sentences to ``Sentences`` (flat ids and offsets) with a model's tokenizer."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer_class().from_str(tokenizer.to_str())
        self.tokenizer.no_padding()
        self.unknown = unknown_id(self.tokenizer)
        vocab = self.tokenizer.get_vocab(with_added_tokens=True)
        self.tokens = [token for token, _ in sorted(vocab.items(), key=lambda item: item[1])]
        self.median_token_length = int(np.median([len(token) for token in self.tokens]))
        self.words = WordPieces() if word_local(json.loads(self.tokenizer.to_str())) else None
        self.lock = threading.Lock()  # the word cache and the tokenizer's truncation setting are shared

    def encode(self, sentences, max_length):
        """``Sentences`` of the list ``sentences`` (at most ``max_length`` tokens each; None:
        no limit)."""
        if max_length is not None:
            cut = max_length * self.median_token_length
            sentences = [sentence[:cut] for sentence in sentences]
        with self.lock:
            return self._encode(sentences, max_length)

    def _encode(self, sentences, max_length):
        if self.words is not None:  # cut by _expand: a cached word keeps all its ids
            self.tokenizer.no_truncation()
            ids, offsets = self._by_words(sentences, max_length)
        else:
            if max_length is None:
                self.tokenizer.no_truncation()
            else:
                self.tokenizer.enable_truncation(max_length)
            lists = self._tokenize(list(sentences))
            lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
            ids = np.fromiter((i for ids in lists for i in ids), dtype=np.int32, count=int(lengths.sum()))
            offsets = np.zeros(len(lists) + 1, dtype=np.int64)
            np.cumsum(lengths, out=offsets[1:])
        if self.unknown is not None and len(ids):
            ids, offsets = _drop(ids, offsets, self.unknown)
        return Sentences(ids, offsets)


    def _tokenize(self, texts):
        return [encoding.ids for encoding in self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)]

    def _word_ids(self, words):
        """(flat ids, ids per word) of plain-ASCII ``words``, tokenized together as texts of
        ``JOINED`` words (the tokenizer's cost is mostly per text): a token belongs to the
        word its first character falls in."""
        ids, lengths = [np.zeros(0, dtype=np.int32)], [np.zeros(0, dtype=np.int64)]
        parts = [words[first:first + JOINED] for first in range(0, len(words), JOINED)]
        texts = [" ".join(part) for part in parts]
        for part, encoding in zip(parts, self.tokenizer.encode_batch(texts, add_special_tokens=False)):
            sizes = np.fromiter(map(len, part), dtype=np.int64, count=len(part)) + 1
            word_starts = np.cumsum(sizes) - sizes
            token_starts = np.fromiter((start for start, _ in encoding.offsets), dtype=np.int64,
                                       count=len(encoding.offsets))
            owner = np.searchsorted(word_starts, token_starts, side="right") - 1
            ids.append(np.asarray(encoding.ids, dtype=np.int32))
            lengths.append(np.bincount(owner, minlength=len(part)).astype(np.int64))
        return np.concatenate(ids), np.concatenate(lengths)

    def _by_words(self, sentences, max_length):
        """Flat ids and offsets of ``sentences`` through the word cache (module docstring):
        a text outside plain ASCII is one "word" held only for this call."""
        table = self.words
        if len(table.rows) > CACHE_WORDS:
            table.__init__()
        words = [[sentence] if OUTSIDE_PLAIN_ASCII.search(sentence) else sentence.split() for sentence in sentences]
        counts = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        flat = [word for sentence in words for word in sentence]
        get = table.rows.get
        rows = np.array([get(word, -1) for word in flat], dtype=np.int64)
        missing = np.flatnonzero(rows < 0)
        texts = []
        if len(missing):
            new = list(dict.fromkeys(flat[i] for i in missing))
            outside = [OUTSIDE_PLAIN_ASCII.search(word) is not None for word in new]
            texts = [word for word, whole in zip(new, outside) if whole]
            words = [word for word, whole in zip(new, outside) if not whole]
            table.add(words, *self._word_ids(words))
            lists = self._tokenize(texts)
            table.add(texts, [i for ids in lists for i in ids], np.fromiter(map(len, lists), np.int64, len(lists)))
            rows[missing] = [table.rows[flat[i]] for i in missing]
        found = _expand(table.pieces, table.starts[rows], table.lengths[rows], counts, max_length)
        table.forget(texts)
        return found


class WordPieces:
    """Words and their token ids, one flat int32 array of ids and each word's start/length."""

    def __init__(self):
        self.rows, self.pieces = {}, np.zeros(0, dtype=np.int32)
        self.starts, self.lengths = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)

    def add(self, words, ids, lengths):
        """Append ``words``, word i's ids being the next ``lengths[i]`` of the flat ``ids``."""
        starts = len(self.pieces) + np.cumsum(lengths) - lengths
        self.rows.update(zip(words, range(len(self.rows), len(self.rows) + len(words))))
        self.pieces = np.concatenate([self.pieces, np.asarray(ids, dtype=np.int32)])
        self.starts, self.lengths = np.concatenate([self.starts, starts]), np.concatenate([self.lengths, lengths])

    def forget(self, last):
        """Forget the entries ``last``, the last ones added."""
        if last:
            count = len(self.rows) - len(last)
            for word in last:
                del self.rows[word]
            self.pieces = self.pieces[:self.starts[count]] if count else self.pieces[:0]
            self.starts, self.lengths = self.starts[:count], self.lengths[:count]


def _expand(pieces, starts, lengths, counts, max_length):
    """Flat ids and offsets of sentences made of ``counts[s]`` consecutive words, word w's ids
    being ``pieces[starts[w]:starts[w] + lengths[w]]``; each sentence cut at ``max_length``."""
    total = int(lengths.sum())
    before = np.cumsum(lengths) - lengths
    ids = pieces[np.repeat(starts - before, lengths) + np.arange(total)]
    word_end = np.cumsum(counts)
    token_end = np.concatenate([[0], np.cumsum(lengths)])[word_end]
    sizes = np.diff(np.concatenate([[0], token_end]))
    if max_length is not None and len(sizes) and sizes.max() > max_length:
        position = np.arange(total) - np.repeat(token_end - sizes, sizes)
        ids = ids[position < max_length]
        sizes = np.minimum(sizes, max_length)
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return np.ascontiguousarray(ids, dtype=np.int32), offsets


def _drop(ids, offsets, token):
    keep = ids != token
    if keep.all():
        return ids, offsets
    kept_before = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(keep, out=kept_before[1:])
    return np.ascontiguousarray(ids[keep]), kept_before[offsets]
