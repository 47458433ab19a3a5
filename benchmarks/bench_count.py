"""Benchmark the count-based models: co-occurrence counting, GloVe, PPMI-SVD.

Each measurement runs the real ``wordvec`` command line in a child process (with a
fresh encoding cache, so reading and encoding the corpus are included) and reports its
wall time, the CPU time of the child, the child's peak resident memory
(``ru_maxrss`` of RUSAGE_CHILDREN), and what the command itself reports: counting
throughput (pairs/s), training throughput (non-zero updates/s) and, for the models,
the evaluation summary (Google analogies restricted to 30k words, WordSim-353 and
SimLex-999 Spearman rho).

    .venv/bin/python benchmarks/bench_count.py cooccur glove svd        # wordbench-10m
    .venv/bin/python benchmarks/bench_count.py cooccur --full           # the 58M-token corpus

Settings (those of the targets): cooccur window 10 symmetric, 1/distance;
GloVe window 10, x_max 10, 15 epochs, D 100, min_count 5, 2 workers, W + W~; PPMI-SVD
window 5 uniform, cds 0.75, no shift, eig 0.5, D 100.  Results are appended to
``benchmarks/out/count.jsonl`` (ignored by git).
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lib.records import Record

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "corpus"
PYTHON = sys.executable

RUNS = {
    "cooccur": ["cooccur", "{corpus}", "-o", "{tmp}/X.npz", "--window", "10", "--no-progress"],
    "glove": ["train", "{corpus}", "-o", "{tmp}/glove.bin", "--model", "glove", "--vector-size", "100",
              "--window", "10", "--min-count", "5", "--x-max", "10", "--epochs", "15", "--workers", "2",
              "--seed", "1", "--no-progress", "--json"],
    "svd": ["train", "{corpus}", "-o", "{tmp}/svd.bin", "--model", "svd", "--vector-size", "100",
            "--window", "5", "--min-count", "5", "--cds", "0.75", "--shift", "1", "--eig", "0.5",
            "--no-progress", "--json"],
}


def run_child(argv, tmp):
    """Run ``wordvec ARGV`` in a child process; return (stdout, wall s, cpu s, peak MB)."""
    env = dict(os.environ, WORDVEC_CACHE=str(Path(tmp) / "cache"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([PYTHON, "-m", "wordvec", *argv], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"wordvec {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return done.stdout, done.stderr, wall, cpu, after.ru_maxrss / 1024  # maxrss of the largest child


def measure(name, corpus, memory=None):
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-count-") as tmp:
        argv = [a.format(corpus=corpus, tmp=tmp) for a in RUNS[name]] + (["--memory", memory] if memory else [])
        stdout, stderr, wall, cpu, peak_mb = run_child(argv, tmp)
    extra = ["--memory", memory] if memory else []
    row = {"run": name, "corpus": Path(corpus).name, "command": "wordvec " + " ".join(RUNS[name] + extra),
           "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "peak_mb": round(peak_mb)}
    if name == "cooccur":
        match = re.search(r"([\d,]+) pairs counted in ([\d.]+) s \(([\d.]+) s CPU; ([\d.]+)M pairs/s\); "
                          r"([\d,]+) non-zeros", stdout)
        row.update(pairs=int(match.group(1).replace(",", "")), count_s=float(match.group(2)),
                   count_cpu_s=float(match.group(3)), mpairs_per_s=float(match.group(4)),
                   nnz=int(match.group(5).replace(",", "")))
    else:
        result = json.loads(stdout.strip().splitlines()[-1])
        evaluation = result["evaluation"]
        row.update(analogy=round(evaluation["analogy"]["total"], 4),
                   **{k: round(v["spearman"], 4) for k, v in evaluation["similarity"].items()})
        history = result["history"]
        if name == "glove":
            seconds = sum(h["seconds"] for h in history)
            updates = sum(h["updates"] for h in history)
            cpu = sum(h.get("cpu_seconds", float("nan")) for h in history)
            row.update(train_s=round(seconds, 1), m_updates_per_s=round(updates / seconds / 1e6, 3),
                       train_cpu_s=round(cpu, 1), m_updates_per_cpu_s=round(updates / cpu / 1e6, 3),
                       nnz=history[0]["updates"], final_loss=round(history[-1]["loss"], 5))
        else:
            row.update(svd_s=round(history[0]["seconds_svd"], 1), nnz_ppmi=history[0]["nnz"])
        timings = re.findall(r"counted (\d+) pairs in ([\d.]+) s, ([\d.]+) s CPU", stderr)
        if timings:
            row["count_s"], row["count_cpu_s"] = float(timings[-1][1]), float(timings[-1][2])
    row["load_before_after"] = f"{load_before:.1f}->{os.getloadavg()[0]:.1f}"  # > ~2: starved run
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", choices=sorted(RUNS))
    parser.add_argument("--full", action="store_true", help="use wordbench.txt.xz (58M tokens)")
    parser.add_argument("--corpus", help="another corpus file")
    parser.add_argument("--memory", help="pass --memory SIZE to the co-occurrence counting (default 2GB)")
    parser.add_argument("--record", default="count", help="write benchmarks/results/<family>/RECORD.json ('' for none)")
    parser.add_argument("--note", default="", help="a sentence kept in the record (how the machine was)")
    args = parser.parse_args()
    record = Record(args.record, note=args.note) if args.record else None
    corpus = args.corpus or DATA / ("wordbench.txt.xz" if args.full else "wordbench-10m.txt.xz")
    if not Path(corpus).exists():
        raise SystemExit(f"{corpus} is not available on this machine")
    out = ROOT / "benchmarks" / "out" / "count.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    for name in args.runs:
        row = measure(name, corpus, args.memory)
        print(json.dumps(row), flush=True)
        with open(out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        if record is not None:
            record.add_run(**_record_fields(row))
    if record is not None:
        record.data["corpus"] = str(corpus)
        print(f"record: {record.save()}")


def _record_fields(row):
    """A count.jsonl row as a record run: the common fields named as records.py names them,
    peak RSS that of the largest child so far (run one model per invocation for its own)."""
    quality = {key: row[key] for key in ("analogy", "wordsim353", "simlex999") if key in row}
    rest = {key: value for key, value in row.items()
            if key not in quality and key not in ("run", "wall_s", "cpu_s", "peak_mb")}
    return dict(system="wordvec", config=row["run"], wall_seconds=row["wall_s"], cpu_seconds=row["cpu_s"],
                peak_rss_mb=row["peak_mb"], quality=quality, **rest)


if __name__ == "__main__":
    main()
