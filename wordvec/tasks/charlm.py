"""Character model: predict the next character from the previous M characters (seed 000).

Seed 000 builds its window softmax on characters and promises "some of the character
embeddings it learned"; this task trains that model and draws them.

Data: a text file, or a folder of .txt files (e.g. tasks/charlm/ with dinos.txt); each
non-empty line is one sequence, lowercased, ended by a newline character that the model
must also predict. Lines are split by position: line i goes to test if i % 10 == 0, to
valid if i % 10 == 5, to train otherwise. The window before the first character is
padding (which thus also marks "start of line"). Reported: cross-entropy in nats per
character (including the end-of-line newline) on valid and test.
"""

import numpy as np

from wordvec.errors import WordvecError
from wordvec.io.atomic import atomic_write
from wordvec.models.window.model import WindowClassifier
from wordvec.tasks.data import read_lines

END = "\n"


def split_lines(lines):
    splits = {"train": [], "valid": [], "test": []}
    for i, line in enumerate(lines):
        splits["test" if i % 10 == 0 else "valid" if i % 10 == 5 else "train"].append(line)
    return splits


def run_charlm(data, window=4, hidden=0, epochs=None, seed=1, plot=None, vectors=None, fine_tune=False,
               vector_size=10, **options):
    """Train on the train lines, early-stop on valid cross-entropy; optional 2-D plot of E."""
    if vectors is not None:
        raise WordvecError("the charlm task learns its character embeddings itself; --vectors does not apply")
    splits = {name: [list(line.lower()) + [END] for line in lines] for name, lines in split_lines(read_lines(data)).items()}
    if not splits["train"] or not splits["valid"]:
        raise WordvecError(f"{data} has too few lines for a train/valid/test split (need at least 6)")
    chars = sorted({c for seq in splits["train"] for c in seq})
    vector_size = vector_size or 10
    settings = {"alpha": 0.05, "batch_size": 64, "epochs": 30, "patience": 3, "l2": 0.0}
    settings.update({k: v for k, v in options.items() if v is not None})
    if epochs is not None:
        settings["epochs"] = epochs
    model = WindowClassifier(chars, words=chars, window=window, vector_size=vector_size, hidden=hidden, case_size=0,
                             context="left", lowercase=False, seed=seed, **settings)
    data_sets = {}
    for name, seqs in splits.items():
        # Characters never seen in training are UNK as inputs; as targets they cannot be
        # predicted, so such lines are dropped from the scored splits (counted below).
        seqs = [s for s in seqs if all(c in model.class_index for c in s)] if name != "train" else seqs
        data_sets[name] = model.windows(seqs, seqs) if seqs else None
    model.fit(data_sets["train"], data_sets["valid"], score=lambda m, d: -m.cross_entropy(d))
    result = {"task": "charlm"}
    for name in ("valid", "test"):
        d = data_sets[name]
        result[name] = {"cross_entropy": model.cross_entropy(d) if d is not None else float("nan"),
                        "characters": 0 if d is None else len(d), "lines": len(splits[name])}
    result["history"] = model.history
    if plot:
        plot_embeddings(model, plot)
        result["plot"] = str(plot)
    return result, model


def plot_embeddings(model, path):
    """The characters' rows of E projected on their first two principal axes, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise WordvecError("plotting needs matplotlib (pip install 'wordvec[plot]')") from None

    rows = [i for i, w in enumerate(model.words) if w in model.class_index]
    E = model.E[rows].astype(np.float64)
    centred = E - E.mean(axis=0)
    _, _, Vt = np.linalg.svd(centred, full_matrices=False)
    xy = centred @ Vt[:2].T
    fig, ax = plt.subplots(figsize=(7, 7))
    ax.scatter(xy[:, 0], xy[:, 1], s=8, color="lightgray")
    for (x, y), i in zip(xy, rows):
        label = {"\n": "⏎", " ": "␣"}.get(model.words[i], model.words[i])
        ax.annotate(label, (x, y), ha="center", va="center", fontsize=12)
    ax.set_title(f"Character embeddings (D={model.vector_size}, M={model.M}), first two principal components")
    ax.set_xlabel("PC 1")
    ax.set_ylabel("PC 2")
    with atomic_write(path, "wb") as handle:
        fig.savefig(handle, format="png", dpi=100)
    plt.close(fig)
