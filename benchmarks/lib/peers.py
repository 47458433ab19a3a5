"""Run one word2vec trainer as a child process and measure it.

For each system (wordvec's CLI, gensim 4.4.0, the word2vec C tool) this module
builds the command line for a configuration, runs it alone, and reports:

* wall_seconds   the whole process: start-up, reading, vocabulary, training, saving;
* train_seconds  training only, from the system's own report (see each runner);
* peak_rss_mb    the child's peak resident memory, from wait4()'s rusage;
* the log (stdout and stderr, each piece time-stamped on arrival) in a file.

Hyperparameters are given once (`Params`, `CONFIGS`) and translated into each
system's flags, so all three train the same model.
"""

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

# name -> (sg, hs, negative): the objectives the targets cover.
CONFIGS = {
    "sg-ns": (1, 0, 5),
    "cbow-ns": (0, 0, 5),
    "sg-hs": (1, 1, 0),
    "cbow-hs": (0, 1, 0),
}


# Starting learning rate per config: the word2vec C tool's documented defaults
# (0.025 skip-gram, 0.05 CBOW), passed explicitly and identically to all three systems
# (gensim and wordvec default to 0.025 for both). The quiet-machine orientation figures
# of the first comparison (gensim cbow-ns 26.9% analogy) were made with 0.05: at 0.025 gensim
# cbow-ns reaches only 21.8% on wordbench-10m (measured 2026-11-22).
CONFIG_ALPHA = {"sg-ns": 0.025, "cbow-ns": 0.05, "sg-hs": 0.025, "cbow-hs": 0.05}


@dataclass(frozen=True)
class Params:
    """Shared hyperparameters (gensim's / wordvec's defaults)."""

    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    sample: float = 1e-3
    alpha: float = 0.025  # replaced per config by CONFIG_ALPHA unless --alpha is given
    min_alpha: float = 0.0001  # the C tool has no flag; it decays to alpha * 1e-4
    epochs: int = 5
    workers: int = 2
    seed: int = 1


@dataclass
class Measured:
    command: list
    returncode: int
    wall_seconds: float
    peak_rss_mb: float
    cpu_seconds: float  # user + system; cpu_seconds / wall_seconds < workers hints at a busy machine
    chunks: list  # (seconds since start, text) for each \r- or \n-terminated piece


TIME = "/usr/bin/time"  # GNU time: a small parent of the command's own, for its peak RSS


def run_measured(command, log_path, env=None):
    """Run `command` to completion, recording wall time, peak RSS and its output.

    The peak RSS comes from ``/usr/bin/time -f %M`` around the command where GNU time is
    installed: wait4's ru_maxrss of a child never reads below this process's own resident
    set when it started the child (Linux carries the high-water mark across exec), which
    hid small peaks under a large benchmark script's (bench_classify, 2026-11-26)."""
    peak_file = Path(str(log_path) + ".peak")
    wrapped = [TIME, "-f", "%M", "-o", str(peak_file), *command] if os.access(TIME, os.X_OK) else list(command)
    started = time.perf_counter()
    process = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    chunks, pending = [], b""
    with open(log_path, "wb") as log:
        log.write(("$ " + " ".join(map(str, command)) + "\n").encode())
        while True:
            data = os.read(process.stdout.fileno(), 1 << 16)
            if not data:
                break
            log.write(data)
            now = time.perf_counter() - started
            pieces = re.split(rb"[\r\n]", pending + data)
            pending = pieces.pop()
            chunks.extend((now, piece.decode(errors="replace")) for piece in pieces if piece.strip())
        if pending.strip():
            chunks.append((time.perf_counter() - started, pending.decode(errors="replace")))
    # wait4 instead of Popen.wait: it also hands back the child's resource usage.
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stdout.close()
    cpu = usage.ru_utime + usage.ru_stime
    peak_kb = usage.ru_maxrss
    if wrapped[0] == TIME and peak_file.is_file():
        peak_kb = int(peak_file.read_text().split()[-1])
        peak_file.unlink()
    return Measured(list(map(str, command)), process.returncode, wall, peak_kb / 1024, cpu, chunks)


def _result(system, measured, log_path, train_seconds, train_source, extra=None):
    result = {
        "system": system,
        "command": " ".join(measured.command),
        "returncode": measured.returncode,
        "wall_seconds": measured.wall_seconds,
        "peak_rss_mb": measured.peak_rss_mb,
        "cpu_seconds": measured.cpu_seconds,
        "train_seconds": train_seconds,
        "train_seconds_source": train_source,
        "log": str(log_path),
    }
    result.update(extra or {})
    return result


def run_gensim(peers_python, tasks_script, corpus, output, config, params, log_path):
    """gensim: gensim_tasks.py times build_vocab / train / save itself and prints JSON."""
    sg, hs, negative = CONFIGS[config]
    command = [
        peers_python, tasks_script, "train", corpus, output,
        "--vector-size", params.vector_size, "--window", params.window,
        "--min-count", params.min_count, "--sg", sg, "--hs", hs, "--negative", negative,
        "--sample", params.sample, "--alpha", params.alpha, "--min-alpha", params.min_alpha,
        "--epochs", params.epochs, "--workers", params.workers, "--seed", params.seed,
    ]
    measured = run_measured([str(part) for part in command], log_path)
    report = next((json.loads(text) for _, text in measured.chunks if text.startswith("{")), {})
    return _result("gensim", measured, log_path, report.get("train_seconds"),
                   "Word2Vec.train() timed inside the process", {"phases": report})


def run_c_tool(c_binary, corpus, output, config, params, log_path, seeded=False):
    """The C tool prints 'Alpha: .. Progress: P%' every 10k words per thread, flushed.

    ``seeded``: ``c_binary`` is setup_peers.sh's word2vec-seeded build, and the run's
    seed goes to it as W2V_SEED (the PyPI binary has no seed and ignores it).

    Training seconds = time between the first and last progress line, scaled up
    by the share of the work they bracket (the lines are time-stamped on arrival;
    the tool's own Words/thread/sec uses clock(), i.e. CPU time of all threads).
    """
    sg, hs, negative = CONFIGS[config]
    command = [
        c_binary, "-train", corpus, "-output", output, "-binary", 1,
        "-cbow", 1 - sg, "-size", params.vector_size, "-window", params.window,
        "-negative", negative, "-hs", hs, "-sample", params.sample,
        "-min-count", params.min_count, "-iter", params.epochs,
        "-threads", params.workers, "-alpha", params.alpha,
    ]
    env = dict(os.environ, W2V_SEED=str(params.seed)) if seeded else None
    measured = run_measured([str(part) for part in command], log_path, env=env)
    progress = [(t, float(m.group(1))) for t, text in measured.chunks
                if (m := re.search(r"Progress: ([0-9.]+)%", text))]
    train_seconds, final_percent = None, None
    if len(progress) >= 2 and progress[-1][1] > progress[0][1]:
        (t0, p0), (t1, p1) = progress[0], progress[-1]
        final_percent = p1
        train_seconds = (t1 - t0) * 100.0 / (p1 - p0)
    words = re.search(r"Words in train file: (\d+)", "\n".join(text for _, text in measured.chunks))
    extra = {"final_progress_percent": final_percent,
             "train_words_reported": int(words.group(1)) if words else None}
    return _result("c-seeded" if seeded else "c", measured, log_path, train_seconds,
                   "first-to-last progress line, scaled to 100%", extra)


def _wordvec_history(chunks):
    """The per-epoch history from the JSON object `wordvec train --json` prints last."""
    for _, text in reversed(chunks):
        if text.startswith("{") and '"history"' in text:
            try:
                return json.loads(text)["history"]
            except (ValueError, KeyError):
                return None
    return None


def run_wordvec(wordvec_exe, corpus, output, config, params, log_path, cache_dir, extra_flags=()):
    """wordvec: its CLI, as a user would type it (without the evaluation summary, which
    the peers do not run either). Training seconds = the sum of the per-epoch seconds of
    its history (printed with --json). The encoded-corpus cache is pointed at an empty
    folder, so the whole-process time includes reading and encoding the text.
    ``extra_flags``: further CLI flags (e.g. ``--batched``, ``--deterministic``)."""
    sg, hs, negative = CONFIGS[config]
    command = [
        wordvec_exe, "train", corpus, "-o", output,
        "--model", "sg" if sg else "cbow", "--loss", "hs" if hs else "ns",
        "--vector-size", params.vector_size, "--window", params.window,
        "--min-count", params.min_count, "--sample", params.sample,
        "--alpha", params.alpha, "--min-alpha", params.min_alpha,
        "--epochs", params.epochs, "--workers", params.workers, "--seed", params.seed,
        "--no-progress", "--no-eval", "--json", *extra_flags,
    ]
    if negative:
        command[5:5] = ["--negative", negative]
    env = dict(os.environ, PYTHONUNBUFFERED="1", WORDVEC_CACHE=str(cache_dir))
    measured = run_measured([str(part) for part in command], log_path, env=env)
    history = _wordvec_history(measured.chunks) or []
    epoch_seconds = [epoch["seconds"] for epoch in history]
    train_seconds = sum(epoch_seconds) if len(epoch_seconds) == params.epochs else None
    source = "sum of per-epoch seconds in its --json history" if train_seconds else "no history in its output"
    return _result("wordvec", measured, log_path, train_seconds, source,
                   {"epoch_seconds": epoch_seconds, "epoch_loss": [epoch.get("loss") for epoch in history]})
