"""gensim's FastTextKeyedVectors API on SubwordKeyedVectors (its constructor, vectors_vocab,
add_vector(s)), FastText without n-grams (bucket=0, max_n < min_n) and fastText files of
models with both output layers, each held to gensim's own behaviour."""

import numpy as np
import pytest
from gensim.models import fasttext as gensim_fasttext
from gensim.test.utils import common_texts, datapath

from wordvec.errors import VocabularyError, WordvecError
from wordvec.io.fasttext_bin import read_fasttext
from wordvec.models.word2vec.fasttext import FastText, load_facebook_model, load_facebook_vectors, save_facebook_model
from wordvec.vectors.subword import SubwordKeyedVectors

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")

TEXTS = common_texts * 20


def small_fasttext(**options):
    settings = dict(vector_size=6, min_count=1, bucket=40, epochs=2, workers=1, seed=3, progress=False)
    return FastText(TEXTS, **{**settings, **options})


@pytest.mark.parametrize("construct", [
    lambda: SubwordKeyedVectors(vector_size=2, min_n=3, max_n=6, bucket=50),
    lambda: SubwordKeyedVectors(2, 3, 6, 50),
])
def test_gensims_empty_constructor_and_add_vectors(construct):
    kv = construct()
    assert (len(kv), kv.vector_size, kv.min_n, kv.max_n, kv.bucket) == (0, 2, 3, 6, 50)
    assert kv.vectors_ngrams.shape == (50, 2) and kv.vectors_vocab.shape == (0, 2) and kv.compatible_hash
    kv.add_vector("first", np.array([3.0, 4.0]))
    kv.add_vectors(["second", "third"], np.array([[1.0, 1.0], [0.0, 2.0]]))
    assert kv.index_to_key == ["first", "second", "third"] and kv.key_to_index["third"] == 2
    np.testing.assert_array_equal(kv.vectors, [[3, 4], [1, 1], [0, 2]])
    np.testing.assert_array_equal(kv["unseen"], [0, 0])  # zero n-gram rows
    # own rows recovered from the composition: (1 + n) v - sum of the (zero) n-gram rows
    n_grams = np.array([len(_ngrams(w)) for w in kv.index_to_key])
    np.testing.assert_allclose(kv.vectors_vocab, (1 + n_grams)[:, None] * kv.vectors)


def _ngrams(word):
    from wordvec.data.subword import ngram_buckets

    return ngram_buckets(word, 3, 6, 50)


def test_preallocated_slots_fill_in_order():
    kv = SubwordKeyedVectors(vector_size=3, min_n=2, max_n=4, bucket=10, count=2)
    assert kv.vectors_vocab.shape == (2, 3)
    assert kv.add_vector("a", np.ones(3)) == 0 and kv.add_vector("b", np.full(3, 2.0)) == 1
    np.testing.assert_array_equal(kv["b"], [2, 2, 2])


def test_trained_vectors_vocab_are_the_models_word_rows_and_vectors_their_composition():
    model = small_fasttext()
    wv = model.wv
    assert np.shares_memory(wv.vectors_vocab, model.W_in)
    from wordvec.data.subword import ngram_buckets

    for word in ("human", "graph"):
        rows = ngram_buckets(word, model.min_n, model.max_n, model.bucket)
        expected = (wv.vectors_vocab[wv.key_to_index[word]] + wv.vectors_ngrams[rows].sum(0)) / (1 + len(rows))
        np.testing.assert_allclose(wv[word], expected, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(wv._own_rows(), wv.vectors_vocab, atol=1e-5)  # the recovery agrees
    assert wv.vectors_vocab_lockf.tolist() == [1.0] and wv.vectors_ngrams_lockf.tolist() == [1.0]


def test_adjust_vectors_composes_again_from_the_own_rows():
    wv = small_fasttext().wv
    before_own, before = wv.vectors_vocab.copy(), wv.vectors.copy()
    wv.adjust_vectors()
    np.testing.assert_array_equal(wv.vectors_vocab, before_own)
    np.testing.assert_allclose(wv.vectors, before, atol=1e-6)
    wv.vectors_ngrams[:] = 0
    wv.adjust_vectors()  # with zero n-gram rows a word's vector is its own row over 1 + n
    from wordvec.data.subword import ngram_buckets

    n = len(ngram_buckets("human", wv.min_n, wv.max_n, wv.bucket))
    np.testing.assert_allclose(wv["human"], before_own[wv.key_to_index["human"]] / (1 + n), rtol=1e-6)


def test_vectors_vocab_survive_a_save(tmp_path):
    wv = small_fasttext().wv
    wv.save(tmp_path / "kv")
    again = SubwordKeyedVectors.load(tmp_path / "kv")
    np.testing.assert_array_equal(again.vectors_vocab, wv.vectors_vocab)
    np.testing.assert_array_equal(again.vectors, wv.vectors)


def test_vectors_vocab_of_a_fasttext_file_are_gensims():
    path = datapath("crime-and-punishment.bin")
    ours, theirs = load_facebook_vectors(path), gensim_fasttext.load_facebook_vectors(path)
    np.testing.assert_array_equal(ours.vectors_vocab, theirs.vectors_vocab)
    assert ours.compatible_hash and theirs.compatible_hash


@pytest.mark.parametrize("options", [{"bucket": 0}, {"max_n": 0}, {"min_n": 4, "max_n": 3}])
def test_fasttext_without_ngrams_trains_plain_word_vectors_as_gensim(options):
    model = small_fasttext(**options)
    wv = model.wv
    assert not model.subwords and model.W_ngrams is None and wv.bucket == 0
    assert isinstance(wv, SubwordKeyedVectors) and wv.vectors_ngrams.shape == (0, 6)
    assert np.shares_memory(wv.vectors, model.W_in) and np.shares_memory(wv.vectors_vocab, model.W_in)
    assert "human" in wv and "humans" not in wv
    with pytest.raises(KeyError):
        wv.get_vector("humans")
    start = model.W_in.copy()
    model.train(TEXTS, total_examples=len(TEXTS), epochs=1)
    assert not np.array_equal(start, model.wv.vectors) and np.isfinite(model.wv.vectors).all()


def test_no_ngram_model_round_trips_through_fasttexts_file(tmp_path):
    model = small_fasttext(bucket=0)
    save_facebook_model(model, tmp_path / "plain.bin")
    assert read_fasttext(tmp_path / "plain.bin").args["maxn"] == 0
    loaded = load_facebook_model(tmp_path / "plain.bin")
    assert loaded.wv.bucket == 0 and not loaded.subwords
    np.testing.assert_array_equal(loaded.wv.vectors, model.wv.vectors)


@pytest.mark.parametrize("sg", [0, 1])
def test_both_output_layers_are_saved_and_loaded_as_gensim_does(tmp_path, sg):
    model = small_fasttext(sg=sg, hs=1, negative=5)
    path = tmp_path / "both.bin"
    save_facebook_model(model, path)
    header = read_fasttext(path)
    assert (header.args["loss"], header.args["neg"]) == (1, 5)  # gensim's: loss hs, neg kept
    np.testing.assert_array_equal(header.output, model.W_out)  # negative sampling's rows
    theirs = gensim_fasttext.load_facebook_model(str(path))
    ours = load_facebook_model(path)
    assert (ours.hs, ours.negative) == (theirs.hs, theirs.negative) == (1, 5)
    np.testing.assert_array_equal(ours.syn1neg, theirs.syn1neg)
    inner = len(ours.wv) - 1  # the Huffman tree's inner nodes: syn1's last row (of gensim's V) trains in neither
    np.testing.assert_array_equal(ours.syn1[:inner], theirs.syn1[:inner])
    for word in ("human", "graph", "trees"):
        np.testing.assert_allclose(ours.wv[word], model.wv[word], atol=1e-6)
        np.testing.assert_allclose(ours.wv[word], theirs.wv[word], atol=1e-6)
    ours.train(TEXTS, total_examples=len(TEXTS), epochs=1)  # both layers train on
    assert np.isfinite(ours.W_out).all() and np.isfinite(ours.W_inner).all()


def test_a_supervised_file_is_refused_as_gensim_refuses_it():
    with pytest.raises(NotImplementedError, match="supervised"):
        load_facebook_model(datapath("pang_lee_polarity_fasttext.bin"))
    with pytest.raises(WordvecError, match="supervised"):
        load_facebook_vectors(datapath("pang_lee_polarity_fasttext.bin"))


def test_bad_ngram_settings_are_still_refused():
    with pytest.raises(WordvecError, match="bucket"):
        SubwordKeyedVectors(vector_size=2, min_n=3, max_n=6, bucket=-1)
    with pytest.raises(WordvecError, match="min_n"):
        SubwordKeyedVectors(vector_size=2, min_n=0, max_n=6, bucket=10)
    kv = SubwordKeyedVectors(vector_size=2, min_n=3, max_n=6, bucket=0)
    with pytest.raises(VocabularyError):
        kv.get_vector("anything")


def test_gensim3_packed_ngram_rows_are_unpacked_to_their_buckets():
    """gensim 3.x saved only the trained n-gram rows with a bucket -> row map; the composed
    vectors gensim 3 stored beside them are what the unpacked rows give."""
    import gensim

    from wordvec.models.word2vec.fasttext import FastText as WordvecFastText

    path = datapath("compatible-hash-true.model")
    ours = WordvecFastText.load(path)
    theirs = gensim.models.FastText.load(path)  # gensim 4 keeps the packed rows and the stored vectors
    assert ours.wv.compatible_hash and ours.wv.vectors_ngrams.shape == (theirs.wv.bucket, 5)
    np.testing.assert_allclose(ours.wv.vectors, theirs.wv.vectors, atol=1e-6)
    for bucket, row in theirs.wv.hash2index.items():
        np.testing.assert_array_equal(ours.wv.vectors_ngrams[bucket], theirs.wv.vectors_ngrams[row])


@pytest.mark.parametrize("hash2index", [{0: 0, 1: 0}, {0: 0, 7: 1}, {-1: 0, 1: 1}, {0: 0}])
def test_a_bad_packed_ngram_map_is_refused(hash2index):
    from wordvec.vectors.gensim_keyed import unpacked_ngrams

    with pytest.raises(ValueError, match="hash2index"):
        unpacked_ngrams(np.ones((2, 3), np.float32), 5, hash2index)


def test_assigning_wv_does_what_it_does_on_word2vec():
    from wordvec.models.word2vec.model import Word2Vec

    outcomes = []
    for model in (Word2Vec(TEXTS, vector_size=6, min_count=1, epochs=1, workers=1, progress=False),
                  small_fasttext(bucket=0)):
        try:
            model.wv = model.wv
            outcomes.append("assigned")
        except AttributeError as error:
            outcomes.append(str(error).replace(type(model).__name__, "model"))
    assert outcomes[0] == outcomes[1]
