"""`from wordvec import ...`: every name of __all__ is the object its deep import gives,
and `import wordvec` alone stays light (no NumPy, no Numba)."""

import subprocess
import sys

import pytest

import wordvec
from wordvec.data.phrases import phrase_corpus
from wordvec.data.sentences import LineSentence, PathLineSentences, TaggedDocument, TaggedLineDocument
from wordvec.errors import FormatError, WordvecError
from wordvec.models.lm.attention import AttentionLM
from wordvec.models.classifier.model import Classifier, train_supervised
from wordvec.models.doc2vec.model import Doc2Vec
from wordvec.models.gensim_load import load_gensim
from wordvec.models.word2vec.fasttext import FastText, load_facebook_model, load_facebook_vectors
from wordvec.models.count.glove import GloVe
from wordvec.models.phrases.model import FrozenPhrases, Phrases
from wordvec.models.lm.rnn import RNNLM
from wordvec.models.static.model import StaticModel
from wordvec.models.count.svd import PPMISVD
from wordvec.models.window.model import WindowClassifier
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.evaluate import evaluate_all, evaluate_analogies, evaluate_similarity, format_report
from wordvec.vectors.files import load_vectors, save_vectors
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors

# written out here, not read from wordvec/__init__.py: the test states what users get
DEEP = {
    "Word2Vec": Word2Vec, "FastText": FastText, "GloVe": GloVe, "PPMISVD": PPMISVD,
    "WindowClassifier": WindowClassifier, "RNNLM": RNNLM, "AttentionLM": AttentionLM, "Doc2Vec": Doc2Vec,
    "StaticModel": StaticModel,
    "Classifier": Classifier, "train_supervised": train_supervised,
    "load_facebook_model": load_facebook_model, "load_facebook_vectors": load_facebook_vectors,
    "Phrases": Phrases, "FrozenPhrases": FrozenPhrases, "phrase_corpus": phrase_corpus,
    "load_gensim": load_gensim, "LineSentence": LineSentence, "PathLineSentences": PathLineSentences,
    "TaggedDocument": TaggedDocument, "TaggedLineDocument": TaggedLineDocument,
    "KeyedVectors": KeyedVectors, "SubwordKeyedVectors": SubwordKeyedVectors,
    "load_vectors": load_vectors, "save_vectors": save_vectors,
    "evaluate": evaluate_all, "evaluate_analogies": evaluate_analogies,
    "evaluate_similarity": evaluate_similarity, "format_report": format_report,
    "WordvecError": WordvecError, "FormatError": FormatError,
}


def test_every_name_of_all_is_the_deep_object():
    assert sorted(wordvec.__all__) == sorted(DEEP)
    assert len(set(wordvec.__all__)) == len(wordvec.__all__)
    for name in wordvec.__all__:
        assert getattr(wordvec, name) is DEEP[name], name


def test_from_wordvec_import_star_gives_all():
    namespace = {}
    exec("from wordvec import *", namespace)
    assert {name: namespace[name] for name in DEEP} == DEEP
    assert set(wordvec.__all__) <= set(dir(wordvec))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Word2vec'"):
        wordvec.Word2vec  # noqa: B018 (a typo of Word2Vec)
    with pytest.raises(ImportError):
        exec("from wordvec import NotAModel", {})


def test_import_wordvec_loads_no_numpy_and_no_numba():
    probe = ("import sys, wordvec; "
             "print(sorted(m for m in ('numpy', 'scipy', 'numba') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"


def test_the_version_is_a_string():
    assert isinstance(wordvec.__version__, str) and wordvec.__version__.count(".") == 2
