"""Extrinsic tasks for word vectors, each a window (or averaging) classifier with its standard metric.

    from wordvec.tasks import run_ner, run_pos, run_sentiment, run_charlm
    result, model = run_ner("../shared/data/tasks/conll2003", vectors="vectors.bin", fine_tune=True, hidden=300)
    result["test"]["f1"]

Every ``run_*`` returns ({"task", "valid", "test", "history"}, trained model).
"""

from wordvec.tasks.charlm import run_charlm
from wordvec.tasks.ner import run_ner
from wordvec.tasks.pos import run_pos
from wordvec.tasks.sentiment import run_sentiment

__all__ = ["run_charlm", "run_ner", "run_pos", "run_sentiment"]
