"""``wordvec.load_gensim(path)``: any of gensim's pickled saves (3.x and 4.x) as the wordvec
object of the same kind, read without running code.

    import wordvec
    model = wordvec.load_gensim("word2vec.model")   # Word2Vec, FastText, Doc2Vec, KeyedVectors, Phrases

The pickle's top class (its first global) picks the class whose ``load`` reads it
(``wordvec.io.gensim_pickle`` reads the data through an allow-list; ``gensim_models`` and
``wordvec.vectors.gensim_keyed`` map gensim's attributes); a class wordvec has no
counterpart of is refused naming it.
"""

from wordvec.errors import WordvecError
from wordvec.io.gensim_pickle import is_pickle, top_class, unpickle
from wordvec.models.doc2vec.model import Doc2Vec
from wordvec.models.word2vec.fasttext import FastText
from wordvec.models.phrases.model import FrozenPhrases, Phrases
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors

READERS = {
    "Word2Vec": Word2Vec.load, "FastText": FastText.load, "Doc2Vec": Doc2Vec.load,
    "KeyedVectors": KeyedVectors.load, "Word2VecKeyedVectors": KeyedVectors.load,
    "EuclideanKeyedVectors": KeyedVectors.load, "Doc2VecKeyedVectors": KeyedVectors.load,
    "FastTextKeyedVectors": SubwordKeyedVectors.load,
    "Phrases": Phrases.load, "FrozenPhrases": FrozenPhrases.load, "Phraser": FrozenPhrases.load,
}


def load_gensim(path, mmap=None):
    """The wordvec object of a gensim save (``mmap="r"`` maps its ``.npy`` arrays)."""
    if not is_pickle(path):
        raise WordvecError(f"{path} is not a gensim save (a pickle file)")
    qualified = top_class(path) or "no class at its top"
    module, _, name = qualified.rpartition(".")
    read = READERS.get(name) if module.startswith("gensim.") else None
    if read is None:
        unpickle(path)  # a global outside the allow-list is named first (nothing is run)
        raise WordvecError(f"{path} holds {qualified}, which wordvec does not read "
                           f"(it reads gensim's {', '.join(sorted(READERS))})")
    return read(path, mmap=mmap) if read not in (Phrases.load, FrozenPhrases.load) else read(path)
