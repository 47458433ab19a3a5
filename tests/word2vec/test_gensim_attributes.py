"""gensim's attributes and answers that its own tests read on Word2Vec and FastText, held to
gensim (the oracle, never a runtime dependency): ``cum_table``, ``null_word``,
``estimate_memory``'s dictionary, ``TypeError`` for a corpus argument of the wrong type,
the factors of an old save, and ``load_facebook_model``'s ``ns_exponent``."""

import numpy as np
import pytest
from gensim import models as gensim_models
from gensim.test.utils import common_texts, datapath

from wordvec.errors import WordvecError
from wordvec.models.word2vec.fasttext import FastText, load_facebook_model, save_facebook_model
from wordvec.models.word2vec.model import Word2Vec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TEXTS = common_texts * 20
# every word's count its own (gensim orders words of equal counts its own way): w_i 3 (12 - i) times
DISTINCT_COUNTS = [[f"w{i}" for i in range(k)] for k in range(1, 13)] * 3
SETTINGS = dict(vector_size=12, min_count=1, workers=1, seed=3)


def pair(wordvec_class, gensim_class, **options):
    """The same model's vocabulary built by wordvec and by gensim (nothing trained)."""
    ours = wordvec_class(**SETTINGS, progress=False, **options)
    ours.build_vocab(DISTINCT_COUNTS)
    theirs = gensim_class(**SETTINGS, **options)
    theirs.build_vocab(DISTINCT_COUNTS)
    assert list(ours.wv.index_to_key) == list(theirs.wv.index_to_key)
    return ours, theirs


@pytest.mark.parametrize("ns_exponent", [0.75, 0.5, -0.5])
def test_cum_table_is_gensims(ns_exponent):
    ours, theirs = pair(Word2Vec, gensim_models.Word2Vec, ns_exponent=ns_exponent)
    assert ours.cum_table.dtype == np.uint32
    np.testing.assert_array_equal(ours.cum_table, theirs.cum_table)
    assert pair(Word2Vec, gensim_models.Word2Vec, hs=1, negative=0)[0].cum_table is None  # gensim's: no table


def test_null_word_is_the_constructors():
    assert Word2Vec(progress=False).null_word == 0 and FastText(null_word=1, progress=False).null_word == 1


@pytest.mark.parametrize("wordvec_class, gensim_class, options", [
    (Word2Vec, gensim_models.Word2Vec, dict(sg=1, hs=1, negative=5)),
    (Word2Vec, gensim_models.Word2Vec, dict(hs=0, negative=5)),
    (FastText, gensim_models.FastText, dict(sg=1, hs=1, negative=5, bucket=100)),
    (FastText, gensim_models.FastText, dict(hs=0, negative=5, bucket=0)),
], ids=["word2vec-hs+ns", "word2vec-ns", "fasttext", "fasttext-no-ngrams"])
def test_estimate_memory_answers_gensims_report(wordvec_class, gensim_class, options):
    ours, theirs = pair(wordvec_class, gensim_class, **options)
    plan, report = ours.estimate_memory(), theirs.estimate_memory()
    assert dict(plan.items()) == report and set(plan.keys()) == set(report)
    assert plan["total"] == report["total"] and "vocab" in plan
    assert plan.peak > 0 and plan.arrays  # wordvec's estimate, as before
    given = {"kept": 1}
    assert ours.estimate_memory(report=given)["kept"] == 1 and given["total"] == report["total"] + 1  # as gensim's


def test_a_corpus_argument_of_the_wrong_type_is_a_type_error():
    model = FastText(**SETTINGS, bucket=100, hs=1, negative=0, progress=False)
    model.build_vocab(corpus_iterable=TEXTS)
    wrong = [dict(corpus_file=11111), dict(corpus_iterable=11111), dict(corpus_iterable=TEXTS, corpus_file="test"),
             dict(corpus_iterable=None, corpus_file=None), dict(corpus_file=TEXTS)]
    for arguments in wrong:
        with pytest.raises(TypeError) as raised:
            model.train(**arguments, total_examples=1, epochs=1)
        assert isinstance(raised.value, WordvecError), arguments  # one sentence, exit status 2 in the CLI
    model.train(epochs=1)  # wordvec's own call still trains on the corpus build_vocab read


def test_an_old_saves_factors_and_table_load_as_gensims():
    for name in ("word2vec_old", "word2vec_old_sep"):
        ours, theirs = Word2Vec.load(datapath(name)), gensim_models.Word2Vec.load(datapath(name))
        assert ours.wv.vectors_lockf.shape == (12,)  # the save's syn0_lockf; gensim 4 starts again from ones(1)
        rows = np.arange(len(ours.wv))
        np.testing.assert_array_equal(ours.wv.vectors_lockf[rows % 12], theirs.wv.vectors_lockf[rows % 1])
        np.testing.assert_array_equal(ours.cum_table, theirs.cum_table)


def test_load_facebook_model_takes_gensims_noise_exponent(tmp_path):
    model = FastText(TEXTS, **SETTINGS, bucket=100, epochs=1, progress=False)
    save_facebook_model(model, tmp_path / "model.bin")
    ours, theirs = load_facebook_model(tmp_path / "model.bin"), gensim_models.fasttext.load_facebook_model(
        str(tmp_path / "model.bin"))
    assert ours.ns_exponent == theirs.ns_exponent == 0.75
    np.testing.assert_array_equal(ours.cum_table, theirs.cum_table)
