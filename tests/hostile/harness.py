"""What every hostile-input test checks: the command ran in a real subprocess and either
failed cleanly (non-zero exit, one sentence on stderr, no traceback) or succeeded; the
files it was given are unchanged (hashed before and after)."""

import hashlib
import os
import subprocess
import sys
from pathlib import Path


def run_cli(*argv, cwd=None, env=None, timeout=120, stdin=subprocess.DEVNULL):
    """``wordvec ARGV...`` in a fresh interpreter; returns the CompletedProcess (text)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "wordvec", *map(str, argv)], cwd=cwd, env=full_env,
                          stdin=stdin, capture_output=True, text=True, timeout=timeout)


def assert_clean_failure(result, *fragments):
    """Non-zero exit, exactly one non-empty line on stderr starting 'wordvec: error: ',
    no traceback, and every fragment (case-insensitive) in that line."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0, f"exit 0 for a bad input; stdout={result.stdout[-500:]!r}"
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in lines if line.startswith("wordvec: error: ")]
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
