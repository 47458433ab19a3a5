"""The NumPy prediction path (`classify predict`/`test` without Numba) against the compiled
one: the same bags from the same text (hostile bytes included), the same probabilities
for every loss, and a predict process that never imports Numba."""

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from wordvec.cli import build_parser
from wordvec.cli import main
from wordvec.data.label_stream import BagEncoder, fnv1a_hashes
from wordvec.data.labels import TokenScan, build_dictionary, encode, scan_text, token_hashes
from wordvec.errors import FormatError
from wordvec.models.classifier import predict as classifier_predict
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.files import load_parts
from wordvec.models.classifier.predict import Predictor, file_meter, load_predictor
from wordvec.models.classifier.training import compact_buckets

FAST = dict(dim=12, epoch=4, lr=0.5, threads=1, verbose=0)
# odd text: every separator fastText knows (\v \f \0 \r \t), bytes that are not UTF-8, a
# literal </s> (ends a document), unknown words and labels, empty and blank lines
ODD_LINES = [b"__label__a x y z", b"x\x0by\x0cz\x00w\rq", b"\xff\xfe x \xc3\xa9t\xc3\xa9", b"",
             b"   \t ", b"__label__b __label__zz y </s> x unknownword", b"unk1 unk2 unk3 x", b"__label__a",
             b"\xe2\x82\xac" * 40 + b" y x", b"y __label__b x __label__a"]


def odd_text(n, seed):
    rng = np.random.default_rng(seed)
    words = [b"x", b"y", b"z", b"w", b"q", b"\xc3\xa9t\xc3\xa9", b"\xff", b"</s>", b"__label__zz"]
    lines = [ODD_LINES[i % len(ODD_LINES)] for i in range(len(ODD_LINES))]
    for _ in range(n):
        label = b"__label__a" if rng.random() < 0.5 else b"__label__b"
        body = [words[i] if i < len(words) else b"r%d" % i for i in rng.integers(0, 60, rng.integers(0, 12))]
        lines.append(b" ".join([label, *body]))
    return b"\n".join(lines) + b"\n"


@pytest.fixture(scope="module")
def text():
    return odd_text(300, 1)


def dictionary_of(text, word_ngrams, bucket):
    return build_dictionary(scan_text([line.decode("utf-8", "surrogateescape") for line in text.split(b"\n")[:-1]]),
                            word_ngrams=word_ngrams, bucket=bucket, min_count=2)


def assert_same_encoded(ours, compiled):
    assert ours.n_docs == compiled.n_docs
    for name in ("row_offsets", "label_offsets", "doc_tokens"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(compiled, name), err_msg=name)
    np.testing.assert_array_equal(ours.rows[:ours.row_offsets[-1]], compiled.rows[:compiled.row_offsets[-1]])
    np.testing.assert_array_equal(ours.labels[:ours.label_offsets[-1]], compiled.labels[:compiled.label_offsets[-1]])


def compiled_encoding(dictionary, block):
    scan = TokenScan()
    scan.add(block)
    return encode(dictionary, scan)


def test_fnv1a_hashes_are_the_compiled_ones():
    tokens = [b"a", b"\xff", b"\xc3\xa9t\xc3\xa9", b"</s>", b"x" * 3000, b"__label__q", b"\x80\x7f\x01", b"ab" * 7]
    np.testing.assert_array_equal(fnv1a_hashes(tokens), token_hashes(tokens))


@pytest.mark.parametrize("word_ngrams,bucket", [(1, 0), (2, 997), (3, 50)])
def test_bags_are_the_compiled_ones(text, word_ngrams, bucket):
    dictionary = dictionary_of(text, word_ngrams, bucket)
    text += b"__label__never y x\nnever seen words\x00\n" + odd_text(200, 2)  # unknown labels and words
    assert_same_encoded(BagEncoder(dictionary).encode(text), compiled_encoding(dictionary, text))


def test_bags_of_compact_and_pruned_dictionaries(text):
    dictionary = dictionary_of(text, 2, 997)
    compact, _ = compact_buckets(dictionary, compiled_encoding(dictionary, text[:len(text) // 2]))
    assert compact.row_of_bucket is not None
    assert_same_encoded(BagEncoder(compact).encode(text), compiled_encoding(compact, text))
    pruned = replace(dictionary, prune_index={b: i for i, b in enumerate(range(0, 997, 3))})
    assert_same_encoded(BagEncoder(pruned).encode(text), compiled_encoding(pruned, text))


@pytest.fixture(scope="module")
def train_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("predict") / "train.txt"
    rng = np.random.default_rng(3)
    lines = []
    for _ in range(800):
        labels = sorted({int(rng.integers(3)) for _ in range(1 + int(rng.random() < 0.3))})
        words = [f"k{labels[0]}w{rng.integers(10)}" for _ in range(3)] + [f"n{rng.integers(50)}" for _ in range(5)]
        lines.append(" ".join([f"__label__c{c}" for c in labels] + words))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("loss", ["softmax", "hs", "ova"])
@pytest.mark.parametrize("fasttext_sigmoid", [True, False])
def test_probabilities_are_the_compiled_ones(train_file, text, loss, fasttext_sigmoid, monkeypatch):
    model = Classifier.train(train_file, loss=loss, word_ngrams=2, bucket=5000, **FAST)
    model.fasttext_sigmoid = fasttext_sigmoid
    block = train_file.read_bytes() + text
    compiled = compiled_encoding(model.dictionary, block)
    expected = model.probabilities(compiled)
    predictor = Predictor(model.dictionary, model.W_in, model.W_out, loss, fasttext_sigmoid)
    monkeypatch.setattr(classifier_predict, "CHUNK_ROWS", 97)  # many chunks, some documents longer than one
    ours = predictor.probabilities(predictor.encode(block))
    np.testing.assert_allclose(ours, expected, atol=1e-6, rtol=0)
    if loss == "ova" and fasttext_sigmoid:  # the table's steps: equal, not close
        np.testing.assert_array_equal(ours, expected)
    for (ids, p), (ids_c, p_c) in zip(predictor.top_k(predictor.encode(block), 2, 0.1), model.top_k(compiled, 2, 0.1)):
        assert list(ids) == list(ids_c)


def test_file_test_and_files_in_every_format(train_file, tmp_path):
    model = Classifier.train(train_file, word_ngrams=2, bucket=5000, **FAST)
    expected = model.test(train_file)
    for name in ("m.bin", "m.wv"):
        model.save(tmp_path / name)
        predictor = load_predictor(tmp_path / name)
        meter = file_meter(predictor, train_file)
        assert (meter.n, meter.precision, meter.recall) == pytest.approx(expected, abs=1e-12)


def test_nonfinite_rows_are_refused(train_file):
    model = Classifier.train(train_file, **FAST)
    W_in = model.W_in.copy()
    W_in[model.dictionary.word_index[b"n3"]] = np.nan
    predictor = Predictor(model.dictionary, W_in, model.W_out, "softmax")
    with pytest.raises(FormatError, match="NaN"):
        predictor.probabilities(predictor.encode(b"n3 n4\n"))


def test_character_ngram_models_take_the_compiled_path(train_file, tmp_path):
    Classifier.train(train_file, minn=2, maxn=3, bucket=5000, **FAST).save(tmp_path / "sub.bin")
    assert load_predictor(tmp_path / "sub.bin") is None


PROBE = """
import sys
from wordvec.cli import build_parser
from wordvec.cli import main
status = main(sys.argv[1:])
print("numba" in sys.modules, "numba imported", file=sys.stderr)
sys.exit(status)
"""


@pytest.mark.parametrize("command", ["predict", "test"])
def test_predict_and_test_never_import_numba(train_file, tmp_path, children, command):
    model = tmp_path / "m.bin"
    Classifier.train(train_file, word_ngrams=2, bucket=5000, **FAST).save(model)
    child = children.popen([sys.executable, "-c", PROBE, "-q", "classify", command, str(model), str(train_file)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert "False numba imported" in err
    assert len(out.splitlines()) == (800 if command == "predict" else 3)


def test_best_labels_are_top_k_of_one():
    rng = np.random.default_rng(0)
    probabilities = rng.integers(0, 4, (500, 5)) / 4.0  # many ties, some rows all zero
    empty = rng.random(500) < 0.1
    for threshold in (0.0, 0.5, 1.0):
        best = classifier_predict.best_labels(probabilities, empty, threshold)
        expected = [ids[0] if ids else -1 for ids, _ in classifier_predict.top_k(probabilities, empty, 1, threshold)]
        assert best.tolist() == expected
    assert classifier_predict.best_labels(np.zeros((3, 0)), np.zeros(3, bool)).tolist() == [-1, -1, -1]


@pytest.mark.parametrize("maxn", [0, 3])  # the NumPy predictor, and the compiled one for character n-grams
def test_predict_lines_are_the_top_labels(train_file, tmp_path, capsys, maxn):
    model = tmp_path / "m.bin"
    Classifier.train(train_file, word_ngrams=2, bucket=5000, minn=min(maxn, 2), maxn=maxn, **FAST).save(model)
    text = tmp_path / "text.txt"
    text.write_bytes(train_file.read_bytes()[:20000] + odd_text(200, 2))
    for threshold in ("0", "0.6"):
        assert main(["-q", "classify", "predict", str(model), str(text), "--threshold", threshold]) == 0
        lines = capsys.readouterr().out.split("\n")
        assert main(["-q", "classify", "predict", str(model), str(text), "--threshold", threshold,
                     "--probabilities"]) == 0
        expected = [line.split(" ")[0] for line in capsys.readouterr().out.split("\n")]  # top_k's first label
        assert lines == expected
        assert any(lines[:-1]) and (threshold == "0" or not all(lines[:-1]))  # and lines without one below 0.6


def test_a_files_joined_words_are_the_dictionarys(train_file, tmp_path):
    """read_fasttext hands the words it joined to decode to the lookups (joined_tokens):
    the same bytes and ranges the dictionary would make from its tokens."""
    Classifier.train(train_file, **FAST).save(tmp_path / "m.bin")
    dictionary = load_parts(tmp_path / "m.bin").dictionary
    data, starts, ends = dictionary.joined_tokens
    assert [data[s:e] for s, e in zip(starts.tolist(), ends.tolist())] == dictionary.token_bytes
    assert len(dictionary.token_bytes) == dictionary.nwords + len(dictionary.labels)
    fresh = replace(dictionary)  # the cached properties not copied: built from the str tokens
    assert "joined_tokens" not in fresh.__dict__
    rebuilt = fresh.joined_tokens
    assert rebuilt[0] == data
    np.testing.assert_array_equal(rebuilt[1], starts)
    np.testing.assert_array_equal(rebuilt[2], ends)


def classify_commands(parser):
    classify = parser._subparsers._group_actions[0].choices["classify"]
    return list(classify._subparsers._group_actions[0].choices)


def test_a_line_naming_a_classify_command_builds_only_its_parser():
    every = ["train", "test", "predict", "quantize", "info"]
    assert classify_commands(build_parser(["classify"])) == every
    named = build_parser(["classify"], argv=["-q", "classify", "predict", "m.bin", "-"])
    assert classify_commands(named) == ["predict"]
    assert classify_commands(build_parser(["classify"], argv=["classify", "nonsense"])) == every  # for the error
