"""fastText 0.9.2's Python module, over wordvec: change ``import fasttext`` to
``import wordvec.fasttext as fasttext``.

    import wordvec.fasttext as fasttext
    model = fasttext.train_supervised(input="train.txt", epoch=25, lr=0.5, wordNgrams=2)
    model.predict("which baking dish is best", k=2)     # (('__label__x', ...), array([...]))
    model.save_model("model.bin")                       # fastText loads it, and vice versa
    vectors = fasttext.train_unsupervised("data.txt", model="skipgram")
    vectors.get_nearest_neighbors("king")

Every public function, the model object's methods and properties keep fastText's names,
arguments (camelCase: ``wordNgrams``, ``minCount``, ``lrUpdateRate``, ...), defaults,
return types and exception types (``ValueError`` for bad input), and work under NumPy 2.
Where it differs from fastText: docs/migrating.md (Python module).
"""

from wordvec.fasttext import util
from wordvec.fasttext.autotune import train_supervised
from wordvec.fasttext.model import FastTextModel
from wordvec.fasttext.options import FastTextError
from wordvec.fasttext.text import BOW, EOS, EOW, tokenize
from wordvec.fasttext.training import load_model, train_unsupervised

_FastText = FastTextModel  # fastText's class name

__all__ = ["train_supervised", "train_unsupervised", "load_model", "tokenize", "EOS", "BOW", "EOW", "util",
           "FastTextModel", "FastTextError", "cbow", "skipgram", "supervised"]


def _gone(name, replacement):
    def removed(*args, **kwargs):
        raise Exception(f"`{name}` is not supported any more. Please use `{replacement}`.")
    removed.__name__ = name
    return removed


cbow = _gone("cbow", "train_unsupervised` with model=`cbow")
skipgram = _gone("skipgram", "train_unsupervised` with model=`skipgram")
supervised = _gone("supervised", "train_supervised")
