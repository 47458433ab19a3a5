"""What the token-tagging tasks (NER, POS) share: vocabulary, vectors, training, scoring.

A tagging task hands over its splits as {"train"|"valid"|"test": (sentences, tags)};
:func:`train_tagger` builds the vocabulary, the window classifier and trains it with
early stopping on the validation split under the task's own metric.
"""

import logging
import os
from collections import Counter

import numpy as np

from wordvec.errors import WordvecError
from wordvec.models.window.model import WindowClassifier
from wordvec.vectors.files import load_vectors

logger = logging.getLogger(__name__)

# Hyperparameters that differ from WindowClassifier's defaults, tuned on the valid splits.
TAGGER_DEFAULTS = {"alpha": 0.05, "batch_size": 64, "epochs": 8, "patience": 2, "case_size": 5, "l2": 0.0}
HIDDEN_ALPHA = 0.02  # AdaGrad step with a hidden layer (0.05 overfits faster on CoNLL valid)


def load_task_vectors(vectors):
    """KeyedVectors from a path (any format wordvec reads), or the object itself; checked."""
    if vectors is None or not isinstance(vectors, (str, os.PathLike)):
        kv = vectors
    else:
        if not os.path.exists(vectors):
            raise WordvecError(f"the vector file {vectors} does not exist")
        try:
            kv = load_vectors(vectors)
        except WordvecError:
            raise
        except (ValueError, UnicodeDecodeError, EOFError, IndexError) as error:
            raise WordvecError(f"{vectors} is not a word-vector file wordvec can read ({error})") from None
    if kv is not None:
        matrix = np.asarray(kv.vectors)
        if matrix.ndim != 2 or matrix.shape[0] != len(kv.index_to_key) or matrix.shape[0] == 0:
            raise WordvecError(f"the word vectors are malformed: {matrix.shape} matrix for {len(kv.index_to_key)} words")
        if not np.all(np.isfinite(matrix)):
            raise WordvecError("the word vectors contain NaN or infinite values")
    return kv


def check_dimension(kv, vector_size):
    """A requested embedding size must agree with the pretrained vectors' size."""
    if kv is not None and vector_size is not None and vector_size != np.asarray(kv.vectors).shape[1]:
        raise WordvecError(f"--dim {vector_size} does not match the {np.asarray(kv.vectors).shape[1]}-dimensional word vectors")


def tagging_vocabulary(splits, kv=None, min_count=2):
    """Training words seen ≥ min_count times (rarer ones teach the UNK row), plus every
    word of any split that has a pretrained vector (its row is then not random)."""
    counts = Counter(w.lower() for sentence in splits["train"][0] for w in sentence)
    words = {w for w, c in counts.items() if c >= min_count}
    if kv is not None:
        known = {w.lower() for w in kv.index_to_key}
        for sentences, _ in splits.values():
            words.update(w.lower() for s in sentences for w in s if w.lower() in known)
    return sorted(words)


def train_tagger(splits, score, vectors=None, fine_tune=False, hidden=0, window=2, epochs=None, seed=1,
                 **options):
    """Train a WindowClassifier on splits["train"], early-stopping on score(model, valid, gold_tags).

    Returns (model, {split: WindowData}) for "valid" and "test"."""
    kv = load_task_vectors(vectors)
    check_dimension(kv, options.get("vector_size"))
    settings = dict(TAGGER_DEFAULTS, alpha=HIDDEN_ALPHA if hidden else TAGGER_DEFAULTS["alpha"])
    settings.update({k: v for k, v in options.items() if v is not None})
    if epochs is not None:
        settings["epochs"] = epochs
    classes = sorted({t for tags in splits["train"][1] for t in tags})
    model = WindowClassifier(classes, words=tagging_vocabulary(splits, kv), vectors=kv, window=window,
                             hidden=hidden, fine_tune=fine_tune or kv is None, seed=seed, **settings)
    train = model.windows(*splits["train"])
    # Tags never seen in training cannot be predicted; they still count as errors.
    data = {split: model.windows(splits[split][0]) for split in ("valid", "test")}
    logger.info("%d training windows, %d classes, %d words", len(train), len(classes), len(model.words))
    model.fit(train, data["valid"], score=lambda m, d: score(m, d, splits["valid"][1]))
    return model, data


def predicted_tags(model, data, gold_tags):
    """The predicted tag sequences, shaped like the gold sentences."""
    flat = [model.classes[i] for i in model.predict(data)]
    out, start = [], 0
    for tags in gold_tags:
        out.append(flat[start : start + len(tags)])
        start += len(tags)
    return out


def token_accuracy(model, data, gold_tags):
    gold = [t for tags in gold_tags for t in tags]
    guessed = [t for tags in predicted_tags(model, data, gold_tags) for t in tags]
    return float(np.mean([g == p for g, p in zip(gold, guessed)]))
