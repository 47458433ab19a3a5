"""The output gate (``wordvec.cli.gate``), tried on every command the parsers define.

Every subcommand (argparse's, nested ones included) and every foreign command line
(`wordvec word2vec`, each `wordvec fasttext` command) has a row in ``WRITERS`` or
``READERS``; the table is checked against the parsers, so a new command cannot skip the
gate. Each writer is given, for its output: one of its inputs (self-overwrite), a path
inside an input (a model or corpus directory, or under an input file), a symbolic link to
an input, and a read-only directory. Each is refused before any work (the refusal comes
from the gate, nothing is printed before it), in one sentence, exit 2, and every input
is byte-identical afterwards. A corpus of random bytes is refused unless
``--accept-undecodable`` says to read it."""

import argparse
import os
import re
import shutil

import numpy as np
import pytest

from wordvec.cli import FOREIGN_COMMAND_LINES, build_parser
from wordvec.cli.foreign import fasttext as fasttext_cli
from wordvec.errors import WordvecError
from wordvec.models.classifier.model import Classifier

from .harness import assert_clean_failure, digests, run_main
from .world import copy_into

GATE_SENTENCE = re.compile(r"refusing to (write|replace) |cannot write ")

# writer -> (argv with {d} the inputs' folder and {OUT} the output, the input files it reads,
#            an input directory it reads or None)
WRITERS = {
    ("train",): (["train", "{d}/corpus.txt", "-o", "{OUT}", "--min-count", "1"], ["corpus.txt"], None),
    ("vocab",): (["vocab", "{d}/corpus_dir", "-o", "{OUT}"], [], "corpus_dir"),
    ("phrases",): (["phrases", "{d}/corpus.txt", "-o", "{OUT}"], ["corpus.txt"], None),
    ("cooccur",): (["cooccur", "{d}/corpus_dir", "-o", "{OUT}"], [], "corpus_dir"),
    ("index",): None,  # writes beside its input: tried by test_index_is_gated
    ("static", "distill"): None,  # needs a teacher directory: tried in tests/static/test_cli.py
    ("static", "train"): None,
    ("static", "pairs"): None,
    ("convert",): (["convert", "{d}/vec.wv", "{OUT}"], [], "vec.wv"),
    ("doc2vec", "train"): (["doc2vec", "train", "{d}/corpus.txt", "-o", "{OUT}"], ["corpus.txt"], None),
    ("doc2vec", "infer"): (["doc2vec", "infer", "{d}/docs.d2v", "{d}/corpus.txt", "-o", "{OUT}"], ["corpus.txt"],
                           "docs.d2v"),
    ("embed",): (["embed", "{d}/vec.wv", "{d}/corpus.txt", "-o", "{OUT}"], ["corpus.txt"], "vec.wv"),
    ("task", "ner"): (["task", "ner", "--data", "{d}/conll", "--save", "{OUT}"], [], "conll"),
    ("task", "pos"): (["task", "pos", "--data", "{d}/brown", "--save", "{OUT}"], [], "brown"),
    ("task", "charlm"): (["task", "charlm", "--data", "{d}/names.txt", "--plot", "{OUT}"], ["names.txt"], None),
    ("classify", "train"): (["classify", "train", "{d}/labelled.txt", "-o", "{OUT}"], ["labelled.txt"], None),
    ("classify", "quantize"): (["classify", "quantize", "{d}/clf.wv", "-o", "{OUT}"], [], "clf.wv"),
    ("lm", "train"): (["lm", "train", "{d}/names.txt", "-o", "{OUT}"], ["names.txt"], None),
    ("report",): (["report", "{d}/vec.wv", "-o", "{OUT}"], [], "vec.wv"),
    ("word2vec", "-output"): (["word2vec", "-train", "{d}/corpus.txt", "-output", "{OUT}"], ["corpus.txt"], None),
    ("word2vec", "-save-vocab"): (["word2vec", "-train", "{d}/corpus.txt", "-output", "{d}/../w2v-out.txt",
                                   "-save-vocab", "{OUT}"], ["corpus.txt"], None),
    ("fasttext", "supervised"): (["fasttext", "supervised", "-input", "{d}/labelled.vec", "-output", "{OUT}"],
                                 ["labelled.vec"], None),
    ("fasttext", "skipgram"): (["fasttext", "skipgram", "-input", "{d}/corpus.vec", "-output", "{OUT}"],
                               ["corpus.vec"], None),
    ("fasttext", "cbow"): (["fasttext", "cbow", "-input", "{d}/corpus.vec", "-output", "{OUT}"], ["corpus.vec"], None),
    ("fasttext", "quantize"): (["fasttext", "quantize", "-input", "{d}/labelled.ftz", "-output", "{OUT}"],
                               ["labelled.ftz"], None),
}
# fastText's -output is a prefix: the gate sees PREFIX.bin/.vec (.ftz for quantize); the inputs
# these read are named with that suffix, so that one output can be an input
PREFIX_SUFFIX = {("fasttext", "supervised"): ".vec", ("fasttext", "skipgram"): ".vec", ("fasttext", "cbow"): ".vec",
                 ("fasttext", "quantize"): ".ftz"}
# commands that write no file (their parsers mark inputs only; compile fills Numba's cache)
READERS = {("demo",), ("compile",), ("similar",), ("analogy",), ("evaluate",), ("info",), ("task", "sentiment"),
           ("classify", "test"), ("classify", "predict"), ("classify", "info"), ("lm", "eval"), ("lm", "sample"),
           ("serve",)} | {("fasttext", c) for c in fasttext_cli.QUERIES + ("test", "test-label", "predict",
                                                                         "predict-prob", "print-ngrams", "dump")}


def parser_commands():
    """Every command the parsers define, nested ones as tuples, foreign lines by their commands."""
    found = set()

    def walk(parser, prefix):
        subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subparsers or prefix[:1] in [(name,) for name in FOREIGN_COMMAND_LINES]:
            found.add(prefix)
            return
        for name, child in subparsers[0].choices.items():
            walk(child, prefix + (name,))

    walk(build_parser(), ())
    found -= {("word2vec",), ("fasttext",)}
    found |= {("fasttext", c) for c in fasttext_cli.TRAINING + fasttext_cli.CLASSIFY + fasttext_cli.QUERIES
              + ("print-ngrams", "dump")}
    found |= {("word2vec", flag) for flag in ("-output", "-save-vocab")}  # word2vec_c.OUTPUT_FLAGS
    return found


def test_every_command_is_in_the_table():
    commands = parser_commands()
    assert len(commands) == len(set(WRITERS) | READERS) == len(WRITERS) + len(READERS)
    assert commands == set(WRITERS) | READERS


def test_readers_mark_no_output_and_writers_do():
    parser = build_parser()
    for command in (set(WRITERS) | READERS):
        if command[0] in FOREIGN_COMMAND_LINES:
            continue
        argv = list(command)
        sub = parser
        for word in argv:
            sub = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction)).choices[word]
        gate = sub.get_default("gate")
        assert gate is not None, command
        assert bool(gate.outputs) == (command in WRITERS), command


@pytest.fixture(scope="module")
def inputs(base, tmp_path_factory):
    root = tmp_path_factory.mktemp("gate")
    d = root / "in"
    d.mkdir()
    copy_into(base, ["corpus.txt", "corpus_dir", "vec.wv", "names.txt", "conll", "brown"], d)
    rng = np.random.default_rng(0)
    lines = [f"__label__{c} " + " ".join(f"w{c}{rng.integers(20)}" for _ in range(5)) for c in rng.integers(0, 2, 80)]
    (d / "labelled.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for source, copy in (("labelled.txt", "labelled.vec"), ("labelled.txt", "labelled.ftz"), ("corpus.txt", "corpus.vec")):
        shutil.copy(d / source, d / copy)
    Classifier.train(d / "labelled.txt", dim=4, epoch=1, bucket=0, threads=1, verbose=0).save(d / "clf.wv")
    from wordvec.models.doc2vec.model import Doc2Vec
    Doc2Vec(corpus_file=str(d / "corpus.txt"), vector_size=4, min_count=1, epochs=1, workers=1).save(d / "docs.d2v")
    readonly = root / "readonly"
    readonly.mkdir()
    readonly.chmod(0o555)
    yield d
    readonly.chmod(0o755)


def attacks(command, d, folder):
    """(name, OUT) of each attack on ``command``'s output."""
    _, files, directory = WRITERS[command]
    victim = d / (files[0] if files else directory)
    suffix = PREFIX_SUFFIX.get(command, "")

    def out(path):  # fastText's -output names a prefix
        return str(path)[: -len(suffix)] if suffix else str(path)

    name = "out" + (suffix or victim.suffix or ".txt")
    yield "self", out(victim)
    link = folder / ("link" + (suffix or victim.suffix))
    link.symlink_to(victim)
    yield "symlink", out(link)
    yield "inside", out(d / (directory or files[0]) / name)
    yield "read-only", out(d.parent / "readonly" / name)


def _argv(command, d, out):
    return [a.format(d=d, OUT=out) for a in WRITERS[command][0]]


@pytest.mark.parametrize("command", [c for c in WRITERS if WRITERS[c] is not None], ids=" ".join)
def test_every_writer_refuses_before_any_work(inputs, tmp_path, command):
    d = inputs
    for name, out in attacks(command, d, tmp_path):
        before = digests(d)
        argv = _argv(command, d, out)
        if command[0] not in FOREIGN_COMMAND_LINES:  # the refusal is the gate's, before the command runs
            args = build_parser(commands=[argv[0]], argv=argv).parse_args(argv)
            with pytest.raises(WordvecError):
                args.gate.check(args)
        result = run_main(*argv)
        assert result.returncode == 2, (command, name, out, result.stderr[-1000:])
        sentence = assert_clean_failure(result)
        assert GATE_SENTENCE.search(sentence), (command, name, sentence)  # the gate's, not a later failure
        assert result.stdout == "", (command, name, result.stdout[-500:])  # nothing done before the refusal
        assert digests(d) == before, (command, name)


def test_index_is_gated(inputs, tmp_path):
    d = tmp_path / "v"
    shutil.copytree(inputs / "vec.wv", d / "vec.wv")
    (d / "vec.wv.usearch").symlink_to(d / "vec.wv" / "vectors.npy")  # the index written over an input
    before = digests(d / "vec.wv")
    assert_clean_failure(run_main("index", d / "vec.wv"), "vec.wv")
    assert digests(d / "vec.wv") == before
    readonly = tmp_path / "ro"
    shutil.copytree(inputs / "vec.wv", readonly / "vec.wv")
    readonly.chmod(0o555)
    try:
        assert_clean_failure(run_main("index", readonly / "vec.wv"), "read-only")
    finally:
        readonly.chmod(0o755)


def test_an_output_on_a_virtual_file_system_is_refused_before_training(inputs):
    result = run_main("train", inputs / "corpus.txt", "-o", "/proc/x.bin")
    assert_clean_failure(result, "/proc/x.bin", "virtual file system")
    assert result.stdout == ""


def test_an_existing_target_of_another_kind_is_not_replaced(inputs, tmp_path):
    other = tmp_path / "notes.bin"
    other.write_text("my notes\n")
    assert_clean_failure(run_main("classify", "train", inputs / "labelled.txt", "-o", other), "not a fastText model")
    assert other.read_text() == "my notes\n"
    npy = tmp_path / "notes.npy"
    npy.write_text("my notes\n")
    assert_clean_failure(run_main("embed", inputs / "vec.wv", inputs / "corpus.txt", "-o", npy), "not a .npy")
    assert npy.read_text() == "my notes\n"


def test_random_bytes_as_a_corpus_are_refused_unless_accepted(inputs, tmp_path):
    noise = tmp_path / "noise.txt"
    noise.write_bytes(np.random.default_rng(0).integers(0, 256, 200_000, dtype=np.uint8).tobytes())
    for argv in (["train", noise, "-o", tmp_path / "v.bin"], ["classify", "train", noise, "-o", tmp_path / "m.bin"],
                 ["vocab", noise], ["word2vec", "-train", noise, "-output", tmp_path / "w.txt"]):
        result = run_main(*argv)
        assert_clean_failure(result, "noise.txt", "not UTF-8")
    accepted = run_main("vocab", noise, "--accept-undecodable")
    assert accepted.returncode == 0, accepted.stderr[-1000:]
    assert "U+FFFD" in accepted.stdout
    text = run_main("vocab", inputs / "corpus.txt")  # text with a few bad bytes is not refused
    assert text.returncode == 0
    mostly_text = tmp_path / "latin1.txt"
    mostly_text.write_bytes(("café au lait " * 2000).encode("latin-1"))
    assert run_main("vocab", mostly_text).returncode == 0
