"""``predict`` of ``wordvec.fasttext``: lines of text to (labels, probabilities), with the
figures fastText's binding returns (float32, each probability p as ``exp(log(p + 1e-5))``:
its predictions are kept as logs with 1e-5 inside)."""

import numpy as np

from wordvec.data.labels import encode_lines
from wordvec.fasttext.text import first_line_tokens


def fasttext_probabilities(probabilities, loss="softmax"):
    """float32: fastText's returned figure of each probability (hs already holds its 1e-5)."""
    p = np.asarray(probabilities, dtype=np.float64)
    if loss != "hs":
        p = p + 1e-5
    return p.astype(np.float32)


class LinePredictor:
    """Predictions of a supervised ``Classifier`` for a few lines at a time."""

    def __init__(self, classifier):
        self.classifier = classifier
        self.names = list(classifier.dictionary.labels)
        self.loss = classifier.config.loss

    def predict(self, lines, k, threshold):
        """Per line: (label names, float32 probabilities), best first."""
        results = self.classifier.top_k(encode_lines(self.classifier.dictionary, [first_line(t) for t in lines]), k,
                                        threshold)
        return [([self.names[i] for i in ids], fasttext_probabilities(probs, self.loss)) for ids, probs in results]


def first_line(text):
    """``text`` up to its first ``</s>`` token, which ends a line for fastText's getLine."""
    if "</s>" not in text:
        return text
    return " ".join(first_line_tokens(text)[:-1])
