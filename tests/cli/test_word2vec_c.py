"""`wordvec word2vec`: word2vec.c's command line as it is, its defaults, its output bytes."""

import re
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from gensim.models import KeyedVectors as GensimKeyedVectors

from wordvec.cli import main
from wordvec.cli.foreign import word2vec_c as command
from wordvec.data import synthetic
from wordvec.errors import FormatError
from wordvec.io import word2vec_c as c_files
from wordvec.vectors.clusters import c_tool_classes


@pytest.fixture(scope="module")
def text8(tmp_path_factory):
    """A small synthetic stand-in for text8 (the corpus demo-word.sh downloads)."""
    path = tmp_path_factory.mktemp("corpus") / "text8"
    synthetic.write_corpus(path, tokens=60_000)
    return path


def in_directory(monkeypatch, path):
    monkeypatch.chdir(path)
    return path


def test_demo_word_sh_command_line_runs_with_only_the_program_name_changed(text8, monkeypatch, capsys):
    in_directory(monkeypatch, text8.parent)
    # demo-word.sh: ./word2vec -train text8 -output vectors.bin -cbow 1 -size 200 -window 8 -negative 25
    #               -hs 0 -sample 1e-4 -threads 20 -binary 1 -iter 15
    line = ("word2vec -train text8 -output vectors.bin -cbow 1 -size 200 -window 8 -negative 25 "
            "-hs 0 -sample 1e-4 -threads 20 -binary 1 -iter 15")
    assert main(line.split()) == 0
    assert "Starting training using file text8" in capsys.readouterr().out
    kv = GensimKeyedVectors.load_word2vec_format(text8.parent / "vectors.bin", binary=True)
    assert kv.vector_size == 200 and len(kv) > 100
    assert kv.most_similar("paris", topn=5)  # the C tool's `distance` query, answered


def test_text_output_is_laid_out_as_the_c_tool_writes_it(tmp_path):
    words = ["the", "zürich", "a"]
    vectors = np.array([[0.5, -0.25], [1e-7, -3.0], [-1e-9, 123.4567891]], dtype=np.float32)
    c_files.write_vectors(tmp_path / "v.txt", words, vectors)
    # fprintf("%lld %lld\n"); per word fprintf("%s ", word), fprintf("%lf ", value) each, "\n"
    expected = b"3 2\n" + b"".join(
        w.encode() + b" " + b"".join(b"%f " % float(x) for x in row) + b"\n" for w, row in zip(words, vectors))
    assert (tmp_path / "v.txt").read_bytes() == expected
    assert b"the 0.500000 -0.250000 \n" in expected and b"-0.000000 123.456787 \n" in expected
    kv = GensimKeyedVectors.load_word2vec_format(tmp_path / "v.txt", binary=False)
    np.testing.assert_allclose(kv.vectors, vectors, atol=1e-6)


def test_binary_output_is_laid_out_as_the_c_tool_writes_it(tmp_path):
    words = ["the", "zürich"]
    vectors = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    c_files.write_vectors(tmp_path / "v.bin", words, vectors, binary=True)
    expected = b"2 3\n" + b"".join(w.encode() + b" " + struct.pack("=3f", *row) + b"\n"
                                   for w, row in zip(words, vectors))
    assert (tmp_path / "v.bin").read_bytes() == expected
    kv = GensimKeyedVectors.load_word2vec_format(tmp_path / "v.bin", binary=True)
    assert kv.index_to_key == words and np.array_equal(kv.vectors, vectors)


def test_the_c_tools_defaults():
    values = command.parse(["-train", "corpus.txt"])
    assert values["-cbow"] == 1 and values["-alpha"] == 0.05 and values["-sample"] == 1e-3
    assert (values["-window"], values["-negative"], values["-hs"], values["-iter"]) == (5, 5, 0, 5)
    assert (values["-min-count"], values["-size"], values["-threads"], values["-binary"]) == (5, 100, 12, 0)
    assert command.parse(["-cbow", "0", "-train", "x"])["-alpha"] == 0.025  # skip-gram's default
    assert command.parse(["-alpha", "0.1", "-cbow", "1"])["-alpha"] == 0.1
    model = command._model(command.parse(["-train", "x", "-cbow", "0", "-hs", "1", "-negative", "5"]))
    assert model.sg == 1 and model.alpha == 0.025 and model.min_alpha == pytest.approx(0.025 * 1e-4)
    assert model.shuffle is False and model.cbow_mean == 1


def test_hs_and_negative_together_train_both_output_layers(text8, tmp_path, capsys):
    out = tmp_path / "v.txt"
    assert main(["word2vec", "-train", str(text8), "-output", str(out), "-size", "12", "-hs", "1",
                 "-negative", "5", "-iter", "1", "-debug", "0"]) == 0
    values = command.parse(["-train", str(text8), "-size", "12", "-hs", "1", "-negative", "5", "-iter", "1"])
    model = command._model(values)
    model.progress = False
    model.build_vocab(corpus_file=str(text8))
    model.train()
    assert model.describe() == "cbow-ns+hs"
    assert np.abs(model.W_out).sum() > 0 and np.abs(model.W_inner).sum() > 0  # both layers moved


@pytest.mark.parametrize("arguments, message", [
    (["-train", "{corpus}", "-output", "{out}", "-dim", "5"], "unknown option '-dim'"),
    (["-train", "{corpus}", "-output", "{out}", "-size"], "Argument missing for -size"),
    (["-train", "{corpus}", "-output", "{out}", "-size", "1e2"], "-size takes a whole number"),
    (["-train", "{corpus}", "-output", "{out}", "-hs", "2"], "-hs takes 0 or 1"),
    (["-train", "{corpus}", "-output", "{out}", "-window", "100000"], "-window"),
    (["-train", "{corpus}", "-output", "{out}", "-hs", "0", "-negative", "0"], "no output layer"),
    (["-output", "{out}"], "-train <file> is required"),
    (["-train", "{corpus}", "-output", "{out}", "-read-vocab", "{corpus}"], "line 1"),
])
def test_bad_command_lines_fail_in_one_sentence_and_write_nothing(arguments, message, text8, tmp_path, capsys):
    out = tmp_path / "out.txt"
    filled = [a.format(corpus=text8, out=out) for a in arguments]
    assert main(["word2vec", *filled]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and err.count("\n") == 0
    assert not out.exists()


def test_no_arguments_print_the_usage(capsys):
    assert main(["word2vec"]) == 0
    out = capsys.readouterr().out
    assert "-train <file>" in out and "-read-vocab <file>" in out and "-cbow <int>" in out


def test_console_script_is_the_same_command(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["wordvec-word2vec", "-train", "x", "-bogus", "1"])
    with pytest.raises(SystemExit) as stop:
        command.console_main()
    assert stop.value.code == 2 and "unknown option '-bogus'" in capsys.readouterr().err


def test_save_vocab_then_read_vocab(text8, tmp_path, capsys):
    vocab = tmp_path / "vocab.txt"
    assert main(["word2vec", "-train", str(text8), "-save-vocab", str(vocab), "-debug", "0"]) == 0  # no -output
    words, counts = c_files.read_vocab(vocab)
    assert len(words) > 100 and list(counts) == sorted(counts, reverse=True) and counts.min() >= 5
    # a C-tool vocabulary file starts with </s>; it is skipped, and -min-count applies to the file's counts
    vocab.write_text("</s> 9999\n" + vocab.read_text())
    out = tmp_path / "v.txt"
    assert main(["word2vec", "-train", str(text8), "-read-vocab", str(vocab), "-output", str(out),
                 "-size", "12", "-iter", "1", "-min-count", "50", "-debug", "0"]) == 0
    kv = GensimKeyedVectors.load_word2vec_format(out)
    assert kv.index_to_key == [w for w, c in zip(words, counts) if c >= 50]


def reference_c_kmeans(vectors, k, iterations=10):
    """word2vec.c's K-means loop, transliterated element by element (slow; small inputs only)."""
    V, D = vectors.shape
    cl = [a % k for a in range(V)]
    for _ in range(iterations):
        cent = np.zeros((k, D), dtype=np.float32)
        centcn = [1] * k
        for c in range(V):
            cent[cl[c]] += vectors[c]
            centcn[cl[c]] += 1
        for b in range(k):
            cent[b] /= np.float32(centcn[b])
            cent[b] /= np.float32(np.sqrt(np.float32((cent[b] * cent[b]).sum())))
        for c in range(V):
            scores = [float(cent[d] @ vectors[c]) for d in range(k)]
            cl[c] = int(np.argmax(scores))
    return cl


def test_classes_are_the_c_tools_kmeans(text8, tmp_path, capsys):
    vectors = np.random.default_rng(2).standard_normal((60, 5)).astype(np.float32) + 0.3
    assert list(c_tool_classes(vectors, 4)) == reference_c_kmeans(vectors, 4)
    out = tmp_path / "classes.txt"
    assert main(["word2vec", "-train", str(text8), "-output", str(out), "-size", "12", "-iter", "1",
                 "-classes", "7", "-debug", "0"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) > 100 and all(len(line.split()) == 2 and 0 <= int(line.split()[1]) < 7 for line in lines)
    assert len({line.split()[1] for line in lines}) > 1


@pytest.mark.parametrize("content, where", [
    (b"the 10\nof\n", "line 2"),
    (b"the ten\n", "line 1"),
    (b"the 10 3\n", "line 1"),
    (b"\xff\xfe 3\n", "UTF-8"),
    (b"\n\n", "no words"),
])
def test_a_malformed_vocabulary_file_is_named_with_its_line(tmp_path, content, where):
    path = tmp_path / "vocab.txt"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=where) as error:
        c_files.read_vocab(path)
    assert "vocab.txt" in str(error.value)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_fuzzed_vocabulary_files_either_read_or_fail_in_one_sentence(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "vocab.txt"
    path.write_bytes(content)
    try:
        words, counts = c_files.read_vocab(path)
    except FormatError as error:
        assert "vocab.txt" in str(error) and "\n" not in str(error)
        return
    assert len(words) == len(counts) > 0 and (counts >= 0).all() and len(set(words)) == len(words)


PEERS = Path(__file__).resolve().parents[2] / "benchmarks" / ".peers" / "bin"


def c_tool(name):
    path = PEERS / name
    if not path.exists():
        pytest.skip(f"the C tool is not built here ({path}; benchmarks/setup_peers.sh builds it)")
    return path


def test_the_c_tool_and_wordvec_write_the_same_layout_and_vocabulary(text8, tmp_path, capsys):
    word2vec = c_tool("word2vec")
    flags = ["-train", str(text8), "-size", "4", "-iter", "1", "-threads", "1", "-debug", "0"]
    for binary in ("0", "1"):
        subprocess.run([str(word2vec), *flags, "-binary", binary, "-output", str(tmp_path / f"c{binary}"),
                        "-save-vocab", str(tmp_path / "c.vocab")], check=True, capture_output=True, timeout=120)
        assert main(["word2vec", *flags, "-binary", binary, "-output", str(tmp_path / f"w{binary}"),
                     "-save-vocab", str(tmp_path / "w.vocab")]) == 0
    c_vocab = dict(line.split() for line in (tmp_path / "c.vocab").read_text().splitlines())
    w_vocab = dict(line.split() for line in (tmp_path / "w.vocab").read_text().splitlines())
    assert c_vocab.pop("</s>") and c_vocab == w_vocab  # the same words and counts, but for the line end
    text_row = re.compile(rb"^\S+ (-?\d+\.\d{6} ){4}$")
    for prefix in ("c", "w"):
        lines = (tmp_path / f"{prefix}0").read_bytes().split(b"\n")
        assert lines[0] == f"{len(c_vocab) + (prefix == 'c')} 4".encode() and lines[-1] == b""
        assert all(text_row.match(line) for line in lines[1:-1])
    c_binary, w_binary = (tmp_path / "c1").read_bytes(), (tmp_path / "w1").read_bytes()
    c_rows = c_binary.split(b"\n", 1)[1]
    first_row = 5 + 16 + 1  # "</s> " + 4 float32 + "\n": the row the C tool adds
    assert len(w_binary) - len(w_binary.split(b"\n", 1)[0]) == len(c_rows) - first_row + 1
    distance = subprocess.run([str(c_tool("word2vec-distance")), str(tmp_path / "w1")], input=b"paris\nEXIT\n",
                              capture_output=True, timeout=60)
    assert b"Position in vocabulary" in distance.stdout and b"Cosine distance" in distance.stdout
