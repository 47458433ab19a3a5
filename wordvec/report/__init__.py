"""``wordvec report``: one self-contained HTML page about a model or a vector file.

    from wordvec.report import build_report
    html = build_report("model.wv")          # any wordvec model, or .bin/.txt/.vec/GloVe vectors

Sections, each shown only where the input has its data (nothing is invented):

    overview          file, format, model kind, words x dimensions
    configuration     hyperparameters (wordvec models)
    corpus            vocabulary and corpus counts, Zipf plot (needs word counts)
    training          history table and loss curve (models; language models: perplexity)
    evaluation        Google-analogy accuracy per section (bar chart), similarity rho
                      (only when the vocabulary answers some questions / covers some pairs)
    neighbours        nearest words of a few frequent and a few rare words
    map               the top words on their first two principal components
    documents         Doc2Vec models: nearest documents of a few, and the documents' map
    samples           generated lines (language models)

A text classifier (``wordvec classify``, fastText .bin/.ftz) has its own sections: labels,
per-epoch loss and validation P@1, indicative words per label, and with ``test=`` a
labelled file's confusion matrix (``wordvec.report.classifier``).  A static sentence model
(``wordvec static``, a Model2Vec directory) has its own too: overview, configuration, its
vocabulary by kind, per-token weights, training history, nearest tokens and a map of
whole-word tokens (``wordvec.report.static_model``).

Figures are PNGs drawn by :mod:`wordvec.report.plots` and embedded as ``data:`` URIs;
the page has no script and no external link, so it opens offline.
"""

import math

import numpy as np

from wordvec.io.atomic import atomic_write
from wordvec.io.history import normalise
from wordvec.models.lm.training import blas_threads
from wordvec.models.lm.rnn import RNNLM
from wordvec.models.saved import describe, load_document_vectors, load_keyed_vectors
from wordvec.report import classifier as classifier_report
from wordvec.report import page, plots
from wordvec.report import static_model as static_report
from wordvec.vectors.evaluate import evaluate_all, is_syntactic
from wordvec.vectors.projection import explained_variance, pca_2d

NEIGHBOURS = 8
SAMPLE_WORDS = 5


def build_report(path, glove=False, top=300, evaluate=True, samples=5, seed=1, test=None):
    """The HTML text of the report on ``path`` (see the module docstring); a text
    classifier gets its own sections (``wordvec.report.classifier``; ``test``: a labelled
    file for its confusion matrix), and a static sentence model its own
    (``wordvec.report.static_model``)."""
    if not glove and classifier_report.is_classifier(path):
        return page.document(f"wordvec report: {path}", classifier_report.classifier_sections(path, test))
    if not glove and static_report.is_static_model(path):
        return page.document(f"wordvec report: {path}", static_report.static_sections(path, top))
    saved = describe(path, glove=glove)
    kv = load_keyed_vectors(path, glove=glove, saved=saved)
    sections = [
        _overview(saved, kv),
        _configuration(saved),
        _corpus(saved, kv),
        _training(saved),
        _evaluation(kv) if evaluate else "",
        _neighbours(kv),
        _map(kv, top),
        _documents(path, saved, top) if saved.kind == "doc2vec" else "",
        _samples(path, samples, seed) if saved.kind == "rnnlm" else "",
    ]
    return page.document(f"wordvec report: {path}", [s for s in sections if s])


def write_report(path, output, **options):
    """Build the report on ``path`` and write it atomically to ``output``."""
    html = build_report(path, **options)
    with atomic_write(output, "w", encoding="utf-8") as handle:
        handle.write(html)
    return html


def _overview(saved, kv):
    rows = [("file", saved.path), ("format", saved.format), ("contents", saved.title),
            ("words", f"{len(kv):,}"), ("dimensions", str(kv.vector_size)),
            ("word counts", "stored" if kv.counts is not None else "not in this format")]
    if len(kv):
        norms = kv.norms
        rows.append(("vector norms", f"min {norms.min():.3f} · median {np.median(norms):.3f} · max {norms.max():.3f}"))
    return page.section("Overview", page.key_value_table(rows))


def _configuration(saved):
    if not saved.hyperparameters:
        return ""
    rows = [(key, page.display_value(value)) for key, value in saved.hyperparameters.items()
            if not isinstance(value, dict) and not (isinstance(value, list) and len(value) > 30)]
    return page.section("Configuration", page.key_value_grid(rows))


def _corpus(saved, kv):
    rows = [(key, f"{value:,}") for key, value in saved.corpus.items()]
    figure = ""
    if kv.counts is not None and len(kv) and int(kv.counts.max()) > 0:
        counts = np.asarray(kv.counts, dtype=np.int64)
        total = int(counts.sum())
        order = np.argsort(-counts, kind="stable")
        rows += [("vocabulary tokens (sum of counts)", f"{total:,}"),
                 ("most frequent words", ", ".join(f"{page.display_word(kv.index_to_key[i])} ({counts[i]:,})"
                                                    for i in order[:8])),
                 ("share of the 100 most frequent words", f"{100 * counts[order[:100]].sum() / total:.1f}%"),
                 ("rarest count kept", f"{int(counts.min()):,}")]
        figure = page.figure(plots.zipf_plot(counts), "Zipf plot: word count against frequency rank (log-log). "
                             "Natural text follows the dashed slope −1 line closely.")
    if not rows:
        return ""
    return page.section("Corpus and vocabulary", page.key_value_table(rows) + figure)


def _training(saved):
    rows = normalise(saved.history)
    if not rows:
        return ""
    raw = saved.history
    extra = [key for key in ("valid_loss", "valid_perplexity", "train_perplexity", "valid") if any(key in r for r in raw)]
    header = ["epoch", "loss", "learning rate", "words/s", "seconds", "elapsed"] + extra
    body = [[r["epoch"], r["loss"], r["learning_rate"], r["words_per_sec"], r["seconds"], r["elapsed_seconds"]]
            + [source.get(key) for key in extra] for r, source in zip(rows, raw)]
    html = page.data_table(header, body)
    epochs = [r["epoch"] for r in rows]
    if saved.kind == "rnnlm":
        series = [("train", [r.get("train_perplexity") for r in raw]),
                  ("valid", [r.get("valid_perplexity") for r in raw])]
        html += page.figure(plots.curves_plot(epochs, series, "perplexity", log_scale=True),
                            "Perplexity per epoch (lower is better).")
    elif any(r["loss"] is not None for r in rows) and len(rows) > 1:
        series = [("training loss", [r["loss"] for r in rows])]
        if any("valid_loss" in r for r in raw):
            series.append(("validation loss", [r.get("valid_loss") for r in raw]))
        html += page.figure(plots.curves_plot(epochs, series, "mean loss"), _loss_caption(saved.kind))
    return page.section("Training", html)


def _loss_caption(kind):
    return {"word2vec": "Mean loss per training example and epoch (the online loss: each example's loss "
                        "just before its own update).",
            "glove": "GloVe's weighted least-squares cost per non-zero co-occurrence and epoch.",
            "window": "Mean cross-entropy per minibatch and epoch."}.get(kind, "Mean training loss per epoch.")


def _evaluation(kv):
    result = evaluate_all(kv)
    html = ""
    analogy = result["analogy"]
    if analogy["answered"]:
        sections = [(name, s["accuracy"], s["answered"]) for name, s in analogy["sections"].items() if s["answered"]]
        kinds = {kind: analogy[kind] if any(is_syntactic(n) == (kind == "syntactic") and s["answered"]
                                             for n, s in analogy["sections"].items()) else None
                 for kind in ("semantic", "syntactic")}
        summary = (f"Google analogies (3CosAdd, the {min(30000, len(kv)):,} most frequent words): "
                   f"{100 * analogy['total']:.1f}% of {analogy['answered']:,} answered questions "
                   f"(of {analogy['questions']:,}); semantic {_percent(kinds['semantic'])}, "
                   f"syntactic {_percent(kinds['syntactic'])}.")
        html += f"<p>{page.escape(summary)}</p>"
        html += page.figure(plots.analogy_bars(sections), "Accuracy per section of the Google analogy set "
                            "(blue: semantic sections, orange: syntactic); sections with no answered question are left out.")
    similarity = [(name, s) for name, s in result["similarity"].items() if s.get("spearman") is not None]
    if similarity:
        html += page.data_table(["word-pair set", "Spearman ρ", "pairs covered"],
                                [[name, s["spearman"], f"{s['covered']} of {s['pairs']}"] for name, s in similarity])
    if not html:
        return ""
    return page.section("Evaluation", html)


def _percent(value):
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.1f}%"


def sample_words(kv):
    """(frequent, rare, how they were chosen): a handful of each, spread over the ranks.

    Frequent words skip the first 20 ranks (mostly function words) when there is room;
    rare words come from the last tenth.  Without counts, file order stands in for rank.
    """
    V = len(kv)
    order = (np.argsort(-np.asarray(kv.counts), kind="stable") if kv.counts is not None else np.arange(V))
    start = 20 if V > 200 else 0
    frequent = order[np.unique(np.linspace(start, min(V, start + 200) - 1, SAMPLE_WORDS).astype(int))] if V else []
    tail = max(V // 10, SAMPLE_WORDS)
    rare = order[np.unique(np.linspace(max(V - tail, 0), V - 1, SAMPLE_WORDS).astype(int))] if V > SAMPLE_WORDS else []
    rare = [i for i in rare if i not in set(frequent)]
    basis = "by corpus count" if kv.counts is not None else "by position in the file (no counts stored)"
    return [kv.index_to_key[i] for i in frequent], [kv.index_to_key[i] for i in rare], basis


def _neighbours(kv):
    if len(kv) < 2:
        return ""
    frequent, rare, basis = sample_words(kv)
    html = f"<p>Nearest words by cosine similarity; words chosen {page.escape(basis)}.</p>"
    for title, words in (("Frequent words", frequent), ("Rare words", rare)):
        if not words:
            continue
        rows = []
        for word in words:
            count = f" ({int(kv.counts[kv.get_index(word)]):,})" if kv.counts is not None else ""
            pairs = kv.most_similar(word, topn=NEIGHBOURS)
            rows.append([page.display_word(word) + count,
                         ", ".join(f"{page.display_word(w)} {s:.2f}" for w, s in pairs)])
        html += f"<h3>{title}</h3>" + page.data_table(["word", f"{NEIGHBOURS} nearest (cosine)"], rows)
    return page.section("Nearest neighbours", html)


def _map(kv, top):
    n = min(top, len(kv))
    if n < 3:
        return ""
    # most frequent first (file order without counts): the order in which labels are placed
    order = (np.argsort(-np.asarray(kv.counts), kind="stable") if kv.counts is not None else np.arange(len(kv)))[:n]
    vectors = np.asarray(kv.vectors[order])
    words = [page.display_word(kv.index_to_key[i]) for i in order]
    coords = pca_2d(vectors)
    which = "most frequent words" if kv.counts is not None else "first words of the file (no counts stored)"
    caption = (f"The {n} {which} on the first two principal components of their unit vectors "
               f"({100 * explained_variance(vectors, coords):.0f}% of the variance), labelled in that order "
               "wherever a label does not cover another. Distances in two dimensions only hint at the "
               "cosine neighbourhoods above.")
    return page.section("Map of the top words", page.figure(plots.word_map(words, coords), caption))


def _documents(path, saved, top):
    """A Doc2Vec model's document vectors: how many, the nearest documents of a few spread
    over the file, and the first ``top`` documents on their first two principal components."""
    dv = load_document_vectors(path, saved)
    n = len(dv)
    tagged = "line numbers" if saved.hyperparameters.get("tags", "line") == "line" else "each line's first token"
    rows = [("documents", f"{n:,}"), ("tags", tagged), ("dimensions", str(dv.vector_size))]
    if n:
        norms = dv.norms
        rows.append(("vector norms", f"min {norms.min():.3f} · median {np.median(norms):.3f} · max {norms.max():.3f}"))
    html = page.key_value_table(rows)
    if n >= 2:
        picks = np.unique(np.linspace(0, n - 1, SAMPLE_WORDS).astype(int))
        table = [[page.display_word(dv.index_to_key[i]),
                  ", ".join(f"{page.display_word(t)} {s:.2f}" for t, s in dv.most_similar(dv.index_to_key[i],
                                                                                           topn=NEIGHBOURS))]
                 for i in picks]
        html += "<h3>Nearest documents</h3>" + page.data_table(["document", f"{NEIGHBOURS} nearest (cosine)"], table)
    shown = min(top, n)
    if shown >= 3:
        vectors = np.asarray(dv.vectors[:shown])
        coords = pca_2d(vectors)
        caption = (f"The first {shown} documents on the first two principal components of their unit vectors "
                   f"({100 * explained_variance(vectors, coords):.0f}% of the variance), labelled by tag.")
        html += page.figure(plots.word_map([page.display_word(t) for t in dv.index_to_key[:shown]], coords), caption)
    return page.section("Documents", html)


def _samples(path, n, seed):
    if n < 1:
        return ""
    model = RNNLM.load(path)
    with blas_threads(1):
        lines = [model.vocab.decode(ids) for ids in model.sample(n, 200, 0.8, seed)]
    items = "".join(f"<li><code>{page.escape(line) or '&nbsp;'}</code></li>" for line in lines)
    return page.section("Samples", f"<p>{n} lines sampled at temperature 0.8 (seed {seed}).</p><ol>{items}</ol>")
