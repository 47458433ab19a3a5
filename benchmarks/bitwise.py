"""Bitwise check for restructurings: train four small models with one worker and a fixed
seed on a fixed synthetic corpus, and print (or compare) the SHA-256 of the files written.

    python benchmarks/bitwise.py --record benchmarks/results/bitwise-<name>.json
    python benchmarks/bitwise.py --compare benchmarks/results/bitwise-<name>.json

A change that claims "behaviour bitwise unchanged" must give the same hashes
as the record taken on the commit before it, on the same machine kind (Numba compiles for
the host CPU, so another CPU may round differently).
"""
import argparse
import hashlib
import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> `wordvec train` flags (after CORPUS -o OUT)
RUNS = {
    "sg-ns": ["--model", "sg", "--loss", "ns"],
    "cbow-hs": ["--model", "cbow", "--loss", "hs"],
    "subword-sg-ns": ["--model", "sg", "--loss", "ns", "--subwords", "--bucket", "20000"],
    "glove": ["--model", "glove", "--epochs", "5"],
}
# the generator moved in the kernel restructuring of 2026-11-25; the script runs on trees from both sides of it
WRITE_CORPUS = """
try:
    from wordvec.data.synthetic import write_corpus
except ImportError:
    from wordvec.synthetic import write_corpus
write_corpus({path!r}, tokens=200_000, seed=3)
"""
COMMON = ["--workers", "1", "--seed", "1", "--vector-size", "32", "--no-progress", "--no-eval", "-q"]


def wordvec_command():
    return [sys.executable, "-P", "-m", "wordvec"]


def commit():
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def measure():
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        subprocess.run(wordvec_command()[:2] + ["-c", WRITE_CORPUS.format(path=str(corpus))], check=True, cwd=ROOT)
        hashes = {"corpus": hashlib.sha256(corpus.read_bytes()).hexdigest()}
        for name, flags in RUNS.items():
            out = Path(tmp) / f"{name}.bin"
            subprocess.run(wordvec_command() + ["train", str(corpus), "-o", str(out), *flags, *COMMON],
                           check=True, cwd=ROOT)
            hashes[name] = hashlib.sha256(out.read_bytes()).hexdigest()
    return hashes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path)
    group.add_argument("--compare", type=Path)
    args = parser.parse_args()
    hashes = measure()
    if args.record:
        record = {"commit": commit(), "command": " ".join(sys.argv), "machine": platform.processor()
                  or platform.machine(), "runs": {k: " ".join(v + COMMON) for k, v in RUNS.items()},
                  "sha256": hashes}
        args.record.write_text(json.dumps(record, indent=2) + "\n")
        print(json.dumps(hashes, indent=2))
        return 0
    expected = json.loads(args.compare.read_text())["sha256"]
    differ = [k for k in expected if expected[k] != hashes.get(k)]
    for k in expected:
        print(f"{k:15s} {'same' if k not in differ else 'DIFFERENT'}  {hashes.get(k)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
