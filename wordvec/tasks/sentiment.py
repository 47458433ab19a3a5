"""Sentence sentiment on the Stanford Sentiment Treebank: average of word vectors → softmax.

Data: DIR/trees/{train.txt.xz, dev.txt, test.txt}, the PTB-style trees with a 0–4 label
on every node; the root label is the sentence's label (8,544 / 1,101 / 2,210 sentences).

Two classifiers are trained on the root labels, each early-stopped on the dev split:
* 5-class (SST-5): very negative … very positive → ``accuracy``;
* binary (SST-2, the standard protocol): neutral (2) sentences are dropped from every
  split, 0–1 are negative and 3–4 positive → ``accuracy_binary``.
The model is seed 002's softmax classifier with x the mean of the sentence's word vectors
(:func:`wordvec.math.window.average_loss_and_gradients`); E may be fine-tuned.
"""

import logging

import numpy as np

from wordvec.errors import TrainingError
from wordvec.math.window import average_loss_and_gradients
from wordvec.models.window.model import UNK, WindowClassifier, optimizer_step
from wordvec.tasks.data import read_sst
from wordvec.tasks.tagging import check_dimension, load_task_vectors, tagging_vocabulary

logger = logging.getLogger(__name__)


class AveragedVectorClassifier:
    """softmax(W · mean_t E[w_t] + b) over sentences, trained by minibatch SGD/AdaGrad."""

    def __init__(self, num_classes, words, vectors=None, vector_size=50, fine_tune=True, l2=0.0,
                 optimizer="adagrad", alpha=0.05, batch_size=32, epochs=30, patience=5, seed=1):
        # Borrow the window classifier's vocabulary and embedding initialisation (M = 1).
        base = WindowClassifier(list(range(num_classes)), words=words, vectors=vectors, window=0,
                                vector_size=vector_size, case_size=0, fine_tune=fine_tune, seed=seed)
        self.words, self.index, self.E, self.trainable_rows = base.words, base.index, base.E, base.trainable_rows
        self.rng = base._rng
        D = self.E.shape[1]
        limit = np.sqrt(6.0 / (D + num_classes))
        self.params = {"W": self.rng.uniform(-limit, limit, (D, num_classes)).astype(np.float32),
                       "b": np.zeros(num_classes, np.float32)}
        self.l2, self.optimizer, self.alpha = l2, optimizer, alpha
        self.batch_size, self.epochs, self.patience = batch_size, epochs, patience
        self.history = []

    def encode(self, sentences):
        """Token ids (T,) and their sentence numbers (T,); an empty sentence gets one UNK."""
        unk = self.index[UNK]
        ids = [[self.index.get(w.lower(), unk) for w in s] or [unk] for s in sentences]
        lengths = [len(s) for s in ids]
        lengths = np.asarray(lengths, dtype=np.int64)
        return np.fromiter((i for s in ids for i in s), np.int32), np.repeat(np.arange(len(ids)), lengths), lengths

    def _batch(self, encoded, index):
        """The tokens of sentences ``index`` and their position in the batch (no Python loop)."""
        ids, _, lengths = encoded
        lengths = np.asarray(lengths)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        chosen = lengths[index]
        owner = np.repeat(np.arange(len(index)), chosen)
        first_in_batch = np.concatenate([[0], np.cumsum(chosen)[:-1]])
        picks = starts[index][owner] + np.arange(chosen.sum()) - first_in_batch[owner]
        return ids[picks], owner

    def predict(self, sentences):
        ids, owner, lengths = self.encode(sentences)
        x = np.zeros((len(lengths), self.E.shape[1]), np.float32)
        np.add.at(x, owner, self.E[ids] / np.asarray(lengths, np.float32)[owner][:, None])
        return (x @ self.params["W"] + self.params["b"]).argmax(axis=1)

    def accuracy(self, sentences, labels):
        return float(np.mean(self.predict(sentences) == np.asarray(labels)))

    def fit(self, sentences, labels, valid_sentences, valid_labels):
        encoded, labels = self.encode(sentences), np.asarray(labels, np.int32)
        accum = {"W": np.zeros_like(self.params["W"]), "b": np.zeros_like(self.params["b"]),
                 "E": np.zeros_like(self.E)}
        best, best_state, waited = -1.0, None, 0
        for epoch in range(1, self.epochs + 1):
            order, total = self.rng.permutation(len(labels)), 0.0
            for lo in range(0, len(order), self.batch_size):
                index = order[lo : lo + self.batch_size]
                ids, owner = self._batch(encoded, index)
                loss, dense, sparse = average_loss_and_gradients(self.params, self.E, ids, owner, labels[index], self.l2)
                if not np.isfinite(loss):
                    raise TrainingError(f"the loss became {loss}; lower the learning rate (alpha={self.alpha})")
                for name, grad in dense.items():
                    optimizer_step(self.optimizer, self.alpha, self.params[name], grad, accum[name])
                rows, grad_rows = sparse["E"]
                keep = self.trainable_rows[rows]
                optimizer_step(self.optimizer, self.alpha, self.E, grad_rows[keep], accum["E"], rows[keep])
                total += loss * len(index)
            valid = self.accuracy(valid_sentences, valid_labels)
            self.history.append({"epoch": epoch, "loss": total / len(labels), "valid": valid})
            if valid > best:
                best, best_state, waited = valid, (self.E.copy(), {k: v.copy() for k, v in self.params.items()}), 0
            else:
                waited += 1
                if waited >= max(self.patience, 1):
                    break
        self.E[...], self.params = best_state[0], best_state[1]
        return self


def binary_split(sentences, labels):
    """SST-2: drop neutral (2); 0–1 → 0 (negative), 3–4 → 1 (positive)."""
    kept = [(s, int(y > 2)) for s, y in zip(sentences, labels) if y != 2]
    return [s for s, _ in kept], [y for _, y in kept]


def run_sentiment(data_dir, vectors=None, fine_tune=False, epochs=None, seed=1, hidden=0, window=None, **options):
    """Train SST-5 and SST-2 classifiers; report {"task", "valid", "test"} with accuracy and accuracy_binary.

    ``hidden`` and ``window`` are accepted for the common CLI but unused (the model averages)."""
    splits = read_sst(data_dir)
    kv = load_task_vectors(vectors)
    check_dimension(kv, options.get("vector_size"))
    words = tagging_vocabulary(splits, kv)
    settings = {k: v for k, v in options.items() if v is not None and k in
                ("l2", "optimizer", "alpha", "batch_size", "patience", "vector_size")}
    if epochs is not None:
        settings["epochs"] = epochs
    fine_tune = fine_tune or kv is None
    five = AveragedVectorClassifier(5, words, kv, fine_tune=fine_tune, seed=seed, **settings)
    five.fit(*splits["train"], *splits["valid"])
    binary = {split: binary_split(*pair) for split, pair in splits.items()}
    two = AveragedVectorClassifier(2, words, kv, fine_tune=fine_tune, seed=seed, **settings)
    two.fit(*binary["train"], *binary["valid"])
    result = {"task": "sentiment"}
    for split in ("valid", "test"):
        result[split] = {"accuracy": five.accuracy(*splits[split]), "accuracy_binary": two.accuracy(*binary[split]),
                         "sentences": len(splits[split][0]), "sentences_binary": len(binary[split][0])}
    result["history"] = {"five_class": five.history, "binary": two.history}
    return result, (five, two)
