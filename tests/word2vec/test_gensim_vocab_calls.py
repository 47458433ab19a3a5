"""gensim 4.4's remaining Word2Vec calls, against gensim as the oracle: build_vocab_from_freq,
scan_vocab / prepare_vocab and their report, reset_from, score, ``model.wv = kv``, the
"code"/"point" attributes and ``syn1``'s V rows, gensim's warnings, the exception types of
gensim's refusals, and ``load`` on an instance."""

import logging

import numpy as np
import pytest
from gensim import models as gensim_models
from gensim.test.utils import common_texts, datapath

import wordvec
from wordvec.errors import WordvecError
from wordvec.vectors.keyed import KeyedVectors

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
QUIET = dict(progress=False)
FREQ = {"minors": 2, "graph": 3, "system": 4, "trees": 3, "eps": 2, "computer": 2, "survey": 2, "user": 3,
        "human": 2, "time": 2, "interface": 2, "response": 2}
MORE = {"computer": 1, "artificial": 4, "human": 1, "graph": 1, "intelligence": 4, "system": 1, "trees": 1}


def counts_of(kv):
    return {word: int(kv.get_vecattr(word, "count")) for word in kv.index_to_key}


@pytest.mark.parametrize("options", [dict(min_count=0), dict(min_count=3), dict(max_final_vocab=5, min_count=1),
                                     dict(sorted_vocab=0, min_count=2)])
def test_build_vocab_from_freq_as_gensim(options):
    ours = wordvec.Word2Vec(vector_size=10, hs=1, negative=0, **options, **QUIET)
    theirs = gensim_models.Word2Vec(vector_size=10, hs=1, negative=0, **options)
    ours.build_vocab_from_freq(FREQ, corpus_count=7)
    theirs.build_vocab_from_freq(FREQ, corpus_count=7)
    assert counts_of(ours.wv) == counts_of(theirs.wv) and ours.corpus_count == theirs.corpus_count == 7
    if options.get("sorted_vocab") == 0:
        assert ours.wv.index_to_key == theirs.wv.index_to_key
    ours.build_vocab_from_freq(MORE, update=True)
    theirs.build_vocab_from_freq(MORE, update=True)
    assert counts_of(ours.wv) == counts_of(theirs.wv)
    assert ours.wv.index_to_key[len(ours.wv) - 2:] == theirs.wv.index_to_key[len(theirs.wv) - 2:]
    assert ours.wv.vectors.shape == (len(ours.wv), 10) and ours.syn1.shape == theirs.syn1.shape


def test_build_vocab_from_freq_trains_on_a_corpus_given_later():
    model = wordvec.Word2Vec(vector_size=8, min_count=1, **QUIET)
    model.build_vocab_from_freq({w: 1 for s in common_texts for w in s})
    before = model.wv.vectors.copy()
    model.train(common_texts, total_examples=len(common_texts), epochs=2)
    assert not np.array_equal(before, model.wv.vectors)


@pytest.mark.parametrize("options", [dict(max_final_vocab=4, min_count=4, sample=0),
                                     dict(max_final_vocab=4, min_count=2, sample=0),
                                     dict(min_count=1, sample=1e-3), dict(min_count=2, sample=0.05),
                                     dict(min_count=1, sample=3)])
def test_scan_and_prepare_vocab_report_as_gensim(options):
    ours, theirs = wordvec.Word2Vec(vector_size=10, **options, **QUIET), gensim_models.Word2Vec(vector_size=10, **options)
    assert ours.scan_vocab(common_texts) == theirs.scan_vocab(common_texts)
    assert ours.raw_vocab == dict(theirs.raw_vocab)
    dry = ours.prepare_vocab(dry_run=True)
    report, gensim_report = ours.prepare_vocab(), theirs.prepare_vocab()
    assert report == dry == {key: gensim_report[key] for key in report}
    assert ours.effective_min_count == theirs.effective_min_count
    assert counts_of(ours.wv) == counts_of(theirs.wv) and ours.raw_vocab == {}


def test_prepare_vocab_needs_scan_vocab_first():
    with pytest.raises(WordvecError, match="scan_vocab"):
        wordvec.Word2Vec(**QUIET).prepare_vocab()


def test_reset_from_shares_the_vocabulary_and_starts_afresh():
    other = wordvec.Word2Vec(common_texts[:5], min_count=1, vector_size=6, epochs=1, **QUIET)
    model = wordvec.Word2Vec(common_texts, min_count=1, vector_size=6, seed=3, epochs=1, **QUIET)
    model.reset_from(other)
    fresh = wordvec.Word2Vec(min_count=1, vector_size=6, seed=3, **QUIET)
    fresh.build_vocab(common_texts[:5])
    assert model.wv.key_to_index == other.wv.key_to_index and model.corpus_count == other.corpus_count
    assert np.array_equal(model.wv.vectors, fresh.wv.vectors)


@pytest.mark.parametrize("sg", [0, 1])
def test_score_is_the_reference_log_probability_of_each_sentence(sg):
    from wordvec.math.output_layers import hierarchical_softmax_output

    model = wordvec.Word2Vec(common_texts, vector_size=4, min_count=1, hs=1, negative=0, sg=sg, window=2,
                             sample=0, epochs=20, **QUIET)
    sentences = common_texts[:4] + [["graph", "unknown-word", "minors", "trees"], ["unknown-word"]]
    scores = model.score(sentences, total_sentences=len(sentences))
    assert scores.dtype == np.float32 and scores.shape == (len(sentences),)
    tree, index = model.vocab.huffman(), model.vocab.index
    for sentence, score in zip(sentences, scores):
        ids = [index[w] for w in sentence if w in index]
        expected = 0.0
        for i, word in enumerate(ids):
            context = ids[max(0, i - 2):i] + ids[i + 1:i + 3]
            path = (model.W_inner, tree.points[word, :tree.lengths[word]], tree.codes[word, :tree.lengths[word]])
            hiddens = [model.W_in[c].astype(np.float64) for c in context] if sg else (
                [np.mean([model.W_in[c] for c in context], axis=0, dtype=np.float64)] if context else [])
            expected -= sum(hierarchical_softmax_output(h, *path)[0] for h in hiddens)
        assert score == pytest.approx(expected, rel=1e-5, abs=1e-6)
    assert scores[-1] == 0 and (scores[:-1] < 0).all()
    assert model.score(sentences, total_sentences=2).shape == (2,)


def test_score_needs_hierarchical_softmax():
    model = wordvec.Word2Vec(common_texts, min_count=1, vector_size=4, epochs=1, **QUIET)
    with pytest.raises(RuntimeError, match="hierarchical softmax"):
        model.score(common_texts)


def test_a_gensim_hs_model_scores_close_to_gensim():
    """gensim's own score of its saved 3.8 model (words 't', 'e', 's'): close, not equal
    (gensim reads log sigma from a table and skips terms beyond |6|)."""
    path = datapath("model-from-gensim-3.8.0.w2v")
    ours, theirs = wordvec.Word2Vec.load(path), gensim_models.Word2Vec.load(path)
    sentences = [list("test"), list("set"), list("tt")]
    mine, gensims = ours.score(sentences), theirs.score(sentences)
    assert np.all(mine < 0)
    np.testing.assert_allclose(mine, gensims, rtol=0.05)


def test_hs_models_have_gensims_code_and_point_attributes():
    corpus = [s * 3 for s in common_texts] * 5
    ours = wordvec.Word2Vec(corpus, min_count=1, hs=1, negative=0, vector_size=4, epochs=1, **QUIET)
    theirs = gensim_models.Word2Vec(corpus, min_count=1, hs=1, negative=0, vector_size=4, epochs=1)
    codes, points = ours.wv.expandos["code"], ours.wv.expandos["point"]
    assert codes[0].dtype == np.uint8 and points[0].dtype == np.uint32
    assert all(set(c.tolist()) <= {0, 1} and len(c) == len(p) for c, p in zip(codes, points))
    assert max(int(p.max()) for p in points) == len(ours.wv) - 2  # the root, the last inner node

    def weighted_length(kv):  # both are optimal codes: the same weighted path length
        return sum(kv.get_vecattr(w, "count") * len(kv.get_vecattr(w, "code")) for w in kv.index_to_key)

    assert weighted_length(ours.wv) == weighted_length(theirs.wv)
    assert "code" not in wordvec.Word2Vec(corpus, min_count=1, vector_size=4, epochs=1, **QUIET).wv.expandos


def test_syn1_has_gensims_v_rows_and_writes_reach_training():
    model = wordvec.Word2Vec(vector_size=3, min_count=1, hs=1, negative=0, **QUIET)
    model.build_vocab(common_texts)
    syn1 = model.syn1
    assert syn1.shape == (len(model.wv), 3) and model.W_inner.shape == (len(model.wv) - 1, 3)
    syn1[0] = 7.0
    assert (model.W_inner[0] == 7.0).all() and model.syn1 is syn1


def test_wv_set_from_keyed_vectors_answers_queries_and_refuses_training(tmp_path):
    trained = wordvec.Word2Vec(common_texts, min_count=1, vector_size=5, epochs=1, **QUIET)
    trained.wv.save_word2vec_format(str(tmp_path / "v.bin"), binary=True)
    kv = KeyedVectors.load_word2vec_format(str(tmp_path / "v.bin"), binary=True)
    model = wordvec.Word2Vec(min_count=1, **QUIET)
    model.wv = kv
    assert model.vector_size == 5 and model.wv.index_to_key == kv.index_to_key
    assert np.array_equal(model.wv.vectors, kv.vectors) and model.wv.most_similar("graph", topn=2)
    with pytest.raises(ValueError, match="no output layer"):
        model.train(common_texts, total_examples=len(common_texts), epochs=1)
    with pytest.raises(ValueError, match="no output layer"):
        model.train(common_texts)
    with pytest.raises(RuntimeError, match="Parameters required"):
        model.predict_output_word(["system", "human"])
    model.save(tmp_path / "model")
    loaded = wordvec.Word2Vec.load(tmp_path / "model")
    assert np.array_equal(loaded.wv.vectors, kv.vectors) and loaded.syn1neg.shape == (0, 5)
    model.build_vocab(common_texts)  # a corpus gives it an output layer again
    model.train(common_texts, total_examples=len(common_texts), epochs=1)


def test_wv_set_with_the_models_own_words_keeps_the_output_layer():
    model = wordvec.Word2Vec(common_texts, min_count=1, vector_size=5, epochs=1, **QUIET)
    output = model.syn1neg.copy()
    vectors = np.ones((len(model.wv), 5), dtype=np.float32)
    model.wv = KeyedVectors(model.wv.index_to_key, vectors, counts=model.wv.counts)
    assert np.array_equal(model.syn1neg, output) and np.array_equal(model.wv.vectors, vectors)
    model.train(common_texts, total_examples=len(common_texts), epochs=1)


def test_gensims_warnings_and_exception_types(caplog):
    with pytest.raises(ValueError) as raised:
        wordvec.Word2Vec(common_texts, min_count=1, hs=0, negative=0, **QUIET)
    assert isinstance(raised.value, WordvecError)
    with caplog.at_level(logging.WARNING):
        model = wordvec.Word2Vec(common_texts, min_count=1, hs=1, negative=5, vector_size=4, epochs=1, **QUIET)
    assert "Both hierarchical softmax and negative sampling are activated" in caplog.text
    model = wordvec.Word2Vec(min_count=1, vector_size=4, **QUIET)
    model.build_vocab(common_texts)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        model.train(common_texts, total_examples=len(common_texts), epochs=1)
        assert "Effective 'alpha' higher" not in caplog.text
        model.alpha -= 0.002  # gensim's code passes through min_alpha > alpha
        model.min_alpha = model.alpha
        model.train(common_texts, total_examples=len(common_texts), epochs=1)  # starts above the 0.0001 reached
    assert "Effective 'alpha' higher than previous training cycles" in caplog.text
    model.min_alpha = 0.1  # a rising rate is refused when training starts
    with pytest.raises(ValueError, match="min_alpha"):
        model.train(common_texts, total_examples=len(common_texts), epochs=1)
    with pytest.raises(ValueError, match="min_alpha"):
        wordvec.Word2Vec(alpha=0.01, min_alpha=0.02, **QUIET)


def test_gensims_call_refusals_are_value_errors():
    model = wordvec.Word2Vec(min_count=1, vector_size=4, **QUIET)
    with pytest.raises(RuntimeError, match="online vocabulary-update"):
        model.build_vocab(common_texts, update=True)
    model.build_vocab(common_texts)
    for call in (dict(total_examples=len(common_texts)), dict(total_examples=len(common_texts), epochs=0),
                 dict(total_examples=0, epochs=1), dict(epochs=1, start_alpha=0.01)):
        with pytest.raises(ValueError) as raised:
            model.train(common_texts, **call)
        assert isinstance(raised.value, WordvecError)


def test_gensims_exception_types_for_bad_corpora():
    with pytest.raises(TypeError) as raised:
        wordvec.Word2Vec([(word for word in common_texts[0])], min_count=1, **QUIET)  # gensim: TypeError
    assert isinstance(raised.value, WordvecError) and "one-shot" in str(raised.value)
    with pytest.raises(RuntimeError):
        wordvec.Word2Vec([], **QUIET)
    with pytest.raises(RuntimeError):
        wordvec.Word2Vec(common_texts, min_count=100, **QUIET)


def test_load_on_an_instance_is_refused(tmp_path):
    model = wordvec.Word2Vec(common_texts, min_count=1, vector_size=4, epochs=1, **QUIET)
    model.save(tmp_path / "model")
    with pytest.raises(AttributeError, match="class method"):
        model.load(tmp_path / "model")
    assert len(wordvec.Word2Vec.load(tmp_path / "model").wv) == len(model.wv)


def test_similarity_function_is_taken_as_gensim_takes_it(caplog):
    model = wordvec.Word2Vec(common_texts * 20, min_count=1, vector_size=8, epochs=2, **QUIET)
    path = datapath("questions-words.txt")
    plain = model.wv.evaluate_word_analogies(path)
    with caplog.at_level(logging.WARNING):
        cosmul = model.wv.evaluate_word_analogies(path, similarity_function="most_similar_cosmul")
    assert plain == cosmul and "3CosMul" in caplog.text
    with pytest.raises(WordvecError, match="similarity_function"):
        model.wv.evaluate_word_analogies(path, similarity_function="cosine")


@pytest.mark.parametrize("method", ["build_vocab_from_freq", "scan_vocab", "prepare_vocab", "reset_from", "score"])
def test_methods_have_gensims_parameters_and_defaults(method):
    import inspect

    def parameters(function):
        return [(p.name, p.default) for p in inspect.signature(function).parameters.values()
                if p.kind is p.POSITIONAL_OR_KEYWORD]

    assert parameters(getattr(wordvec.Word2Vec, method)) == parameters(getattr(gensim_models.Word2Vec, method))
