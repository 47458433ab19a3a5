"""Running the documentation's examples: each shell line and each Python block in its own
process (its own process group, killed when it ends or at its timeout), in the document's
copy of the workspace, with its exit status checked (0).

How a shell line is handled (``classify_command``); a line joined by ``&&`` is handled part
by part, its trailing ``# comment`` dropped:

- ``install``: ``python3 -m venv``, ``pip install``, ``source .venv/bin/activate``,
  ``git clone``, ``bash .ci/run``, ``mkdocs serve``: counted, not run (they would install
  this package again, or start the documentation server); the test runs in the environment
  they make, so ``.venv/bin/wordvec`` there is ``wordvec`` here.
- ``suite``: ``.venv/bin/pytest`` is the test suite this test belongs to: counted, not run.
- ``peer``: ``./word2vec``, ``./fasttext`` are the other tools' own programs, shown beside
  ours: counted, not run (tests/cli/test_word2vec_c.py and
  tests/classifier/test_cli_fasttext.py run the same command lines against them).
- ``cluster``: ``ray start --head``: counted, not run as written; the test starts a local
  Ray head itself (``ray_head``: a free port, stopped after the document) and the block's
  ``replace`` directive puts its address (``$DOCS_RAY_HEAD``) where the page writes
  ``HEAD:6379``.
- ``marked``: a line the page marks ``not run TEXT: REASON`` (``blocks.py``): counted, not run.
- ``serve``: ``wordvec serve ...`` runs (a fresh ``python -m wordvec``) on a free port
  (``--port`` appended) until it answers ``GET /`` with 200, then is stopped.
- ``run``: every other line.  A plain ``wordvec ...``/``wordvec-word2vec ...`` line runs as
  ``python -m wordvec ...`` in a child forked by ``forkserver.py`` (which imported wordvec
  once: ~0.5-2 s a line instead of 3-5 s); a line with a pipe or a redirection runs in bash,
  where ``wordvec`` and ``wordvec-word2vec`` (``program_folder``) are this interpreter's.
  Its stdin is ``stdin.txt`` unless the line redirects it (``wordvec fasttext nn`` reads its
  queries there, ``classify predict -`` its lines).

Python blocks run as ``python SCRIPT`` in a forked child too, after the definitions of the
names their ``given`` directive lists (``GIVEN``).
"""

import contextlib
import json
import os
import re
import secrets
import select
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.processes import Children, run_reaped

ROOT = Path(__file__).resolve().parents[2]
LINE_TIMEOUT = 120

NOT_RUN = {
    "install": re.compile(r"^(python3?|\S*/python3?) -m venv\b|^(\S*/)?pip3? install\b|^source \S*activate\b"
                          r"|^git clone\b|^bash \.ci/run\b|^mkdocs serve\b"),
    "suite": re.compile(r"^(\S*/)?pytest\b"),
    "peer": re.compile(r"^\./(word2vec|fasttext)\b"),
    "cluster": re.compile(r"^ray start\b"),
}

# Python names a block uses without defining them (``<!-- example: given NAME -->``):
# what the page defines elsewhere or leaves to the reader's program
GIVEN = {
    "np": "import numpy as np",
    "KeyedVectors": "from wordvec import KeyedVectors",
    "Word2Vec": "from wordvec import Word2Vec",
    "FastText": "from wordvec import FastText",
    "load_facebook_vectors": "from wordvec.models.word2vec.fasttext import load_facebook_vectors",
    "load_facebook_model": "from wordvec.models.word2vec.fasttext import load_facebook_model",
    "save_facebook_model": "from wordvec.models.word2vec.fasttext import save_facebook_model",
    "Phrases": "from wordvec.models.phrases.model import Phrases",
    "ENGLISH_CONNECTOR_WORDS": "from wordvec.models.phrases.model import ENGLISH_CONNECTOR_WORDS",
    "sentences": "sentences = [line.split() for line in open('corpus.txt', encoding='utf-8')]",
    "corpus": "corpus = [line.split() for line in open('corpus.txt', encoding='utf-8')]",
    "more_sentences": "more_sentences = [['a', 'brand', 'new', 'word'], ['another', 'brand', 'new', 'one']] * 3",
    "common_texts": "common_texts = [['human', 'machine', 'interface'], ['graph', 'trees'], "
                    "['graph', 'minors', 'trees'], ['survey', 'of', 'user', 'computer', 'system']]",
    "vector": "import numpy as np; vector = np.linspace(-1, 1, 100, dtype=np.float32)",
    "matrix": "import numpy as np; matrix = np.random.default_rng(0).standard_normal((3, 100))",
    "words": "words = ['king', 'queen', 'man', 'woman', 'palace']",
    "keys": "keys = ['apple', 'pear']",
    "vectors": "import numpy as np; vectors = np.ones((2, 100), dtype=np.float32)",
    "key": "key = 'plum'",
    "EpochLogger": "from wordvec.models.base.callbacks import CallbackAny2Vec\n"
                   "class EpochLogger(CallbackAny2Vec):\n"
                   "    def on_epoch_end(self, model):\n"
                   "        print('epoch done')",
    "rule": "def rule(word, count, min_count):\n    return 0  # gensim's RULE_DEFAULT",
}


@dataclass
class Outcome:
    where: str  # path:line of the block
    command: str  # the shell line or "python block"
    kind: str  # run, serve, python, or a NOT_RUN kind
    ok: bool
    detail: str = ""
    seconds: float = 0.0


def classify_command(part):
    for kind, pattern in NOT_RUN.items():
        if pattern.search(part):
            return kind
    if re.match(r"^wordvec serve\b", part):
        return "serve"
    return "run" if re.search(r"(^|[|;]\s*)(wordvec|wordvec-word2vec)\b", part) else "unknown"


def command_lines(text):
    """A shell block's command lines: continuations joined, blank and comment-only lines dropped."""
    lines = re.sub(r"\\\n\s*", " ", text).splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def without_comment(line):
    """The line without its trailing ``# comment`` (a ``#`` outside quotes, after a space)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line


def command_parts(line):
    """(kind, command) for each ``&&`` part of a line, its comment dropped, and ``.venv/bin/``
    dropped from programs."""
    return [(classify_command(part), part) for part in
            (re.sub(r"(^|\s)\.venv/bin/", r"\1", piece.strip()) for piece in without_comment(line).split("&&"))]


def program_folder(folder):
    """A folder holding ``wordvec`` and ``wordvec-word2vec`` as this interpreter runs them."""
    folder.mkdir()
    scripts = {"wordvec": "-m wordvec",
               "wordvec-word2vec": "-c 'from wordvec.cli.foreign.word2vec_c import console_main; console_main()'"}
    for name, arguments in scripts.items():
        path = folder / name
        path.write_text(f'#!/bin/sh\nexec "{sys.executable}" {arguments} "$@"\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return folder


def environment(programs, cache, extra=None):
    env = dict(os.environ)
    env.update(PATH=f"{programs}{os.pathsep}{env.get('PATH', '')}",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p),
               WORDVEC_CACHE=str(cache), WORDVEC_NO_PROGRESS="1", MPLBACKEND="Agg")
    env.update(extra or {})
    return env


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _tail(text, limit=1500):
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else (text or "")
    return text[-limit:]


SHELL_SYNTAX = re.compile(r"[|<>;&$`()*?]")


class ForkServer:
    """The client of ``forkserver.py``: runs a ``wordvec`` command line or a Python script in
    a forked child, waits for it with a timeout (then kills its process group), and is
    itself stopped (with any child) by ``close``."""

    def __init__(self, logs):
        self.logs = logs
        self.children = Children()
        env = environment(logs, logs)
        self.process = self.children.popen([sys.executable, "-m", "tests.docs.forkserver"], cwd=ROOT, env=env,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.pending = b""
        self.count = 0

    def close(self):
        self.children.reap()

    def start(self, request):
        self.count += 1
        request = dict(request, stdout=str(self.logs / f"{self.count}.out"), stderr=str(self.logs / f"{self.count}.err"))
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()
        return self._answer(LINE_TIMEOUT)["pid"], request

    def wait(self, pid, timeout):
        """The child's exit status, or None after killing its group at ``timeout``."""
        answer = self._answer(timeout)
        if answer is None:
            kill_process_group(pid)
            self._answer(LINE_TIMEOUT)
        return answer and answer["status"]

    def run(self, request, timeout=LINE_TIMEOUT):
        pid, request = self.start(request)
        status = self.wait(pid, timeout)
        output = Path(request["stdout"]).read_bytes(), Path(request["stderr"]).read_bytes()
        detail = "timed out" if status is None else f"exit {status}"
        return status == 0, "" if status == 0 else f"{detail}\n{_tail(output[0], 600)}\n{_tail(output[1], 3000)}"

    def _answer(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                raise RuntimeError("the fork server ended")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)


def kill_process_group(pid):
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _stdin_of(command, cwd):
    return None if re.search(r"(^|\s)<\s*\S|\|", command) else str(cwd / "stdin.txt")


def run_line(command, cwd, env, server):
    """A simple ``wordvec ...`` line (its ``$NAME``s replaced from ``env``) runs in a child of
    the fork server; a line with shell syntax (a pipe, a redirection) runs in bash, its
    ``wordvec`` a fresh process."""
    command = re.sub(r"\$([A-Z_]+)\b", lambda name: env[name[1]], command)  # the cluster's address
    if not SHELL_SYNTAX.search(command):
        program, *arguments = shlex.split(command)
        argv = {"wordvec": arguments, "wordvec-word2vec": ["word2vec", *arguments]}[program]
        return server.run({"argv": argv, "cwd": str(cwd), "env": env, "stdin": _stdin_of(command, cwd)})
    stdin = _stdin_of(command, cwd)
    with open(stdin or os.devnull, "rb") as handle:
        result = run_reaped(["bash", "-c", "set -o pipefail; " + command], LINE_TIMEOUT, capture_output=True,
                            cwd=cwd, env=env, stdin=handle)
    ok = result.returncode == 0
    return ok, "" if ok else f"exit {result.returncode}\n{_tail(result.stdout, 600)}\n{_tail(result.stderr)}"


def run_server(command, cwd, env):
    """Start ``wordvec serve`` (a fresh process: a server's threads and BLAS settings are best
    not inherited from a fork) on a free port, wait for ``GET /`` to answer 200, stop it."""
    port = free_port()
    argv = [sys.executable, "-m", "wordvec", *shlex.split(command)[1:], "--port", str(port)]
    children = Children()
    answered = last_error = None
    with open(cwd / f".serve-{port}.log", "w+b") as log:
        try:
            process = children.popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT)
            deadline = time.monotonic() + LINE_TIMEOUT
            while answered is None and time.monotonic() < deadline and process.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                        answered = answer.status
                except OSError as error:  # refused until it listens
                    last_error = error
                    time.sleep(0.2)
        finally:
            children.reap()
        log.seek(0)
        output = log.read()
    return answered == 200, "" if answered == 200 else f"GET / on port {port}: {answered or last_error}\n{_tail(output)}"


def python_script(block):
    prelude = [GIVEN[name] for name in block.given]
    return "\n".join(prelude + [block.runnable_text()])


def run_python(block, cwd, env, server):
    script = cwd / f".example-{Path(block.path).stem}-{block.line}.py"
    script.write_text(python_script(block), encoding="utf-8")
    return server.run({"script": str(script), "cwd": str(cwd), "env": env, "stdin": None})


def run_block(block, cwd, env, server):
    """The outcomes of one block, in order; a shell block stops at its first failing line."""
    if block.kind == "python":
        unknown = [name for name in block.given if name not in GIVEN]
        if unknown:
            return [Outcome(block.where, "python block", "python", False, f"given names the test lacks: {unknown}")]
        started = time.monotonic()
        ok, detail = run_python(block, cwd, env, server)
        return [Outcome(block.where, "python block", "python", ok, detail, time.monotonic() - started)]
    outcomes = []
    for line in command_lines(block.runnable_text()):
        for kind, part in command_parts(line):
            if any(marked in part for marked, _ in block.not_run):
                outcomes.append(Outcome(block.where, part, "marked", True))
                continue
            if kind in NOT_RUN:
                outcomes.append(Outcome(block.where, part, kind, True))
                continue
            started = time.monotonic()
            if kind == "unknown":
                ok, detail = False, "a line the test does not know how to run (not wordvec, not an install)"
            elif kind == "serve":
                ok, detail = run_server(part, cwd, env)
            else:
                ok, detail = run_line(part, cwd, env, server)
            outcomes.append(Outcome(block.where, part, kind, ok, detail, time.monotonic() - started))
            if not ok:
                return outcomes
    return outcomes


@contextlib.contextmanager
def ray_head(temp):
    """A local Ray head node (``ray start --head --block`` in its own process group) on a free
    port; yields the environment its address is in (``DOCS_RAY_HEAD``), stops it after.  Its
    temporary folder is short (Ray's socket paths must fit in 107 bytes) and removed after."""
    port = free_port()
    ray_temp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    token = secrets.token_hex(32)
    env = environment(temp, temp, {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token})
    children = Children()
    log = open(temp / "ray.log", "wb")
    head = None
    try:
        head = children.popen([sys.executable, "-m", "ray.scripts.scripts", "start", "--block", "--head",
                               "--disable-usage-stats", "--node-ip-address=127.0.0.1", f"--port={port}",
                               "--num-cpus=2", "--include-dashboard=false", f"--temp-dir={ray_temp}"],
                              env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + LINE_TIMEOUT
        while head.poll() is None and time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        else:
            raise RuntimeError(f"the local Ray head did not start (see {temp / 'ray.log'})")
        yield {key: env[key] for key in ("RAY_USAGE_STATS_ENABLED", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN")} | {
            "DOCS_RAY_HEAD": f"127.0.0.1:{port}"}
    finally:
        _stop_gently(head)
        children.reap()
        log.close()
        shutil.rmtree(ray_temp, ignore_errors=True)


def _stop_gently(process):
    """SIGTERM to a Ray node's group first (it cleans up its temporary files), then the reaper."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
