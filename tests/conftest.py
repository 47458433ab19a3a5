"""Shared test helpers: where ../shared lives, processes that cannot outlive their test,
and a suite that cannot skip silently in CI.

- ``shared_file`` skips a test (with the reason) where ../shared/data is absent.
- In CI (``CI=true``) every skip is turned into a failure, whatever its reason (no
  chromium, a Ray cluster that did not start, no ../shared/data, a missing extra): CI
  installs everything, so a skip there means a check silently did not run.  Locally the
  skips stay, with their reasons.
- The run ends with one line counting the skips and their reasons (before pytest's own
  closing line).
- ``children`` starts processes in their own process group and kills the whole group
  when the test ends, passed or failed, so a failed test leaves nothing running.
- The suite runs in two processes (pytest-xdist, ``-n 2 --dist loadfile`` in pyproject's
  addopts: a test module stays in one process, with its module fixtures); each process has
  its own encoded-corpus cache (``WORDVEC_CACHE``), so that neither evicts what the other
  is reading, and the user's ``~/.cache/wordvec`` is left alone.
"""

import collections
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from tests.processes import Children

SHARED = Path(__file__).resolve().parents[2] / "shared"
_OWN_CACHE = []
DATA = SHARED / "data"
IN_CI = os.environ.get("CI", "").lower() == "true"


def shared_file(*parts):
    """Path to a file in ../shared/data, or skip the test with a clear reason (a failure in CI)."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data {path} is not available on this machine")
    return path


# ----------------------------------------------------------------------------- child processes

@pytest.fixture
def children():
    """Start processes with ``children.popen(...)``; all are killed when the test ends."""
    started = Children()
    try:
        yield started
    finally:
        started.reap()


# ----------------------------------------------------------------------------- binary readers

@pytest.fixture(params=["numba", "without-numba"])
def reader_kernels(request, monkeypatch):
    """Vector files read by the Numba kernels, then without Numba: binary files by NumPy
    alone (``wordvec.vectors.reading.use_compiled``; by itself it chooses by size, and the
    tests' process has Numba loaded), text by the C parser (``reading.text_row_parser``;
    where the C extension was not built this skips, a failure in CI)."""
    from wordvec.vectors import reading

    numba = request.param == "numba"
    monkeypatch.setattr(reading, "use_compiled",
                        lambda compiled, matrix_bytes: numba if compiled is None else compiled)
    if numba:
        monkeypatch.setattr(reading, "text_row_parser", reading._compiled)
    elif reading.text_row_parser().__name__ != "wordvec.io._text_rows":
        pytest.skip("the C text parser wordvec.io._text_rows was not built (no C compiler at install)")
    return request.param


# ----------------------------------------------------------------------------- signal mask

def _blocked_signals():
    return signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.fixture(autouse=True)
def signal_mask_is_left_as_found():
    """A test (or the code it runs) that leaves SIGINT blocked in the main thread would make
    every later child process inherit the block and ignore Ctrl-C: fail that test instead."""
    before = _blocked_signals()
    yield
    after = _blocked_signals()
    if after != before:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        pytest.fail(f"the test changed the main thread's blocked signals from {sorted(before)} to {sorted(after)}")


# ----------------------------------------------------------------------------- skips

def _skip_reason(report):
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    return str(report.longrepr)


def _fail_if_skipped_in_ci(report):
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"CI=true: this check must run in CI, but it skipped: {_skip_reason(report)}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_if_skipped_in_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield  # a whole module skipped at import (pytest.importorskip at the top)
    _fail_if_skipped_in_ci(outcome.get_result())


def pytest_terminal_summary(terminalreporter):
    """One line: how many tests skipped, and why (grouped by reason)."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = collections.Counter(_skip_reason(report) for report in skipped)
    listed = "; ".join(f"{reason} (x{count})" for reason, count in reasons.most_common())
    terminalreporter.write_line(f"skipped: {len(skipped)}" + (f" -- {listed}" if listed else ""))


# ----------------------------------------------------------------------------- the cache

def pytest_configure(config):
    """A cache of this process's own, unless the caller chose one (a value this suite set in
    the process that started this one is not a choice: xdist's workers inherit it)."""
    if os.environ.get("WORDVEC_CACHE") in (None, os.environ.get("WORDVEC_TESTS_CACHE")):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _OWN_CACHE.append(tempfile.mkdtemp(prefix=f"wordvec-tests-{worker}-"))
        os.environ["WORDVEC_CACHE"] = os.environ["WORDVEC_TESTS_CACHE"] = _OWN_CACHE[-1]


def pytest_unconfigure(config):
    while _OWN_CACHE:
        shutil.rmtree(_OWN_CACHE.pop(), ignore_errors=True)
