"""Faults during saves, on real processes: kill -9, SIGINT, and two writers of one path.

Each save writes arrays filled with one number (the save's serial), so a torn save (old
and new files mixed, or a partly written array) shows up as more than one number.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from . import world
from .harness import digest

SAVERS = {
    # a native vectors directory (the layout of every model directory)
    "native": """
        from wordvec.io.formats import write_native
        words = [f"w{i}" for i in range(400)]
        def save(value):
            write_native(PATH, words, np.full((400, 64), value, np.float32))
    """,
    # a language-model checkpoint (params/, state/, steps.npy, model.json)
    "lm": """
        from wordvec.data.lm_data import LMVocab
        from wordvec.models.lm.rnn import RNNLM
        model = RNNLM(LMVocab.build(["abcdefgh"], "char"), cell="lstm", hidden_size=64, embedding_size=16)
        def save(value):
            for array in model.params.values():
                array[...] = value
            model.save(PATH)
    """,
    # one file, word2vec binary
    "binary": """
        from wordvec.io.formats import write_word2vec_binary
        words = [f"w{i}" for i in range(400)]
        def save(value):
            write_word2vec_binary(PATH, words, np.full((400, 64), value, np.float32))
    """,
}


def _start_saver(children, kind, path, start=1, count=10**6):
    """A process saving ``count`` times to ``path``, printing each value saved (killed, with
    its process group, when the test ends: see ``children`` in tests/conftest.py)."""
    script = ("import sys\nimport numpy as np\nPATH = " + repr(str(path)) + "\n"
              + textwrap.dedent(SAVERS[kind])
              + f"\nfor value in range({start}, {start + count}):\n    save(value)\n    print(value, flush=True)\n")
    return children.popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          interactive=True)  # reacts to Ctrl-C however the suite was started


def _saved_value(kind, path):
    """The one number the complete save at ``path`` holds (fails if torn)."""
    if kind == "native":
        from wordvec.io.formats import read_native

        values = np.unique(read_native(path)[1])
    elif kind == "lm":
        from wordvec.models.lm.rnn import RNNLM

        values = np.unique(np.concatenate([a.ravel() for a in RNNLM.load(path).params.values()]))
    else:
        from wordvec.io.formats import read_word2vec_binary

        values = np.unique(read_word2vec_binary(path)[1])
    assert values.size == 1, f"a torn save: values {values[:5]}"
    return float(values[0])


def _leftovers(path):
    path = Path(path)
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(f".{path.name}."))


def _wait_for_saves(process, n):
    for _ in range(n):
        line = process.stdout.readline()
        assert line, process.stderr.read()[-2000:]


@pytest.mark.parametrize("kind", sorted(SAVERS))
def test_kill_9_during_repeated_saves_leaves_a_complete_save(kind, tmp_path, children):
    path = tmp_path / ("out.bin" if kind == "binary" else "out.wv")
    for attempt, delay in enumerate((0.0, 0.013, 0.037)):
        saver = _start_saver(children, kind, path, start=100 * attempt + 1)
        _wait_for_saves(saver, 2)
        time.sleep(delay)
        saver.kill()  # SIGKILL: no cleanup of any kind
        saver.wait()
        assert _saved_value(kind, path) >= 100 * attempt + 1
    # the next save cleans up what the killed processes left, and is itself complete
    finished = _start_saver(children, kind, path, start=1000, count=1)
    _, stderr = finished.communicate(timeout=120)
    assert finished.returncode == 0, stderr[-2000:]
    assert _saved_value(kind, path) == 1000
    assert _leftovers(path) == []


@pytest.mark.parametrize("kind", ["native", "lm"])
def test_sigint_during_a_save_cleans_up_at_once(kind, tmp_path, children):
    path = tmp_path / "out.wv"
    saver = _start_saver(children, kind, path)
    _wait_for_saves(saver, 3)
    saver.send_signal(signal.SIGINT)
    # communicate drains both pipes, so the saver can never block on a full one; generous:
    # a loaded machine can take long to fsync
    _, stderr = saver.communicate(timeout=180)
    assert saver.returncode in (-signal.SIGINT, 130, 1), stderr[-2000:]  # stopped by the Ctrl-C
    assert "KeyboardInterrupt" in stderr, stderr[-2000:]
    assert _saved_value(kind, path) >= 3
    assert [name for name in _leftovers(path) if ".tmp-" in name] == []


@pytest.mark.parametrize("kind", ["native", "lm", "binary"])
def test_concurrent_writers_of_one_path_both_finish(kind, tmp_path, children):
    path = tmp_path / ("out.bin" if kind == "binary" else "out.wv")
    writers = [_start_saver(children, kind, path, start=start, count=12) for start in (1000, 2000)]
    for writer in writers:
        _, stderr = writer.communicate(timeout=120)
        assert writer.returncode == 0, stderr[-2000:]
    assert _saved_value(kind, path) in (1011, 2011)
    assert _leftovers(path) == []


def test_sigint_during_training_keeps_the_old_output(base, tmp_path, children):
    """Ctrl-C in a long `wordvec train`: exit 130, one line, the previous output untouched."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(world.corpus_text(lines=4000), encoding="utf-8")
    out = tmp_path / "vec.bin"
    world.copy_into(base, ["vec.bin"], tmp_path)
    before = digest(out)
    process = children.popen([sys.executable, "-m", "wordvec", "train", str(corpus), "-o", str(out),
                              "--min-count", "1", "--epochs", "500", "--workers", "1", "--no-progress",
                              "--no-eval"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, WORDVEC_CACHE=str(tmp_path / "cache")), interactive=True)
    for line in process.stderr:  # wait until training has begun
        if "epoch" in line.lower() or "training" in line.lower():
            break
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=180)
    assert process.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr and "interrupted" in stderr
    assert digest(out) == before
    assert _leftovers(out) == []
