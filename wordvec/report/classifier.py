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

from pathlib import Path

import numpy as np

from wordvec.data.labels import encode, scan_text
from wordvec.io.fasttext_bin import MAGIC
from wordvec.models.classifier import Classifier
from wordvec.models.classifier_files import NATIVE_MARKER
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
    """{label: [words]}: the words whose own input row gives that label the highest score
    relative to the mean over labels (hierarchical softmax has no per-label row: {})."""
    d = model.dictionary
    if model.model != "supervised" or model.config.loss == "hs" or d.nwords == 0:
        return {}
    scores = np.asarray(model.W_in[:d.nwords], dtype=np.float32) @ np.asarray(model.W_out, dtype=np.float32).T
    scores -= scores.mean(axis=1, keepdims=True)
    return {label: [d.words[w] for w in np.argsort(-scores[:, i], kind="stable")[:top]]
            for i, label in enumerate(d.labels[:MAX_LABELS_SHOWN])}


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
    labels = model.labels[:MAX_LABELS_SHOWN]
    rows = [[f"{gold} (true)"] + [int(c) for c in counts[i, :len(labels)]] for i, gold in enumerate(labels)]
    summary = page.key_value_table([("test file", str(test)), ("lines with one label", f"{n:,}"),
                                    ("P@1", f"{precision:.4f}")])
    return page.section("Test", summary + page.data_table(["", *labels], rows))
