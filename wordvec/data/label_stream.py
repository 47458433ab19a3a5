"""Text to bags of input rows for prediction, in NumPy: fastText's ``getLine`` without Numba.

``wordvec classify predict``/``test`` must not pay Numba's import and kernel loading
(~0.6 s of a 0.1-1 s process, the whole difference to fastText on small files), and
prediction needs no compiled loop: this encoder gives the same :class:`Encoded` as the
compiled one (``wordvec.data.labels.encode``) for models without character n-grams.

* Tokens: fastText's ``readWord`` splits on ASCII whitespace (space, ``\\t \\n \\v \\f
  \\r``) and NUL, and a newline is the token ``</s>`` (EOS), which ends a document (so
  does a literal ``</s>`` in the text, for fastText and the compiled scanner alike).
  ``wordvec.data.token_lookup`` finds them and their ids for a whole block at once.
* A token is a word of the dictionary (its row), a label (the document's label), an
  unknown label (dropped) or an unknown word (no row). Words, known or not, take part in
  word n-grams: h = h · 116049371 + hash_j over uint64 from hash_i, each hash fastText's
  32-bit FNV-1a of the token's *signed* bytes, sign-extended from int32; the n-gram's
  row is that of bucket h mod ``bucket`` (``LabelDictionary.bucket_rows``).
* A bag is the words' rows in text order, then the n-grams by start, then by length.
"""

from itertools import repeat

import numpy as np

from wordvec.data.corpus import list_files, open_binary
from wordvec.data.label_dictionary import EOS, Encoded, to_bytes
from wordvec.data.token_lookup import TokenIndex, scan
from wordvec.io.fnv import fnv1a_many
from wordvec.io.text import joined_lines
from wordvec.memory import check_allocation

EOS_BYTES = to_bytes(EOS)
NGRAM_MULTIPLIER = np.uint64(116049371)
UNKNOWN = -1  # a token the dictionary does not have
EOS_UNKNOWN = -2  # the code of </s> when the dictionary does not have it
NOT_A_WORD, MISSING = 1 << 40, -(1 << 40)  # outside int32: a label; not looked at yet
BLOCK_BYTES = 1 << 20  # bytes per read: the block's token list is the peak temporary
# what encoding a block costs per byte at most: a token every 2 bytes ("a a a ..."), and per
# token the scanner's starts/ends, the codes, hashes, document numbers and bag rows (int64)
ENCODE_BYTES_PER_BYTE = 48


def text_blocks(path):
    """Byte blocks of a file or directory (plain or compressed), each ending at a line end."""
    for file in list_files(path):
        rest = b""
        with open_binary(file) as handle:
            while True:
                block = handle.read(BLOCK_BYTES)
                if not block:
                    break
                cut = block.rfind(b"\n") + 1
                if cut == 0:
                    rest += block  # a line longer than a block: encoded whole, so checked as it grows
                    check_allocation(ENCODE_BYTES_PER_BYTE * len(rest), f"{file}: a line of more than "
                                                                       f"{len(rest):,} bytes")
                    continue
                yield rest + block[:cut]
                rest = block[cut:]
        if rest:
            yield rest + b"\n"


def fnv1a_hashes(tokens):
    """fastText's hash of each token (bytes) as the int32 it keeps (:func:`fnv1a_of_ranges`)."""
    return fnv1a_of_ranges(*joined_lines(tokens))


def fnv1a_of_ranges(data, starts, ends):
    """fastText's hash of the tokens ``data[starts[i]:ends[i]]`` as the int32 it keeps:
    FNV-1a over the bytes read as int8 (``h ^ uint32_t(int8_t(c))``), computed byte
    position by byte position over all tokens at once (longest first, so the tokens still
    going are a prefix: ``io.fnv.fnv1a_many``)."""
    return fnv1a_many(np.frombuffer(data, dtype=np.uint8), starts, ends - starts, fasttext=True).view(np.int32)


class BagEncoder:
    """Encodes text blocks (bytes of whole lines) with a fixed dictionary that has no
    character n-grams (``maxn == 0``): tokens found by ``wordvec.data.token_lookup``
    (fastText's readWord over the whole block, a NumPy hash table of the dictionary)."""
    MAX_UNKNOWN = 1 << 20  # unknown tokens whose kind and hash are remembered

    def __init__(self, dictionary):
        if dictionary.maxn > 0:
            raise ValueError("BagEncoder handles models without character n-grams")
        self.dictionary = d = dictionary
        data, starts, ends = d.joined_tokens
        # codes: a word's row, nwords + a label's id (their places in the list); the labels
        # listed first so that a word that is also a label stays a word (the last listing wins)
        order = np.concatenate([np.arange(d.nwords, len(starts)), np.arange(d.nwords)])
        self.index = TokenIndex(data, starts[order], ends[order], order)
        self.eos = int(self.index.lookup(EOS_BYTES, np.array([0]), np.array([len(EOS_BYTES)]))[0])
        self.eos = EOS_UNKNOWN if self.eos < 0 else self.eos
        self.prefix = to_bytes(d.label_prefix)
        self.ngrams = d.word_ngrams > 1 and d.bucket > 0
        self.word_hashes = (fnv1a_of_ranges(data, starts[:d.nwords], ends[:d.nwords]).astype(np.int64)
                            if self.ngrams else None)
        self.unknown = {}  # unknown token -> its hash (a word) or NOT_A_WORD (a label)

    def encode(self, block):
        """The documents of ``block`` (bytes ending in a newline) as an :class:`Encoded`."""
        tokens = scan(block)
        if not len(tokens):
            return Encoded(*(np.zeros(n, dtype=t) for n, t in ((0, np.int32), (1, np.int64), (0, np.int32),
                                                               (1, np.int64), (0, np.int64))))
        codes = self.index.lookup(block, tokens.starts, tokens.ends)
        codes[tokens.newline] = self.eos
        if self.eos == EOS_UNKNOWN:  # a literal </s> ends a document too
            maybe = np.flatnonzero((codes == UNKNOWN) & (tokens.ends - tokens.starts == len(EOS_BYTES)))
            codes[maybe[[t == EOS_BYTES for t in tokens.bytes_of(block, maybe)]]] = EOS_UNKNOWN
        ends = np.flatnonzero(codes == self.eos)
        if len(ends) == 0 or ends[-1] != len(codes) - 1:  # text after the last newline: one more document
            ends = np.append(ends, len(codes) - 1)
        nwords = self.dictionary.nwords
        is_row = (codes >= 0) & (codes < nwords)
        is_label = codes >= nwords
        rows, row_offsets = codes[is_row], _offsets_at(is_row, ends)
        if self.ngrams:
            doc = np.zeros(len(codes), dtype=np.int64)
            doc[ends[:-1] + 1] = 1
            np.cumsum(doc, out=doc)
            hashes = self._hashes(block, tokens, codes)
            words = np.flatnonzero(hashes != NOT_A_WORD)
            ngram_docs, ngram_rows = self._ngram_rows(hashes[words], doc[words])
            bag_docs = np.concatenate([doc[is_row], ngram_docs])
            order = np.argsort(bag_docs, kind="stable")  # per document: words, then n-grams
            rows = np.concatenate([rows, ngram_rows])[order]
            row_offsets = _offsets(bag_docs, len(ends))
        return Encoded(rows.astype(np.int32), row_offsets, (codes[is_label] - nwords).astype(np.int32),
                       _offsets_at(is_label, ends), np.diff(ends, prepend=-1).astype(np.int64))

    def _hashes(self, block, tokens, codes):
        """int64 per token: its hash if it is a word (known or not), else NOT_A_WORD."""
        nwords = self.dictionary.nwords
        hashes = np.full(len(codes), NOT_A_WORD, dtype=np.int64)
        known = np.flatnonzero((codes >= 0) & (codes < nwords))
        hashes[known] = self.word_hashes[codes[known]]
        unknown = np.flatnonzero(codes < 0)
        hashes[unknown] = self._unknown_hashes(tokens.bytes_of(block, unknown))
        return hashes

    def _unknown_hashes(self, tokens):
        """Each unknown token's hash, or NOT_A_WORD for an unknown label; remembered."""
        found = np.fromiter(map(self.unknown.get, tokens, repeat(MISSING)), dtype=np.int64, count=len(tokens))
        missing = np.flatnonzero(found == MISSING)
        if len(missing):
            if len(self.unknown) > self.MAX_UNKNOWN:
                self.unknown.clear()
            new = list(dict.fromkeys(tokens[i] for i in missing.tolist()))
            values = fnv1a_hashes(new).tolist()
            self.unknown.update((t, NOT_A_WORD if t.startswith(self.prefix) else v) for t, v in zip(new, values))
            found[missing] = [self.unknown[tokens[i]] for i in missing.tolist()]
        return found

    def _ngram_rows(self, hashes, docs):
        """(document, row) of every word n-gram (2 .. word_ngrams words, within a
        document), ordered by start then length; n-grams whose bucket was pruned dropped."""
        d = self.dictionary
        n = len(hashes)
        longest = min(d.word_ngrams, int(np.bincount(docs).max(initial=1)) if n else 1)  # no longer than a document
        h = hashes.view(np.uint64)  # int32 values sign-extended to int64, as fastText's int32 -> uint64
        grams = np.zeros((n, longest - 1), dtype=np.uint64)
        valid = np.zeros((n, longest - 1), dtype=bool)
        current = h.copy()
        for length in range(2, longest + 1):
            span = n - length + 1
            if span <= 0:
                break
            current = current[:span] * NGRAM_MULTIPLIER + h[length - 1:]
            grams[:span, length - 2] = current
            valid[:span, length - 2] = docs[length - 1:] == docs[:span]
        starts = np.broadcast_to(docs[:, None], grams.shape)[valid]
        buckets = (grams[valid] % np.uint64(d.bucket)).astype(np.int64)
        if d.prune_index is None and d.row_of_bucket is None:
            return starts, buckets + d.nwords
        rows = d.bucket_rows[buckets]
        return starts[rows >= 0], rows[rows >= 0].astype(np.int64)


def _offsets_at(mask, ends):
    """CSR offsets (int64[len(ends) + 1]) of the tokens where ``mask`` holds, per document
    (documents end at the token positions ``ends``)."""
    offsets = np.zeros(len(ends) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(mask)[ends]
    return offsets


def _offsets(docs, n_docs):
    """CSR offsets (int64[n_docs + 1]) of items sorted by document."""
    offsets = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(np.bincount(docs, minlength=n_docs), out=offsets[1:])
    return offsets
