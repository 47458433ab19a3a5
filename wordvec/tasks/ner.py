"""Named-entity recognition on CoNLL-2003 with the window classifier, scored by conlleval.

Data: DIR/{train,valid,test}.txt.xz in the original 4-column format (token POS chunk NER,
IOB1 tags, blank line between sentences). Each token is tagged independently from its
window. By default the classifier learns IOBES tags (S-X single-token entity, B-X … E-X
longer ones; the same chunks as the data's IOB1 tags, but every boundary is visible in
a token's own label); its predictions are turned back into IOB2 before scoring.
Entity-level precision, recall and F1 are computed against the original tags as the CoNLL
`conlleval` script does, and the validation F1 drives early stopping.
"""

from wordvec.errors import WordvecError
from wordvec.tasks.conlleval import conlleval, from_iobes, to_iobes
from wordvec.tasks.data import read_conll_splits
from wordvec.tasks.tagging import predicted_tags, train_tagger

SCHEMES = ("iobes", "iob1")


def ner_scores(model, data, gold_tags, scheme="iobes"):
    """conlleval scores of the model's tags for ``data`` against the original gold tags."""
    guessed = predicted_tags(model, data, gold_tags)
    if scheme == "iobes":
        guessed = [from_iobes(tags) for tags in guessed]
    return conlleval(gold_tags, guessed)


def run_ner(data_dir, vectors=None, fine_tune=False, hidden=0, window=2, epochs=None, seed=1, scheme="iobes",
            **options):
    """Train on train, early-stop on valid F1, report {"task", "valid", "test"} (fractions in [0, 1])."""
    if scheme not in SCHEMES:
        raise WordvecError(f"the tag scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}")
    splits = read_conll_splits(data_dir)
    training = dict(splits)
    if scheme == "iobes":
        training["train"] = (splits["train"][0], [to_iobes(tags) for tags in splits["train"][1]])
    model, data = train_tagger(training, lambda m, d, gold: ner_scores(m, d, gold, scheme)["f1"],
                               vectors=vectors, fine_tune=fine_tune, hidden=hidden, window=window, epochs=epochs,
                               seed=seed, **options)
    result = {"task": "ner"}
    for split in ("valid", "test"):
        scores = ner_scores(model, data[split], splits[split][1], scheme)
        result[split] = {key: scores[key] for key in ("f1", "precision", "recall", "accuracy", "per_type")}
    result["history"] = model.history
    return result, model
