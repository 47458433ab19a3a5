"""The JSON record every benchmark script leaves in benchmarks/results/ (tracked, small).

A record says what was run (command line, commit, which tracked files differed from it),
on what (system versions, CPU, load average before and after), and what came out: one
entry per run with its wall and CPU seconds, peak resident memory and quality figures.
README's and benchmarks/README's tables are generated from these files by tables.py, so
every figure there can be re-derived (and re-measured by running the command again).

    record = Record("word2vec", note="one seed; machine shared with other jobs")
    record.add_run(system="wordvec", config="sg-ns", wall_seconds=25.9, cpu_seconds=50.1,
                   peak_rss_mb=154, quality={"analogy": 0.273})
    record.save()          # benchmarks/results/word2vec/word2vec.json, atomically
"""

import datetime
import importlib.metadata
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

from wordvec.io.atomic import save_json

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
REPO = HERE.parent
RESULTS = HERE / "results"
FORMAT = "wordvec-benchmark-record"
VERSION = 1
RUN_FIELDS = ("wall_seconds", "cpu_seconds", "peak_rss_mb")  # every run has these (None if unknown)
# results/<family>/: a record's family by the start of its name; the rest go to "other"
FAMILIES = (("classify", "classifier"), ("doc2vec", "doc2vec"), ("load", "vectors"), ("ann", "vectors"),
            ("phrases", "phrases"), ("bitwise", "checks"), ("epoch-ab", "checks"), ("claims", "word2vec"),
            ("word2vec", "word2vec"), ("vocab", "word2vec"), ("evaluate", "word2vec"), ("estimate", "word2vec"),
            ("fasttext-unsupervised", "word2vec"), ("fasttext", "classifier"), ("static", "static"), ("gensim", "word2vec"), ("subword", "word2vec"),
            ("serve", "vectors"), ("cold-start", "start"))


def family_of(name):
    """The folder of results/ that holds the record NAME (``classify-...`` -> ``classifier``)."""
    return next((family for prefix, family in FAMILIES if name.startswith(prefix)), "other")


def record_path(name, results=RESULTS):
    """Where the record NAME is: results/<family>/NAME.json (found anywhere under results/
    if it was filed elsewhere)."""
    found = sorted(Path(results).rglob(f"{name}.json"))
    return found[0] if found else Path(results) / family_of(name) / f"{name}.json"


def shown_path(name):
    """The record's path as the tables print it."""
    return f"benchmarks/results/{family_of(name)}/{name}.json"


def _git(*args):
    try:
        return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _version(package):
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _cpu_model():
    with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
        return next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")),
                    platform.processor())


def system_versions(extra=None):
    """Python, platform, CPU and the packages that decide speed; ``extra`` adds peers' versions."""
    found = {"python": platform.python_version(), "platform": platform.platform(), "cpu": _cpu_model(),
             "cpus": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0))}
    found.update({package: _version(package) for package in ("wordvec", "numpy", "numba", "scipy", "gensim")})
    found.update(extra or {})
    return found


def source_state():
    """The commit, and the tracked files that differed from it when the run started (the
    tree is shared while others work: a run measures the commit plus these edits)."""
    changed = _git("diff", "--name-only", "HEAD", "--", "wordvec", "benchmarks")
    return {"commit": _git("rev-parse", "HEAD"), "uncommitted": changed.splitlines() if changed else []}


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class Record:
    """One benchmark invocation: started on creation, written by ``save``."""

    def __init__(self, name, note="", versions=None, argv=None):
        self.name = name
        self.data = {
            "format": FORMAT, "version": VERSION, "name": name, "note": note,
            "command_line": " ".join([Path(sys.executable).name, *(sys.argv if argv is None else argv)]),
            **source_state(), "system": system_versions(versions),
            "started": _now(), "load_before": list(os.getloadavg()), "runs": [],
        }

    def add_run(self, **fields):
        """One measured run: ``system``, ``config``, the RUN_FIELDS, ``quality`` (a dict) and
        anything else that names the run (seed, load before/after it, throughput ...)."""
        run = {field: None for field in RUN_FIELDS}
        run.update(fields)
        self.data["runs"].append(run)
        return run

    def save(self, directory=None):
        """Write ``results/<family>/NAME.json`` (or ``directory/NAME.json``) atomically, with
        the end time and the load after."""
        self.data.update(finished=_now(), load_after=list(os.getloadavg()))
        path = RESULTS / family_of(self.name) / f"{self.name}.json" if directory is None else \
            Path(directory) / f"{self.name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_json(path, self.data)
        return path


def measure(function):
    """Run ``function()`` in this process: (its result, the RUN_FIELDS).  CPU seconds count
    every thread; the peak resident memory is this process's peak so far (in-process runs
    cannot separate their peaks: put the lightest system first)."""
    before, started = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    result = function()
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result, {"wall_seconds": wall, "cpu_seconds": cpu, "peak_rss_mb": after.ru_maxrss / 1024}


def peak_rss_mb_of_children():
    """Peak resident memory (MB) of the largest child process waited for so far (Linux: KiB)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
