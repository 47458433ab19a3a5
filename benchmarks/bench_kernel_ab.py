"""A/B the word2vec training kernels of two or more source trees on a corpus prefix.

    git worktree add /tmp/before HEAD~1           # or any checkout of wordvec
    .venv/bin/python benchmarks/bench_kernel_ab.py --trees /tmp/before,. --config sg-hs
    .venv/bin/python benchmarks/bench_kernel_ab.py --trees . --config sg-ns \
        --variants '{"batched": false}' '{"batched": true}'    # options of one tree

Each tree trains one epoch on the first ``--max-tokens`` tokens of the corpus in its
own process (``PYTHONPATH=TREE``, so its own Numba cache), the trees alternating,
``--rounds`` times; the figure is the best training seconds of each tree (the sum
of the epoch's seconds in the model's history: no start-up, reading or compiling; the
epoch timed is a second one, after a first that warms the caches), and the CPU seconds
of that epoch (all threads), which a busy machine inflates much less than wall time.
Interleaving the trees and taking the best is what makes a 10% difference visible
on a shared 2-core machine, where single runs of the full benchmark vary by 20%.
"""

import argparse
import json
import os
from pathlib import Path

from bench_word2vec import prepare_corpus
from lib.trees import run_in_tree

HERE = Path(__file__).resolve().parent
CONFIGS = {"sg-ns": dict(sg=1, hs=0, negative=5, alpha=0.025),
           "cbow-ns": dict(sg=0, hs=0, negative=5, alpha=0.05),
           "sg-hs": dict(sg=1, hs=1, negative=0, alpha=0.025),
           "cbow-hs": dict(sg=0, hs=1, negative=0, alpha=0.05)}
CHILD = """
import json, sys, time
from wordvec.models.word2vec.model import Word2Vec
options = json.loads(sys.argv[2])
model = Word2Vec(corpus_file=sys.argv[1], epochs=1, progress=False, **options)
cpu = time.process_time()
model.train(epochs=1)
print(json.dumps({"seconds": model.history[1]["seconds"], "cpu": time.process_time() - cpu,
                  "loss": model.history[1]["loss"]}))
"""


def run_tree(tree, corpus, options, cache):
    return run_in_tree(tree, CHILD, [corpus, json.dumps(options)], WORDVEC_CACHE=str(cache))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", required=True, help="comma list of source trees (folders holding wordvec/)")
    parser.add_argument("--config", choices=sorted(CONFIGS), default="sg-hs")
    parser.add_argument("--corpus", default=str(HERE.parent.parent / "shared/data/corpus/wordbench-10m.txt.xz"))
    parser.add_argument("--max-tokens", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=["{}"],
                        help="JSON objects of Word2Vec options; every tree runs every variant")
    args = parser.parse_args(argv)
    contenders = [(tree, variant) for tree in args.trees.split(",") for variant in args.variants]
    cache = HERE / "out" / "cache"
    corpus, info = prepare_corpus(args.corpus, cache, args.max_tokens)
    options = dict(CONFIGS[args.config], workers=args.workers, seed=args.seed)
    seconds = {contender: [] for contender in contenders}
    cpu = {contender: [] for contender in contenders}
    losses = {}
    for _ in range(args.rounds):
        for tree, variant in contenders:
            result = run_tree(tree, corpus, dict(options, **json.loads(variant)), cache / "ab-encoded")
            seconds[tree, variant].append(result["seconds"])
            cpu[tree, variant].append(result["cpu"])
            losses[tree, variant] = result["loss"]
    print(f"{args.config}, {info['tokens']:,} tokens, 1 epoch, {args.workers} worker(s), "
          f"{args.rounds} rounds, load {os.getloadavg()[0]:.1f}; training seconds")
    print("| tree | options | best s | all s | best CPU s | loss |\n|---|---|---:|---|---:|---:|")
    for tree, variant in contenders:
        runs = seconds[tree, variant]
        print(f"| {tree} | {variant} | {min(runs):.2f} | {' '.join(f'{s:.2f}' for s in runs)} "
              f"| {min(cpu[tree, variant]):.2f} | {losses[tree, variant]:.4f} |")


if __name__ == "__main__":
    main()
