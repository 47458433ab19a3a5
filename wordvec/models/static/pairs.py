"""Contrastive training on (anchor, positive) pairs: sentence-transformers' in-batch
negatives loss (MultipleNegativesRankingLoss) summed over Matryoshka sizes, by SGD with
hand-derived gradients (``math.static`` C; ``kernels.static.contrastive`` and
``scatter_batch``).  Input: a text file of ``anchor<TAB>positive`` lines."""

import logging
import time
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, TrainingError, WordvecError
from wordvec.kernels.static import Rows, Sentences, contrastive, pool, scatter_batch

log = logging.getLogger(__name__)


def read_pairs(pairs):
    """(anchors, positives) from a file of anchor<TAB>positive lines, or a list of pairs."""
    if not isinstance(pairs, (str, Path)):
        pairs = [tuple(pair) for pair in pairs]
        if not all(len(pair) == 2 and all(isinstance(s, str) for s in pair) for pair in pairs):
            raise WordvecError("pairs must be (anchor, positive) tuples of str")
    else:
        path = Path(pairs)
        if not path.is_file():
            raise WordvecError(f"cannot read {path}: not a file")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError as error:
            raise FormatError(path, None, f"not UTF-8 text (byte {error.start})") from None
        pairs = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                raise FormatError(path, number, f"expected anchor<TAB>positive, found {len(fields)} fields")
            pairs.append((fields[0], fields[1]))
    if len(pairs) < 2:
        raise WordvecError("contrastive training needs at least 2 pairs")
    return [a for a, _ in pairs], [p for _, p in pairs]


def subset(sentences, chosen):
    """The ``Sentences`` of the sentences numbered ``chosen``, in that order."""
    starts, stops = sentences.offsets[chosen], sentences.offsets[chosen + 1]
    offsets = np.zeros(len(chosen) + 1, dtype=np.int64)
    np.cumsum(stops - starts, out=offsets[1:])
    ids = np.concatenate([sentences.ids[a:b] for a, b in zip(starts, stops)]) if len(chosen) else sentences.ids[:0]
    return Sentences(np.ascontiguousarray(ids, dtype=np.int32), offsets)


def fit_pairs(model, pairs, config):
    """Train ``model`` in place on ``pairs`` by ``config`` (``PairsConfig``)."""
    anchors, positives = read_pairs(pairs)
    left, right = model.tokenize(anchors, config.max_length), model.tokenize(positives, config.max_length)
    usable = np.flatnonzero((np.diff(left.offsets) > 0) & (np.diff(right.offsets) > 0))
    if len(usable) < 2:
        raise WordvecError("fewer than 2 pairs have a known token on both sides")
    if len(usable) < len(anchors):
        log.info("%d pairs with no known token on one side are left out", len(anchors) - len(usable))
    sizes = np.array(config.sizes(model.dim), dtype=np.int64)
    rows = Rows(model.vectors, model.weights)
    rng = np.random.default_rng(config.seed)
    batch_size = min(config.batch_size, len(usable))
    steps_per_epoch = len(usable) // batch_size
    total_steps, step = steps_per_epoch * config.epochs, 0
    dw = np.zeros(len(model.vectors))
    for epoch in range(config.epochs):
        started, losses = time.perf_counter(), []
        order = rng.permutation(usable)
        for number in range(steps_per_epoch):
            chosen = order[number * batch_size:(number + 1) * batch_size]
            sides = (subset(left, chosen), subset(right, chosen))
            pooled = (np.zeros((len(chosen), model.dim)), np.zeros((len(chosen), model.dim)))
            for side, pooled_side in zip(sides, pooled):
                pool(side, rows, model.dim, False, pooled_side)
            grads = (np.empty_like(pooled[0]), np.empty_like(pooled[1]))
            alpha = config.alpha - (config.alpha - config.min_alpha) * step / max(total_steps, 1)
            losses.append(contrastive(pooled[0], pooled[1], config.scale, sizes, *grads))
            scatter_batch(sides, grads, rows, alpha, config.train_weights, dw)
            step += 1
        loss = float(np.mean(losses))
        if not np.isfinite(loss) or not np.isfinite(model.vectors).all():
            raise TrainingError(f"the loss diverged in epoch {epoch + 1} (lower alpha, now {config.alpha})")
        model.history.append({"objective": "pairs", "epoch": epoch + 1, "loss": loss,
                              "seconds": time.perf_counter() - started})
        log.info("epoch %d: contrastive loss %.5f", epoch + 1, loss)
    return model
