"""A process that has imported wordvec's command line once and forks one child per example,
so that ~100 command lines do not each pay the 2-4 s of importing NumPy, SciPy, Numba and
wordvec (the documentation's examples would take minutes instead of about one).

Each child is what ``python -m wordvec ARGS`` is (``wordvec/__main__.py``:
``sys.exit(main())``) or what ``python SCRIPT`` is, in a fresh process forked before any
kernel ran: its own process group, the working folder, environment, stdin,
stdout and stderr of the request.  Requests and answers are JSON lines on stdin/stdout:

    {"argv": [...] | "script": PATH, "cwd": ..., "env": {...}, "stdin": PATH|null, "stdout": PATH, "stderr": PATH}
    -> {"pid": N}  (at once), then {"status": CODE} when the child has ended (killed: -SIGNAL)

Run by ``ForkServer`` (``running.py``), which kills a child's group at its timeout.
"""

import importlib
import json
import os
import runpy
import sys
import traceback


def _preload():
    from wordvec import cli

    for command in cli.COMMANDS.values():
        importlib.import_module(f"wordvec.cli.{command.module}")
    importlib.import_module("wordvec.models.saved")
    return cli


def _redirect(request):
    stdin = os.open(request["stdin"] or os.devnull, os.O_RDONLY)
    stdout = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    stderr = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for source, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(source, target)
        os.close(source)
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)


def _child(cli, request):
    os.setsid()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    _redirect(request)
    try:
        if "script" in request:
            sys.argv = [request["script"]]
            sys.path[0] = os.path.dirname(request["script"])
            runpy.run_path(request["script"], run_name="__main__")
            status = 0
        else:
            sys.argv = ["wordvec", *request["argv"]]
            status = cli.main(request["argv"])
    except SystemExit as exit_:
        status = exit_.code
    except BaseException:
        traceback.print_exc()
        status = 1
    if status is not None and not isinstance(status, int):
        print(status, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(status or 0)


def serve():
    cli = _preload()
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        answers.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(cli, request)
        print(json.dumps({"pid": pid}), file=answers, flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"status": os.waitstatus_to_exitcode(status)}), file=answers, flush=True)


if __name__ == "__main__":
    serve()
