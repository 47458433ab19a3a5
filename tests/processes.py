"""Child processes that cannot outlive the test that started them: each starts in its own
session (process group), and the whole group is killed when the test ends or times out."""

import contextlib
import os
import signal
import subprocess


class Children:
    """Processes started by one test; ``reap`` kills each one's process group and waits."""

    def __init__(self):
        self.started = []

    def popen(self, argv, interactive=False, **kwargs):
        """``subprocess.Popen(argv, **kwargs)`` in a new session (its own process group).

        ``interactive``: the child starts with SIGINT at its default disposition, as a
        program started from a terminal does, even where this suite inherited SIGINT
        *ignored* (run as a background job of a non-interactive shell: `pytest &` in a
        script, nohup), which every child would inherit and Python would keep; a test
        that sends Ctrl-C needs it."""
        if interactive:
            kwargs["preexec_fn"] = _default_sigint
        process = subprocess.Popen(argv, start_new_session=True, **kwargs)
        self.started.append(process)
        return process

    def reap(self):
        for process in self.started:
            kill_group(process)


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # runs in the child, between fork and exec


def kill_group(process):
    """SIGKILL ``process`` and everything in its process group, wait for it, close its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()  # if it left its group
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def run_reaped(argv, timeout, capture_output=False, **kwargs):
    """``subprocess.run(argv, timeout=..., ...)`` whose child (and its process group) is
    killed if the run times out or the test is interrupted."""
    if capture_output:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process = subprocess.Popen(argv, start_new_session=True, **kwargs)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    finally:
        if process.returncode is None:
            kill_group(process)
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)
