"""`wordvec fasttext`: fastText's command lines, checked against fastText's own library
(the `fasttext` module, 0.9.2) reading the same files."""

import io
import random
import sys

import numpy as np
import pytest

from wordvec.cli.foreign import fasttext as command
from wordvec.cli import main
from wordvec.data import synthetic
from wordvec.io import fasttext_bin

fasttext = pytest.importorskip("fasttext")  # the oracle; in .venv with the test dependencies

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def run(capsys, monkeypatch, arguments, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    status = main(["fasttext", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def parse_vectors(text):
    """{word: vector} from print-word-vectors lines ("word v1 ... vD ")."""
    rows = {}
    for line in text.splitlines():
        word, *values = line.rstrip(" ").split(" ")
        rows[word] = np.array([float(v) for v in values])
    return rows


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    """A fastText skipgram file with random rows: well-separated similarities to compare."""
    rng = np.random.default_rng(4)
    words = ["</s>"] + [f"word{i}" for i in range(150)] + ["king", "queen", "man", "woman"]
    dim, bucket = 12, 3000
    args = {"dim": dim, "ws": 5, "epoch": 5, "min_count": 1, "neg": 5, "word_ngrams": 1, "loss": 2, "model": 2,
            "bucket": bucket, "minn": 3, "maxn": 6, "lr_update_rate": 100, "t": 1e-4}
    model = fasttext_bin.FastTextModel(
        args, words, np.arange(len(words), 0, -1, dtype=np.int64) * 3, np.zeros(len(words), np.uint8), 10_000,
        None, rng.standard_normal((len(words) + bucket, dim)).astype(np.float32),
        rng.standard_normal((len(words), dim)).astype(np.float32))
    path = tmp_path_factory.mktemp("model") / "random.bin"
    fasttext_bin.write_fasttext(path, model)
    return path


def test_print_word_vectors_are_fasttexts_own_vectors(random_model, capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["print-word-vectors", str(random_model)],
                         "word3 king\nunseenword </s> kingdom\n")
    assert status == 0
    oracle = fasttext.load_model(str(random_model))
    rows = parse_vectors(out)
    assert list(rows) == ["word3", "king", "unseenword", "</s>", "kingdom"]
    for word, vector in rows.items():  # 5 significant digits, as fastText prints them
        np.testing.assert_allclose(vector, oracle.get_word_vector(word), rtol=6e-5, atol=1e-6)
    assert out.splitlines()[0].endswith(" ") and out.endswith(" \n")  # each value followed by a space


def test_print_sentence_vectors_are_fasttexts(random_model, capsys, monkeypatch):
    lines = ["word1 king unseen", "queen", "word7 word7 woman man"]
    status, out, _ = run(capsys, monkeypatch, ["print-sentence-vectors", str(random_model)], "\n".join(lines) + "\n")
    assert status == 0
    oracle = fasttext.load_model(str(random_model))
    printed = [np.array([float(v) for v in line.split()]) for line in out.splitlines()]
    assert len(printed) == 3
    for line, vector in zip(lines, printed):
        np.testing.assert_allclose(vector, oracle.get_sentence_vector(line), rtol=6e-5, atol=1e-6)


def test_nn_reads_queries_from_stdin_and_answers_as_fasttext(random_model, capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["nn", str(random_model), "5"], "word3\nunseenword\n")
    assert status == 0
    blocks = out.split("Query word? ")
    assert blocks[0] == "" and blocks[-1] == "" and len(blocks) == 4  # a prompt before each query and at the end
    oracle = fasttext.load_model(str(random_model))
    for query, block in zip(["word3", "unseenword"], blocks[1:3]):
        ours = [(line.split()[0], float(line.split()[1])) for line in block.splitlines()]
        theirs = oracle.get_nearest_neighbors(query, k=5)
        assert [w for w, _ in ours] == [w for _, w in theirs]
        np.testing.assert_allclose([s for _, s in ours], [s for s, _ in theirs], atol=2e-6)


def test_analogies_take_a_minus_b_plus_c_as_fasttext(random_model, capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["analogies", str(random_model), "4"], "king man woman\n")
    assert status == 0 and out.startswith(f"Loading model {random_model}\nQuery triplet (A - B + C)? ")
    answers = [line.split() for line in out.split("Query triplet (A - B + C)? ")[1].splitlines()]
    theirs = fasttext.load_model(str(random_model)).get_analogies("king", "man", "woman", k=4)
    assert [a[0] for a in answers] == [w for _, w in theirs]
    np.testing.assert_allclose([float(a[1]) for a in answers], [s for s, _ in theirs], atol=2e-6)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "data.txt"
    synthetic.write_corpus(path, tokens=40_000)
    return path


def test_skipgram_command_line_writes_files_fasttext_and_gensim_read(corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # fastText's README line `./fasttext skipgram -input data.txt -output model`, with the n-gram
    # table and dimension made small for a test (the defaults allocate 2M x 100 floats, 800 MB)
    status, _, _ = run(capsys, monkeypatch, ["skipgram", "-input", str(corpus), "-output", "model",
                                             "-bucket", "20000", "-dim", "16", "-epoch", "1"])
    assert status == 0
    oracle = fasttext.load_model("model.bin")
    assert oracle.get_dimension() == 16 and len(oracle.words) > 100 and oracle.f.getArgs().bucket == 20000
    vec = (tmp_path / "model.vec").read_text().splitlines()
    assert vec[0] == f"{len(oracle.words)} 16"
    rows = parse_vectors("\n".join(vec[1:]))
    for word in ("paris", "the", oracle.words[-1]):
        np.testing.assert_allclose(rows[word], oracle.get_word_vector(word), rtol=6e-5, atol=1e-6)
    from gensim.models.fasttext import load_facebook_vectors

    gensim_vectors = load_facebook_vectors("model.bin")
    np.testing.assert_allclose(gensim_vectors["parisian"], oracle.get_word_vector("parisian"), atol=1e-6)


def test_fasttexts_defaults():
    values = command.parse_flags("skipgram", ["-input", "a", "-output", "b"])
    assert (values["lr"], values["dim"], values["ws"], values["epoch"], values["minCount"], values["neg"]) == \
        (0.05, 100, 5, 5, 5, 5)
    assert (values["loss"], values["bucket"], values["minn"], values["maxn"], values["thread"], values["t"]) == \
        ("ns", 2_000_000, 3, 6, 12, 1e-4)
    supervised = command.parse_flags("supervised", ["-input", "a", "-output", "b"])
    assert (supervised["lr"], supervised["minCount"], supervised["minn"], supervised["maxn"], supervised["loss"]) == \
        (0.1, 1, 0, 0, "softmax")


def labelled_text(path, lines, seed):
    rng = random.Random(seed)
    vocab = {"pos": ["great", "fine", "superb", "lovely"], "neg": ["awful", "bad", "dull", "poor"]}
    filler = [f"f{i}" for i in range(300)]  # >= 256 input rows: enough to quantize
    with open(path, "w") as handle:
        for _ in range(lines):
            label = rng.choice(["pos", "neg"])
            words = [rng.choice(vocab[label]) for _ in range(2)] + rng.sample(filler, 5)
            rng.shuffle(words)
            handle.write(f"__label__{label} {' '.join(words)}\n")


def test_supervised_test_predict_command_lines(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    labelled_text(tmp_path / "cooking.train", 600, 1)
    labelled_text(tmp_path / "cooking.valid", 100, 2)
    # fastText's text-classification tutorial, with only the program name changed
    status, _, _ = run(capsys, monkeypatch, ["supervised", "-input", "cooking.train", "-output", "model_cooking"])
    assert status == 0 and (tmp_path / "model_cooking.vec").exists()
    status, out, _ = run(capsys, monkeypatch, ["test", "model_cooking.bin", "cooking.valid"])
    assert status == 0 and out.splitlines()[0] == "N\t100" and out.splitlines()[1].startswith("P@1\t")
    assert float(out.splitlines()[1].split("\t")[1]) > 0.9
    status, out, _ = run(capsys, monkeypatch, ["predict", "model_cooking.bin", "-", "1"], "superb lovely f3\n")
    assert status == 0 and out == "__label__pos\n"
    status, out, _ = run(capsys, monkeypatch, ["predict-prob", "model_cooking.bin", "-", "2"], "awful dull f3\n")
    labels = out.split()
    assert status == 0 and labels[0] == "__label__neg" and labels[2] == "__label__pos"
    assert float(labels[1]) > float(labels[3]) and abs(float(labels[1]) + float(labels[3]) - 1) < 1e-3
    status, out, _ = run(capsys, monkeypatch, ["test-label", "model_cooking.bin", "cooking.valid"])
    assert status == 0 and "__label__pos" in out and "F1-Score : " in out
    # fastText's tutorial: ./fasttext quantize -input cooking.train -output model_cooking -qnorm -retrain -epoch 1
    #                      -cutoff 100000
    status, _, _ = run(capsys, monkeypatch, ["quantize", "-input", "cooking.train", "-output", "model_cooking",
                                             "-qnorm", "-retrain", "-epoch", "1", "-cutoff", "100000"])
    assert status == 0
    status, out, _ = run(capsys, monkeypatch, ["test", "model_cooking.ftz", "cooking.valid"])
    assert status == 0 and float(out.splitlines()[1].split("\t")[1]) > 0.8
    assert fasttext.load_model("model_cooking.ftz").f.getArgs().qout is False  # fastText reads the .ftz
    oracle = fasttext.load_model("model_cooking.bin")  # fastText reads the model wordvec wrote
    # (fastText 0.9.2's Python predict() breaks on NumPy 2; its C++ binding answers the same query)
    assert [label for _, label in oracle.f.predict("awful dull f1", 1, 0.0, "strict")] == ["__label__neg"]


@pytest.mark.parametrize("arguments, message", [
    (["skipgram", "-input", "{corpus}", "-output", "{out}", "-dimension", "5"], "unknown fastText option '-dimension'"),
    (["skipgram", "-input", "{corpus}", "-output", "{out}", "-dim"], "-dim needs a value"),
    (["skipgram", "-input", "{corpus}", "-output", "{out}", "-epoch", "two"], "-epoch takes a whole number"),
    (["skipgram", "-input", "{corpus}", "-output", "{out}", "-thread", "0"], "-thread must be a whole number"),
    (["skipgram", "-input", "{corpus}", "-output", "{out}", "-loss", "nce"], "Unknown loss: nce"),
    (["skipgram", "-input", "{corpus}"], "Empty input or output path"),
    (["skipgram", "-input", "{corpus}", "-output", "{out}", "-loss", "ova"], "one-vs-all is a classifier's loss"),
    (["nn", "{corpus}", "0"], "k needs to be 1 or higher"),
    (["nn", "{corpus}"], "{corpus}"),
    (["fit", "-input", "{corpus}"], "unknown fastText command 'fit'"),
])
def test_bad_command_lines_fail_in_one_sentence_and_write_nothing(arguments, message, corpus, tmp_path,
                                                                  capsys, monkeypatch):
    out = tmp_path / "model"
    filled = [a.format(corpus=corpus, out=out) for a in arguments]
    status, _, err = run(capsys, monkeypatch, filled)
    assert status == 2 and message.format(corpus=corpus) in err and err.strip().count("\n") == 0
    assert not list(tmp_path.iterdir())


def test_maxn_0_trains_plain_word_vectors_written_as_fasttext_writes_them(corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, _ = run(capsys, monkeypatch, ["cbow", "-input", str(corpus), "-output", "plain", "-maxn", "0",
                                             "-dim", "8", "-epoch", "1"])
    assert status == 0
    oracle = fasttext.load_model("plain.bin")
    assert oracle.f.getArgs().bucket == 0 and oracle.f.getArgs().maxn == 0
    status, out, _ = run(capsys, monkeypatch, ["print-word-vectors", "plain.bin"], "paris nosuchword\n")
    rows = parse_vectors(out)
    np.testing.assert_allclose(rows["paris"], oracle.get_word_vector("paris"), rtol=6e-5, atol=1e-6)
    assert not rows["nosuchword"].any() and not oracle.get_word_vector("nosuchword").any()  # no n-grams: zeros


def test_print_ngrams_are_fasttexts_subwords_and_rows(random_model, capsys, monkeypatch):
    oracle = fasttext.load_model(str(random_model))
    for word in ("king", "unseenword"):
        status, out, _ = run(capsys, monkeypatch, ["print-ngrams", str(random_model), word])
        assert status == 0
        substrings, ids = oracle.get_subwords(word)
        lines = out.splitlines()
        assert [line.split(" ")[0] for line in lines] == list(substrings)
        for line, row in zip(lines, ids):
            values = np.array([float(v) for v in line.rstrip(" ").split(" ")[1:]])
            np.testing.assert_allclose(values, oracle.get_input_vector(row), rtol=6e-5, atol=1e-6)


def test_dump_prints_fasttexts_args_dictionary_and_matrices(random_model, capsys, monkeypatch):
    oracle = fasttext.load_model(str(random_model))
    args = oracle.f.getArgs()
    status, out, _ = run(capsys, monkeypatch, ["dump", str(random_model), "args"])
    assert status == 0 and out.splitlines() == [
        f"dim {args.dim}", f"ws {args.ws}", f"epoch {args.epoch}", f"minCount {args.minCount}", f"neg {args.neg}",
        f"wordNgrams {args.wordNgrams}", "loss ns", "model sg", f"bucket {args.bucket}", f"minn {args.minn}",
        f"maxn {args.maxn}", f"lrUpdateRate {args.lrUpdateRate}", "t 0.0001"]
    status, out, _ = run(capsys, monkeypatch, ["dump", str(random_model), "dict"])
    words, counts = oracle.get_words(include_freq=True)
    assert out.splitlines() == [str(len(words))] + [f"{w} {c} word" for w, c in zip(words, counts)]
    status, out, _ = run(capsys, monkeypatch, ["dump", str(random_model), "input"])
    lines = out.splitlines()
    assert lines[0] == f"{len(words) + args.bucket} {args.dim}" and len(lines) == len(words) + args.bucket + 1
    for row in (0, 7, len(words) + 5):
        np.testing.assert_allclose([float(v) for v in lines[row + 1].split()], oracle.get_input_vector(row),
                                   rtol=1e-5, atol=1e-6)
    assert run(capsys, monkeypatch, ["dump", str(random_model), "hidden"])[0] == 2
