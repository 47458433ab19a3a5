"""Named-entity recognition on CoNLL-2003 with the window classifier, scored by conlleval.

Data: DIR/{train,valid,test}.txt.xz in the original 4-column format (token POS chunk NER,
IOB1 tags, blank line between sentences). Each token is tagged independently from its
window; entity-level precision, recall and F1 are computed as the CoNLL `conlleval`
script does, and the validation F1 drives early stopping.
"""

from wordvec.tasks.conlleval import conlleval
from wordvec.tasks.data import read_conll_splits
from wordvec.tasks.tagging import predicted_tags, train_tagger


def ner_scores(model, data, gold_tags):
    scores = conlleval(gold_tags, predicted_tags(model, data, gold_tags))
    return {key: scores[key] for key in ("f1", "precision", "recall", "accuracy", "per_type")}


def run_ner(data_dir, vectors=None, fine_tune=False, hidden=0, window=2, epochs=None, seed=1, **options):
    """Train on train, early-stop on valid F1, report {"task", "valid", "test"} (fractions in [0, 1])."""
    splits = read_conll_splits(data_dir)
    model, data = train_tagger(splits, lambda m, d, gold: conlleval(gold, predicted_tags(m, d, gold))["f1"],
                               vectors=vectors, fine_tune=fine_tune, hidden=hidden, window=window, epochs=epochs,
                               seed=seed, **options)
    result = {"task": "ner"}
    for split in ("valid", "test"):
        result[split] = ner_scores(model, data[split], splits[split][1])
    result["history"] = model.history
    return result, model
