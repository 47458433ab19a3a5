"""How close ``estimate_memory`` comes to the measured peak: run ``wordvec train`` on a
prefix of wordbench-10m in a child process, read the estimate the command reports
(``--json``: ``memory_estimate``, made from the model as trained, so GloVe and
PPMI-SVD include the real number of non-zeros) and compare it with the child's peak
resident set (``ru_maxrss`` from ``wait4``).

    .venv/bin/python benchmarks/bench_estimate.py                 # 2M tokens, all configs
    .venv/bin/python benchmarks/bench_estimate.py --tokens 500000 --configs sg-ns-300

Prints one row per configuration: vocabulary, estimated and measured peak in MB, and the
relative error (estimate / measured - 1).  One epoch each, no evaluation: the peak of a
run is reached when its arrays are allocated, not later.
"""

import argparse
import json
import lzma
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib.peers import run_measured  # noqa: E402
from lib.records import Record  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"

CONFIGS = {
    "sg-ns-300": ["--model", "sg", "--vector-size", "300", "--min-count", "2"],
    "cbow-hs-200": ["--model", "cbow", "--loss", "hs", "--vector-size", "200", "--min-count", "2"],
    "glove-100": ["--model", "glove", "--vector-size", "100", "--window", "10", "--min-count", "2",
                  "--memory", "256MB"],
    "svd-100": ["--model", "svd", "--vector-size", "100", "--window", "5", "--min-count", "5",
                "--memory", "256MB"],
}


def write_prefix(path, tokens):
    """The first lines of wordbench-10m holding about ``tokens`` tokens."""
    count = 0
    with lzma.open(CORPUS, "rt", encoding="utf-8") as source, open(path, "w", encoding="utf-8") as out:
        for line in source:
            out.write(line)
            count += len(line.split())
            if count >= tokens:
                break
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=2_000_000)
    parser.add_argument("--configs", nargs="*", default=list(CONFIGS), choices=list(CONFIGS))
    parser.add_argument("--record", default="estimate", help="write benchmarks/results/<family>/RECORD.json ('' for none)")
    parser.add_argument("--note", default="", help="a sentence kept in the record (how the machine was)")
    args = parser.parse_args()
    record = Record(args.record, note=args.note) if args.record else None
    with tempfile.TemporaryDirectory(prefix="wordvec-estimate-") as tmp:
        tmp = Path(tmp)
        corpus = tmp / "prefix.txt"
        tokens = write_prefix(corpus, args.tokens)
        print(f"corpus: first {tokens:,} tokens of {CORPUS.name}")
        print(f"{'config':<12} {'words':>8} {'estimated MB':>13} {'measured MB':>12} {'error':>7}")
        for name in args.configs:
            command = [sys.executable, "-m", "wordvec", "train", str(corpus), "-o", str(tmp / "out.bin"),
                       "--epochs", "1", "--workers", "2", "--no-eval", "--no-progress", "--json", "-q",
                       *CONFIGS[name]]
            measured = run_measured(command, tmp / f"{name}.log")
            if measured.returncode != 0:
                print(f"{name}: failed ({measured.returncode}); see the log", (tmp / f"{name}.log").read_text()[-2000:])
                continue
            line = next(text for _, text in reversed(measured.chunks) if text.startswith("{"))
            report = json.loads(line)
            estimated = report["memory_estimate"]["peak"] / 2**20
            print(f"{name:<12} {report['words']:>8,} {estimated:>13.1f} {measured.peak_rss_mb:>12.1f} "
                  f"{estimated / measured.peak_rss_mb - 1:>+7.1%}")
            if record is not None:
                record.add_run(system="wordvec", config=name, flags=" ".join(CONFIGS[name]),
                               wall_seconds=measured.wall_seconds, cpu_seconds=measured.cpu_seconds,
                               peak_rss_mb=measured.peak_rss_mb,
                               quality={"words": report["words"], "estimated_mb": estimated})
        if record is not None:
            record.data["corpus"] = f"first {tokens:,} tokens of {CORPUS.name}"
            print(f"record: {record.save()}")


if __name__ == "__main__":
    main()
