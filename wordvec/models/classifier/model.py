"""Text classification as fastText's supervised mode: ``Classifier`` (and fastText's
``train_supervised``).

The math is ``wordvec.math.classifier`` (a document's hidden vector is the mean of its
input rows; softmax, hierarchical softmax or one-vs-all output), the compiled SGD is
``wordvec.kernels.classifier``, the text encoding ``wordvec.data.labels``. Files:
``wordvec.models.classifier.files`` (fastText ``.bin``/``.ftz`` and the native format).
Prediction without Numba (what ``classify predict``/``test`` run for models without
character n-grams): ``wordvec.models.classifier.predict``, which this class's
``probabilities`` agree with to 1e-6 (tests/classifier/test_predict.py).

    model = Classifier(config=ClassifierConfig(epoch=10, lr=0.5, word_ngrams=2)).fit("imdb.train")
    model.predict("a great movie", k=2)     # (('__label__pos', '__label__neg'), array([...]))
    model.test("imdb.test")                 # (N, P@1, R@1)
    model.save("imdb.bin")                  # fastText's format; fastText loads it

``fit`` is the one training verb; ``Classifier.train("imdb.train", epoch=10, ...)`` and
``train_supervised(input="imdb.train", ...)`` make the config from keywords and call it, and
take fastText's keyword names too (``input, lr, dim, epoch, wordNgrams, minCount,
minCountLabel, minn, maxn, bucket, loss, thread, label, pretrainedVectors, seed``).
"""

import logging
import time
from dataclasses import dataclass, field, fields, replace

import numpy as np

from wordvec.data.huffman import build_huffman
from wordvec.data.labels import EOS, StreamEncoder, build_dictionary, encode, encode_lines, scan_text, to_bytes
from wordvec.data.subword import ngram_buckets
from wordvec.errors import FormatError, WordvecError
from wordvec.kernels import classifier as kernels, compiling
from wordvec.math.product_quantizer import KSUB
from wordvec.models.classifier.config import LOSSES, ClassifierConfig  # noqa: F401 (re-exported)
from wordvec.models.classifier.files import ClassifierParts, config_dict, load_parts, save_parts
from wordvec.models.classifier.predict import Meter, top_k
from wordvec.models.classifier.quantize import prune_rows, quantize_matrix, select_rows
from wordvec.models.classifier.training import check_stop, compact_buckets, load_kernels, run_epochs, uniform_rows

log = logging.getLogger(__name__)

FASTTEXT_KEYWORDS = {"input": "input", "wordNgrams": "word_ngrams", "minCount": "min_count",
                     "minCountLabel": "min_count_label", "thread": "threads", "pretrainedVectors": "pretrained_vectors",
                     "lrUpdateRate": "lr_update_rate", "verbose": "verbose"}


def config_from_options(options):
    """A ClassifierConfig from wordvec's or fastText's keyword names; returns (config, input)."""
    names = {f.name for f in fields(ClassifierConfig)}
    values, source = {}, None
    for key, value in options.items():
        key = FASTTEXT_KEYWORDS.get(key, key)
        if key == "input":
            source = value
        elif key in names:
            values[key] = value
        else:
            raise WordvecError(f"unknown training option {key!r}")
    return ClassifierConfig(**values).checked(), source


@dataclass
class Classifier:
    """A classifier: its settings (``config``) and, once trained (:meth:`fit`) or loaded, its
    dictionary, input rows (words + n-gram buckets) and output rows."""
    dictionary: object = None
    W_in: np.ndarray = None
    W_out: np.ndarray = None
    config: ClassifierConfig = field(default_factory=ClassifierConfig)
    history: list = field(default_factory=list)   # per epoch: loss, seconds, validation P@1
    quantized: object = None                       # a QuantizedMatrix when read from/made for .ftz
    model: str = "supervised"                      # or 'skipgram'/'cbow' for fastText's unsupervised .bin
    mapped_from: str = None                        # the .bin whose W_in is mapped, unchecked until rows are used
    # predictions as fastText computes them from the same file: ova through its σ lookup
    # table (off by up to ~0.008 from the exact σ), hs with 1e-5 inside the path's logs
    fasttext_sigmoid: bool = True

    # ------------------------------------------------------------------ training
    def fit(self, data, valid=None, stop=None):
        """Train a new model on ``data`` (a fastText-format file or directory, a list of
        lines, or the ``TokenScan`` of one) with this one's ``config``, replacing what it
        held; ``valid``, a file of the same format, is scored (P@1) after every epoch into
        ``history``; ``stop``, a function without arguments asked between the steps of
        reading the data, of filling the input matrix and every ``training.STOP_CHECK_TOKENS``
        tokens per thread of training, ends it with ``training.TrainingStopped`` when it
        returns true (what autotune's time budget uses). Returns self."""
        config = self.config.checked()
        load_kernels(config)
        started, compiled_before = time.perf_counter(), compiling.seconds()
        scan = scan_text(data)
        check_stop(stop)
        dictionary = build_dictionary(scan, config.label, config.min_count, config.min_count_label,
                                      config.word_ngrams, config.bucket, config.minn, config.maxn,
                                      source=scan.source)
        check_stop(stop)
        encoded = encode(dictionary, scan)
        del scan
        check_stop(stop)
        dictionary.forget_lookups()
        dictionary, sources = compact_buckets(dictionary, encoded)
        if config.shuffle:
            encoded = encoded.reordered(np.random.default_rng(config.seed).permutation(encoded.n_docs))
        log.info("read %d tokens: %d words, %d labels, %d documents (%.1f s%s)", dictionary.ntokens,
                 dictionary.nwords, len(dictionary.labels), encoded.n_docs, time.perf_counter() - started,
                 compiling.of_it(compiled_before))
        W_in = uniform_rows(dictionary.n_rows, config.dim, config.seed, sources, stop=stop)
        if config.pretrained_vectors:
            _load_pretrained(W_in, dictionary, config.pretrained_vectors)
        self.dictionary, self.W_in, self.config = dictionary, W_in, config
        self.W_out = np.zeros((len(dictionary.labels), config.dim), dtype=np.float32)
        self.history, self.quantized, self.model, self.mapped_from = [], None, "supervised", None
        valid_encoded = encode(dictionary, scan_text(valid)) if valid else None
        run_epochs(self, encoded, (lambda m: validation_p_at_1(m, valid_encoded)) if valid else None, stop=stop)
        return self

    @classmethod
    def train(cls, path=None, valid=None, **options):
        """``fit`` with the config made from keywords (wordvec's or fastText's names; the
        data may be given as ``input=``); returns the trained model."""
        config, source = config_from_options(options)
        path = path if path is not None else source
        if path is None:
            raise WordvecError("train needs the training file (path or input=...)")
        return cls(config=config).fit(path, valid)

    def _trained(self):
        """The dictionary, or one sentence for a model neither trained nor loaded."""
        if self.dictionary is None or self.W_in is None or self.W_out is None:
            raise WordvecError("this classifier is not trained: call fit(data) or Classifier.load(path) first")
        return self.dictionary

    # ------------------------------------------------------------------ reading out
    @property
    def labels(self):
        return list(self._trained().labels)

    @property
    def words(self):
        return list(self._trained().words)

    def get_labels(self):
        return self.labels

    def get_words(self):
        return self.words

    @property
    def loss_code(self):
        return kernels.LOSS_CODES[self.config.loss]

    def hs_tree(self):
        return build_huffman(self.dictionary.label_counts)

    def get_word_vector(self, word):
        """Mean of the word's rows (its own and its character n-grams'); an unknown word
        gets its character n-grams only, and zeros without them (fastText's getSubwords,
        including its quirk for a known label: the row at the label's dictionary index)."""
        if any(c in word for c in " \n\t"):
            raise WordvecError("get_word_vector takes one word (no whitespace)")
        d = self._trained()
        token = to_bytes(word)
        index = d.word_index.get(token)
        if index is None and token in d.label_index:
            index = d.nwords + d.label_index[token]
        rows = [] if index is None else [index]
        if d.maxn > 0 and word != EOS:
            buckets = d.bucket_rows[ngram_buckets(word, d.minn, d.maxn, d.bucket)]
            rows.extend(buckets[buckets >= 0].tolist())
        return self._mean(np.array([r for r in rows if r < self.W_in.shape[0]], dtype=np.int64))

    def get_sentence_vector(self, text):
        """Mean of the line's bag (words, n-grams, EOS), fastText's supervised sentence vector."""
        if "\n" in text:
            raise WordvecError("get_sentence_vector processes one line at a time (remove '\\n')")
        encoded = encode_lines(self._trained(), [text])
        return self._mean(encoded.rows[encoded.row_offsets[0]:encoded.row_offsets[1]])

    def _mean(self, rows):
        if len(rows) == 0:
            return np.zeros(self.W_in.shape[1], dtype=np.float32)
        return self.W_in[rows].astype(np.float64).mean(axis=0).astype(np.float32)

    # ------------------------------------------------------------------ prediction
    def probabilities(self, encoded):
        """float64[n_docs, n_labels]: p(label | document) for every encoded document."""
        n_labels = len(self._trained().labels)
        out = np.zeros((encoded.n_docs, n_labels), dtype=np.float64)
        tree = self.hs_tree()
        kernels.predict_all(self.W_in, self.W_out, encoded.rows, encoded.row_offsets, self.loss_code,
                            tree.points, tree.codes, tree.lengths, n_labels, self.fasttext_sigmoid, out)
        if not np.isfinite(out).all():  # the kernel marks documents with a non-finite input row
            raise FormatError(self.mapped_from or "the model", None, "the input matrix holds NaN or infinite values")
        return out

    def top_k(self, encoded, k=1, threshold=0.0):
        """Per document: (label ids, probabilities), best first, as fastText's predict:
        at most k labels (k = -1: all) with probability >= threshold; none for a
        document with no known token."""
        return top_k(self.probabilities(encoded), np.diff(encoded.row_offsets) == 0, k, threshold)

    def predict(self, text, k=1, threshold=0.0):
        """fastText's ``predict``: a string gives (labels tuple, probabilities array); a
        list of strings gives (list of label lists, list of probability arrays)."""
        self._trained()
        single = isinstance(text, str)
        lines = [text] if single else list(text)
        for line in lines:
            if "\n" in line:
                raise WordvecError("predict processes one line at a time (remove '\\n')")
        results = self.top_k(encode_lines(self.dictionary, lines), k, threshold)
        names = self.dictionary.labels
        labels = [[names[i] for i in ids] for ids, _ in results]
        probabilities = [np.asarray(p, dtype=np.float64) for _, p in results]
        if single:
            return tuple(labels[0]), probabilities[0]
        return labels, probabilities

    def test(self, path, k=1, threshold=0.0):
        """fastText's ``test``: (N, precision at k, recall at k)."""
        meter = self.test_meter(path, k, threshold)
        return meter.n, meter.precision, meter.recall

    def test_meter(self, path, k=1, threshold=0.0):
        encoded = encode(self._trained(), scan_text(path))
        return Meter.from_predictions(encoded, self.top_k(encoded, k, threshold), len(self.dictionary.labels))

    # ------------------------------------------------------------------ files
    def save(self, path):
        """``.bin``/``.ftz``: fastText's format; a directory or ``.wv``: the native one."""
        self._trained()
        save_parts(ClassifierParts(self.dictionary, self.W_in, self.W_out, config_dict(self.config),
                                   self.history, self.quantized, self.model), path)

    def save_model(self, path):  # fastText's name
        self.save(path)

    @classmethod
    def load(cls, path, mmap=False):
        """Read a fastText ``.bin``/``.ftz`` (supervised, or skipgram/cbow for word
        vectors) or a native directory. ``mmap=True`` maps a .bin's large matrices
        read-only instead of copying them (fast start for prediction)."""
        parts = load_parts(path, mmap=mmap)
        names = {f.name for f in fields(ClassifierConfig)}
        config = ClassifierConfig(**{k: v for k, v in parts.config.items() if k in names})
        try:  # settings read from the file: a range error names the file
            config.checked()
        except WordvecError as error:
            raise FormatError(path, None, f"a setting is out of range: {error}") from None
        mapped = str(path) if isinstance(parts.W_in.base, np.memmap) or isinstance(parts.W_in, np.memmap) else None
        return cls(parts.dictionary, parts.W_in, parts.W_out, config, parts.history, parts.quantized, parts.model,
                   mapped)

    def expanded(self):
        """This model with a row for every n-gram bucket, as fastText's files hold them (a
        trained model stores only the rows training used: ``compact_buckets``)."""
        d = self.dictionary
        if d.row_of_bucket is None:
            return self
        W_in = self.W_in[np.concatenate([np.arange(d.nwords, dtype=np.int32), d.row_of_bucket])]
        return replace(self, dictionary=replace(d, row_of_bucket=None), W_in=W_in)

    def quantize(self, cutoff=0, retrain=False, qnorm=False, dsub=2, **retrain_options):
        """fastText's ``quantize`` (see :func:`quantize_classifier`); returns a new model."""
        self._trained()
        return quantize_classifier(self, cutoff=cutoff, retrain=retrain, qnorm=qnorm, dsub=dsub, **retrain_options)


def check_supervised(model, path):
    if model.model != "supervised":
        raise WordvecError(f"{path} is an unsupervised ({model.model}) fastText model: it has word vectors "
                           "but no labels to predict")


class CompiledPredictor:
    """``classifier_predict.Predictor``'s interface (``labels``, ``encode``, ``probabilities``, ``top_k``) on
    the compiled path: for models with character n-grams, which the NumPy one leaves out."""

    def __init__(self, model):
        self.model, self.labels = model, model.labels
        self._encoder = StreamEncoder(model.dictionary)

    @classmethod
    def load(cls, path):
        model = Classifier.load(path, mmap=True)
        check_supervised(model, path)
        return cls(model)

    def encode(self, block):
        return self._encoder.encode(block if block.endswith(b"\n") else block + b"\n")

    def probabilities(self, encoded):
        return self.model.probabilities(encoded)

    def top_k(self, encoded, k=1, threshold=0.0):
        return self.model.top_k(encoded, k, threshold)


def validation_p_at_1(model, encoded):
    return Meter.from_predictions(encoded, model.top_k(encoded, 1), len(model.labels)).precision


def train_supervised(*args, **options):
    """fastText's ``train_supervised``: ``train_supervised(input='data.train', epoch=25, ...)``
    (``Classifier.train``)."""
    return Classifier.train(*args, **options)


# ---------------------------------------------------------------------- pretrained vectors

def _load_pretrained(W_in, dictionary, path):
    # deferred: wordvec.vectors loads SciPy (0.45 s and ~30 MB of every classify process, measured)
    from wordvec.vectors.files import load_vectors
    vectors = load_vectors(path)
    if vectors.vectors.shape[1] != W_in.shape[1]:
        raise WordvecError(f"{path}: the pretrained vectors have dimension {vectors.vectors.shape[1]}, "
                           f"but dim is {W_in.shape[1]}")
    found = 0
    for i, word in enumerate(dictionary.words):
        j = vectors.key_to_index.get(word)
        if j is not None:
            W_in[i] = vectors.vectors[j]
            found += 1
    log.info("pretrained vectors: %d of %d words found in %s", found, dictionary.nwords, path)


# ---------------------------------------------------------------------- quantization

def quantize_classifier(model, cutoff=0, retrain=False, qnorm=False, dsub=2, input=None, epoch=None, lr=None,
                        threads=None, stop=None):
    """fastText's ``quantize``: optionally keep only the ``cutoff`` input rows of largest
    norm (EOS always first) and retrain on them, then product-quantize the input matrix
    (``wordvec.math.product_quantizer``). Returns a new Classifier; ``model`` is unchanged.
    ``stop``: as :meth:`Classifier.fit`'s, for the retraining."""
    if model.model != "supervised":
        raise WordvecError("only supervised models can be quantized (as in fastText)")
    if model.quantized is not None:
        raise WordvecError("this model is already quantized")
    if not 1 <= dsub <= model.W_in.shape[1]:
        raise WordvecError(f"dsub must be between 1 and dim ({model.W_in.shape[1]}), not {dsub}")
    model = model.expanded()  # fastText's rows: the cutoff counts and prunes them
    dictionary, W_in = model.dictionary, model.W_in
    if 0 < cutoff < W_in.shape[0]:
        dictionary, W_in = prune_rows(dictionary, W_in, select_rows(dictionary, W_in, cutoff))
    out = Classifier(dictionary, np.ascontiguousarray(W_in), model.W_out.copy(), model.config, list(model.history))
    if retrain and 0 < cutoff < model.W_in.shape[0]:  # as fastText: retraining follows a cutoff
        if input is None:
            raise WordvecError("retraining after the cutoff needs the training data (input)")
        changes = {k: v for k, v in (("epoch", epoch), ("lr", lr), ("threads", threads)) if v is not None}
        out.config = replace(out.config, **changes).checked()
        run_epochs(out, encode(dictionary, scan_text(input)), stop=stop)
    if out.W_in.shape[0] < KSUB:
        raise WordvecError(f"quantization needs at least {KSUB} input rows; the model has {out.W_in.shape[0]}")
    out.quantized = quantize_matrix(out.W_in, dsub, qnorm)
    out.W_in = out.quantized.dense()
    return out


