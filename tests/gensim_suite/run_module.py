"""Run one of gensim's installed test modules with pytest and print each test's outcome as
JSON: ``python run_module.py test_word2vec [--gensim] [--tb] [-k EXPRESSION]``.  Without ``--gensim`` wordvec's
classes are put in gensim's place first (``redirect.install``); with it gensim is tested as
installed, the reference count; ``-k`` selects tests as pytest's ``-k`` does.  Run in a process of its own: the redirect changes gensim's
modules for the rest of the process.
"""

import json
import os
import sys
import tempfile
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redirect  # noqa: E402  (this folder, whatever the working directory)


class Outcomes:
    """nodeid -> "passed" / "failed" / "skipped", a test failing in any phase failing."""

    def __init__(self):
        self.outcomes = {}
        self.seconds = {}
        self.reasons = {}

    def pytest_runtest_logreport(self, report):
        name = report.nodeid.split("::", 1)[-1]
        self.seconds[name] = round(self.seconds.get(name, 0.0) + report.duration, 2)
        if report.failed:
            self.outcomes[name] = "failed"
            crash = getattr(report.longrepr, "reprcrash", None)
            self.reasons.setdefault(name, " ".join((crash.message if crash else str(report.longrepr)).split())[:200])
        elif report.when == "call" or (report.skipped and name not in self.outcomes):
            self.outcomes.setdefault(name, report.outcome)
            if report.when == "call":
                self.outcomes[name] = report.outcome

    def pytest_collectreport(self, report):
        if report.failed:
            self.outcomes[f"<collect {report.nodeid}>"] = "failed"


def main(argv):
    module, on_gensim = argv[0], "--gensim" in argv
    warnings.simplefilter("ignore")
    if not on_gensim:
        redirect.install()
    path = os.path.join(os.path.dirname(importlib_path("gensim.test")), f"{module}.py")
    outcomes = Outcomes()
    with tempfile.TemporaryDirectory() as folder:
        ini = os.path.join(folder, "pytest.ini")
        with open(ini, "w") as f:
            f.write("[pytest]\n")
        os.chdir(folder)
        pytest.main([path, "-q", "-p", "no:cacheprovider", "-c", ini, "--rootdir", folder,
                     "-W", "ignore", "--no-header", "-o", "console_output_style=classic",
                     "--tb=line" if "--tb" in argv else "--tb=no", *selection(argv)],
                    plugins=[outcomes])
    print("OUTCOMES " + json.dumps(outcomes.outcomes, sort_keys=True))
    print("SECONDS " + json.dumps(outcomes.seconds, sort_keys=True))
    print("REASONS " + json.dumps(outcomes.reasons, sort_keys=True))


def selection(argv):
    """pytest's ``-k EXPRESSION`` when ``argv`` has one, else nothing."""
    return ["-k", argv[argv.index("-k") + 1]] if "-k" in argv else []


def importlib_path(package):
    import importlib.util
    return importlib.util.find_spec(package).origin


if __name__ == "__main__":
    main(sys.argv[1:])
