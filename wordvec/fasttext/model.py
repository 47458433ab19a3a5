"""The model object of ``wordvec.fasttext``: fastText 0.9.2's ``_FastText``, method for
method, over a ``wordvec.models.classifier.model.Classifier`` (supervised, or an unsupervised
skipgram/cbow model held in the same fields: words, input rows = word rows then n-gram
bucket rows, output rows).

Ids are fastText's: a word's id is its dictionary index, a label's is ``nwords`` + its
index, an n-gram's is ``nwords`` + its bucket (after a cutoff: ``nwords`` + its kept
row). A classifier trained here stores only the bucket rows training used; ids are
mapped to those rows (``_rows``), and the unused buckets read as zeros.
"""

import os
from dataclasses import replace

import numpy as np

from wordvec.data.label_dictionary import to_bytes
from wordvec.data.labels import encode_lines
from wordvec.data.subword import fasttext_hash, ngram_buckets, ngram_table, ngrams
from wordvec.fasttext.meter import Meter
from wordvec.fasttext.options import FastTextError, fasttext_errors
from wordvec.fasttext.predict import LinePredictor, first_line
from wordvec.fasttext.text import EOS, first_line_tokens, one_line, words_of
from wordvec.io.fasttext_bin import write_fasttext
from wordvec.models.classifier.curves import file_label_scores
from wordvec.models.classifier.model import quantize_classifier
from wordvec.models.classifier.files import ClassifierParts, config_dict, is_native, save_parts, to_fasttext

ARG_NAMES = ("lr", "dim", "ws", "epoch", "minCount", "minCountLabel", "minn", "maxn", "neg", "wordNgrams", "loss",
             "bucket", "thread", "lrUpdateRate", "t", "label", "verbose", "pretrainedVectors")


class FastTextModel:
    """What ``train_supervised``, ``train_unsupervised`` and ``load_model`` return."""

    def __init__(self, classifier, loss, header=None, args=None):
        self._c = classifier
        self._loss = loss                  # fastText's loss name: ns, hs, softmax, ova
        self._header = dict(header or {})  # ws, neg, t as the file keeps them
        self._words = self._labels = None
        self._word_set = None
        self._unit_vectors = None
        self._predictor = None
        self.set_args(args)

    def set_args(self, args=None):
        if args:
            for name in ARG_NAMES:
                setattr(self, name, args[name])

    # ------------------------------------------------------------------ the dictionary
    @property
    def _supervised(self):
        return self._c.model == "supervised"

    @property
    def _dict(self):
        return self._c.dictionary

    def _entry_id(self, token):
        """fastText's Dictionary::getId: words first, then labels; -1 when absent."""
        d = self._dict
        key = to_bytes(token)
        index = d.word_index.get(key)
        if index is not None:
            return index
        index = d.label_index.get(key)
        return -1 if index is None else d.nwords + index

    def _ngram_ids(self, word):
        """(n-gram strings, their input ids) of ``word``, as fastText's computeSubwords."""
        d = self._dict
        if d.maxn <= 0 or word == EOS:
            return [], []
        if d.bucket <= 0:
            raise FastTextError("this model has character n-grams but no buckets (bucket 0)")
        minn = max(1, d.minn)
        strings = ngrams(word, minn, d.maxn)
        buckets = ngram_buckets(word, minn, d.maxn, d.bucket).tolist()
        if d.prune_index is None:
            return strings, [d.nwords + b for b in buckets]
        return strings, [d.nwords + d.prune_index[b] for b in buckets if b in d.prune_index]

    def _rows(self, ids):
        """Rows of the stored input matrix of fastText's input ids."""
        d = self._dict
        ids = np.asarray(ids, dtype=np.int64)
        if d.row_of_bucket is not None and len(ids):
            beyond = ids >= d.nwords
            ids = ids.copy()
            ids[beyond] = d.row_of_bucket[ids[beyond] - d.nwords]
        return ids

    def _input_rows(self):
        return self._dict.nwords + (self._dict.n_buckets if self._dict.row_of_bucket is None else self._dict.bucket)

    def _mean_row(self, ids):
        rows = self._rows(ids)
        rows = rows[(rows >= 0) & (rows < self._c.W_in.shape[0])]
        if len(rows) == 0:
            return np.zeros(self.get_dimension(), dtype=np.float32)
        return (self._c.W_in[rows].astype(np.float64).sum(axis=0) / len(ids)).astype(np.float32)

    # ------------------------------------------------------------------ vectors
    def is_quantized(self):
        return self._c.quantized is not None

    def get_dimension(self):
        """Get the dimension (size) of a lookup vector (hidden layer)."""
        return int(self._c.W_in.shape[1])

    def get_word_vector(self, word):
        """Get the vector representation of word."""
        _, ids = self.get_subwords(word)
        return self._mean_row(ids)

    def get_sentence_vector(self, text):
        """The mean of the line's input rows (supervised), or of its words' unit vectors."""
        one_line(text, "predict")
        if self._supervised:
            encoded = encode_lines(self._dict, [first_line(text)])
            rows = encoded.rows[encoded.row_offsets[0]:encoded.row_offsets[1]]
            if len(rows) == 0:
                return np.zeros(self.get_dimension(), dtype=np.float32)
            return (self._c.W_in[rows].astype(np.float64).mean(axis=0)).astype(np.float32)
        total, count = np.zeros(self.get_dimension(), dtype=np.float64), 0
        for word in words_of(text):
            vector = self.get_word_vector(word).astype(np.float64)
            norm = np.linalg.norm(vector)
            if norm > 0:
                total += vector / norm
                count += 1
        return (total / count if count else total).astype(np.float32)

    def get_input_vector(self, ind):
        """Given an index, get the corresponding vector of the Input Matrix."""
        ind = int(ind)
        if not 0 <= ind < self._input_rows():
            raise FastTextError(f"input row {ind} is out of range (the input matrix has {self._input_rows()} rows)")
        return self._mean_row([ind])

    def get_input_matrix(self):
        """The full input matrix (a copy); not for a quantized model."""
        if self.is_quantized():
            raise FastTextError("Can't get quantized Matrix")
        d = self._dict
        if d.row_of_bucket is None:
            return np.array(self._c.W_in)
        return self._c.W_in[np.concatenate([np.arange(d.nwords), d.row_of_bucket])]

    def get_output_matrix(self):
        """The full output matrix (a copy); not for a quantized model."""
        if self.is_quantized():
            raise FastTextError("Can't get quantized Matrix")
        return np.array(self._c.W_out)

    def set_matrices(self, input_matrix, output_matrix):
        """Replace both matrices (dense, float32); the dimension follows theirs."""
        W_in = np.ascontiguousarray(input_matrix, dtype=np.float32)
        W_out = np.ascontiguousarray(output_matrix, dtype=np.float32)
        d = replace(self._dict, row_of_bucket=None)
        if W_in.ndim != 2 or W_out.ndim != 2 or W_in.shape[1] != W_out.shape[1]:
            raise FastTextError("set_matrices needs two 2-d matrices with the same number of columns")
        if W_in.shape[0] != d.n_rows or W_out.shape[0] != self._c.W_out.shape[0]:
            raise FastTextError(f"set_matrices needs {d.n_rows} input and {self._c.W_out.shape[0]} output rows, "
                                f"not {W_in.shape[0]} and {W_out.shape[0]}")
        self._c = replace(self._c, dictionary=d, W_in=W_in, W_out=W_out, quantized=None,
                          config=replace(self._c.config, dim=W_in.shape[1]))
        self._changed()

    def _changed(self):
        self._unit_vectors = self._predictor = None

    # ------------------------------------------------------------------ ids and subwords
    def get_word_id(self, word):
        """The word's id in the dictionary; -1 if absent."""
        return self._entry_id(word)

    def get_label_id(self, label):
        """The label's id among the labels; -1 if absent."""
        index = self._entry_id(label)
        return index - self._dict.nwords if index != -1 else -1

    def get_subword_id(self, subword):
        """The input row id ``subword`` hashes to."""
        d = self._dict
        if d.bucket <= 0:
            raise FastTextError("this model has no n-gram buckets (bucket 0)")
        return d.nwords + fasttext_hash(subword) % d.bucket

    def get_subwords(self, word, on_unicode_error="strict"):
        """The word itself (when known) and its character n-grams, with their input ids."""
        index = self._entry_id(word)
        strings, ids = ([word], [index]) if index >= 0 else ([], [])
        grams, gram_ids = self._ngram_ids(word)
        return strings + grams, np.array(ids + gram_ids, dtype=np.int64)

    # ------------------------------------------------------------------ words and labels
    def get_words(self, include_freq=False, on_unicode_error="strict"):
        """The dictionary's words (with their counts: ``include_freq``)."""
        words = list(self._dict.words)
        if include_freq:
            return words, np.array(self._dict.word_counts, dtype=np.int64)
        return words

    def get_labels(self, include_freq=False, on_unicode_error="strict"):
        """The labels (unsupervised models: the words)."""
        if not self._supervised:
            return self.get_words(include_freq)
        labels = list(self._dict.labels)
        if include_freq:
            return labels, np.array(self._dict.label_counts, dtype=np.int64)
        return labels

    @property
    def words(self):
        if self._words is None:
            self._words = self.get_words()
        return self._words

    @property
    def labels(self):
        if self._labels is None:
            self._labels = self.get_labels()
        return self._labels

    def __getitem__(self, word):
        return self.get_word_vector(word)

    def __contains__(self, word):
        if self._word_set is None:
            self._word_set = set(self.words)
        return word in self._word_set

    def get_line(self, text, on_unicode_error="strict"):
        """(words, labels) of one line (or lists of them for a list of lines)."""
        if type(text) is list:
            pairs = [self._line(one_line(entry, "get_line")) for entry in text]
            return [words for words, _ in pairs], [labels for _, labels in pairs]
        return self._line(one_line(text, "get_line"))

    def _line(self, text):
        nwords, prefix = self._dict.nwords, self._dict.label_prefix
        words, labels = [], []
        for token in first_line_tokens(text):
            index = self._entry_id(token)
            is_label = token.startswith(prefix) if index < 0 else index >= nwords
            if not is_label:
                words.append(token)
            elif index >= 0:
                labels.append(token)
        return words, labels

    # ------------------------------------------------------------------ neighbours
    def _word_unit_vectors(self):
        """Every word's vector divided by its norm (zero vectors stay zero)."""
        if self._unit_vectors is None:
            vectors = word_vectors(self)
            norms = np.linalg.norm(vectors.astype(np.float64), axis=1)
            vectors /= np.where(norms > 0, norms, 1.0)[:, None].astype(np.float32)
            self._unit_vectors = vectors
        return self._unit_vectors

    def _nearest(self, query, k, banned):
        norm = float(np.linalg.norm(query.astype(np.float64)))
        norm = 1.0 if abs(norm) < 1e-8 else norm
        scores = (self._word_unit_vectors() @ query.astype(np.float32)) / np.float32(norm)
        words, out = self.words, []
        for i in np.argsort(-scores, kind="stable"):
            if len(out) >= k:
                break
            if words[i] not in banned:
                out.append((float(scores[i]), words[i]))
        return out

    def get_nearest_neighbors(self, word, k=10, on_unicode_error="strict"):
        """The k words of most similar vectors: [(similarity, word), ...]."""
        return self._nearest(self.get_word_vector(word), k, {word})

    def get_analogies(self, wordA, wordB, wordC, k=10, on_unicode_error="strict"):
        """The k words nearest to A - B + C: [(similarity, word), ...]."""
        query = np.zeros(self.get_dimension(), dtype=np.float32)
        for word, sign in ((wordA, 1.0), (wordB, -1.0), (wordC, 1.0)):
            vector = self.get_word_vector(word)
            query += vector * np.float32(sign / (np.linalg.norm(vector) + 1e-8))
        return self._nearest(query, k, {wordA, wordB, wordC})

    # ------------------------------------------------------------------ prediction
    def _check_supervised(self):
        if not self._supervised:
            raise FastTextError("Model needs to be supervised for prediction!")

    def _line_predictor(self):
        self._check_supervised()
        if self._predictor is None:
            self._predictor = LinePredictor(self._c)
        return self._predictor

    def predict(self, text, k=1, threshold=0.0, on_unicode_error="strict"):
        """(labels, probabilities) of one line; lists of them for a list of lines."""
        if type(text) is list:
            lines = [one_line(entry, "predict") for entry in text]
            self._check_supervised()
            results = self._line_predictor().predict(lines, _checked_k(k), threshold)
            return [labels for labels, _ in results], [probs for _, probs in results]
        if type(text) is not str or "\n" in text:
            one_line(text, "predict")
        predictor = self._predictor if self._predictor is not None else self._line_predictor()
        labels, probs = predictor.predict_one(text, k if k == 1 else _checked_k(k), threshold, np.float64)
        return tuple(labels), probs

    def test(self, path, k=1, threshold=0.0):
        """(number of examples, precision at k, recall at k) on a labelled file."""
        self._check_supervised()
        meter = self._c.test_meter(_test_file(path), _checked_k(k), threshold)
        return meter.n, meter.precision, meter.recall

    def test_label(self, path, k=1, threshold=0.0):
        """Per label: {'precision': ..., 'recall': ..., 'f1score': ...}."""
        self._check_supervised()
        meter = self._c.test_meter(_test_file(path), _checked_k(k), threshold)
        precision, recall, f1 = meter.label_scores()
        return {label: {"precision": float(p), "recall": float(r), "f1score": float(f)}
                for label, p, r, f in zip(self._dict.labels, precision, recall, f1)}

    def get_meter(self, path, k=-1):
        """fastText's meter over a labelled file (precision/recall curves)."""
        self._check_supervised()
        return Meter(self, file_label_scores(self._c, _test_file(path), _checked_k(k)))

    # ------------------------------------------------------------------ files and quantization
    def save_model(self, path):
        """Save the model: fastText's .bin/.ftz, or wordvec's directory (a directory or .wv)."""
        c = self._c
        parts = ClassifierParts(c.dictionary, c.W_in, c.W_out, config_dict(c.config), c.history, c.quantized, c.model)
        try:
            if is_native(path):
                save_parts(parts, path)
                return
            if str(path).lower().endswith(".ftz") and c.quantized is None:
                raise FastTextError(f"{path}: a .ftz file holds a quantized model; call quantize() first")
            ft = to_fasttext(parts)
            ft.args.update({k: v for k, v in self._header.items() if k in ("ws", "neg", "t")})
            write_fasttext(os.fspath(path), ft)
        except OSError:
            raise FastTextError(f"{path} cannot be opened for saving!") from None

    def quantize(self, input=None, qout=False, cutoff=0, retrain=False, epoch=None, lr=None, thread=None,
                 verbose=None, dsub=2, qnorm=False):
        """Product-quantize the input matrix in place (optionally keeping ``cutoff`` rows)."""
        if retrain and not input:
            raise FastTextError("Need input file path if retraining")
        if not self._supervised:
            raise FastTextError("For now we only support quantization of supervised models")
        if qout:
            raise FastTextError("qout (quantizing the output matrix) is not supported")
        if self.is_quantized():
            raise FastTextError("this model is already quantized")
        dsub = min(int(dsub), self.get_dimension())  # one sub-vector of the whole row, as fastText's last one
        verbose = getattr(self, "verbose", 0) if verbose is None else verbose
        self._c = replace(self._c, config=replace(self._c.config, verbose=1 if verbose >= 2 else 0))
        with fasttext_errors():
            self._c = quantize_classifier(self._c, cutoff=cutoff, retrain=retrain, qnorm=qnorm, dsub=dsub,
                                          input=input, epoch=epoch or None, lr=lr or None, threads=thread or None)
        self._changed()


def _checked_k(k):
    k = int(k)
    if k == -1:
        return -1
    if k <= 0:
        raise FastTextError("k needs to be 1 or higher!")
    return k


def _test_file(path):
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise FastTextError("Test file cannot be opened!")
    return os.fspath(path)


def word_vectors(model, block=4096):
    """float32[nwords, dim]: every word's vector, as ``get_word_vector`` gives it."""
    d, W = model._dict, model._c.W_in
    n, dim = d.nwords, W.shape[1]
    out = np.empty((n, dim), dtype=np.float32)
    if d.maxn <= 0:
        out[:] = W[:n]
        return out
    words = list(d.words)
    bucket_rows = d.bucket_rows
    for start in range(0, n, block):
        chunk = words[start:start + block]
        offsets, buckets = ngram_table(chunk, max(1, d.minn), d.maxn, d.bucket)
        owner = np.repeat(np.arange(len(chunk)), np.diff(offsets))
        rows = bucket_rows[buckets]
        keep = rows >= 0
        if EOS in chunk:
            keep &= owner != chunk.index(EOS)
        owner, rows = owner[keep], rows[keep]
        sums = W[start:start + len(chunk)].astype(np.float64)
        np.add.at(sums, owner, W[rows].astype(np.float64))
        counts = 1 + np.bincount(owner, minlength=len(chunk))
        out[start:start + len(chunk)] = sums / counts[:, None]
    return out
