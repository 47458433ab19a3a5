"""The report's figures, drawn with matplotlib and returned as PNG ``data:`` URIs.

Each function takes plain numbers (no model objects) and returns one self-contained
``data:image/png;base64,...`` string, so the page opens offline.  Figures are built with
``matplotlib.figure.Figure`` directly (no pyplot): no global state, no GUI backend.
"""

import base64
import io

import numpy as np

from wordvec.errors import WordvecError

INK, ACCENT, SECOND, MUTED, GRID = "#1f2933", "#2563eb", "#ea580c", "#7b8794", "#e4e7eb"


def _figure(width=6.4, height=3.2):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise WordvecError("wordvec report draws its plots with matplotlib, which is not installed; "
                           "install it with: pip install 'wordvec[plot]'") from None
    # Fixed margins, not layout="constrained": that costs a second full draw of every figure.
    figure = Figure(figsize=(width, height), dpi=110)
    figure.subplots_adjust(left=0.11, right=0.97, top=0.95, bottom=0.16)
    return figure


def _style(axes, xlabel, ylabel):
    axes.set_xlabel(xlabel, color=INK)
    axes.set_ylabel(ylabel, color=INK)
    axes.grid(True, color=GRID, linewidth=0.8)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        axes.spines[side].set_color(MUTED)
    axes.tick_params(colors=INK, labelsize=8.5)


def _data_uri(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", facecolor="white")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def zipf_plot(counts):
    """log-log rank vs count, with the slope -1 line of Zipf's law through the first word."""
    counts = np.sort(np.asarray(counts, dtype=np.float64))[::-1]
    counts = counts[counts > 0]
    ranks = np.arange(1, counts.size + 1)
    figure = _figure()
    axes = figure.add_subplot()
    axes.loglog(ranks, counts, color=ACCENT, linewidth=2, label="vocabulary")
    axes.loglog(ranks, counts[0] / ranks, color=MUTED, linestyle="--", linewidth=1, label="Zipf: count ∝ 1/rank")
    _style(axes, "rank", "corpus count")
    axes.legend(frameon=False, fontsize=8.5)
    return _data_uri(figure)


def curves_plot(epochs, series, ylabel, log_scale=False):
    """One line per (label, values) of ``series`` over ``epochs`` (values may hold None)."""
    figure = _figure()
    axes = figure.add_subplot()
    for (label, values), color in zip(series, (ACCENT, SECOND, INK)):
        points = [(e, v) for e, v in zip(epochs, values) if v is not None]
        if points:
            xs, ys = zip(*points)
            axes.plot(xs, ys, marker="o", markersize=4, color=color, linewidth=2, label=label)
    values = [v for _, vs in series for v in vs if v is not None and v > 0]
    if log_scale and values and max(values) > 3 * min(values):  # a log axis only where it helps reading
        axes.set_yscale("log")
    _style(axes, "epoch", ylabel)
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.legend(frameon=False, fontsize=8.5)
    return _data_uri(figure)


def analogy_bars(sections):
    """Horizontal bars of accuracy per analogy section: [(name, accuracy, answered), ...]."""
    names = [name for name, _, _ in sections][::-1]
    values = [100 * accuracy for _, accuracy, _ in sections][::-1]
    colors = [SECOND if name.startswith("gram") else ACCENT for name in names]
    height = 0.3 * len(names) + 0.9
    figure = _figure(6.4, height)
    figure.subplots_adjust(left=0.3, bottom=0.55 / height, top=1 - 0.15 / height)
    axes = figure.add_subplot()
    bars = axes.barh(names, values, color=colors, height=0.7)
    for bar, value in zip(bars, values):
        axes.text(bar.get_width() + 1, bar.get_y() + bar.get_height() / 2, f"{value:.1f}%", va="center",
                  fontsize=8, color=INK)
    axes.set_xlim(0, 110)
    _style(axes, "accuracy, % of answered questions", "")
    axes.grid(False, axis="y")
    return _data_uri(figure)


def word_map(words, coords, highlight=()):
    """Scatter of the 2-D ``coords`` with each word written at its point."""
    coords = np.asarray(coords, dtype=np.float64)
    figure = _figure(8.0, 6.4)
    axes = figure.add_subplot()
    axes.scatter(coords[:, 0], coords[:, 1], s=9, color=ACCENT, alpha=0.55, linewidths=0)
    _style(axes, "first principal component", "second principal component")
    figure.subplots_adjust(left=0.08, bottom=0.08)
    highlight = set(highlight)
    for word, (x, y) in _unclashing_labels(axes, words, coords):
        axes.annotate(word, (x, y), xytext=(2, 2), textcoords="offset points", fontsize=7,
                      color=SECOND if word in highlight else INK)
    return _data_uri(figure)


def _unclashing_labels(axes, words, coords, fontsize=7):
    """(word, point) pairs to label, in the given (frequency) order, skipping any label
    whose box would overlap one already placed: readable text rather than a smudge."""
    spread = np.ptp(coords, axis=0)
    pad = np.where(spread > 0, 0.05 * spread, 1.0)
    axes.set_xlim(coords[:, 0].min() - pad[0], coords[:, 0].max() + pad[0])
    axes.set_ylim(coords[:, 1].min() - pad[1], coords[:, 1].max() + pad[1])
    pixels = axes.transData.transform(coords)
    height = fontsize * axes.figure.dpi / 72
    placed, kept = [], []
    for word, (px, py), point in zip(words, pixels, coords):
        if not word:
            continue
        box = (px + 2, py + 2, px + 4 + 0.6 * height * len(word), py + 2 + height)
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
            continue
        placed.append(box)
        kept.append((word, point))
    return kept



def histogram(values, xlabel, log_counts=False):
    """Bars of how many of ``values`` fall in each of up to 40 equal bins."""
    values = np.asarray(values, dtype=np.float64)
    figure = _figure()
    axes = figure.add_subplot()
    axes.hist(values, bins=min(40, max(1, len(np.unique(values)))), color=ACCENT, edgecolor="white", linewidth=0.5)
    if log_counts:
        axes.set_yscale("log")
    _style(axes, xlabel, "tokens")
    return _data_uri(figure)
