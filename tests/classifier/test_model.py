"""The classifier model: data encoding (fastText's ids), learning, predict/test shapes and
figures, files in all three formats, quantization and the `wordvec classify` commands."""

import json
import lzma

import numba
import numpy as np
import pytest
from tests.numerics import assert_float32_close

from wordvec.cli import main
from wordvec.data import labels as label_data
from wordvec.data.label_dictionary import Encoded
from wordvec.data.labels import TokenScan, build_dictionary, encode_lines, scan_text
from wordvec.data.subword import fasttext_hash, ngram_buckets
from wordvec.errors import WordvecError
from wordvec.io import fasttext_bin
from wordvec.kernels import quantize as quantize_kernels
from wordvec.kernels.quantize import nearest_centroids as compiled_nearest
from wordvec.math import product_quantizer as pq
from wordvec.models.classifier.config import ClassifierConfig
from wordvec.models.classifier.model import Classifier, train_supervised
from wordvec.models.classifier import model as classifier_model
from wordvec.models.classifier import training as classifier_training
from wordvec.models.classifier.training import drift_positions, thread_starts

FAST = dict(dim=16, epoch=8, lr=0.5, threads=2, verbose=0)


def write_corpus(path, n, seed, classes=4):
    """Each class has its own 30 words; 3 of 11 words per line are from the class."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        c = int(rng.integers(classes))
        words = [f"c{c}w{rng.integers(30)}" for _ in range(3)] + [f"noise{rng.integers(400)}" for _ in range(8)]
        rng.shuffle(words)
        lines.append(f"__label__k{c} " + " ".join(words))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("classify")
    return write_corpus(root / "train.txt", 3000, 1), write_corpus(root / "test.txt", 600, 2), root


@pytest.fixture(scope="module")
def model(corpus):
    return Classifier.train(corpus[0], word_ngrams=2, bucket=20000, **FAST)


# ------------------------------------------------------------------ encoding: fastText's ids

def test_token_scan_is_fasttexts_read_word():
    """The compiled scan against the plain rule: split on ASCII whitespace and NUL, every
    newline the token </s>; ids in first-seen order (enough distinct tokens and bytes to
    make the table and its arena grow several times, blocks added one after another)."""
    rng = np.random.default_rng(0)
    parts = [b"a", b"b\x00c", b"\r\n", b"</s>", b"\t", b"\xc3\xa9t\xc3\xa9", b"x" * 5000, b"\x0b", b"\x0c"]
    blocks = [b" ".join(parts[i] if i < len(parts) else b"w%d" % i for i in rng.integers(0, 40000, 30000))
              + b"\n" for _ in range(3)]
    scan = TokenScan()
    for block in blocks:
        scan.add(block)
    expected = b"".join(blocks).replace(b"\0", b" ").replace(b"\n", b" </s> ").split()
    assert [scan.tokens[i] for i in scan.ids()] == expected
    assert scan.tokens == list(dict.fromkeys(expected))


def _spec_word_ngram_rows(words, nwords, n, bucket):
    """dictionary.cc addWordNgrams transcribed: int32 hashes widened to uint64, mod 2^64."""
    hashes = [h - 2**32 if h >= 2**31 else h for h in map(fasttext_hash, words)]
    rows = []
    for i in range(len(hashes)):
        h = hashes[i] % 2**64
        for j in range(i + 1, min(len(hashes), i + n)):
            h = (h * 116049371 + hashes[j] % 2**64) % 2**64
            rows.append(nwords + h % bucket)
    return rows


def test_bag_is_fasttexts_getline():
    lines = ["__label__a héllo wörld foo", "__label__b foo héllo bar", "__label__a bar bar"]
    d = build_dictionary(scan_text(lines), word_ngrams=3, bucket=1009)
    encoded = encode_lines(d, ["héllo unknown foo __label__b __label__zz"])
    words = ["héllo", "unknown", "foo", "</s>"]
    expected = [d.words.index(w) for w in ("héllo", "foo", "</s>")] + _spec_word_ngram_rows(words, d.nwords, 3, 1009)
    assert encoded.rows.tolist() == expected
    assert encoded.labels[:1].tolist() == [d.labels.index("__label__b")]  # unknown labels are dropped
    assert encoded.doc_tokens.tolist() == [6]


def test_dictionary_sorted_by_count_with_thresholds():
    d = build_dictionary(scan_text(["__label__x a b b", "__label__y b c", "__label__y c"]), min_count=2)
    assert d.words == ["b", "</s>", "c"] and d.labels == ["__label__y", "__label__x"]
    assert d.word_counts.tolist() == [3, 3, 2] and d.ntokens == 12  # ties: first seen first and d.bucket == 0


def test_character_ngrams_in_the_bag():
    d = build_dictionary(scan_text(["__label__x abc abd"]), minn=2, maxn=3, bucket=500)
    rows = encode_lines(d, ["abc zz"]).rows.tolist()
    abc = [d.words.index("abc")] + (d.nwords + ngram_buckets("abc", 2, 3, 500)).tolist()
    zz = (d.nwords + ngram_buckets("zz", 2, 3, 500)).tolist()  # unknown: its n-grams only
    assert rows == abc + zz + [d.words.index("</s>")]


# ------------------------------------------------------------------ learning and prediction

@pytest.mark.parametrize("loss", ["softmax", "hs", "ova"])
def test_learns_the_synthetic_corpus(corpus, loss):
    trained = Classifier.train(corpus[0], loss=loss, **FAST)
    n, precision, recall = trained.test(corpus[1])
    assert n == 600 and precision >= 0.95 and recall == precision
    losses = [r["loss"] for r in trained.history]
    assert len(losses) == FAST["epoch"] and losses[-1] < losses[0]


def test_threads_start_at_their_share_of_the_tokens():
    tokens = np.array([4, 4, 4, 4, 10, 2, 2, 2, 8], dtype=np.int64)  # 40 tokens
    assert thread_starts(tokens, 1) == [0]
    assert thread_starts(tokens, 2) == [0, 4]  # token 20 lies in document 4 (tokens 16-25)
    assert thread_starts(tokens, 4) == [0, 2, 4, 7]  # tokens 10, 20 and 30 (document 7 starts at 30)


def test_drift_sends_every_thread_but_the_first_to_a_random_document():
    n_docs = 50
    one = np.array([17], dtype=np.int64)
    drift_positions(one, n_docs, np.random.default_rng(0))
    assert one.tolist() == [17]  # one thread: nothing to drift from
    seen = []
    for seed in range(2000):
        positions = np.array([3, 20, 40], dtype=np.int64)
        drift_positions(positions, n_docs, np.random.default_rng(seed))
        assert positions[0] == 3 and np.all((positions >= 0) & (positions < n_docs))
        seen.append(positions[1:])
    counts = np.bincount(np.concatenate(seen), minlength=n_docs)
    assert counts.min() > 40 and counts.max() < 120  # uniform: 80 each expected
    again = np.array([3, 20, 40], dtype=np.int64)
    drift_positions(again, n_docs, np.random.default_rng(1999))
    assert again[1:].tolist() == seen[-1].tolist()  # the seed decides


def _recording_kernels(monkeypatch):
    """Wrap the two epoch kernels so that the test sees which one each epoch called."""
    calls = []
    for name in ("train_interleaved", "train_streams"):
        def recorded(*args, _kernel=getattr(classifier_training.kernels, name), _name=name):
            calls.append(_name)
            return _kernel(*args)
        monkeypatch.setattr(classifier_training.kernels, name, recorded)
    return calls


def test_small_corpora_interleave_their_threads_streams_reproducibly(corpus, monkeypatch):
    """36k tokens an epoch (18k per thread, under INTERLEAVE_BELOW): both threads' streams
    run merged on one thread, so two runs with 2 threads give the same model bit for bit."""
    calls = _recording_kernels(monkeypatch)
    first = Classifier.train(corpus[0], seed=3, **FAST)
    again = Classifier.train(corpus[0], seed=3, **FAST)
    loading = ["train_interleaved", "train_streams"]  # load_kernels: both, on empty arguments
    assert calls == (loading + ["train_interleaved"] * FAST["epoch"]) * 2
    np.testing.assert_array_equal(first.W_in, again.W_in)
    np.testing.assert_array_equal(first.W_out, again.W_out)
    assert first.test(corpus[1])[1] >= 0.95


def test_large_corpora_keep_their_parallel_threads(corpus, monkeypatch):
    """A corpus over the limit (here lowered to 1000 tokens per thread) keeps train_streams."""
    calls = _recording_kernels(monkeypatch)
    monkeypatch.setattr(classifier_training, "INTERLEAVE_BELOW", 1000)
    Classifier.train(corpus[0], seed=3, **dict(FAST, epoch=2))
    assert calls[2:] == ["train_streams"] * 2


def test_reordered_documents_are_the_same_bags_in_the_new_order():
    rng = np.random.default_rng(5)
    for trial in range(50):
        n = int(rng.integers(0, 40))
        row_offsets = np.concatenate([[0], np.cumsum(rng.integers(0, 6, n))]).astype(np.int64)
        label_offsets = np.concatenate([[0], np.cumsum(rng.integers(0, 3, n))]).astype(np.int64)
        encoded = Encoded(rng.integers(0, 99, row_offsets[-1]).astype(np.int32), row_offsets,
                          rng.integers(0, 9, label_offsets[-1]).astype(np.int32), label_offsets,
                          rng.integers(1, 9, n).astype(np.int64))
        order = rng.permutation(n)
        moved = encoded.reordered(order)
        for new, old in enumerate(order):
            assert moved.rows[moved.row_offsets[new]:moved.row_offsets[new + 1]].tolist() == \
                encoded.rows[row_offsets[old]:row_offsets[old + 1]].tolist()
            assert moved.labels[moved.label_offsets[new]:moved.label_offsets[new + 1]].tolist() == \
                encoded.labels[label_offsets[old]:label_offsets[old + 1]].tolist()
            assert moved.doc_tokens[new] == encoded.doc_tokens[old]
        assert moved.rows.dtype == np.int32 and moved.labels.dtype == np.int32


def test_documents_are_read_in_the_seeds_order_unless_kept(corpus, monkeypatch):
    """Training reads the documents in the order permutation(seed) draws; with
    shuffle=False in the file's."""
    trained = []
    run_epochs = classifier_model.run_epochs
    monkeypatch.setattr(classifier_model, "run_epochs", lambda model, encoded, *rest, **options: (
        trained.append(encoded), run_epochs(model, encoded, *rest, **options)))
    Classifier.train(corpus[0], seed=4, **dict(FAST, epoch=1))
    Classifier.train(corpus[0], seed=4, shuffle=False, **dict(FAST, epoch=1))
    drawn, as_given = trained
    expected = as_given.reordered(np.random.default_rng(4).permutation(as_given.n_docs))
    for name in ("rows", "row_offsets", "labels", "label_offsets", "doc_tokens"):
        np.testing.assert_array_equal(getattr(drawn, name), getattr(expected, name))
    assert not np.array_equal(drawn.labels, as_given.labels)


def test_a_file_sorted_by_label_trains_as_a_shuffled_one(corpus, tmp_path):
    lines = sorted(corpus[0].read_text().splitlines())
    (tmp_path / "sorted.txt").write_text("\n".join(lines) + "\n")
    settings = dict(FAST, threads=1, epoch=2)  # in the file's order the last class's run wins
    shuffled = Classifier.train(tmp_path / "sorted.txt", seed=2, **settings).test(corpus[1])[1]
    in_file_order = Classifier.train(tmp_path / "sorted.txt", seed=2, shuffle=False, **settings).test(corpus[1])[1]
    assert shuffled >= 0.95 and shuffled > in_file_order


def test_fit_is_the_training_verb_and_train_its_alias(corpus):
    """fit(data) trains with the model's config and returns the model itself; Classifier.train
    (keywords) and fit on the file's lines give the same model bit for bit."""
    model = Classifier(config=ClassifierConfig(seed=5, **FAST))
    assert model.fit(corpus[0]) is model
    assert len(model.history) == FAST["epoch"] and model.test(corpus[1])[1] >= 0.95
    alias = Classifier.train(corpus[0], seed=5, **FAST)
    lines = Classifier(config=model.config).fit(corpus[0].read_text().splitlines())
    for other in (alias, lines):
        np.testing.assert_array_equal(other.W_in, model.W_in)
        np.testing.assert_array_equal(other.W_out, model.W_out)
    refit = model.fit(corpus[0])  # fit again: a new model, not more epochs of the old one
    assert len(refit.history) == FAST["epoch"]
    np.testing.assert_array_equal(refit.W_in, alias.W_in)


def test_an_untrained_classifier_says_so(tmp_path):
    untrained = Classifier(config=ClassifierConfig(dim=8))
    for use in (lambda: untrained.predict("a b"), lambda: untrained.labels, lambda: untrained.save(tmp_path / "m.bin"),
                lambda: untrained.get_word_vector("a"), lambda: untrained.test(tmp_path / "missing.txt")):
        with pytest.raises(WordvecError, match="not trained"):
            use()
    assert not (tmp_path / "m.bin").exists()


def _recorded_types(monkeypatch, module, names):
    """Wrap compiled functions of ``module`` to record the Numba types of their arguments."""
    seen = {name: set() for name in names}
    for name in names:
        def recorded(*args, _kernel=getattr(module, name), _name=name):
            seen[_name].add(numba.typeof(args))
            return _kernel(*args)
        monkeypatch.setattr(module, name, recorded)
    return seen


@pytest.mark.parametrize("settings", [dict(loss="hs"), dict(word_ngrams=2, bucket=5000, loss="ova")])
def test_load_kernels_passes_the_types_training_passes(corpus, monkeypatch, settings):
    """If the warm-ups' argument types drifted from training's, training would compile another
    specialisation after LLVM's pages were handed back, on top of the data. Training (both
    epoch kernels: the interleaved limit lowered for the second run) adds no type."""
    kernels = classifier_training.kernels
    trained = _recorded_types(monkeypatch, kernels, ("train_interleaved", "train_streams", "uniform_fill"))
    encoded = _recorded_types(monkeypatch, label_data, ("_scan_block", "_hash_all", "_encode_pass"))
    config = ClassifierConfig(**dict(FAST, epoch=1), **settings)
    classifier_training.load_kernels(config)
    warmed = {name: set(types) for name, types in {**trained, **encoded}.items()}
    assert all(len(types) == 1 for types in warmed.values()), warmed
    Classifier(config=config).fit(corpus[0])
    monkeypatch.setattr(classifier_training, "INTERLEAVE_BELOW", 1000)
    Classifier(config=config).fit(corpus[0])
    assert {**trained, **encoded} == warmed


def test_fasttext_keyword_names(corpus):
    trained = train_supervised(input=str(corpus[0]), wordNgrams=2, minCount=1, thread=1, dim=8, epoch=2, bucket=1000,
                               verbose=0)
    assert trained.config.word_ngrams == 2 and trained.config.threads == 1
    with pytest.raises(WordvecError, match="unknown training option"):
        train_supervised(input=str(corpus[0]), wordNgram=2)


def test_predict_shapes_k_and_threshold(model):
    labels, p = model.predict("c1w3 noise2 c1w7", k=2)
    assert isinstance(labels, tuple) and len(labels) == 2 and labels[0] == "__label__k1"
    assert isinstance(p, np.ndarray) and p.shape == (2,) and p[0] >= p[1]
    all_labels, all_p = model.predict("c1w3 noise2", k=-1)
    assert sorted(all_labels) == sorted(model.labels) and all_p.sum() == pytest.approx(1.0)
    many_labels, many_p = model.predict(["c2w1 noise3", "c3w4"], k=1)
    assert [len(x) for x in many_labels] == [1, 1] and [x.shape for x in many_p] == [(1,), (1,)]
    kept, kept_p = model.predict("c1w3 noise2", k=-1, threshold=0.2)
    assert all(kept_p >= 0.2) and len(kept) < len(model.labels)
    with pytest.raises(WordvecError, match="one line"):
        model.predict("two\nlines")


def test_test_counts_like_fastText(model, corpus):
    lines = corpus[1].read_text().splitlines()
    hits = sum(model.predict(line.split(" ", 1)[1], k=2)[0].count(line.split(" ", 1)[0]) for line in lines)
    n, precision, recall = model.test(corpus[1], k=2)
    assert n == len(lines)
    assert precision == pytest.approx(hits / (2 * n)) and recall == pytest.approx(hits / n)


def test_sentence_and_word_vectors(model):
    d = model.dictionary
    rows = encode_lines(d, ["c1w3 noise2"]).rows
    assert_float32_close(model.get_sentence_vector("c1w3 noise2"), model.W_in[rows].mean(0), rtol=1e-6)
    np.testing.assert_array_equal(model.get_word_vector("c1w3"), model.W_in[d.words.index("c1w3")])
    assert not model.get_word_vector("neverseen").any()  # no character n-grams: zeros, as fastText


def test_unknown_word_vector_from_character_ngrams(corpus):
    trained = Classifier.train(corpus[0], minn=3, maxn=4, bucket=5000, dim=8, epoch=1, verbose=0)
    rows = trained.dictionary.bucket_rows[ngram_buckets("c1w99", 3, 4, 5000)]  # the rows its buckets are stored in
    vector = trained.get_word_vector("c1w99")
    assert vector.any()
    assert_float32_close(vector, trained.W_in[rows].mean(0), rtol=1e-6)


# ------------------------------------------------------------------ files

@pytest.mark.parametrize("name", ["model.bin", "model.wv", "model_dir"])
def test_save_load_round_trip(model, corpus, name):
    path = corpus[2] / name
    model.save(path)
    loaded = Classifier.load(path)
    # a trained model stores only the n-gram rows training used; .bin holds all (unused: zero)
    assert model.dictionary.row_of_bucket is not None and model.W_in.shape[0] < model.dictionary.bucket
    np.testing.assert_array_equal(loaded.expanded().W_in, model.expanded().W_in)
    np.testing.assert_array_equal(loaded.W_out, model.W_out)
    assert loaded.labels == model.labels and loaded.words == model.words
    texts = ["c1w3 noise2", "c2w2", "c1w3 unseen words here"]
    assert loaded.predict(texts, k=2)[0] == model.predict(texts, k=2)[0]
    np.testing.assert_allclose(loaded.predict(texts, k=2)[1], model.predict(texts, k=2)[1], rtol=1e-6)
    assert loaded.test(corpus[1]) == model.test(corpus[1])


def test_ftz_needs_a_quantized_model(model, corpus):
    with pytest.raises(WordvecError, match="quantize"):
        model.save(corpus[2] / "plain.ftz")


def test_quantize_keeps_accuracy_and_round_trips(model, corpus):
    model.save(corpus[2] / "full.bin")
    small = model.quantize(cutoff=2000, qnorm=True, dsub=2)
    assert small.W_in.shape[0] == 2000 and small.dictionary.words[0] == "</s>"
    assert small.test(corpus[1])[1] >= model.test(corpus[1])[1] - 0.02
    for name in ("small.ftz", "small.wv"):
        small.save(corpus[2] / name)
        again = Classifier.load(corpus[2] / name)
        np.testing.assert_array_equal(again.W_in, small.W_in)
    assert (corpus[2] / "small.ftz").stat().st_size * 5 < (corpus[2] / "full.bin").stat().st_size


def test_quantize_retrain(model, corpus):
    retrained = model.quantize(cutoff=2000, retrain=True, input=str(corpus[0]), epoch=2)
    assert retrained.config.epoch == 2 and len(retrained.history) == len(model.history) + 2
    assert retrained.test(corpus[1])[1] >= 0.95


def test_quantize_retrain_needs_input(model):
    with pytest.raises(WordvecError, match="training data"):
        model.quantize(cutoff=2000, retrain=True)


def test_compiled_nearest_centroid_equals_reference():
    """The search on one thread (small) and on all cores (large) gives the reference's indices,
    and leaves Numba's thread count as it found it."""
    rng = np.random.default_rng(4)
    threads = numba.get_num_threads()
    x, c = rng.normal(size=(500, 3)), rng.normal(size=(256, 3))
    c[200] = c[17]  # a tie: the lower index wins, as np.argmin's
    np.testing.assert_array_equal(compiled_nearest(x, c), pq.nearest_centroids(x, c))
    large = rng.normal(size=(quantize_kernels.ALL_CORES_FROM // (256 * 3) + 1, 3))
    np.testing.assert_array_equal(compiled_nearest(large, c), pq.nearest_centroids(large, c))
    assert numba.get_num_threads() == threads


def test_product_quantizer_reconstructs():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(1000, 6)).astype(np.float32)
    centroids = pq.train_product_quantizer(X, 2, n_iter=5, assign=compiled_nearest)
    codes = pq.encode(X, centroids, 2, compiled_nearest)
    error = np.abs(pq.decode(codes, centroids, 6, 2) - X).mean()
    assert error < 0.15 * np.abs(X).mean()


# ------------------------------------------------------------------ the command line

def test_cli_train_test_predict_quantize(corpus, capsys):
    train, test, root = corpus
    model_path, small = root / "cli.bin", root / "cli.ftz"
    assert main(["classify", "train", str(train), "-o", str(model_path), "--dim", "8", "--epoch", "5", "--lr", "0.5",
                 "--word-ngrams", "2", "--bucket", "5000", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["classify", "test", str(model_path), str(test), "-k", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["N"] == 600 and figures["P@1"] >= 0.95
    assert main(["classify", "test", str(model_path), str(test), "--per-label"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3:][0] == "N\t600" and out[-2].startswith("P@1\t") and len(out) == 4 + 3
    text = root / "docs.txt"
    text.write_text("c1w3 noise2 c1w4\nc2w9 c2w1\n")
    assert main(["classify", "predict", str(model_path), str(text), "-k", "2", "--probabilities"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].split()[0] == "__label__k1" and len(lines[0].split()) == 4
    assert main(["classify", "info", str(model_path), "--top", "3"]) == 0
    indicative = [line for line in capsys.readouterr().out.splitlines() if line.startswith("__label__k1 ")]
    assert len(indicative) == 1 and all(w.startswith("c1w") for w in indicative[0].split(": ")[1].split())
    assert main(["classify", "quantize", str(model_path), "-o", str(small), "--cutoff", "1000"]) == 0
    assert main(["classify", "predict", str(small), str(text)]) == 0
    assert capsys.readouterr().out.split() == ["__label__k1", "__label__k2"]


def test_cli_bad_model_file(tmp_path, capsys):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not a model at all")
    assert main(["classify", "test", str(bad), str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.bin" in err[0]


def test_pretrained_vectors_initialise_the_word_rows(corpus):
    path = corpus[2] / "pre.vec"
    path.write_text("2 4\nc1w3 1 2 3 4\nabsent 5 6 7 8\n")
    trained = Classifier.train(corpus[0], dim=4, epoch=1, lr=1e-9, pretrained_vectors=str(path), verbose=0)
    np.testing.assert_allclose(trained.get_word_vector("c1w3"), [1, 2, 3, 4], atol=1e-5)
    with pytest.raises(WordvecError, match="dimension"):
        Classifier.train(corpus[0], dim=8, epoch=1, pretrainedVectors=str(path), verbose=0)


def test_memory_mapped_bin_predicts_the_same(model, corpus, monkeypatch):
    monkeypatch.setattr(fasttext_bin, "MMAP_VALUES", 1)  # map even this small matrix
    path = corpus[2] / "mapped.bin"
    model.save(path)
    mapped = Classifier.load(path, mmap=True)
    assert isinstance(mapped.W_in.base, np.memmap) or isinstance(mapped.W_in, np.memmap)
    np.testing.assert_array_equal(mapped.W_in, model.expanded().W_in)
    assert mapped.predict(["c1w3 noise2", "c2w2"], k=2)[0] == model.predict(["c1w3 noise2", "c2w2"], k=2)[0]
    assert mapped.test(corpus[1]) == model.test(corpus[1])


def test_memory_mapped_nonfinite_rows_are_refused_when_used(model, corpus, monkeypatch):
    monkeypatch.setattr(fasttext_bin, "MMAP_VALUES", 1)
    broken = model.W_in.copy()
    broken[model.dictionary.words.index("c1w3")] = np.nan
    damaged = Classifier(model.dictionary, broken, model.W_out, model.config)
    damaged.save(corpus[2] / "nan.bin")
    mapped = Classifier.load(corpus[2] / "nan.bin", mmap=True)
    mapped.predict("c2w2 noise1")  # rows that are fine
    with pytest.raises(WordvecError, match="nan.bin.*NaN"):
        mapped.predict("c1w3 noise1")
    with pytest.raises(WordvecError, match="NaN"):
        Classifier.load(corpus[2] / "nan.bin")  # copied: checked whole at once


def test_validation_p_at_1_per_epoch(corpus):
    trained = Classifier.train(corpus[0], valid=corpus[1], dim=8, epoch=3, lr=0.5, verbose=0)
    scores = [r["valid_p@1"] for r in trained.history]
    assert len(scores) == 3 and scores[-1] == pytest.approx(trained.test(corpus[1])[1])


def test_compressed_file_and_directory_read_like_the_plain_file(corpus, tmp_path):
    lines = corpus[0].read_bytes().splitlines(keepends=True)
    half = len(lines) // 2
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "a.txt.xz").write_bytes(lzma.compress(b"".join(lines[:half])))
    (tmp_path / "parts" / "b.txt").write_bytes(b"".join(lines[half:]))
    (tmp_path / "all.txt.xz").write_bytes(lzma.compress(b"".join(lines)))
    plain = build_dictionary(scan_text(corpus[0]))
    for source in (tmp_path / "all.txt.xz", tmp_path / "parts"):
        d = build_dictionary(scan_text(source))
        assert d.words == plain.words and d.labels == plain.labels and d.ntokens == plain.ntokens
