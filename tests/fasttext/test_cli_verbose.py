"""`wordvec fasttext`: fastText's exit status without arguments and its -verbose levels
(0 prints nothing, 1 the dictionary's sizes, 2 also progress), in a process of its own
(logging is configured once per process)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wordvec(*arguments, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("WORDVEC_NO_PROGRESS", None)  # the levels decide what is printed
    return subprocess.run([sys.executable, "-m", "wordvec", "fasttext", *arguments], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verbose")
    lines = [f"__label__{'ab'[i % 2]} " + " ".join(f"w{(i * 7 + j) % 13}" for j in range(6)) for i in range(200)]
    (folder / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_no_arguments_print_the_usage_and_exit_1(tmp_path):
    result = wordvec(cwd=tmp_path)
    assert result.returncode == 1
    assert "usage: wordvec fasttext <command> <args>" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("command", ["supervised", "skipgram"])
def test_verbose_0_prints_nothing_and_1_the_dictionary(corpus, command):
    common = ["-input", "train.txt", "-epoch", "1", "-dim", "5", "-minCount", "1", "-thread", "1"]
    silent = wordvec(command, *common, "-output", f"{command}0", "-verbose", "0", cwd=corpus)
    assert silent.returncode == 0, silent.stderr
    assert (silent.stdout, silent.stderr) == ("", "")
    assert (corpus / f"{command}0.bin").stat().st_size > 0
    sizes = wordvec(command, *common, "-output", f"{command}1", "-verbose", "1", cwd=corpus)
    assert sizes.returncode == 0, sizes.stderr
    lines = sizes.stderr.splitlines()
    assert lines[0] == "Read 0M words" and lines[1].startswith("Number of words:") and len(lines) == 3
    assert lines[2] == f"Number of labels: {2 if command == 'supervised' else 0}"
