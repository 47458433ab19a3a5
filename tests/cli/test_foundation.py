"""The CLI's front door: demo, vocab and train, including one-sentence errors."""

import json
import subprocess
import sys

import numpy as np
import pytest

from wordvec.data import parallel, synthetic
from wordvec.cli import COMMANDS
from wordvec.cli import build_parser
from wordvec.cli import main
from wordvec.data.corpus import Corpus
from wordvec.io import formats
from wordvec.models.base import config
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.files import load_vectors


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "synthetic.txt"
    synthetic.write_corpus(path, tokens=150_000, seed=0)
    return path


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_sentence_error(status, err, *fragments):
    assert status == 2
    lines = [line for line in err.strip().splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("wordvec: error: "), err
    for fragment in fragments:
        assert fragment in lines[0]


def test_vocab_summarises_and_saves(tmp_path, capsys, small_corpus):
    status, out, _ = run(capsys, "vocab", small_corpus, "--min-count", 5, "--top", 3, "-o", tmp_path / "v.tsv")
    assert status == 0
    assert "words with count >= 5" in out and "tokens/s" in out
    rows = (tmp_path / "v.tsv").read_text().splitlines()
    counts = [int(r.split("\t")[1]) for r in rows]
    assert counts == sorted(counts, reverse=True) and min(counts) >= 5
    assert rows[0].split("\t")[0] in out


def test_vocab_errors_are_one_sentence(tmp_path, capsys):
    status, _, err = run(capsys, "vocab", tmp_path / "missing.txt")
    assert_one_sentence_error(status, err, "missing.txt", "does not exist")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n")
    status, _, err = run(capsys, "vocab", empty)
    assert_one_sentence_error(status, err, "corpus is empty")
    rare = tmp_path / "rare.txt"
    rare.write_text("a b c\n")
    status, _, err = run(capsys, "vocab", rare, "--min-count", 2)
    assert_one_sentence_error(status, err, "vocabulary is empty", "min_count")


@pytest.mark.parametrize("suffix", [".bin", ".txt", ".wv"])
def test_train_writes_every_format_and_reports(tmp_path, capsys, small_corpus, suffix):
    out_path = tmp_path / f"vectors{suffix}"
    status, out, _ = run(capsys, "train", small_corpus, "-o", out_path, "--model", "cbow", "--vector-size", 20,
                         "--epochs", 1, "--workers", 1, "--no-progress", "--json", "--no-eval")
    assert status == 0
    summary = json.loads(out)
    kv = load_vectors(out_path)
    assert summary["words"] == len(kv) and kv.vector_size == 20
    assert len(summary["history"]) == 1 and np.isfinite(summary["history"][0]["loss"])


def test_train_no_shuffle_keeps_the_file_order(tmp_path, capsys, small_corpus):
    from wordvec.models.word2vec.model import Word2Vec

    common = ["--vector-size", 8, "--epochs", 1, "--workers", 1, "--no-progress", "--no-eval"]
    for flags, name in ([], "shuffled.wv"), (["--no-shuffle"], "in_order.wv"):
        assert run(capsys, "train", small_corpus, "-o", tmp_path / name, *common, *flags)[0] == 0
    shuffled, in_order = Word2Vec.load(tmp_path / "shuffled.wv"), Word2Vec.load(tmp_path / "in_order.wv")
    assert shuffled.shuffle and not in_order.shuffle
    assert not np.array_equal(shuffled.wv.vectors, in_order.wv.vectors)


def test_train_batched_and_deterministic_flags_reach_the_model(tmp_path, capsys, small_corpus):
    from wordvec.models.word2vec.model import Word2Vec

    common = ["--model", "sg", "--vector-size", 8, "--epochs", 1, "--workers", 2, "--no-progress", "--no-eval",
              "--batched", "--deterministic"]
    for name in ("a.wv", "b.wv"):
        assert run(capsys, "train", small_corpus, "-o", tmp_path / name, *common)[0] == 0
    a, b = Word2Vec.load(tmp_path / "a.wv"), Word2Vec.load(tmp_path / "b.wv")
    assert a.batched and a.deterministic and a.workers == 2
    assert np.array_equal(a.wv.vectors, b.wv.vectors)  # 2 workers, yet the same vectors


def test_train_prints_the_evaluation_summary(tmp_path, capsys, small_corpus):
    status, out, _ = run(capsys, "train", small_corpus, "-o", tmp_path / "v.bin", "--vector-size", 10,
                         "--epochs", 1, "--no-progress")
    assert status == 0
    assert "wordsim353" in out.lower() and "analogy" in out.lower()


@pytest.mark.parametrize("flags,fragment", [
    (["--window", "0"], "--window"),
    (["--vector-size", "0"], "--vector-size"),
    (["--alpha", "-0.1"], "--alpha"),
])
def test_train_rejects_bad_numbers_up_front(tmp_path, capsys, small_corpus, flags, fragment):
    with pytest.raises(SystemExit) as exit_info:
        main(["train", str(small_corpus), "-o", str(tmp_path / "v.bin"), *flags])
    assert exit_info.value.code == 2
    assert fragment in capsys.readouterr().err


def test_train_without_an_output_layer_is_one_sentence(tmp_path, capsys, small_corpus):
    status, _, err = run(capsys, "train", small_corpus, "-o", tmp_path / "v.bin", "--negative", "0")
    assert_one_sentence_error(status, err, "negative")
    assert not (tmp_path / "v.bin").exists()


def test_train_on_a_missing_corpus(tmp_path, capsys):
    status, _, err = run(capsys, "train", tmp_path / "nope.txt", "-o", tmp_path / "v.bin")
    assert_one_sentence_error(status, err, "nope.txt")


def test_demo_solves_analogies_on_the_builtin_corpus(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WORDVEC_CACHE", str(tmp_path))
    status, out, _ = run(capsys, "demo", "--tokens", 400_000, "--epochs", 3, "--no-progress", "--workers", 1)
    assert status == 0
    solved = float(out.split("analogies solved: ")[1].split("%")[0])
    assert solved > 60.0, out  # the relations are learnable: gensim and wordvec both reach ~100% at 2M tokens
    assert "man : king :: woman : queen" in out


def test_the_two_worker_defaults_come_from_one_place(monkeypatch):
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: set(range(7)), raising=False)
    assert config.available_cores() == 7 and config.library_workers() == 2
    assert Word2Vec().workers == 2  # the library takes at most two threads unasked
    parser = build_parser()  # the command line takes every core this process may use
    assert parser.parse_args(["train", "c.txt", "-o", "v.bin"]).workers == 7
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert config.available_cores() == 1 and config.library_workers() == 1 and Word2Vec().workers == 1
    assert parallel.reading_threads() == 1


@pytest.mark.parametrize("model, suffix", [("sg", ".bin"), ("glove", ".vec"), ("cbow", ".wv")])
def test_train_opens_the_corpus_once_and_detects_the_format_once(tmp_path, capsys, small_corpus, monkeypatch,
                                                                  model, suffix):
    opened, detected = [], []
    original_init, original_detect = Corpus.__init__, formats.detect_format

    def counting_init(self, source, *args, **kwargs):
        opened.append(source)
        original_init(self, source, *args, **kwargs)

    def counting_detect(path, fmt=None):
        if fmt is None:  # a given format is looked up, not detected
            detected.append(path)
        return original_detect(path, fmt)

    monkeypatch.setattr(Corpus, "__init__", counting_init)
    monkeypatch.setattr(formats, "detect_format", counting_detect)
    status, _, _ = run(capsys, "train", small_corpus, "-o", tmp_path / f"out{suffix}", "--model", model,
                       "--epochs", "1", "--vector-size", "8", "--no-eval", "--no-progress", "--workers", "1")
    assert status == 0
    assert opened == [str(small_corpus)] and len(detected) == 1


def test_every_command_of_the_registry_is_registered_by_its_module():
    # the eager parser (every module's register) and the lazy table name the same commands
    parser = build_parser()
    commands = parser._subparsers._group_actions[0]
    assert list(commands.choices) == list(COMMANDS)
    assert [action.help for action in commands._choices_actions] == [c.help for c in COMMANDS.values()]


def test_help_and_a_command_import_only_that_commands_module():
    probe = ("import sys, contextlib, io; from wordvec.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    try: main(sys.argv[1:])\n"
             "    except SystemExit: pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('wordvec.cli.') and m not in ('wordvec.cli.common', 'wordvec.cli.flags', 'wordvec.cli.gate')))")
    loaded = {}
    for argv in (["--help"], ["-v", "similar", "--help"]):
        result = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr[-2000:]
        loaded[argv[-2] if len(argv) > 1 else "help"] = result.stdout.strip()
    assert loaded == {"help": "[]", "similar": "['wordvec.cli.vectors']"}
