"""Subword (fastText) model: n-gram bucket ids, reference gradients, kernels vs reference,
training, OOV queries, save/load and the CLI."""

import numpy as np
import pytest
from tests.numerics import assert_float32_close

from wordvec.data import subword
from wordvec.errors import VocabularyError, WordvecError
from wordvec.math.gradcheck import check_gradient
from wordvec.kernels import subword as SK
from wordvec.kernels import word2vec as K
from wordvec.math import subword as ref

# Bucket ids of fastText's Dictionary::hash (% 2,000,000, n = 3..6), as gensim 4.4.0's
# ft_ngram_hashes (which reproduces fastText) returns them; "naïve" and "日本語" have
# bytes >= 0x80, where fastText XORs a sign-extended int8.
KNOWN_BUCKETS = {
    "king": [299675, 1736367, 824152, 785298, 1950837, 736598, 420536, 771707, 590751, 217300],
    "naïve": [1806890, 1907692, 878190, 933201, 1590546, 1719404, 832043, 156687, 356832, 1223007,
              1505331, 1711570, 1788548, 1088654],
    "日本語": [758587, 4581, 524609, 35559, 928923, 1674355],
    "a": [1087600],
}


@pytest.mark.parametrize("word", sorted(KNOWN_BUCKETS))
def test_bucket_ids_match_fasttext(word):
    assert subword.ngram_buckets(word, 3, 6, 2_000_000).tolist() == KNOWN_BUCKETS[word]


@pytest.mark.parametrize("word", ["naïve", "Straße", "日本語", "ab", "x", "über-cool"])
@pytest.mark.parametrize("min_n, max_n", [(1, 2), (3, 6), (2, 4)])
def test_compiled_ngrams_follow_characters_and_hash(word, min_n, max_n):
    grams = subword.ngrams(word, min_n, max_n)
    assert "<" not in grams and ">" not in grams  # boundary-only unigrams are left out
    assert all(min_n <= len(g) <= max_n for g in grams)
    expected = [subword.fasttext_hash(g) % 1000 for g in grams]
    assert subword.ngram_buckets(word, min_n, max_n, 1000).tolist() == expected


def test_fasttext_hash_sign_extends_high_bytes():
    # One byte 0xC3 (as int8: -61): h = (2166136261 ^ 0xFFFFFFC3) * 16777619 mod 2^32.
    # "é" is c3 a9; an unsigned-byte FNV-1a would give a different value.
    h = ((2166136261 ^ 0xFFFFFFC3) * 16777619) & 0xFFFFFFFF
    h = ((h ^ 0xFFFFFFA9) * 16777619) & 0xFFFFFFFF
    assert subword.fasttext_hash("é") == h
    unsigned = ((((2166136261 ^ 0xC3) * 16777619) & 0xFFFFFFFF) ^ 0xA9) * 16777619 & 0xFFFFFFFF
    assert h != unsigned


def test_ngram_table_is_csr_of_every_word():
    words = ["king", "naïve", "a"]
    offsets, ids = subword.ngram_table(words, 3, 6, 2_000_000)
    assert offsets.tolist() == [0, 10, 24, 25]
    assert ids.tolist() == KNOWN_BUCKETS["king"] + KNOWN_BUCKETS["naïve"] + KNOWN_BUCKETS["a"]


@pytest.mark.parametrize("bad", [dict(min_n=0), dict(max_n=2), dict(bucket=0), dict(min_n=2.5)])
def test_bad_ngram_settings_are_one_clear_error(bad):
    settings = dict(min_n=3, max_n=6, bucket=10) | bad
    with pytest.raises(WordvecError):
        subword.check_ngram_settings(**settings)


# ----------------------------------------------------------------------------- math

V, D, BUCKET = 6, 5, 11
# A CSR table with a repeated n-gram row (word 2 uses row 4 twice) and a word without n-grams.
OFFSETS = np.array([0, 3, 5, 9, 9, 11, 13], dtype=np.int64)
IDS = np.array([1, 4, 7, 0, 10, 4, 2, 4, 9, 3, 8, 5, 6], dtype=np.int32)
POINTS = np.array([[4, 1, 0], [4, 1, 2], [4, 3, 0]] * 2, dtype=np.int32)
CODES = np.array([[0, 1, 0], [1, 1, 0], [0, 0, 1]] * 2, dtype=np.uint8)
LENGTHS = np.array([2, 3, 3] * 2, dtype=np.int32)
NEGATIVES = [1, 5, 5]  # a repeat, and the target (5) among them for output word 5


def _params(seed):
    rng = np.random.default_rng(seed)
    return (rng.normal(scale=0.6, size=(V, D)), rng.normal(scale=0.6, size=(BUCKET, D)),
            rng.normal(scale=0.6, size=(V, D)), rng.normal(scale=0.6, size=(V - 1, D)))


def _reference(sg, kind, W_in, W_ngrams, W_out, W_inner, inputs, output, mean):
    fn = ref.skipgram_subword if sg else ref.cbow_subword
    if kind == "hs":
        second = W_inner
        extra = dict(points=POINTS[output, :LENGTHS[output]], codes=CODES[output, :LENGTHS[output]])
    else:
        second = W_out
        extra = dict(negatives=NEGATIVES) if kind == "ns" else dict(softmax=True)
    return fn(W_in, W_ngrams, second, OFFSETS, IDS, inputs, output, mean=mean, **extra), second


CASES = [(sg, kind, mean) for sg in (1, 0) for kind in ("ns", "hs", "softmax") for mean in (True, False)]


@pytest.mark.parametrize("sg, kind, mean", CASES)
def test_reference_gradient_matches_finite_differences(sg, kind, mean):
    W_in, W_ngrams, W_out, W_inner = _params(sg * 7 + len(kind))
    inputs = 2 if sg else [2, 0, 3, 2]  # word 2 repeats a row; word 3 has no n-grams
    (loss, dW_in, dW_ngrams, d_second), second = _reference(sg, kind, W_in, W_ngrams, W_out, W_inner,
                                                            inputs, 5, mean)
    assert np.isfinite(loss) and loss > 0

    def f():
        return _reference(sg, kind, W_in, W_ngrams, W_out, W_inner, inputs, 5, mean)[0][0]

    error = check_gradient(f, {"W_in": W_in, "W_ngrams": W_ngrams, "second": second},
                           {"W_in": dW_in, "W_ngrams": dW_ngrams, "second": d_second})
    assert error < 1e-6, error
    # (S2): every occurrence of a row gets (1/|B|) dL/dh; row 4 occurs twice for word 2
    rows = ref.input_bag(2, OFFSETS, IDS)[1]
    assert np.count_nonzero(dW_ngrams.any(axis=1)) == len(set(rows.tolist()) | (
        set() if sg else set(IDS[OFFSETS[0]:OFFSETS[1]].tolist())))


def _kernel_step(sg, mode, W_in, W_ngrams, W_out, W_inner, inputs, output, mean):
    inputs = np.atleast_1d(np.asarray(inputs, dtype=np.int32))
    negatives = np.asarray(NEGATIVES if mode == K.NEGATIVE_SAMPLING else [], dtype=np.int64)
    neu1, neu1e, coeff = np.zeros(D, np.float32), np.zeros(D, np.float32), np.zeros(8, np.float32)
    buffers = SK.Buffers(neu1, neu1e, coeff, negatives, np.zeros((1, negatives.size), np.int64),
                         np.zeros(D, np.float32))
    return SK.subword_step(K.Matrices(W_in, W_out, W_inner), _subwords(W_ngrams), _outputs(), inputs, inputs.size,
                           output, mean, mode, np.float32(0.05), buffers)


def _subwords(W_ngrams):
    return SK.Subwords(W_ngrams, OFFSETS, IDS, SK.bag_overlaps(OFFSETS, IDS))


def _outputs():
    """The Huffman paths as an Outputs table (the steps are given their negatives: no noise)."""
    return K.Outputs(POINTS, CODES, LENGTHS, np.zeros(1, np.uint64))


MODES = {"ns": K.NEGATIVE_SAMPLING, "hs": K.HIERARCHICAL_SOFTMAX, "softmax": K.FULL_SOFTMAX}


@pytest.mark.parametrize("sg, kind, mean", CASES)
def test_kernel_step_equals_fasttext_step_of_reference(sg, kind, mean):
    params64 = _params(100 + sg * 7 + len(kind))
    W_in, W_ngrams, W_out, W_inner = (p.astype(np.float32) for p in params64)
    inputs = 2 if sg else [2, 0, 3, 2]
    (loss, *grads), second = _reference(sg, kind, *(W.astype(np.float64) for W in (W_in, W_ngrams, W_out,
                                                                                     W_inner)),
                                        inputs, 5, mean)
    bag_size = sum(1 + OFFSETS[w + 1] - OFFSETS[w] for w in np.atleast_1d(inputs))
    expected = ref.subword_step((W_in.astype(np.float64), W_ngrams.astype(np.float64), second),
                                grads, bag_size, 0.05, mean)
    kernel_loss = _kernel_step(sg, MODES[kind], W_in, W_ngrams, W_out, W_inner, inputs, 5, mean)
    assert kernel_loss == pytest.approx(loss, rel=1e-5)
    for got, want in zip((W_in, W_ngrams, W_inner if kind == "hs" else W_out), expected):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_bag_overlaps_count_repeated_rows():
    # word 2's bag: itself, rows 4, 2, 4, 9 -> 1 + 2² + 1 + 1 = 7; word 3 has no n-grams
    assert SK.bag_overlaps(OFFSETS, IDS).tolist() == [4, 3, 7, 1, 3, 3]


@pytest.mark.parametrize("kind, mean", [("ns", True), ("ns", False), ("hs", True), ("softmax", True)])
def test_skipgram_window_equals_one_reference_step_per_example(kind, mean):
    """The centre word (2, with a repeated n-gram row) predicts 4 words in turn: the
    kernel composes its bag once and updates the rows once; the reference takes one
    full step per example."""
    W_in, W_ngrams, W_out, W_inner = (p.astype(np.float32) for p in _params(40 + len(kind)))
    outputs = np.array([5, 1, 5, 3], dtype=np.int32)
    negatives = np.array([[1, 5, 5], [0, 2, 4], [3, 3, 1], [4, 0, 5]], dtype=np.int64)
    params = [W.astype(np.float64) for W in (W_in, W_ngrams, W_out, W_inner)]
    second_index = 3 if kind == "hs" else 2
    bag_size = 1 + OFFSETS[3] - OFFSETS[2]
    expected_loss = 0.0
    for k, output in enumerate(outputs):
        extra = dict(negatives=negatives[k]) if kind == "ns" else dict(softmax=True) if kind == "softmax" else \
            dict(points=POINTS[output, :LENGTHS[output]], codes=CODES[output, :LENGTHS[output]])
        loss, *grads = ref.skipgram_subword(params[0], params[1], params[second_index], OFFSETS, IDS, 2,
                                            output, mean=mean, **extra)
        expected_loss += loss
        params[0], params[1], params[second_index] = ref.subword_step(
            (params[0], params[1], params[second_index]), grads, bag_size, 0.05, mean)
    window_negatives = negatives if kind == "ns" else negatives[:, :0].copy()
    buffers = SK.Buffers(np.zeros(D, np.float32), np.zeros(D, np.float32), np.zeros(8, np.float32),
                         window_negatives[0], window_negatives, np.zeros(D, np.float32))
    loss = SK.skipgram_window(K.Matrices(W_in, W_out, W_inner), _subwords(W_ngrams), _outputs(), 2, outputs, 4,
                              mean, MODES[kind], np.float32(0.05), buffers)
    assert loss == pytest.approx(expected_loss, rel=1e-5)
    for got, want in zip((W_in, W_ngrams, W_out, W_inner), params):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_composed_vectors_are_the_mean_of_each_bag():
    W_in, W_ngrams, _, _ = (p.astype(np.float32) for p in _params(3))
    out = np.empty_like(W_in)
    SK.compose_vectors(W_in, W_ngrams, OFFSETS, IDS, True, out)
    for w in range(V):
        word_rows, ngram_rows = ref.input_bag(w, OFFSETS, IDS)
        assert_float32_close(out[w], ref.compose(W_in, W_ngrams, word_rows, ngram_rows), rtol=1e-6)


# ----------------------------------------------------------------------------- model, files, CLI

SMALL = dict(vector_size=12, window=3, min_count=1, epochs=2, workers=1, progress=False, subwords=True,
             min_n=2, max_n=4, bucket=97)
STEMS = ["walk", "talk", "jump", "play", "look", "call"]


def _sentences(n_docs=60, seed=0):
    """Inflected forms of a few stems, so words share n-grams."""
    rng = np.random.default_rng(seed)
    forms = [s + e for s in STEMS for e in ("", "s", "ed", "ing")]
    return [[forms[i] for i in rng.integers(0, len(forms), size=rng.integers(5, 30))] for _ in range(n_docs)]


@pytest.mark.parametrize("options", [dict(sg=1), dict(sg=0), dict(sg=1, hs=1, negative=0),
                                     dict(sg=0, cbow_mean=0, alpha=0.005)])
def test_one_worker_is_bitwise_deterministic_and_trains_the_ngram_rows(options):
    from wordvec.models.word2vec.model import Word2Vec

    a = Word2Vec(_sentences(), seed=5, **SMALL, **options)
    b = Word2Vec(_sentences(), seed=5, **SMALL, **options)
    fresh = Word2Vec(**SMALL, **options, seed=5)
    fresh.build_vocab(_sentences())
    assert np.array_equal(a.wv.vectors, b.wv.vectors) and np.array_equal(a.W_ngrams, b.W_ngrams)
    assert [h["loss"] for h in a.history] == [h["loss"] for h in b.history]
    used = np.unique(a.ngram_ids)
    assert not np.array_equal(a.W_ngrams[used], fresh.W_ngrams[used])  # n-gram rows were trained
    unused = np.setdiff1d(np.arange(a.bucket), used)
    assert np.array_equal(a.W_ngrams[unused], fresh.W_ngrams[unused])  # and only those


def test_subword_defaults_draw_negatives_per_pair_from_fasttexts_noise():
    """In fastText's direction a window's pairs share one input h, so a shared draw would
    leave K negatives per window (47.1% vs 57.0% analogy on wordbench-10m): the default
    must be a draw per pair, from unigram^0.5 as fastText; plain skip-gram keeps its
    shared draw from unigram^0.75."""
    from wordvec.models.word2vec.model import Word2Vec

    default = Word2Vec(_sentences(), sg=1, seed=5, **SMALL)
    per_pair = Word2Vec(_sentences(), sg=1, seed=5, shared_negatives=False, **SMALL)
    shared = Word2Vec(_sentences(), sg=1, seed=5, shared_negatives=True, **SMALL)
    assert default.shared_negatives is False
    assert np.array_equal(default.W_ngrams, per_pair.W_ngrams)
    assert not np.array_equal(default.W_ngrams, shared.W_ngrams)
    assert default.ns_exponent == 0.5
    plain = Word2Vec(sg=1)
    assert plain.shared_negatives is True and plain.ns_exponent == 0.75


def test_model_vectors_are_composed_and_unseen_words_get_ngram_vectors(tmp_path):
    from wordvec.models.word2vec.model import Word2Vec
    from wordvec.vectors.subword import SubwordKeyedVectors
    from wordvec.vectors.files import load_vectors

    model = Word2Vec(_sentences(), sg=1, **SMALL)
    kv = model.wv
    assert isinstance(kv, SubwordKeyedVectors) and "walked" in kv and "walkz" in kv  # as gensim's FastText
    assert kv.has_index_for("walked") and not kv.has_index_for("walkz")
    w = model.vocab.index["walked"]
    rows = model.ngram_ids[model.ngram_offsets[w]:model.ngram_offsets[w + 1]]
    assert_float32_close(kv["walked"], (model.W_in[w] + model.W_ngrams[rows].sum(0)) / (1 + rows.size))
    unseen = subword.ngram_buckets("walkz", 2, 4, 97)
    assert_float32_close(kv["walkz"], model.W_ngrams[unseen].mean(0))
    assert kv.has_vector("walkz")
    top = kv.most_similar("walkz", topn=3)
    assert len(top) == 3 and all(word in kv for word, _ in top)
    assert -1.0 <= kv.similarity("walkz", "walked") <= 1.0
    no_ngrams = SubwordKeyedVectors(["ab"], np.ones((1, 2)), np.ones((5, 2)), 5, 6, 5)
    assert no_ngrams["x"].tolist() == [0.0, 0.0] and no_ngrams[""].tolist() == [0.0, 0.0]  # fastText's, gensim's
    assert "x" not in no_ngrams  # no vector of its own or from n-grams
    with pytest.raises(VocabularyError):
        no_ngrams[3]  # not a word

    model.save(tmp_path / "m.wv")
    loaded_kv = load_vectors(tmp_path / "m.wv")
    assert isinstance(loaded_kv, SubwordKeyedVectors)
    np.testing.assert_array_equal(loaded_kv.vectors, kv.vectors)
    np.testing.assert_array_equal(loaded_kv["walkz"], kv["walkz"])
    loaded = Word2Vec.load(tmp_path / "m.wv")
    assert np.array_equal(loaded.W_in, model.W_in) and np.array_equal(loaded.W_ngrams, model.W_ngrams)
    assert (loaded.subwords, loaded.min_n, loaded.max_n, loaded.bucket) == (True, 2, 4, 97)
    kv.save_word2vec_format(tmp_path / "v.vec")  # export: the composed vocabulary vectors
    exported = load_vectors(tmp_path / "v.vec")
    np.testing.assert_allclose(exported.vectors, kv.vectors, rtol=1e-6)


def test_save_load_continues_training_like_one_run(tmp_path):
    from wordvec.models.word2vec.model import Word2Vec

    whole = Word2Vec(_sentences(seed=2), sg=1, **{**SMALL, "epochs": 2})
    part = Word2Vec(sg=1, **{**SMALL, "epochs": 2})
    part.build_vocab(_sentences(seed=2))
    part.train(epochs=1)
    part.save(tmp_path / "p.wv")
    loaded = Word2Vec.load(tmp_path / "p.wv")
    loaded.train(_sentences(seed=2))
    assert np.array_equal(loaded.wv.vectors, whole.wv.vectors)


def test_cli_trains_subwords_and_answers_for_unseen_words(tmp_path, capsys):
    from wordvec.cli import main

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(" ".join(s) for s in _sentences(n_docs=80)) + "\n", encoding="utf-8")
    status = main(["train", str(corpus), "-o", str(tmp_path / "ft.wv"), "--model", "sg", "--subwords",
                   "--min-n", "2", "--max-n", "4", "--bucket", "1000", "--min-count", "1",
                   "--vector-size", "12", "--epochs", "1", "--no-progress", "--no-eval"])
    assert status == 0
    capsys.readouterr()
    assert main(["similar", str(tmp_path / "ft.wv"), "jumpz", "--topn", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3 and all(line.split()[0] in {s + e for s in STEMS for e in ("", "s", "ed", "ing")}
                                   for line in lines)
    assert main(["train", str(corpus), "-o", str(tmp_path / "bad.wv"), "--subwords", "--min-n", "5",
                 "--max-n", "3", "--no-progress", "--no-eval"]) == 2
    assert "min_n" in capsys.readouterr().err
    assert main(["train", str(corpus), "-o", str(tmp_path / "g.bin"), "--model", "glove", "--subwords",
                 "--no-progress", "--no-eval"]) == 2
    assert "--subwords applies to --model sg or cbow" in capsys.readouterr().err


def test_words_of_bytes_that_are_not_utf8_hash_their_bytes():
    """A word read from a fastText file as bytes that are not UTF-8 (decoded with
    surrogateescape) gets the n-grams of those bytes, as fastText hashes them; any other
    lone surrogate is hashed as its UTF-8-style bytes rather than failing."""
    from wordvec.io.fnv import fasttext_fnv1a

    word = b"\xe9t\xe9".decode("utf-8", "surrogateescape")
    expected = [fasttext_fnv1a(g) % 1000 for g in (b"<\xe9t", b"\xe9t\xe9", b"t\xe9>")]
    assert subword.ngram_buckets(word, 3, 3, 1000).tolist() == expected
    assert len(subword.ngram_buckets("a\ud800b", 3, 3, 1000)) == 3
