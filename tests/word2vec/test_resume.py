"""Checkpoints and resume of ``wordvec train``: a run interrupted (Ctrl-C, or kill -9
after a checkpoint) and resumed gives, with one worker and a fixed seed, bitwise the
vectors of the uninterrupted run.  The CLI tests run real subprocesses; the library
test checks every word2vec objective at a checkpoint inside an epoch."""

import os
import shlex
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.hostile.harness import assert_clean_failure, run_cli
from wordvec.data import synthetic
from wordvec.io.checkpoint import Checkpointer, TrainingInterrupted, parse_every
from wordvec.errors import WordvecError
from wordvec.models.word2vec.model import Word2Vec

TRAIN = ["--workers", "1", "--seed", "7", "--vector-size", "24", "--min-count", "2", "--no-eval",
         "--no-progress"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("resume") / "corpus.txt"
    synthetic.write_corpus(path, tokens=150_000, seed=5)  # 8 chunks of ~20k tokens
    return path


@pytest.fixture()
def env(tmp_path_factory):
    return {"WORDVEC_CACHE": str(tmp_path_factory.getbasetemp() / "cache")}


def start(argv, env):
    full = dict(os.environ, **env)
    return subprocess.Popen([sys.executable, "-m", "wordvec", *map(str, argv)], env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(condition, process, what, timeout=120):
    deadline = time.monotonic() + timeout
    while not condition():
        if process.poll() is not None:
            pytest.fail(f"the run ended (exit {process.returncode}) before {what}: {process.stderr.read()[-2000:]}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.005)


def resume_from_message(stderr, env):
    """Run the command the interrupt message names (``wordvec ...`` -> this interpreter)."""
    line = assert_clean_failure(subprocess.CompletedProcess([], 130, "", stderr), "interrupted", "--resume")
    command = shlex.split(line.split("continue with: ", 1)[1])
    assert command[0] == "wordvec"
    return run_cli(*command[1:], env=env)


def test_ctrl_c_finishes_the_chunk_checkpoints_and_resumes_bitwise(corpus, tmp_path, env):
    reference = run_cli("train", corpus, "-o", tmp_path / "reference.bin", "--model", "sg", "--epochs", "3",
                        *TRAIN, env=env)
    assert reference.returncode == 0, reference.stderr[-2000:]
    out = tmp_path / "out.bin"
    process = start(["train", corpus, "-o", out, "--model", "sg", "--epochs", "3", *TRAIN], env)
    seen = []

    def epoch_one_logged():  # stderr carries the INFO log; epoch 1's line means training is under way
        seen.append(process.stderr.readline())
        return "epoch 1:" in seen[-1]

    wait_for(epoch_one_logged, process, "epoch 1 ended")
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=120)
    assert process.returncode == 130, rest[-2000:]
    checkpoint = tmp_path / "out.bin.checkpoint"
    assert (checkpoint / "checkpoint.json").is_file() and not out.exists()
    resumed = resume_from_message(rest, env)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert out.read_bytes() == (tmp_path / "reference.bin").read_bytes()
    assert not checkpoint.exists()  # removed once the output is written


@pytest.mark.parametrize("model", [["--model", "cbow", "--loss", "hs", "--epochs", "3"],
                                   ["--model", "glove", "--epochs", "8", "--window", "5"]],
                         ids=["cbow-hs", "glove"])
def test_kill_9_after_a_checkpoint_then_resume_is_bitwise(corpus, tmp_path, env, model):
    reference = run_cli("train", corpus, "-o", tmp_path / "reference.wv", *model, *TRAIN, env=env)
    assert reference.returncode == 0, reference.stderr[-2000:]
    out, checkpoint = tmp_path / "out.wv", tmp_path / "ckpt"
    argv = ["train", corpus, "-o", out, *model, *TRAIN, "--checkpoint-every", "1w", "--checkpoint", checkpoint]
    process = start(argv, env)
    wait_for(lambda: (checkpoint / "checkpoint.json").is_file(), process, "the first checkpoint")
    process.send_signal(signal.SIGSTOP)  # frozen mid-run; the checkpoint on disk is complete
    process.kill()
    process.communicate()
    assert not out.exists()
    resumed = run_cli(*argv, "--resume", checkpoint, env=env)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert (out / "vectors.npy").read_bytes() == (tmp_path / "reference.wv" / "vectors.npy").read_bytes()


def test_resume_refuses_other_options_and_a_changed_corpus(corpus, tmp_path, env):
    mine = tmp_path / "corpus.txt"
    mine.write_bytes(corpus.read_bytes())
    out, checkpoint = tmp_path / "out.bin", tmp_path / "ckpt"
    argv = ["train", mine, "-o", out, "--model", "sg", "--epochs", "1", *TRAIN, "--checkpoint-every", "1w",
            "--checkpoint", checkpoint]
    process = start(argv, env)
    wait_for(lambda: (checkpoint / "checkpoint.json").is_file(), process, "the first checkpoint")
    process.send_signal(signal.SIGSTOP)
    process.kill()
    process.communicate()
    other = [a if a != "24" else "32" for a in argv]  # --vector-size 32
    assert_clean_failure(run_cli(*other, "--resume", checkpoint, env=env), "other options", "vector_size")
    no_shuffle = argv + ["--no-shuffle"]
    assert_clean_failure(run_cli(*no_shuffle, "--resume", checkpoint, env=env), "other options", "shuffle")
    assert_clean_failure(run_cli(*argv[:-2], "--model", "glove", "--resume", checkpoint, env=env), "--model")
    with open(mine, "a", encoding="utf-8") as handle:
        handle.write("one more line\n")
    assert_clean_failure(run_cli(*argv, "--resume", checkpoint, env=env), "another corpus")
    assert_clean_failure(run_cli(*argv, "--resume", tmp_path / "absent", env=env), "checkpoint not found")
    (tmp_path / "not-a-checkpoint").mkdir()  # beside the output: a directory holding it is refused by the gate
    assert_clean_failure(run_cli(*argv, "--resume", tmp_path / "not-a-checkpoint", env=env),
                         "not a wordvec training checkpoint")
    assert_clean_failure(run_cli(*argv[:-4], "--checkpoint-every", "10m", env=env), "needs a unit")
    assert_clean_failure(run_cli("train", corpus, "-o", out, "--model", "svd", "--resume", checkpoint, env=env),
                         "word2vec and glove")


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("resume-small") / "corpus.txt"
    synthetic.write_corpus(path, tokens=60_000, seed=6)  # 3 chunks of ~20k tokens
    return path


@pytest.mark.parametrize("sg, loss", [(1, "ns"), (1, "hs"), (0, "ns"), (0, "hs"), (0, "softmax")])
def test_a_checkpoint_inside_an_epoch_resumes_every_objective_bitwise(small_corpus, tmp_path, sg, loss):
    corpus = small_corpus
    options = dict(sg=sg, loss=loss, vector_size=8 if loss == "softmax" else 16, epochs=2, workers=1, seed=3,
                   progress=False, min_count=2, cache_dir=tmp_path)
    reference = Word2Vec(corpus_file=str(corpus), **options)
    model = Word2Vec(**options).build_vocab(corpus_file=str(corpus))
    checkpointer = Checkpointer(tmp_path / "ckpt", ("words", 50_000))
    calls = []

    def stop_in_epoch_two(words, advance=checkpointer.advance):
        calls.append(words)
        if len(calls) == 4:  # the first chunk of the second epoch (3 chunks per epoch)
            checkpointer.stop_requested.set()
        return advance(words)

    checkpointer.advance = stop_in_epoch_two
    with pytest.raises(TrainingInterrupted):
        model.train(checkpointer=checkpointer)
    resumed = Word2Vec.load(tmp_path / "ckpt")
    progress = resumed.epoch_progress
    assert progress["epoch"] == 1 and 0 < len(progress["done"]) < progress["chunks"]
    resumed.progress = False
    resumed.train(corpus_file=str(corpus))
    for name in ("W_in", "W_out", "W_inner"):
        assert np.array_equal(getattr(resumed, name), getattr(reference, name)), name
    assert [h["loss"] for h in resumed.history] == [h["loss"] for h in reference.history]


def test_checkpoint_every_needs_an_unambiguous_unit():
    assert parse_every("10min") == ("seconds", 600.0)
    assert parse_every("30s") == ("seconds", 30.0)
    assert parse_every("2h") == ("seconds", 7200.0)
    assert parse_every("5Mw") == ("words", 5_000_000)
    assert parse_every("500kw") == ("words", 500_000)
    assert parse_every("2000000words") == ("words", 2_000_000)
    for bad in ("10m", "10", "5M", "0s", "3kmin", "-1w", "ten minutes"):
        with pytest.raises(WordvecError):
            parse_every(bad)
