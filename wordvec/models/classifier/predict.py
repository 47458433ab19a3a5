"""A trained classifier's predictions in NumPy alone: ``wordvec classify predict`` and ``test``.

Prediction is a gather, a mean, one small matrix product and a top-k
(``wordvec.math.classifier_predict``), so it needs no compiled code, and a predict
process that never imports Numba is done with SST's 1,821 sentences in ~0.13 s instead
of ~0.65 s (Numba's import and the cached kernels' loading took ~0.5 s of those;
benchmarks/README.md, Text classification). Text is encoded by
``wordvec.data.label_stream`` (fastText's getLine in NumPy). Models with character
n-grams (``maxn > 0``) are left to the compiled path (``Classifier``): :func:`load_predictor`
returns None for them.

The model is opened with its input matrix memory-mapped (``.bin`` and native), so only
the rows the documents use are read from disk (fastText reads all of an 800 MB bigram
model first); each word row's label scores are computed once and kept
(:meth:`Predictor._mean_scores`).
"""

from dataclasses import dataclass

import numpy as np

from wordvec.data.label_stream import BagEncoder, text_blocks
from wordvec.errors import FormatError, WordvecError
from wordvec.math import classifier_predict as forward
from wordvec.models.classifier.files import load_parts

CHUNK_ROWS = 1 << 16  # bag positions scored at once: the per-chunk temporaries stay a few MB


class Predictor:
    """Label probabilities of encoded documents (``wordvec.data.label_dictionary.Encoded``),
    the same as ``Classifier.probabilities`` (to rounding) for a model without character
    n-grams. ``fasttext_sigmoid``: the figures fastText prints (ova through its σ table,
    hs with 1e-5 inside each factor), as ``Classifier.fasttext_sigmoid``."""

    def __init__(self, dictionary, W_in, W_out, loss, fasttext_sigmoid=True, source="the model"):
        if dictionary.maxn > 0:
            raise WordvecError("the NumPy predictor handles models without character n-grams")
        self.dictionary, self.W_in, self.W_out, self.loss = dictionary, W_in, W_out, loss
        self.fasttext_sigmoid, self.source = fasttext_sigmoid, source
        self.tree = _huffman_tree(dictionary.label_counts) if loss == "hs" else None
        self._W_out64 = W_out.astype(np.float64)
        # every word row's scores (a row per label), filled as rows are first used (calloc'd:
        # untouched pages cost nothing)
        self._scores = np.zeros((W_out.shape[0], dictionary.nwords), dtype=np.float64)
        self._scored = np.zeros(dictionary.nwords, dtype=bool)
        self._encoder = None

    @property
    def labels(self):
        return list(self.dictionary.labels)

    def encode(self, block):
        """The documents (lines) of the bytes ``block`` as an ``Encoded``."""
        if self._encoder is None:
            self._encoder = BagEncoder(self.dictionary)
        return self._encoder.encode(block if block.endswith(b"\n") else block + b"\n")

    def probabilities(self, encoded):
        """float64[n_docs, n_labels]: p(label | document), chunk of documents by chunk."""
        out = np.empty((encoded.n_docs, len(self.dictionary.labels)), dtype=np.float64)
        offsets = encoded.row_offsets
        begin = 0
        while begin < encoded.n_docs:
            end = max(begin + 1, int(np.searchsorted(offsets, offsets[begin] + CHUNK_ROWS, side="right")) - 1)
            end = min(end, encoded.n_docs)
            out[begin:end] = self._chunk(encoded.rows[offsets[begin]:offsets[end]], offsets[begin:end + 1])
            begin = end
        if not np.isfinite(out).all():
            raise FormatError(self.source, None, "the input matrix holds NaN or infinite values")
        return out

    def _chunk(self, rows, offsets):
        if self.loss == "ova" and self.fasttext_sigmoid:
            return forward.fasttext_ova(self.W_in[rows], offsets, self.W_out)
        scores = self._mean_scores(rows.astype(np.intp), offsets - offsets[0])
        if self.loss == "softmax":
            return forward.softmax(scores)
        if self.loss == "ova":
            return forward.sigmoid(scores)
        tree = self.tree
        return forward.hs_probabilities(scores, tree.points, tree.codes, tree.lengths,
                                        1e-5 if self.fasttext_sigmoid else 0.0)

    def _mean_scores(self, rows, offsets):
        """(P1) per document: the mean of its rows' scores W_out · W_in[r]. A word row's
        scores are computed once and kept; an n-gram row's once per chunk (most n-grams are
        used about once: genre's test text uses 1M of the 2M buckets)."""
        is_word = rows < self._scored.shape[0]
        positions = np.concatenate(([0], np.cumsum(is_word)))
        word_offsets = positions[offsets]  # a bag holds its words, then its n-grams
        sums = forward.segment_sums(self._word_scores(rows[is_word]), word_offsets, axis=1)
        if len(word_offsets) and word_offsets[-1] < len(rows):
            grams, where = _unique(rows[~is_word])
            scores = np.ascontiguousarray(self._scores_of(grams).T)
            sums += forward.segment_sums(scores.take(where, axis=1), offsets - word_offsets, axis=1)
        counts = np.diff(offsets)
        filled = counts > 0
        sums[:, filled] /= counts[filled]
        return sums.T

    def _word_scores(self, rows):
        new = np.zeros(len(self._scored), dtype=bool)  # the distinct rows not scored yet, in order:
        new[rows] = True  # marked, not sorted (argsort: ~1.7 ms of SST's 35k rows)
        new = np.flatnonzero(new & ~self._scored)
        if len(new):
            self._scores[:, new] = self._scores_of(new).T
            self._scored[new] = True
        return self._scores.take(rows, axis=1)

    def _scores_of(self, rows):
        """float64[len(rows), n_out]: W_in[r] · W_out of distinct rows, read in file order
        (memory-mapped). einsum in float64 straight from the float32 rows, not BLAS: a
        multi-threaded BLAS spins for cores on a busy machine (genre's bigrams: 1.7 s
        instead of 0.9 s), and a copy to float64 first costs a third more."""
        return np.einsum("rk,lk->rl", self.W_in[rows], self._W_out64, dtype=np.float64)

    def top_k(self, encoded, k=1, threshold=0.0):
        return top_k(self.probabilities(encoded), np.diff(encoded.row_offsets) == 0, k, threshold)


def _huffman_tree(label_counts):
    from wordvec.data.huffman import build_huffman  # hs models only: ~0.5 ms of every other predict process
    return build_huffman(label_counts)


def _unique(values):
    """The distinct values, sorted, and the index of each value among them, as np.unique,
    which would import numpy.ma (15 ms of a predict process)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    where = np.empty(len(values), dtype=np.intp)
    where[order] = np.cumsum(first) - 1
    return ordered[first], where


def load_predictor(path):
    """The NumPy predictor of a supervised model file, or None when the model has
    character n-grams (use ``Classifier``)."""
    parts = load_parts(path, mmap=True)
    if parts.model != "supervised":
        raise WordvecError(f"{path} is an unsupervised ({parts.model}) fastText model: it has word vectors "
                           "but no labels to predict")
    if parts.dictionary.maxn > 0:
        return None
    return Predictor(parts.dictionary, parts.W_in, parts.W_out, parts.config.get("loss", "softmax"),
                     source=str(path))


def best_labels(probabilities, empty, threshold=0.0):
    """:func:`top_k` with k = 1 as one array, for many documents at once: per document the
    label id of the highest probability (the first of equal ones, as top_k's stable sort),
    or -1 for none (below ``threshold``, or an ``empty`` document)."""
    if probabilities.shape[1] == 0:
        return np.full(len(probabilities), -1, dtype=np.intp)
    best = probabilities.argmax(axis=1)
    kept = ~empty & (np.take_along_axis(probabilities, best[:, None], axis=1)[:, 0] >= threshold)
    return np.where(kept, best, -1)


def top_k(probabilities, empty, k=1, threshold=0.0):
    """Per document: (label ids, probabilities) as lists, best first, as fastText's
    predict: at most k labels (k < 0 or None: all) with probability >= threshold; none
    for a document with no known token (``empty``)."""
    n_labels = probabilities.shape[1]
    k = n_labels if k is None or k < 0 else min(int(k), n_labels)
    order = np.argsort(-probabilities, axis=1, kind="stable")[:, :k]
    best = np.take_along_axis(probabilities, order, axis=1)
    kept = np.where(empty, 0, (best >= threshold).sum(axis=1))  # sorted: the kept ones come first
    return [(ids[:n], p[:n]) for ids, p, n in zip(order.tolist(), best.tolist(), kept.tolist())]


def file_meter(predictor, path, k=1, threshold=0.0):
    """fastText's test over a labelled file, block by block (any predictor with
    ``encode`` and ``top_k``)."""
    meter = Meter.empty(len(predictor.labels))
    for block in text_blocks(path):
        encoded = predictor.encode(block)
        meter.add(Meter.from_predictions(encoded, predictor.top_k(encoded, k, threshold), len(predictor.labels)))
    return meter


@dataclass
class Meter:
    """fastText's Meter: N, P@k, R@k, and per-label counts."""
    n: int
    predicted: int
    gold: int
    predicted_gold: int
    per_label: np.ndarray  # int64[n_labels, 3]: predicted, gold, predicted-and-gold

    @classmethod
    def empty(cls, n_labels):
        return cls(0, 0, 0, 0, np.zeros((n_labels, 3), dtype=np.int64))

    def add(self, other):
        self.n += other.n
        self.predicted += other.predicted
        self.gold += other.gold
        self.predicted_gold += other.predicted_gold
        self.per_label += other.per_label

    @property
    def precision(self):
        return self.predicted_gold / self.predicted if self.predicted else float("nan")

    @property
    def recall(self):
        return self.predicted_gold / self.gold if self.gold else float("nan")

    @classmethod
    def from_predictions(cls, encoded, results, n_labels):
        per_label = np.zeros((n_labels, 3), dtype=np.int64)
        n = predicted = gold = hits = 0
        for d, (ids, _) in enumerate(results):
            truth = encoded.labels[encoded.label_offsets[d]:encoded.label_offsets[d + 1]]
            if len(truth) == 0 or encoded.row_offsets[d + 1] == encoded.row_offsets[d]:
                continue  # fastText tests only lines with a label and a known token
            n += 1
            gold += len(truth)
            predicted += len(ids)
            np.add.at(per_label[:, 1], truth, 1)
            for label in ids:
                per_label[label, 0] += 1
                if label in truth:
                    per_label[label, 2] += 1
                    hits += 1
        return cls(n, predicted, gold, hits, per_label)

    def label_scores(self):
        """Per label: (precision, recall, F1) with NaN where undefined."""
        p, g, pg = self.per_label.T.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision, recall = pg / p, pg / g
            f1 = 2 * precision * recall / (precision + recall)
        return precision, recall, f1
