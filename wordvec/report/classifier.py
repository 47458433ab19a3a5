"""The report on a text classifier (``wordvec classify`` or fastText ``.bin``/``.ftz``).

Sections, each where its data exists:

    overview          file, loss, words, labels, input rows, dimensions, n-gram settings
    labels            every label with its training count
    training          loss (and validation P@1) per epoch, with the loss curve (models
                      saved in the native format keep their history; fastText's .bin does not)
    indicative words  per label, the words whose own row scores that label highest
                      against the other labels (softmax and one-vs-all models)
    test              with a labelled file: N, P@1 and the confusion matrix of top labels
"""

import os
from pathlib import Path

import numpy as np

from wordvec.data.labels import encode, scan_text
from wordvec.io.fasttext_bin import MAGIC
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.files import NATIVE_MARKER
from wordvec.report import page, plots

MAX_LABELS_SHOWN = 30


def is_classifier(path):
    """True for a native classifier directory, or a fastText .bin/.ftz of the supervised model."""
    path = Path(path)
    if (path / NATIVE_MARKER).is_file():
        return True
    if not path.is_file():
        return False
    with open(path, "rb") as handle:
        head = handle.read(4 * 12)
    # magic, version, then the arguments: dim ws epoch min_count neg word_ngrams loss model (3: supervised)
    return (len(head) == 48 and int.from_bytes(head[:4], "little", signed=True) == MAGIC
            and int.from_bytes(head[36:40], "little", signed=True) == 3)


def classifier_sections(path, test=None, top=8):
    """The report's sections (HTML strings) on the classifier at ``path``."""
    model = Classifier.load(path, mmap=True)
    return [section for section in (_overview(path, model), _labels(model), _training(model),
                                     _indicative_words(model, top), _test(model, test) if test else "")
            if section]


def _overview(path, model):
    d, config = model.dictionary, model.config
    rows = [("file", str(path)), ("model", f"{model.model}, loss {config.loss}"
                                  + (" (quantized)" if model.quantized is not None else "")),
            ("words", f"{d.nwords:,}"), ("labels", f"{len(d.labels):,}"),
            ("input rows", f"{model.W_in.shape[0]:,}"), ("dimensions", str(model.W_in.shape[1])),
            ("word n-grams", f"up to {d.word_ngrams} (bucket {d.bucket:,})"),
            ("character n-grams", f"{d.minn}-{d.maxn}" if d.maxn else "none"),
            ("training", f"{config.epoch} epochs" + (f", lr {config.lr}" if _records_lr(path) else "")),
            ("tokens read", f"{d.ntokens:,}")]
    return page.section("Overview", page.key_value_table(rows))


def _records_lr(path):
    """Only a native save records the learning rate: fastText's .bin/.ftz stores none."""
    return (Path(path) / NATIVE_MARKER).is_file()


def _labels(model):
    d = model.dictionary
    rows = [[label, int(count)] for label, count in zip(d.labels[:MAX_LABELS_SHOWN], d.label_counts)]
    note = f"<p>The {MAX_LABELS_SHOWN} most frequent of {len(d.labels)}.</p>" if len(d.labels) > MAX_LABELS_SHOWN else ""
    return page.section("Labels", page.data_table(["label", "training lines"], rows) + note)


def _training(model):
    history = model.history
    if not history:
        return ""
    valid = any("valid_p@1" in r for r in history)
    header = ["epoch", "loss", "seconds"] + (["validation P@1"] if valid else [])
    rows = [[r["epoch"], r["loss"], r["seconds"]] + ([r.get("valid_p@1")] if valid else []) for r in history]
    html = page.data_table(header, rows)
    if len(history) > 1:
        epochs = [r["epoch"] for r in history]
        html += page.figure(plots.curves_plot(epochs, [("training loss", [r["loss"] for r in history])], "loss"),
                            "Average training loss per epoch.")
    return page.section("Training", html)


def indicative_words(model, top=8):
    """{label: [words]}: per label, the words that alone give it the highest probability,
    among the words that point to it more than to any other label and whose probabilities
    are not spread evenly over the labels.

    A word's own input row gives a distribution over the labels (softmax of its scores);
    its peakedness, 1 - entropy / log(labels), is 0 for a word spread evenly over every
    label and 1 for a word of one label.  Words used alike in every label (articles,
    fastText's line end ``</s>``) are the evenly spread ones: words below half-peaked, or
    below the vocabulary's median where most words are less peaked than that, are left
    out, by this measure rather than by a list of stopwords (hierarchical softmax has no
    per-label row: {})."""
    d = model.dictionary
    if model.model != "supervised" or model.config.loss == "hs" or d.nwords == 0:
        return {}
    probabilities = label_probabilities(model)
    peaked = peakedness(probabilities)
    candidates = np.flatnonzero(peaked >= min(0.5, float(np.median(peaked))))
    favourite = probabilities[candidates].argmax(axis=1)  # a word is shown under the label it points to most
    found = {}
    for i, label in enumerate(d.labels[:MAX_LABELS_SHOWN]):
        mine = candidates[favourite == i]
        found[label] = [d.words[w] for w in mine[np.argsort(-probabilities[mine, i], kind="stable")[:top]]]
    return found


def label_probabilities(model):
    """p(label | word) for every word from its own input row alone: a (words x labels) matrix."""
    d = model.dictionary
    scores = np.asarray(model.W_in[:d.nwords], dtype=np.float64) @ np.asarray(model.W_out, dtype=np.float64).T
    scores -= scores.max(axis=1, keepdims=True)
    exponentials = np.exp(scores)
    return exponentials / exponentials.sum(axis=1, keepdims=True)



def peakedness(probabilities):
    """1 - entropy / log(labels) of each row: 0 spread evenly over the labels, 1 on one label."""
    labels = probabilities.shape[1]
    if labels < 2:
        return np.ones(len(probabilities))
    entropy = -(probabilities * np.log(np.maximum(probabilities, 1e-300))).sum(axis=1)
    return 1.0 - entropy / np.log(labels)


def _indicative_words(model, top):
    words = indicative_words(model, top)
    if not words:
        return ""
    rows = [[label, " ".join(page.display_word(w) for w in found)] for label, found in words.items()]
    return page.section("Indicative words", page.data_table(["label", "words that point to it most"], rows))


def confusion_matrix(model, test):
    """(N, P@1, counts[gold, predicted]) over the lines of ``test`` with one label and a
    known token, as fastText's test counts them."""
    encoded = encode(model.dictionary, scan_text(test))
    n_labels = len(model.labels)
    counts = np.zeros((n_labels, n_labels), dtype=np.int64)
    for d, (ids, _) in enumerate(model.top_k(encoded, 1)):
        gold = encoded.labels[encoded.label_offsets[d]:encoded.label_offsets[d + 1]]
        if len(gold) == 1 and len(ids) == 1:
            counts[gold[0], ids[0]] += 1
    n = int(counts.sum())
    return n, (float(np.trace(counts)) / n if n else float("nan")), counts


def _test(model, test):
    n, precision, counts = confusion_matrix(model, test)
    prefix, labels = shortened_labels(model.labels[:MAX_LABELS_SHOWN])
    rows = [[gold] + [int(c) for c in counts[i, :len(labels)]] for i, gold in enumerate(labels)]
    summary = page.key_value_table([("test file", str(test)), ("lines with one label", f"{n:,}"),
                                    ("P@1", f"{precision:.4f}")])
    note = (f"<p>Rows: the true label; columns: the predicted one. Labels are shown without their common "
            f"prefix <code>{page.escape(prefix)}</code>.</p>" if prefix else
            "<p>Rows: the true label; columns: the predicted one.</p>")
    return page.section("Test", summary + note + page.scrolling(page.data_table(["true \\ predicted", *labels], rows)))


def shortened_labels(labels):
    """(the labels' common prefix, cut at a separator, and the labels without it): __label__genre_drama,
    __label__genre_crime -> ("__label__genre_", ["drama", "crime"]); a label never becomes empty."""
    if len(labels) < 2:
        return "", list(labels)
    prefix = os.path.commonprefix(list(labels))
    cut = max(prefix.rfind(c) for c in "_-:./ ") + 1  # whole words only: "__label__genre_" not "__label__genre_c"
    prefix = prefix[:cut]
    if not prefix or any(len(label) == len(prefix) for label in labels):
        return "", list(labels)
    return prefix, [label[len(prefix):] for label in labels]
