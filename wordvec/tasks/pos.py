"""Part-of-speech tagging on the Brown corpus with the window classifier (token accuracy).

Data: DIR/brown_tagged_original.tar.xz, read directly (never extracted): files
package/ca01 … package/cr09 of `word/tag` tokens, one sentence per line.

Split by file number: test = files whose number is a multiple of 10 (ca10, ca20, …, cr…),
valid = files whose number ends in 5 (ca05, ca15, …), train = all other files.

Tags: the `-tl` (title), `-hl` (headline) and `-nc` (cited word) suffixes and the `fw-`
(foreign word) prefix are removed, so "nn-tl" and "fw-nn" count as "nn"; compound tags
such as "nn+bez" are kept whole, as are negated forms such as "bez*".
"""

from wordvec.tasks.data import read_brown
from wordvec.tasks.tagging import token_accuracy, train_tagger


def run_pos(data_dir, vectors=None, fine_tune=False, hidden=0, window=2, epochs=None, seed=1, **options):
    """Train on train, early-stop on valid accuracy, report {"task", "valid", "test"}."""
    splits = read_brown(data_dir)
    model, data = train_tagger(splits, token_accuracy, vectors=vectors, fine_tune=fine_tune, hidden=hidden,
                               window=window, epochs=epochs, seed=seed, **options)
    result = {"task": "pos"}
    for split in ("valid", "test"):
        result[split] = {"accuracy": token_accuracy(model, data[split], splits[split][1]),
                         "tokens": sum(len(t) for t in splits[split][1])}
    result["history"] = model.history
    return result, model
