"""gensim 4.4.0 saves (pickle + .npy companions), made here by gensim, load in wordvec as
data: equal vectors and equal most_similar answers, through ``load_gensim`` and through the
class methods gensim users call."""

import numpy as np
import pytest
from gensim import models as gensim_models
from gensim.models.doc2vec import TaggedDocument as GensimTaggedDocument
from gensim.test.utils import common_texts, datapath

import wordvec
from wordvec.errors import WordvecError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TEXTS = common_texts * 20


def assert_same_vectors(ours, theirs):
    assert list(ours.index_to_key) == list(theirs.index_to_key)
    np.testing.assert_array_equal(np.asarray(ours.vectors), theirs.vectors)
    for key in list(theirs.index_to_key)[:5]:
        assert [k for k, _ in ours.most_similar(key, topn=5)] == [k for k, _ in theirs.most_similar(key, topn=5)]
        np.testing.assert_allclose([s for _, s in ours.most_similar(key, topn=5)],
                                   [s for _, s in theirs.most_similar(key, topn=5)], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("sep_limit", [10 * 1024 ** 2, 10])  # arrays inside the pickle, or beside it
def test_word2vec_and_its_vectors(tmp_path, sep_limit):
    model = gensim_models.Word2Vec(TEXTS, vector_size=12, min_count=1, epochs=3, workers=1, seed=3)
    model.save(str(tmp_path / "w2v.model"), sep_limit=sep_limit)
    model.wv.save(str(tmp_path / "w2v.kv"), sep_limit=sep_limit)
    assert (tmp_path / "w2v.model.wv.vectors.npy").exists() == (sep_limit == 10)
    for loaded in (wordvec.load_gensim(tmp_path / "w2v.model"), wordvec.Word2Vec.load(str(tmp_path / "w2v.model"))):
        assert isinstance(loaded, wordvec.Word2Vec) and loaded.vector_size == 12 and loaded.window == model.window
        assert_same_vectors(loaded.wv, model.wv)
        np.testing.assert_array_equal(loaded.syn1neg, model.syn1neg)
        assert [loaded.wv.get_vecattr(w, "count") for w in model.wv.index_to_key] == \
            [model.wv.get_vecattr(w, "count") for w in model.wv.index_to_key]
    kv = wordvec.KeyedVectors.load(str(tmp_path / "w2v.kv"), mmap="r")
    assert_same_vectors(kv, model.wv)
    loaded.train(TEXTS, total_examples=len(TEXTS), epochs=1)  # a loaded model trains on


def test_doc2vec(tmp_path):
    documents = [GensimTaggedDocument(words, [i if i % 3 else f"doc{i}"]) for i, words in enumerate(TEXTS)]
    model = gensim_models.Doc2Vec(documents, vector_size=32, min_count=1, epochs=3, workers=1)  # doc2vec tests' size
    model.save(str(tmp_path / "d2v.model"))
    loaded = wordvec.Doc2Vec.load(str(tmp_path / "d2v.model"))
    assert_same_vectors(loaded.wv, model.wv)
    assert loaded.dv.index_to_key == model.dv.index_to_key
    np.testing.assert_array_equal(loaded.dv.vectors, model.dv.vectors)
    assert [k for k, _ in loaded.dv.most_similar(3, topn=5)] == [k for k, _ in model.dv.most_similar(3, topn=5)]
    assert loaded.infer_vector(["human", "interface"]).shape == (32,)


def test_doc2vec_window_settings(tmp_path):
    """gensim's shrink_windows=False is kept; a dm_concat=1 model keeps its output rows
    (1 + 2 window) D wide and its null word, and infers with them."""
    documents = [GensimTaggedDocument(words, [i]) for i, words in enumerate(TEXTS)]
    saved = {}
    for name, settings in (("fixed", dict(shrink_windows=False)), ("concat", dict(dm_concat=1))):
        saved[name] = gensim_models.Doc2Vec(documents, vector_size=32, min_count=1, epochs=1, workers=1, window=2,
                                            **settings)
        saved[name].save(str(tmp_path / name))
    assert wordvec.Doc2Vec.load(str(tmp_path / "fixed")).config.shrink_windows is False
    concat = wordvec.Doc2Vec.load(str(tmp_path / "concat"))
    assert concat.config.concat == 1 and concat.layer1_size == saved["concat"].layer1_size == 5 * 32
    np.testing.assert_array_equal(concat.syn1neg, saved["concat"].syn1neg)
    assert "\0" in concat.wv.key_to_index
    assert np.isfinite(concat.infer_vector(["human", "interface"])).all()


def test_fasttext(tmp_path):
    model = gensim_models.FastText(TEXTS, vector_size=12, min_count=1, epochs=3, workers=1, bucket=500)
    model.save(str(tmp_path / "ft.model"))
    loaded = wordvec.FastText.load(str(tmp_path / "ft.model"))
    assert isinstance(loaded, wordvec.FastText)
    np.testing.assert_allclose(loaded.wv.vectors, model.wv.vectors, rtol=1e-5, atol=1e-6)
    assert [k for k, _ in loaded.wv.most_similar("human", topn=5)] == [k for k, _ in model.wv.most_similar("human", topn=5)]
    np.testing.assert_allclose(loaded.wv["humanly"], model.wv["humanly"], rtol=1e-5, atol=1e-6)  # unseen word


def test_gensims_older_saves_load():
    assert wordvec.Phrases.load(datapath("phrases-3.6.0.model")).export_phrases()
    assert wordvec.FrozenPhrases.load(datapath("phraser-3.6.0.model")).phrasegrams
    old = wordvec.KeyedVectors.load(datapath("old_keyedvectors_320.dat"))
    assert len(old) == 12 and old.vector_size == 100
    assert len(wordvec.load_gensim(datapath("doc2vec_old_sep")).dv) > 0


def test_a_save_of_another_kind_is_refused_naming_both(tmp_path):
    model = gensim_models.Word2Vec(TEXTS, vector_size=8, min_count=1, epochs=1, workers=1)
    model.save(str(tmp_path / "w2v.model"))
    with pytest.raises(WordvecError, match="is a gensim save of a Word2Vec, not of a Doc2Vec"):
        wordvec.Doc2Vec.load(str(tmp_path / "w2v.model"))
    (tmp_path / "w2v.model.wv.vectors.npy").unlink(missing_ok=True)
    model.save(str(tmp_path / "sep.model"), sep_limit=10)
    (tmp_path / "sep.model.wv.vectors.npy").unlink()
    with pytest.raises(WordvecError, match="sep.model.wv.vectors.npy beside it, which is missing"):
        wordvec.load_gensim(tmp_path / "sep.model")


def test_wordvecs_save_takes_gensims_pickling_options(tmp_path):
    model = wordvec.Word2Vec(TEXTS, vector_size=8, min_count=1, epochs=1, workers=1, progress=False)
    model.save(str(tmp_path / "m"), sep_limit=10, separately=["wv"], ignore=frozenset(), pickle_protocol=4)
    np.testing.assert_array_equal(wordvec.Word2Vec.load(str(tmp_path / "m")).wv.vectors, model.wv.vectors)
