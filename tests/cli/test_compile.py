"""Compiling made visible and done ahead: the listener that announces and times every
compile (wordvec.kernels.compiling), and `wordvec compile`, after which the commands it
exercises compile nothing."""

import logging
import sys
import types

import numba
import pytest

from tests.processes import run_reaped
from wordvec.cli import compile as compile_command
from wordvec.kernels import compiling
from wordvec.kernels.sizes import vector_size_token


def test_a_compile_is_announced_once_and_timed(caplog):
    @numba.njit  # no cache: compiled here whatever the machine has seen
    def add_one(x):
        return x + 1

    before_count, before_seconds = compiling.count(), compiling.seconds()
    with caplog.at_level(logging.DEBUG, logger="wordvec.kernels.compiling"):
        add_one(1)
        add_one(1.5)  # a second signature: a second compile
        add_one(2)  # loaded: no compile
    assert compiling.count() == before_count + 2
    assert compiling.seconds() > before_seconds
    names = [name for name, _ in compiling.WATCH.kernels[-2:]]
    assert all(name.endswith("add_one") for name in names)
    assert compiling.of_it(before_seconds).startswith(", ") and "compiling kernels" in compiling.of_it(before_seconds)
    assert compiling.of_it(compiling.seconds()) == ""
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert sum("add_one" in message for message in debug) == 2


def test_the_announcement_comes_with_the_first_compile_of_a_process():
    code = ("import logging, numba; logging.basicConfig(level=logging.INFO, format='%(message)s')\n"
            "from wordvec.kernels import compiling\n"
            "f = numba.njit(lambda x: x * 2)\n"
            "f(1); f(2.0)\n"
            "print(compiling.count())\n")
    result = run_reaped([sys.executable, "-c", code], timeout=120, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"
    assert result.stderr.count(compiling.ANNOUNCEMENT) == 1


def test_a_kernel_name_carries_the_vector_size_of_its_token():
    kernel = types.SimpleNamespace(py_func=vector_size_token)  # as a dispatcher holds its function
    constant = numba.typeof(vector_size_token(100))
    shared = numba.typeof(vector_size_token(8))
    assert compiling.kernel_name(kernel, [numba.int64, constant]) == "sizes.vector_size_token for vector size 100"
    assert compiling.kernel_name(kernel, [numba.int64, shared]) == "sizes.vector_size_token"


@pytest.fixture(scope="module")
def compiled():
    """`wordvec compile` in a child process (the kernels it compiles stay in the cache for
    the rest of the suite; where an install step ran it already, it only loads them)."""
    result = run_reaped([sys.executable, "-m", "wordvec", "compile", "--jobs", "2"], timeout=1800,
                        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def test_compile_names_every_group_it_compiled(compiled):
    for group in compile_command.EXERCISES:
        assert f"{group}: " in compiled.stdout
    assert "commands now load them from the cache" in compiled.stdout


COMMANDS_AFTER = [
    ["train", "{corpus}", "-o", "{out}/sg.bin", "--model", "sg", "--epochs", "1", "--min-count", "1", "--no-eval",
     "--no-progress"],
    ["train", "{corpus}", "-o", "{out}/cbow.bin", "--loss", "hs", "--epochs", "1", "--min-count", "1", "--no-eval",
     "--no-progress"],
    ["classify", "train", "{labelled}", "-o", "{out}/c.bin", "--epochs", "1", "--no-progress"],
    ["doc2vec", "train", "{corpus}", "-o", "{out}/d", "--epochs", "1", "--min-count", "1"],
]


@pytest.mark.parametrize("argv", COMMANDS_AFTER, ids=lambda argv: " ".join(argv[:2]))
def test_after_compile_a_first_run_compiles_nothing(compiled, tmp_path, argv):
    files = compile_command.Files(tmp_path)
    filled = [word.format(corpus=files.corpus, labelled=files.labelled, out=tmp_path) for word in argv]
    result = run_reaped([sys.executable, "-m", "wordvec", *filled], timeout=600,
                        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert compiling.ANNOUNCEMENT not in result.stderr
    assert "kernels in" not in result.stderr  # neither the loader's nor the closing line
