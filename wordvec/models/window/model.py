"""The window classifier of seed 000 / seed 002 ("Problem Formulation"), trained by minibatches.

A token's label is predicted from the M = 2m+1 tokens centred on it (or, for a language
model, from the M tokens before it): each token is looked up in the embedding E
(lowercased; unknown words share a learned UNK row; PAD fills the window past a sentence
edge) and in a small case-feature table (Collobert et al. 2011), the M rows are
concatenated, and a softmax layer (optionally after one tanh hidden layer) gives
p(y | window). Gradients come from :mod:`wordvec.math.window`; E is updated only in the
rows a minibatch touches.

    model = WindowClassifier(classes, words=train_words, vectors=kv, hidden=300)
    model.fit(model.windows(train_sentences, train_tags), model.windows(valid_sentences, valid_tags))
    tags = model.predict(model.windows(test_sentences))
"""

import dataclasses
import logging
import os
import time

import numpy as np

from wordvec.errors import TrainingError, WordvecError
from wordvec.io.arrays import one_line, read_array
from wordvec.io.atomic import atomic_directory, save_json, save_npy, saved_directory
from wordvec.io.formats import read_json_object
from wordvec.io.history import append_epoch
from wordvec.math.window import window_forward, window_loss_and_gradients
from wordvec.models.base import estimate
from wordvec.models.base.config import config_from, shows_config
from wordvec.models.window.config import WindowClassifierConfig
from wordvec.vectors.keyed import KeyedVectors
from wordvec import progress

logger = logging.getLogger(__name__)

PAD, UNK = "<pad>", "<unk>"
# Case classes of Collobert et al. 2011; row 0 is the padding position.
CASE_CLASSES = ("<pad>", "lower", "upper", "title", "mixed", "noletter")


def case_feature(token):
    """Index into CASE_CLASSES: all lower, all caps, initial capital, mixed, or no letters."""
    letters = [ch for ch in token if ch.isalpha()]
    if not letters:
        return 5
    if all(ch.islower() for ch in letters):
        return 1
    if all(ch.isupper() for ch in letters) and len(letters) > 1:
        return 2
    if letters[0].isupper() and all(ch.islower() for ch in letters[1:]):
        return 3  # "Paris", and a lone capital such as "I"
    return 4


def optimizer_step(optimizer, alpha, param, grad, accum, rows=slice(None)):
    """Update param[rows] in place: SGD, or AdaGrad (step alpha / sqrt(Σ past g²) per coordinate).

    ``rows`` must not repeat (the sparse gradients come with unique rows)."""
    if optimizer == "sgd":
        param[rows] -= alpha * grad
    else:
        accum[rows] += grad * grad
        param[rows] -= alpha * grad / (np.sqrt(accum[rows]) + 1e-8)


@dataclasses.dataclass
class WindowData:
    """Windows ready for the model: word_ids and case_ids (N×M), labels (N,) or None."""

    word_ids: np.ndarray
    case_ids: np.ndarray
    labels: np.ndarray | None = None

    def __len__(self):
        return len(self.word_ids)

    def subset(self, index):
        labels = None if self.labels is None else self.labels[index]
        return WindowData(self.word_ids[index], self.case_ids[index], labels)


def window_positions(lengths, window, context):
    """For sequences of the given lengths, the (N×M) positions of every window in the
    padded concatenation, and the padded length. Sequences are separated by enough
    padding (position slots that hold PAD) that no window crosses into a neighbour."""
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.size == 0:
        raise WordvecError("there are no sequences to make windows from")
    pad = window
    starts = pad + np.concatenate([[0], np.cumsum(lengths + pad)[:-1]])
    token_pos = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths) + np.arange(lengths.sum())
    if context == "centred":
        offsets = np.arange(-window, window + 1)
    elif context == "left":
        offsets = np.arange(-window, 0)
    else:
        raise ValueError(f"context must be 'centred' or 'left', not {context!r}")
    padded_length = int(starts[-1] + lengths[-1] + pad) if lengths.size else pad
    return token_pos[:, None] + offsets[None, :], token_pos, padded_length


@shows_config(WindowClassifierConfig)
class WindowClassifier:
    """Softmax (optionally tanh hidden layer) over M concatenated word + case embeddings.

    classes: the label names. words: the vocabulary (lowercased on lookup) that gets rows
    in E. vectors: optional KeyedVectors; its rows initialise E (and its words join the
    vocabulary when ``words`` is None). fine_tune: update pretrained rows too (rows without
    a pretrained vector, UNK and PAD are always learned). window: m tokens each side
    (context="centred", M = 2m+1) or M tokens before (context="left"). hidden: units of the
    tanh layer, 0 for none (seed 000). case_size: width of the case embedding, 0 for none.
    l2: λ of seed 002's penalty. optimizer: "adagrad" or "sgd", step size alpha.
    init_scale: standard deviation of the random rows of E and of the case table;
    pretrained vectors are rescaled to the same overall standard deviation.
    """

    def __init__(self, classes, words=None, vectors=None, config=None, **hyperparameters):
        """``hyperparameters``: the fields of :class:`WindowClassifierConfig` by name
        (``window=2, hidden=300``), or one ``config``; not both."""
        self.config = config_from(WindowClassifierConfig, config, hyperparameters)
        self.classes = list(classes)
        self.class_index = {c: i for i, c in enumerate(self.classes)}
        self.history = []
        self.M = self.config.window_width
        self._rng = np.random.default_rng(self.seed)
        self._init_embeddings(words, vectors, self.vector_size)
        self._init_weights()

    # -- parameters --------------------------------------------------------------------

    def _init_embeddings(self, words, vectors, vector_size):
        norm = (lambda w: w.lower()) if self.lowercase else (lambda w: w)
        pretrained = {}
        if vectors is not None:
            matrix = np.asarray(vectors.vectors)
            if matrix.ndim != 2 or matrix.shape[0] == 0 or not np.all(np.isfinite(matrix)):
                raise WordvecError("the word vectors must be a non-empty finite V×D matrix")
            vector_size = matrix.shape[1]
            for i, word in enumerate(vectors.index_to_key):  # most frequent first: it wins a case clash
                pretrained.setdefault(norm(word), i)
            scale = float(matrix.std()) or 1.0
        if words is None:
            words = list(pretrained)
        vocab = [PAD, UNK] + sorted({norm(w) for w in words} - {PAD, UNK})
        self.words = vocab
        self.config = dataclasses.replace(self.config, vector_size=int(vector_size))  # a pretrained dimension wins
        self.index = {w: i for i, w in enumerate(vocab)}
        V, D = len(vocab), self.vector_size
        estimate.check_fits(self.estimate_memory(V), "lower the vector size or the hidden layer")
        E = self._rng.normal(scale=self.init_scale, size=(V, D))
        self.trainable_rows = np.ones(V, dtype=bool)
        if pretrained:
            hits = [(i, pretrained[w]) for i, w in enumerate(vocab) if w in pretrained]
            if hits:
                rows, sources = map(np.asarray, zip(*hits))
                # Rescale so pretrained rows have the spread of the random ones (std init_scale).
                E[rows] = matrix[sources] * (self.init_scale / scale)
                self.trainable_rows[rows] = self.fine_tune
            logger.info("%d of %d vocabulary words have pretrained vectors", len(hits), V)
        self.E = E.astype(np.float32)
        self.case_table = self._rng.normal(scale=self.init_scale, size=(len(CASE_CLASSES), max(self.case_size, 1))).astype(np.float32)

    def estimate_memory(self, vocab_size=None):
        """What this classifier allocates (E, weights, AdaGrad accumulators, a batch):
        a :class:`wordvec.models.base.estimate.MemoryEstimate`."""
        V = len(self.words) if vocab_size is None else int(vocab_size)
        return estimate.window_classifier(V, self.vector_size, self.M, self.hidden, len(self.classes),
                                          self.case_size, self.batch_size)

    def _init_weights(self):
        F = self.M * (self.vector_size + self.case_size)
        C = len(self.classes)

        def glorot(n_in, n_out):
            limit = np.sqrt(6.0 / (n_in + n_out))
            return self._rng.uniform(-limit, limit, size=(n_in, n_out)).astype(np.float32)

        if self.hidden:
            self.params = {"W1": glorot(F, self.hidden), "b1": np.zeros(self.hidden, np.float32),
                           "W2": glorot(self.hidden, C), "b2": np.zeros(C, np.float32)}
        else:
            self.params = {"W": glorot(F, C), "b": np.zeros(C, np.float32)}

    def _tables(self, data):
        tables = [("E", self.E, data.word_ids)]
        if self.case_size:
            tables.append(("case", self.case_table, data.case_ids))
        return tables

    # -- data --------------------------------------------------------------------------

    def token_ids(self, tokens):
        norm = str.lower if self.lowercase else str
        unk = self.index[UNK]
        return np.fromiter((self.index.get(norm(t), unk) for t in tokens), dtype=np.int32, count=len(tokens))

    def windows(self, sequences, labels=None):
        """WindowData for every token of every sequence (a list of token lists).

        labels: matching label lists (names in ``classes``) or None. For context="left"
        the label of position t is usually the token t itself (a language model)."""
        lengths = [len(s) for s in sequences]
        flat = [t for s in sequences for t in s]
        positions, token_pos, padded_length = window_positions(lengths, self.window, self.context)
        padded_words = np.full(padded_length, self.index[PAD], dtype=np.int32)
        padded_case = np.zeros(padded_length, dtype=np.int8)
        padded_words[token_pos] = self.token_ids(flat)
        padded_case[token_pos] = np.fromiter((case_feature(t) for t in flat), dtype=np.int8, count=len(flat))
        y = None
        if labels is not None:
            names = [c for seq in labels for c in seq]
            unknown = sorted({c for c in names if c not in self.class_index})
            if unknown:
                raise WordvecError(f"labels not among the model's classes: {', '.join(unknown[:5])}")
            y = np.fromiter((self.class_index[c] for c in names), dtype=np.int32, count=len(names))
        return WindowData(padded_words[positions], padded_case[positions], y)

    # -- training ----------------------------------------------------------------------

    def fit(self, train, valid=None, score=None):
        """Minibatch training with early stopping on ``valid`` (best epoch's weights kept).

        score(model, valid) → number, higher is better; default: accuracy."""
        if train.labels is None or len(train) == 0:
            raise WordvecError("training needs labelled windows, and there are none")
        score = score or (lambda model, data: float(np.mean(model.predict(data) == data.labels)))
        accum = {name: np.zeros_like(p) for name, p in self._all_arrays().items()}
        best, best_state, waited = -np.inf, None, 0
        for epoch in range(1, self.epochs + 1):
            start, total, batches = time.perf_counter(), 0.0, 0
            order = self._rng.permutation(len(train))
            bar = progress.bar(len(train), f"epoch {epoch}", unit="window", enabled=self.progress)
            for lo in range(0, len(order), self.batch_size):
                bar.update(min(self.batch_size, len(order) - lo))
                batch = train.subset(order[lo : lo + self.batch_size])
                with np.errstate(over="ignore", invalid="ignore"):  # divergence is reported just below
                    loss, dense, sparse = window_loss_and_gradients(self.params, self._tables(batch), batch.labels, self.l2)
                if not np.isfinite(loss):
                    raise TrainingError(f"the loss became {loss} in epoch {epoch}; lower the learning rate (alpha={self.alpha})")
                self._update(dense, sparse, accum)
                total, batches = total + loss, batches + 1
            bar.close()
            seconds = time.perf_counter() - start
            entry = {"epoch": epoch, "loss": total / batches, "seconds": seconds,
                     "updates_per_sec": batches / seconds, "learning_rate": self.alpha,
                     "words_per_sec": len(train) / seconds}  # one window per token
            if valid is not None and len(valid):
                entry["valid"] = score(self, valid)
                if entry["valid"] > best:
                    best, best_state, waited = entry["valid"], self._snapshot(), 0
                else:
                    waited += 1
            append_epoch(self.history, entry)
            logger.info("epoch %d: loss %.4f%s (%.1f s)", epoch, entry["loss"],
                        f", valid {entry['valid']:.4f}" if "valid" in entry else "", seconds)
            if valid is not None and waited >= max(self.patience, 1):
                break
        if best_state is not None:
            self._restore(best_state)
        return self

    def _all_arrays(self):
        return dict(self.params, E=self.E, case=self.case_table)

    def _update(self, dense, sparse, accum):
        for name, grad in dense.items():
            self._step(self.params[name], grad, accum[name], slice(None))
        arrays = self._all_arrays()
        for name, (rows, grad_rows) in sparse.items():
            if name == "E" and not self.trainable_rows.all():
                keep = self.trainable_rows[rows]
                rows, grad_rows = rows[keep], grad_rows[keep]
            self._step(arrays[name], grad_rows, accum[name], rows)

    def _step(self, param, grad, accum, rows):
        optimizer_step(self.optimizer, self.alpha, param, grad, accum, rows)

    def _snapshot(self):
        return {name: array.copy() for name, array in self._all_arrays().items()}

    def _restore(self, state):
        for name, array in self._all_arrays().items():
            array[...] = state[name]

    # -- prediction --------------------------------------------------------------------

    def predict_proba(self, data, batch_size=4096):
        """p(class | window) for every window: N×C float32."""
        out = np.empty((len(data), len(self.classes)), dtype=np.float32)
        for lo in range(0, len(data), batch_size):
            batch = data.subset(slice(lo, lo + batch_size))
            blocks = [table[ids].reshape(len(ids), -1) for _, table, ids in self._tables(batch)]
            logits, _ = window_forward(self.params, np.concatenate(blocks, axis=1))
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            out[lo : lo + len(batch)] = p / p.sum(axis=1, keepdims=True)
        return out

    def predict(self, data):
        """The most probable class id for every window."""
        return self.predict_proba(data).argmax(axis=1)

    def cross_entropy(self, data):
        """Mean −log p(label | window) in nats."""
        p = self.predict_proba(data)[np.arange(len(data)), data.labels]
        return float(-np.mean(np.log(np.maximum(p, 1e-30))))

    # -- vectors and persistence -------------------------------------------------------

    @property
    def wv(self):
        """The (possibly fine-tuned) embedding E as KeyedVectors, PAD and UNK included."""
        return KeyedVectors(list(self.words), self.E.copy())

    CONFIG_KEYS = ("classes", "window", "context", "hidden", "case_size", "fine_tune", "l2", "optimizer",
                   "alpha", "batch_size", "epochs", "patience", "seed", "lowercase", "vector_size", "init_scale")

    def save(self, path):
        """A directory: config.json (hyperparameters, words, history) and one .npy per array,
        written whole and swapped into place (``atomic_directory``)."""
        config = {key: getattr(self, key) for key in self.CONFIG_KEYS}
        config.update(words=self.words, history=self.history, arrays=sorted(self._all_arrays()))
        with atomic_directory(path, check_replaceable=check_replaceable) as tmp:
            for name, array in self._all_arrays().items():
                save_npy(os.path.join(tmp, f"{name}.npy"), array)
            save_npy(os.path.join(tmp, "trainable_rows.npy"), self.trainable_rows)
            save_json(os.path.join(tmp, "config.json"), config)

    @classmethod
    def load(cls, path):
        path = os.fspath(saved_directory(path, "config.json"))
        try:
            config = read_json_object(os.path.join(path, "config.json"))  # a FormatError is a ValueError
            words, history, names = config.pop("words"), config.pop("history"), config.pop("arrays")
            _check_size(path, config, len(words))
            model = cls(words=words, **config)
            arrays = model._all_arrays()
            for name in names:  # shape, dtype and finite values checked before use
                arrays[name][...] = read_array(os.path.join(path, f"{name}.npy"), arrays[name].shape)
            model.trainable_rows = read_array(os.path.join(path, "trainable_rows.npy"), (len(words),),
                                              kinds="b").astype(bool)
        except (KeyError, TypeError, ValueError, AttributeError, UnicodeDecodeError) as error:
            raise WordvecError(f"{path} is not a saved window classifier ({one_line(error)})") from None
        model.words = words  # PAD/UNK are already in the saved list, in saved order
        model.index = {w: i for i, w in enumerate(words)}
        model.history = history
        return model


def _check_size(path, config, n_words):
    """Refuse a config.json whose arrays could not fit in the directory's .npy files (a
    damaged file asking for a huge model), before the constructor allocates them."""
    sizes = [config.get(k) for k in ("vector_size", "window", "hidden")]
    if not all(type(n) is int and n >= 0 for n in sizes) or not isinstance(config.get("classes"), list):
        raise WordvecError(f"{path} is not a saved window classifier (vector_size, window, hidden, classes)")
    D, window, hidden = sizes
    inputs = (2 * window + 1 if config.get("context", "centred") == "centred" else window) * D  # M * D
    at_least = 4 * (n_words * D + inputs * (hidden or len(config["classes"])))  # E and the first layer, float32
    on_disk = sum(entry.stat().st_size for entry in os.scandir(path) if entry.name.endswith(".npy"))
    if at_least > on_disk:
        raise WordvecError(f"{path} is not a usable window classifier: config.json asks for at least "
                           f"{at_least} bytes of arrays, but its .npy files hold {on_disk}")


def check_replaceable(path):
    """Only an earlier window-classifier save (config.json and .npy files) is ever replaced."""
    names = os.listdir(path) if os.path.isdir(path) else None
    if names is None or "config.json" not in names or not all(n.endswith((".npy", ".json")) for n in names):
        raise WordvecError(f"refusing to replace {path}: it is not a saved window classifier "
                           "(config.json and .npy files)")
