"""fastText's ``_Meter`` (what ``model.get_meter(path)`` returns) over the label scores of
``wordvec.models.classifier.curves`` (fastText's Meter with false-negative labels)."""

import numpy as np

from wordvec.models.classifier.curves import ALL_LABELS, LabelScores  # noqa: F401 (re-exported)


class Meter:
    """fastText's ``_Meter``: what ``model.get_meter(path)`` returns."""

    def __init__(self, model, scores):
        self.f, self.m = model, scores

    def _label_id(self, label):
        return self.f.get_label_id(label) if label else ALL_LABELS

    def score_vs_true(self, label):
        """Return scores and the gold of each sample for a specific label"""
        pairs = self.m.score_vs_true(self.f.get_label_id(label))
        scores, gold = zip(*pairs) if pairs else ([], ())
        return np.array(scores, dtype=np.float64), np.array(gold, dtype=np.float64)

    def precision_recall_curve(self, label=None):
        """Return precision/recall curve"""
        curve = self.m.precision_recall_curve(self._label_id(label))
        precision, recall = zip(*curve) if curve else ([], ())
        return np.array(precision, dtype=np.float64), np.array(recall, dtype=np.float64)

    def precision_at_recall(self, recall, label=None):
        """Return precision for a given recall"""
        return self.m.precision_at_recall(self._label_id(label), recall)

    def recall_at_precision(self, precision, label=None):
        """Return recall for a given precision"""
        return self.m.recall_at_precision(self._label_id(label), precision)
