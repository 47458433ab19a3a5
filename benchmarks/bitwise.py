"""Bitwise check for restructurings: train a small model of every family with one worker and
a fixed seed on a fixed synthetic corpus, and print (or compare) the SHA-256 of the files
written (word2vec, subwords, GloVe, Doc2Vec, the classifier, the language models, the
window classifier).

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
# name -> (command after `wordvec`, with {corpus} {labelled} {out}); written file or directory
COMMANDS = {
    "doc2vec-dbow": "doc2vec train {corpus} -o {out} --dm 0 --vector-size 32 --epochs 2 --workers 1 --seed 1",
    "doc2vec-dm": "doc2vec train {corpus} -o {out} --dm 1 --vector-size 32 --epochs 2 --workers 1 --seed 1",
    "classifier-softmax": "classify train {labelled} -o {out}.bin --dim 16 --epoch 3 --word-ngrams 2 "
                          "--bucket 20000 --threads 1 --seed 1 --no-progress",
    "classifier-hs-subwords": "classify train {labelled} -o {out}.bin --dim 16 --epoch 2 --loss hs --minn 3 --maxn 4 "
                              "--bucket 20000 --threads 1 --seed 1 --no-progress",
    "lm-lstm": "lm train {lines} -o {out} --level char --cell lstm --hidden 16 --embedding 8 --epochs 1 "
               "--max-updates 20 --seed 1 --threads 1 --no-progress",
    "lm-attention": "lm train {lines} -o {out} --level char --cell attention --hidden 16 --embedding 8 --blocks 1 "
                    "--bptt 8 --epochs 1 --max-updates 20 --seed 1 --threads 1 --no-progress",
}
# fastText-format lines and short lines from the corpus's first documents
WRITE_TASK_FILES = r"""
words = open({corpus!r}).read().split()
with open({labelled!r}, "w") as out:
    for i in range(0, 40_000, 20):
        out.write("__label__" + "abc"[len(words[i]) % 3] + " " + " ".join(words[i:i + 20]) + "\n")
with open({lines!r}, "w") as out:
    for i in range(0, 4_000, 8):
        out.write(" ".join(words[i:i + 8]) + "\n")
"""
# the window classifier has no training command of its own but `task`, which needs a data set
WINDOW_CLASSIFIER = """
import hashlib, sys
import numpy as np
from wordvec import WindowClassifier
words = open({corpus!r}).read().split()[:6000]
sentences = [words[i:i + 12] for i in range(0, len(words), 12)]
tags = [["long" if len(w) > 4 else "short" for w in s] for s in sentences]
model = WindowClassifier(["long", "short"], words=sorted(set(words)), window=1, vector_size=8, hidden=8,
                         epochs=2, seed=1, progress=False)
model.fit(model.windows(sentences, tags))
digest = hashlib.sha256()
for name, array in sorted(model._all_arrays().items()):
    digest.update(name.encode()); digest.update(np.ascontiguousarray(array).tobytes())
print(digest.hexdigest())
"""


def tree_hash(path):
    """SHA-256 of a file, or of a directory's files (names and bytes, in name order) but its
    JSON descriptions, which hold the seconds each epoch took."""
    path = Path(path)
    digest = hashlib.sha256()
    for item in sorted(p for p in ([path] if path.is_file() else path.rglob("*")) if p.is_file() and p.suffix != ".json"):
        digest.update(str(item.relative_to(path.parent)).encode())
        digest.update(item.read_bytes())
    return digest.hexdigest()


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
        files = {"corpus": str(corpus), "labelled": str(Path(tmp) / "labelled.txt"), "lines": str(Path(tmp) / "lines.txt")}
        subprocess.run(wordvec_command()[:2] + ["-c", WRITE_TASK_FILES.format(**files)], check=True, cwd=ROOT)
        for name, command in COMMANDS.items():
            out = Path(tmp) / name
            subprocess.run(wordvec_command() + command.format(out=out, **files).split(), check=True, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            written = [p for p in Path(tmp).iterdir() if p.name.startswith(name)]
            hashes[name] = tree_hash(written[0])
        hashes["window-classifier"] = subprocess.run(
            wordvec_command()[:2] + ["-c", WINDOW_CLASSIFIER.format(corpus=str(corpus))], check=True, cwd=ROOT,
            capture_output=True, text=True).stdout.strip()
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
                  or platform.machine(), "runs": {**{k: " ".join(v + COMMON) for k, v in RUNS.items()}, **COMMANDS},
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
