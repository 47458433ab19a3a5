"""Diagnostic for the spread of word2vec's epoch times on one host: one process trains a
config for some epochs and prints each epoch's seconds (the model's history: no start-up,
reading or compiling), so that runs of one tree, or of several trees alternating, show
whether a slow epoch is the kernel's or the host's.

    for round in 1 2 3; do for tree in . /tmp/other; do
        PYTHONPATH=$tree .venv/bin/python benchmarks/diagnostics/diag_word2vec_epochs.py \\
            cbow-hs benchmarks/out/cache/wordbench-10m.txt --workers 2 --epochs 3
    done; done

Prints one line per epoch: config, workers, seconds, vocabulary size.  The record made
from such runs: ``benchmarks/results/checks/cbow-hs-two-thread-modes-20261128.json``.
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from bench_kernel_ab import CONFIGS  # noqa: E402  (the A/B scripts' own settings of each config)

from wordvec.models.word2vec.model import Word2Vec  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", choices=sorted(CONFIGS))
    parser.add_argument("corpus")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    model = Word2Vec(corpus_file=args.corpus, epochs=1, progress=False, workers=args.workers, **CONFIGS[args.config])
    for _ in range(args.epochs):
        model.train(epochs=1)
        print(args.config, args.workers, round(model.history[-1]["seconds"], 2), len(model.vocab), flush=True)


if __name__ == "__main__":
    main()
