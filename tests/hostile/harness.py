"""What every hostile-input test checks: the command ran (in a real subprocess, or
in-process through ``wordvec.cli.main`` where no crash or signal is involved) and either
failed cleanly (non-zero exit, one sentence on stderr, no traceback) or succeeded; the
files it was given are unchanged (hashed before and after); its peak memory is bounded
where that is the point."""

import contextlib
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.processes import run_reaped

# "wordvec: error: ..." from WordvecError, "wordvec COMMAND: error: ..." from argparse
ERROR_LINE = re.compile(r"^wordvec(?: [a-z-]+)*: error: ")

# Runs wordvec's CLI and records the process's peak resident set (KiB) in a file.
_MEASURED = (
    "import atexit, os, resource, sys\n"
    "atexit.register(lambda: open(os.environ['WORDVEC_TEST_MAXRSS'], 'w').write("
    "str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))\n"
    "from wordvec.cli import main\n"
    "sys.argv[0] = 'wordvec'\n"
    "sys.exit(main())\n"
)


def run_cli(*argv, cwd=None, env=None, timeout=120, stdin=subprocess.DEVNULL):
    """``wordvec ARGV...`` in a fresh interpreter; returns the CompletedProcess (text)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return run_reaped([sys.executable, "-m", "wordvec", *map(str, argv)], cwd=cwd, env=full_env,
                      stdin=stdin, capture_output=True, text=True, timeout=timeout)


def run_cli_measured(*argv, env=None, timeout=120):
    """``run_cli`` that also returns the child's peak resident memory in bytes."""
    with tempfile.NamedTemporaryFile(suffix=".maxrss") as record:
        full_env = dict(os.environ, WORDVEC_TEST_MAXRSS=record.name, **(env or {}))
        result = run_reaped([sys.executable, "-c", _MEASURED, *map(str, argv)], env=full_env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
        text = Path(record.name).read_text()
    return result, int(text) * 1024 if text else None


def run_main(*argv):
    """``wordvec.cli.main(ARGV)`` in this process, as a CompletedProcess (for cases that
    cannot crash the interpreter: every check happens before any compiled kernel runs)."""
    from wordvec.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exit_:  # argparse rejects an argument
            code = exit_.code
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def assert_clean_failure(result, *fragments):
    """Non-zero exit, exactly one line on stderr starting 'wordvec: error: ' (or argparse's
    'wordvec COMMAND: error: '), no traceback, and every fragment (case-insensitive) in it."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0, f"exit 0 for a bad input; stdout={result.stdout[-500:]!r}"
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in lines if ERROR_LINE.match(line)]
    assert len(errors) == 1, result.stderr[-3000:]
    for fragment in fragments:
        assert fragment.lower() in errors[0].lower(), (fragment, errors[0])
    return errors[0]


def digest(path):
    """SHA-256 of a file, or of every file under a directory (relative names included)."""
    path = Path(path)
    sha = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        sha.update(str(file.relative_to(path) if path.is_dir() else file.name).encode())
        sha.update(file.read_bytes())
    return sha.hexdigest()


def digests(directory):
    """{relative path: digest} of every file under ``directory`` (symlinks by their target text)."""
    directory = Path(directory)
    found = {}
    for path in sorted(directory.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(directory))] = "-> " + os.readlink(path)
        elif path.is_file():
            found[str(path.relative_to(directory))] = digest(path)
    return found
