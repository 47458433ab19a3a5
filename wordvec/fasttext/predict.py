"""``predict`` of ``wordvec.fasttext``, one line at a time as language-ID wrappers call it.

A line's bag is built as fastText's ``Dictionary::getLine`` builds it (each word's row and
its character n-gram rows, an unknown word's n-grams only, labels left out, ``</s>`` at
the end, then the word n-grams from the tokens' hashes: h = h * 116049371 + hash_j over
64-bit integers), with what each distinct token adds worked out once and kept; the
probabilities are those of ``wordvec.math.classifier_predict`` (softmax, fastText's σ
table for ova, hierarchical softmax with 1e-5 in each factor). The figures returned are
fastText's: float32, each probability p as ``exp(log(p + 1e-5))`` (its predictions are kept
as logs with 1e-5 inside; hs already has them in its factors).
"""

import re

import numpy as np

from wordvec.data.huffman import build_huffman
from wordvec.data.label_dictionary import to_bytes
from wordvec.data.subword import fasttext_hash, ngram_buckets
from wordvec.fasttext.text import EOS, first_line_tokens
from wordvec.kernels import line_predict
from wordvec.kernels.line_predict import predict_line
from wordvec.kernels.wordtable import build_slots
from wordvec.math import classifier_predict as forward
from wordvec.models.classifier.curves import fasttext_probabilities

MASK64 = (1 << 64) - 1
NGRAM_MULTIPLIER = 116049371
MAX_SCORE_BYTES = 64 << 20  # the kept score vectors of tokens and n-gram rows, at most
_PLAIN = re.compile("[\t\v\f\r\0]")


def first_line(text):
    """``text`` up to its first ``</s>`` token, which ends a line for fastText's getLine."""
    if EOS not in text:
        return text
    return " ".join(first_line_tokens(text)[:-1])


class LinePredictor:
    """Predictions of a supervised ``Classifier``, line by line.

    For softmax and hs the label scores of a bag are the mean of its rows' scores
    (W_out · W_in[r], equation P1 of ``wordvec.math.classifier_predict``): each distinct
    token's rows' summed scores and each word n-gram row's scores are computed once and kept
    (a slot of ``scores``), so a call sums a few kept vectors instead of gathering rows."""

    def __init__(self, classifier):
        d = classifier.dictionary
        self.dictionary, self.names = d, list(d.labels)
        self.W_in, self.W_out = classifier.W_in, classifier.W_out
        self.W_outT = np.ascontiguousarray(classifier.W_out.astype(np.float64).T)
        self.loss = classifier.config.loss
        self.tree = build_huffman(d.label_counts) if self.loss == "hs" else None
        self.bucket_rows = d.bucket_rows if (d.maxn > 0 or d.word_ngrams > 1) and d.bucket > 0 else None
        self.prefix = d.label_prefix
        n_labels = max(1, classifier.W_out.shape[0])
        self.capacity = max(1024, MAX_SCORE_BYTES // (8 * n_labels))
        self._forget()
        self.compiled = compiled_line_model(classifier) if self.loss in ("softmax", "hs") else None
        self.out = np.empty(classifier.W_out.shape[0], dtype=np.float64)

    def predict_one(self, text, k, threshold, dtype=np.float32):
        """(label names, probabilities) of one line, best first: fastText's float32 figures
        (as ``dtype``)."""
        if self.compiled is None:
            labels, p = self._predict_line(text, k, threshold)
            return labels, p.astype(dtype)
        text_bytes, ints, W_in, W_out = self.compiled
        n_rows, best = predict_line(text_bytes, ints, W_in, W_out, text.encode("utf-8", "surrogateescape"), self.out)
        if n_rows == 0:
            return [], np.zeros(0, dtype=dtype)
        p = self.out
        if k == 1:
            if p[best] < threshold:
                return [], np.zeros(0, dtype=dtype)
            figure = np.float32(p[best] if self.loss == "hs" else p[best] + 1e-5)
            return [self.names[best]], np.array([figure], dtype=dtype)
        order = np.argsort(-p, kind="stable")
        if k > 0:
            order = order[:k]
        order = order[p[order] >= threshold]
        return [self.names[i] for i in order.tolist()], fasttext_probabilities(p[order], self.loss).astype(dtype)

    def _forget(self):
        self._tokens, self._row_slots = {}, {}
        self.scores = np.empty((min(4096, self.capacity), max(1, self.W_out.shape[0])), dtype=np.float64)
        self.used = 0

    def _slot(self, rows):
        """A new slot holding the summed scores of ``rows``."""
        if self.used == self.scores.shape[0]:
            grown = np.empty((min(2 * self.used, self.capacity), self.scores.shape[1]), dtype=np.float64)
            grown[:self.used] = self.scores
            self.scores = grown
        self.scores[self.used] = (self.W_in[list(rows)].astype(np.float64) @ self.W_outT).sum(axis=0)
        self.used += 1
        return self.used - 1

    def predict(self, lines, k, threshold):
        """Per line: (label names, float32 probabilities), best first; k = -1: every label."""
        return [self.predict_one(line, k, threshold) for line in lines]

    def _predict_line(self, text, k, threshold):
        if self.used + 2 * len(text) + 16 >= self.capacity:  # room for this line's new slots
            self._forget()
        slots, n_rows, rows = self.bag(text)
        if n_rows == 0:
            return [], np.zeros(0, dtype=np.float32)
        if self.loss == "ova":
            p = forward.fasttext_ova(self.W_in[rows], np.array([0, len(rows)]), self.W_out)[0]
        else:
            scores = self.scores[slots].sum(axis=0) / n_rows
            if self.loss == "softmax" and k == 1:
                best = int(scores.argmax())
                p_best = 1.0 / np.exp(scores - scores[best]).sum()
                if p_best < threshold:
                    return [], np.zeros(0, dtype=np.float32)
                return [self.names[best]], fasttext_probabilities([p_best], self.loss)
            p = self._probabilities(scores)
        order = np.argsort(-p, kind="stable")
        if k > 0:
            order = order[:k]
        order = order[p[order] >= threshold]
        return [self.names[i] for i in order.tolist()], fasttext_probabilities(p[order], self.loss)

    def _probabilities(self, scores):
        if self.loss == "softmax":
            e = np.exp(scores - scores.max())
            return e / e.sum()
        tree = self.tree
        return forward.hs_probabilities(scores[None, :], tree.points, tree.codes, tree.lengths, 1e-5)[0]

    def bag(self, text):
        """The line's bag: (score slots, number of input rows, the rows themselves for ova)."""
        if EOS in text or _PLAIN.search(text):
            tokens = first_line_tokens(text)
        else:
            tokens = [t for t in text.split(" ") if t]
            tokens.append(EOS)
        slots, hashes, rows = [], [], []
        n_rows = 0
        cache, ova = self._tokens, self.loss == "ova"
        for token in tokens:
            entry = cache.get(token)
            if entry is None:
                entry = self._token(token)
            if entry[2] is None:
                continue  # a label
            if entry[1]:
                slots.append(entry[0])
                n_rows += entry[1]
                if ova:
                    rows.extend(entry[3])
            hashes.append(entry[2])
        n = self.dictionary.word_ngrams
        if n > 1 and self.bucket_rows is not None:
            bucket, bucket_rows, row_slots = self.dictionary.bucket, self.bucket_rows, self._row_slots
            for i in range(len(hashes)):
                h = hashes[i]
                for j in range(i + 1, min(len(hashes), i + n)):
                    h = (h * NGRAM_MULTIPLIER + hashes[j]) & MASK64
                    row = int(bucket_rows[h % bucket])
                    if row < 0:
                        continue
                    slot = row_slots.get(row)
                    if slot is None:
                        slot = row_slots[row] = self._slot((row,))
                    slots.append(slot)
                    n_rows += 1
                    if ova:
                        rows.append(row)
        return slots, n_rows, rows

    def _token(self, token):
        """(score slot, number of rows, 64-bit hash, rows) of a word; (-1, 0, None, ()) for a label."""
        d = self.dictionary
        key = to_bytes(token)
        index = d.word_index.get(key, -1)
        if index < 0 and (key in d.label_index or token.startswith(self.prefix)):
            entry = (-1, 0, None, ())
        else:
            rows = [index] if index >= 0 else []
            if d.maxn > 0 and token != EOS and self.bucket_rows is not None:
                grams = self.bucket_rows[ngram_buckets(token, max(1, d.minn), d.maxn, d.bucket)]
                rows.extend(grams[grams >= 0].tolist())
            signed = fasttext_hash(token)
            signed = signed - (1 << 32) if signed >= 1 << 31 else signed
            entry = (self._slot(rows) if rows else -1, len(rows), signed & MASK64, tuple(rows))
        self._tokens[token] = entry
        return entry


def compiled_line_model(classifier):
    """The model arrays of ``kernels.line_predict.predict_line`` (text, ints, W_in, W_out)
    for a softmax or hs classifier."""
    d = classifier.dictionary
    words = d.token_bytes[:d.nwords]
    offsets = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum([len(w) for w in words], out=offsets[1:])
    blob = np.frombuffer(b"".join(words), dtype=np.uint8) if words else np.zeros(0, np.uint8)
    slots = np.zeros(1 << max(4, (2 * len(words)).bit_length()), dtype=np.int64)
    build_slots(blob, offsets, slots, np.zeros(len(words), dtype=np.uint8))
    uses_buckets = (d.maxn > 0 or d.word_ngrams > 1) and d.bucket > 0
    bucket_rows = d.bucket_rows.astype(np.int64) if uses_buckets else np.zeros(0, np.int64)
    hs = classifier.config.loss == "hs"
    tree = np.zeros((0, 1), np.int64)
    if hs:
        huffman = build_huffman(d.label_counts)
        depth = huffman.points.shape[1]
        tree = np.zeros((len(d.labels), 1 + 2 * depth), dtype=np.int64)
        tree[:, 0] = huffman.lengths
        tree[:, 1:1 + depth] = huffman.points
        for label in range(len(d.labels)):  # codes right after the path's nodes
            length = huffman.lengths[label]
            tree[label, 1 + length:1 + 2 * length] = huffman.codes[label, :length]
    eos_hash = fasttext_hash(EOS)
    header = np.zeros(line_predict.HEADER, dtype=np.int64)
    at = line_predict.HEADER
    header[line_predict.OFFSETS_AT] = at
    header[line_predict.SLOTS_AT] = at = at + len(offsets)
    header[line_predict.ROWS_AT] = at = at + len(slots)
    header[line_predict.ROWS_LEN] = len(bucket_rows)
    header[line_predict.TREE_AT] = at + len(bucket_rows)
    header[line_predict.TREE_WIDTH] = tree.shape[1]
    header[[line_predict.MINN, line_predict.MAXN, line_predict.BUCKET, line_predict.WORD_NGRAMS,
            line_predict.EOS_ROW, line_predict.EOS_HASH, line_predict.HS, line_predict.PREFIX_AT]] = [
        max(1, d.minn), d.maxn, max(1, d.bucket), d.word_ngrams, d.word_index.get(to_bytes(EOS), -1),
        eos_hash - (1 << 32) if eos_hash >= 1 << 31 else eos_hash, int(hs), len(blob)]
    text = np.concatenate([blob, np.frombuffer(to_bytes(d.label_prefix), dtype=np.uint8)])
    ints = np.concatenate([header, offsets, slots, bucket_rows, tree.reshape(-1)])
    return text, ints, classifier.W_in, classifier.W_out
