"""Run a Python snippet against one source tree of wordvec, for the A/B scripts.

``python -c`` puts the current directory first on ``sys.path``, ahead of PYTHONPATH:
run from the repository root, every "tree" of an A/B imported the repository's own
wordvec, and the A/Bs compared a tree with itself (earlier kernel and
LM A/Bs that reported "no difference" were such runs).  ``-P`` (Python
3.11+) leaves the current directory off, and the child checks where wordvec came from.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

CHECK = """
import wordvec as _wordvec, pathlib as _pathlib, sys as _sys
if not _pathlib.Path(_wordvec.__file__).resolve().is_relative_to(_pathlib.Path({tree!r})):
    _sys.exit(f"bench: imported wordvec from {{_wordvec.__file__}}, not from {tree!r}")
"""


def run_in_tree(tree, child, args, **env):
    """Run ``child`` (Python source) with wordvec from ``tree``; return the JSON object of its
    last line of output.  ``env``: extra environment variables."""
    tree = str(Path(tree).resolve())
    environment = dict(os.environ, PYTHONPATH=tree, **env)
    done = subprocess.run([sys.executable, "-P", "-c", CHECK.format(tree=tree) + child, *map(str, args)],
                          env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the child failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
