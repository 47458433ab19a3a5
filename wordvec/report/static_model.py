"""The report's sections for a static sentence model (``wordvec static``, Model2Vec's
directories): what it is, its configuration, its vocabulary by kind, its per-token weights,
its training history, the nearest tokens of a few whole words and a map of the first
whole-word tokens.

    from wordvec.report.static_model import is_static_model, static_sections
"""

import json

import numpy as np

from wordvec.models.static.files import PROJECTION, is_static_model
from wordvec.models.static.model import StaticModel
from wordvec.models.static.vocabulary import (KINDS, continuing_prefix, effective_weights, kind_counts, map_rows,
                                              stores_weights, token_kinds, token_rows)
from wordvec.report import page, plots
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.projection import explained_variance, pca_2d

__all__ = ["is_static_model", "static_sections"]

NEIGHBOURS = 8
SAMPLE_TOKENS = 5
EXTREMES = 10
EXAMPLES = 10
KIND_NAMES = {"special": "special tokens", "piece": "continuation pieces", "word": "whole words",
              "character": "single letters and digits", "symbol": "symbols and punctuation"}


def static_sections(path, top=300):
    """The HTML sections of the report on the static model directory ``path``."""
    model = StaticModel.load(path)
    kinds = token_kinds(model)
    keyed = KeyedVectors(model.tokens, token_rows(model))
    sections = [_overview(path, model), _configuration(model), _vocabulary(model, kinds), _weights(model),
                _training(model.history), _neighbours(keyed, kinds), _map(keyed, kinds, top)]
    return [s for s in sections if s]


def _overview(path, model):
    tokenizer = json.loads(model.tokenizer.to_str()).get("model") or {}
    teacher = model.config.get("tokenizer_name") or model.config.get("base_model_name")
    rows = [("file", str(path)), ("contents", "static sentence model (a weighted mean of token vectors)"),
            ("tokens", f"{len(model):,}"), ("dimensions", str(model.dim)),
            ("normalize", "yes: sentence vectors are unit length" if model.normalize else "no"),
            ("tokenizer", str(tokenizer.get("type", "unknown"))), ("max length", f"{model.max_length} tokens")]
    if teacher:
        rows.insert(3, ("teacher / tokenizer name", str(teacher)))
    if model.projection is not None:
        mean, components = model.projection
        rows.append(("teacher's projection", f"PCA from {len(mean)} to {len(components)} dimensions "
                                             f"({PROJECTION})"))
    return page.section("Overview", page.key_value_table(rows))


def _configuration(model):
    rows = [(key, page.display_value(value)) for key, value in model.config.items()
            if not isinstance(value, dict) and not (isinstance(value, list) and len(value) > 30)]
    return page.section("Configuration", page.key_value_grid(rows)) if rows else ""


def _vocabulary(model, kinds):
    counts = kind_counts(kinds)
    prefix = continuing_prefix(model.tokenizer)
    table = []
    for kind in KINDS:
        if counts[kind]:
            examples = [model.tokens[i] for i, k in enumerate(kinds) if k == kind][:EXAMPLES]
            table.append([KIND_NAMES[kind], counts[kind], f"{100 * counts[kind] / len(kinds):.1f}%",
                          " ".join(page.display_word(t) for t in examples)])
    marker = (f"Continuation pieces are the tokens that start with the tokenizer's prefix {prefix!r}; "
              if prefix else "This tokenizer marks no continuation pieces; ")
    text = (f"<p>{len(model):,} tokens in the vocabulary. {page.escape(marker)}whole words have two or more "
            "characters with a letter or digit among them.</p>")
    return page.section("Vocabulary", text + page.data_table(["kind", "tokens", "share", "first of them"], table))


def _weights(model):
    weights = effective_weights(model)
    zero = int((weights == 0).sum())
    html = ("<p>A sentence vector is the mean of its tokens' weighted rows w<sub>j</sub>E<sub>j</sub>, so a "
            "token's weight in it is the length of its row |w<sub>j</sub>E<sub>j</sub>| (Model2Vec's and "
            "wordvec's saves keep the weights in the rows). "
            f"Lengths: min {weights.min():.4g} · median {np.median(weights):.4g} · max {weights.max():.4g}"
            f"{f'; {zero:,} tokens have a zero row' if zero else ''}.</p>")
    html += page.figure(plots.histogram(weights, "row length |w·E| (the token's weight in the mean)"),
                        f"Histogram of the {len(weights):,} tokens' row lengths.")
    if stores_weights(model):
        html += page.figure(plots.histogram(model.weights, "stored weight w"),
                            "Histogram of the weights the file stores apart from the rows.")
    order = np.argsort(-weights, kind="stable")
    n = min(EXTREMES, len(order))
    highest, lowest = order[:n], order[::-1][:n]
    table = [[i + 1, page.display_word(model.tokens[h]), float(weights[h]), page.display_word(model.tokens[low]),
              float(weights[low])] for i, (h, low) in enumerate(zip(highest, lowest))]
    html += page.data_table(["rank", "highest weighted", "weight", "lowest weighted", "weight"], table)
    return page.section("Weights", html)


def _training(history):
    if not history:
        return ""
    steps = list(range(1, len(history) + 1))
    table = [[step, str(h.get("objective", "")), h.get("epoch"), h.get("loss"), h.get("seconds")]
             for step, h in zip(steps, history)]
    html = page.data_table(["step", "objective", "epoch", "mean loss", "seconds"], table)
    objectives = list(dict.fromkeys(str(h.get("objective", "")) for h in history))
    series = [(objective or "loss", [h.get("loss") if str(h.get("objective", "")) == objective else None
                                     for h in history]) for objective in objectives]
    if len(history) > 1 and any(h.get("loss") is not None for h in history):
        html += page.figure(plots.curves_plot(steps, series, "mean loss"),
                            "Mean loss per epoch: toward the teacher (cosine or squared distance to its vectors) "
                            "and on pairs (the in-batch contrastive loss), in the order they were trained.")
    return page.section("Training", html)


def _neighbours(keyed, kinds):
    words = np.flatnonzero(np.asarray(kinds) == "word")
    if len(keyed) < 2 or not len(words):
        return ""
    picks = words[np.unique(np.linspace(0, len(words) - 1, SAMPLE_TOKENS).astype(int))]
    rows = []
    for row in picks:
        token = keyed.index_to_key[row]
        pairs = keyed.most_similar(token, topn=NEIGHBOURS)
        rows.append([page.display_word(token), ", ".join(f"{page.display_word(t)} {s:.2f}" for t, s in pairs)])
    text = ("<p>Nearest tokens by cosine of their rows, for whole words spread over the vocabulary "
            "(first to last).</p>")
    return page.section("Nearest tokens", text + page.data_table(["token", f"{NEIGHBOURS} nearest (cosine)"], rows))


def _map(keyed, kinds, top):
    rows = map_rows(kinds, min(top, len(keyed)))
    if len(rows) < 3:
        return ""
    vectors = np.asarray(keyed.vectors[rows])
    coords = pca_2d(vectors)
    words = sum(kinds[i] == "word" for i in rows)
    which = f"first {words} whole-word tokens of the vocabulary" + (
        f" and {len(rows) - words} other tokens" if words < len(rows) else "")
    caption = (f"The {which} on the first two principal components of their unit rows "
               f"({100 * explained_variance(vectors, coords):.0f}% of the variance), labelled in vocabulary order "
               "wherever a label does not cover another.")
    return page.section("Map of the tokens",
                        page.figure(plots.word_map([page.display_word(keyed.index_to_key[i]) for i in rows], coords),
                                    caption))
