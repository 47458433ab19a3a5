"""fastText's ``Meter`` with false-negative labels (meter.cc, what ``getMeter`` and autotune
score with): for every label the (score, gold) pairs of its predictions, plus (-1, 1) for
each time it was missed, and the precision/recall curves computed from them."""

import numpy as np

from wordvec.data.labels import encode, scan_text

FALSE_NEGATIVE_SCORE = -1.0
ALL_LABELS = -1


def fasttext_probabilities(probabilities, loss="softmax"):
    """float32: fastText's returned figure of each probability (hs already holds its 1e-5)."""
    p = np.asarray(probabilities, dtype=np.float64)
    if loss != "hs":
        p = p + 1e-5
    return p.astype(np.float32)


def file_label_scores(model, path, k=-1):
    """The :class:`LabelScores` of a trained ``Classifier``'s top ``k`` predictions (-1: all
    labels) on a labelled file, as fastText's ``getMeter`` logs them."""
    encoded = encode(model.dictionary, scan_text(path))
    scores = LabelScores(len(model.dictionary.labels))
    for d, (ids, probs) in enumerate(model.top_k(encoded, k, 0.0)):
        truth = encoded.labels[encoded.label_offsets[d]:encoded.label_offsets[d + 1]]
        if len(truth) and encoded.row_offsets[d + 1] > encoded.row_offsets[d]:
            scores.log(truth, ids, fasttext_probabilities(probs, model.config.loss))
    return scores


class LabelScores:
    """Per label (and over all labels): what fastText's Meter logs."""

    def __init__(self, n_labels):
        self.pairs = [[] for _ in range(n_labels)]   # (score, gold) per label
        self.gold = np.zeros(n_labels, dtype=np.int64)
        self.total_gold = 0

    def log(self, truth, ids, probabilities):
        """One example: its gold label ids, the predicted ids and their probabilities."""
        truth = set(int(t) for t in truth)
        self.total_gold += len(truth)
        for label, p in zip(ids, probabilities):
            self.pairs[label].append((min(float(np.float32(p)), 1.0), 1.0 if label in truth else 0.0))
        predicted = set(int(i) for i in ids)
        for label in truth:
            self.gold[label] += 1
            if label not in predicted:
                self.pairs[label].append((FALSE_NEGATIVE_SCORE, 1.0))

    def score_vs_true(self, label_id):
        if label_id == ALL_LABELS:
            pairs = [p for label_pairs in self.pairs for p in label_pairs]
        else:
            pairs = list(self.pairs[label_id]) if 0 <= label_id < len(self.pairs) else []
        return sorted(pairs)

    def positive_counts(self, label_id):
        """(true positives, false positives) at each distinct score, best first."""
        counts, tp, fp, last = [], 0, 0, None
        for score, gold in reversed(self.score_vs_true(label_id)):
            if score < 0:
                break
            tp, fp = (tp + 1, fp) if gold == 1.0 else (tp, fp + 1)
            if counts and score == last:
                counts[-1] = (tp, fp)
            else:
                counts.append((tp, fp))
            last = score
        return counts

    def precision_recall_curve(self, label_id):
        counts = self.positive_counts(label_id)
        if not counts:
            return []
        golds = self.total_gold if label_id == ALL_LABELS else int(self.gold[label_id])
        firsts = [tp for tp, _ in counts]
        full = int(np.searchsorted(firsts, golds, side="left"))  # the first reaching every gold
        end = min(full + 1, len(counts))
        curve = []
        for tp, fp in counts[:end]:
            precision = tp / (tp + fp) if tp + fp else 0.0
            curve.append((precision, tp / golds if golds else float("nan")))
        curve.append((1.0, 0.0))
        return curve

    def precision_at_recall(self, label_id, recall):
        return max([p for p, r in self.precision_recall_curve(label_id) if r >= recall], default=0.0)

    def recall_at_precision(self, label_id, precision):
        return max([r for p, r in self.precision_recall_curve(label_id) if p >= precision], default=0.0)
