"""Diagnostic for the SST accuracy gap: fastText 0.9.2 and wordvec trained from the
same initial word rows, one thread, so that neither random initialisation nor Hogwild
interleaving differs. Do they learn the same model?

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/diagnostics/diag_classify_same_init.py \
        [--tasks sst2 sst5] [--out benchmarks/results/classify-same-init-DATE.json]

Both read one ``.vec`` holding every training word (``</s>`` included) with values
U(-0.01, 0.01) (seed 0) through their ``pretrainedVectors`` option, so every input row of
a unigram model starts equal (with ``--word-ngrams 2`` the bucket rows still start from
each system's own random values); output rows start at zero in both. Then: lr 0.5, epoch
10, dim 100, softmax, one thread, the shuffled SST train files of bench_classify.py.
Reported: P@1 of each, and the share of test sentences where both models predict the same
label (``wordvec classify predict`` on both .bin files: the same reader for both).
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
sys.path.insert(0, str(HERE))

from bench_classify import PYTHON, WORDVEC, compile_bytecode, prepare, versions  # noqa: E402

FASTTEXT_TRAIN = """
import sys, fasttext
train, vec, output, ngrams, test = sys.argv[1:]
m = fasttext.train_supervised(input=train, lr=0.5, epoch=10, dim=100, wordNgrams=int(ngrams), bucket=2000000,
                              loss="softmax", thread=1, seed=1, verbose=0, pretrainedVectors=vec)
m.save_model(output)
print(m.test(test)[1])
"""


def write_vectors(train, path):
    words = {b"</s>": None}
    with open(train, "rb") as handle:
        for line in handle:
            words.update((t, None) for t in line.split() if not t.startswith(b"__label__"))
    rng = np.random.default_rng(0)
    with open(path, "wb") as out:
        out.write(f"{len(words)} 100\n".encode())
        for word in words:
            out.write(word + b" " + " ".join(f"{x:.6f}" for x in rng.uniform(-0.01, 0.01, 100)).encode() + b"\n")


def compare(train, test, vec, ngrams, scratch):
    theirs, ours = scratch / f"same-{ngrams}-fasttext.bin", scratch / f"same-{ngrams}-wordvec.bin"
    run = dict(text=True, capture_output=True, check=True)
    p_fasttext = float(subprocess.run([str(PYTHON), "-c", FASTTEXT_TRAIN, str(train), str(vec), str(theirs),
                                       str(ngrams), str(test)], **run).stdout.split()[-1])
    subprocess.run([str(WORDVEC), "-q", "classify", "train", str(train), "-o", str(ours), "--lr", "0.5", "--epoch",
                    "10", "--dim", "100", "--word-ngrams", str(ngrams), "--threads", "1", "--seed", "1",
                    "--pretrained-vectors", str(vec), "--no-progress"], **run)
    p_wordvec = json.loads(subprocess.run([str(WORDVEC), "-q", "classify", "test", str(ours), str(test), "--json"],
                                          **run).stdout)["P@1"]
    text = scratch / (test.name + ".text")
    labels = [subprocess.run([str(WORDVEC), "-q", "classify", "predict", str(model), str(text)], **run).stdout
              .split("\n") for model in (theirs, ours)]
    theirs.unlink()
    ours.unlink()
    return {"word_ngrams": ngrams, "p_at_1_fasttext": p_fasttext, "p_at_1_wordvec": p_wordvec,
            "same_label": sum(a == b for a, b in zip(*labels)) / len(labels[0]), "documents": len(labels[0]) - 1}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", nargs="+", default=["sst2", "sst5"])
    parser.add_argument("--scratch", default="/tmp/wordvec-bench-classify")
    parser.add_argument("--out", default=str(HERE / "results" / "classifier" / f"classify-same-init-{time.strftime('%Y%m%d')}.json"))
    args = parser.parse_args()
    scratch = Path(args.scratch)
    compile_bytecode()
    record = {"benchmark": "diag_classify_same_init", "argv": sys.argv, "versions": versions(),
              "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "load_before": os.getloadavg(), "runs": []}
    for task in args.tasks:
        train, test = prepare(task, scratch)
        if not (scratch / (test.name + ".text")).exists():
            raise SystemExit(f"run bench_classify.py on {task} first (it writes the unlabelled test text)")
        vec = scratch / f"{task}-same-init.vec"
        write_vectors(train, vec)
        for ngrams in (1, 2):
            row = dict(task=task, **compare(train, test, vec, ngrams, scratch))
            print(json.dumps(row), flush=True)
            record["runs"].append(row)
    record["load_after"] = os.getloadavg()
    record["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
