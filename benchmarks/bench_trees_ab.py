"""A restructuring's speed check: per-epoch training seconds of the tree before the restructuring
and the tree after it, side by side in one run, for sg-ns, sg-hs and cbow-ns (and the configs
of the other families' blocks below: ``--configs``).

    git archive 08d8754 | tar -x -C /tmp/before      # the tree before (no .git needed)
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_trees_ab.py \\
        --trees /tmp/before,. --max-tokens 2000000 --record benchmarks/results/checks/epoch-ab-20261125.json

The method is ``bench_kernel_ab.py``'s: each tree trains in its own process
(``PYTHONPATH=TREE``, its own Numba cache; ``trees.run_in_tree`` checks where wordvec came
from), one warm-up epoch then the timed epoch (the history's seconds: no start-up,
reading or compiling), the trees alternating round by round; the figure is each tree's
best of ``--rounds``, and the ratio after/before.  The record (``--record``) holds every
run's wall and CPU seconds, peak RSS, loss, and the load average before and after.

Blocks below add configs of other families: word2vec with subwords (``sg-ns-subwords``),
batched skip-gram (``sg-ns-batched``) and phrases (``phrases``).
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

from bench_kernel_ab import CONFIGS
from bench_word2vec import prepare_corpus
from trees import run_in_tree

HERE = Path(__file__).resolve().parent
CHILD = """
import json, resource, sys, time
from wordvec.models.word2vec.model import Word2Vec
options = json.loads(sys.argv[2])
model = Word2Vec(corpus_file=sys.argv[1], epochs=1, progress=False, **options)
cpu = time.process_time()
model.train(epochs=1)
print(json.dumps({"seconds": model.history[1]["seconds"], "cpu": time.process_time() - cpu,
                  "loss": model.history[1]["loss"],
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
CONFIGS = dict(CONFIGS)
CHILDREN = {}  # config -> the child that times it, where it is not CHILD (Word2Vec's epoch)

# -- word2vec with subwords (fastText's model: the kernels of wordvec.kernels.subword) ---------
# fastText's skip-gram (its defaults: n-grams 3-6, negatives drawn per pair), a smaller bucket
CONFIGS["sg-ns-subwords"] = dict(CONFIGS["sg-ns"], subwords=True, bucket=200_000)
# -- word2vec's batched skip-gram (a window as one step: wordvec.kernels.word2vec.skipgram_window_step)
CONFIGS["sg-ns-batched"] = dict(CONFIGS["sg-ns"], batched=True)

# -- phrases (wordvec.kernels.phrases) --------------------------------------------------------
# "seconds": counting the words and pairs, then rewriting the corpus (the kernels'
# time: a warm-up on a few lines compiles them first); "loss": the phrases joined.
CONFIGS["phrases"] = dict(min_count=5, threshold=10.0)
CHILDREN["phrases"] = """
import json, resource, sys, tempfile, time
from pathlib import Path
from wordvec.data.phrases import Phrases
options = json.loads(sys.argv[2])
options.pop("workers"), options.pop("seed")
with tempfile.TemporaryDirectory() as tmp:
    head = Path(tmp) / "head.txt"
    with open(sys.argv[1], encoding="utf-8") as reader:
        head.write_text("".join(next(reader) for _ in range(100)), encoding="utf-8")
    Phrases(**options).learn(str(head)).transform_file(str(head), Path(tmp) / "head-phrased.txt")
    cpu = time.process_time()
    phrases = Phrases(**options).learn(sys.argv[1])
    joined = phrases.transform_file(sys.argv[1], Path(tmp) / "phrased.txt")
    cpu = time.process_time() - cpu
print(json.dumps({"seconds": phrases.learn_seconds + phrases.write_seconds, "cpu": cpu, "loss": joined,
                  "learn_seconds": phrases.learn_seconds, "write_seconds": phrases.write_seconds,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def commit_of(tree):
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def measure(trees, configs, corpus, workers, rounds, seed, cache):
    runs = []
    for round_index in range(rounds):
        for config in configs:
            for tree in trees:
                load_before = os.getloadavg()[0]
                started = time.perf_counter()
                result = run_in_tree(tree, CHILDREN.get(config, CHILD),
                                     [corpus, json.dumps(dict(CONFIGS[config], workers=workers, seed=seed))],
                                     WORDVEC_CACHE=str(cache))
                runs.append({"tree": tree, "config": config, "round": round_index,
                             "process_wall_seconds": time.perf_counter() - started,
                             "load_before": load_before, "load_after": os.getloadavg()[0], **result})
                print(json.dumps(runs[-1]), flush=True)
    return runs


def summary(runs, trees, configs):
    before, after = trees[0], trees[-1]
    table = {}
    for config in configs:
        best = {tree: min(r["seconds"] for r in runs if r["tree"] == tree and r["config"] == config)
                for tree in trees}
        cpu = {tree: min(r["cpu"] for r in runs if r["tree"] == tree and r["config"] == config) for tree in trees}
        table[config] = {"best_epoch_seconds": best, "best_cpu_seconds": cpu,
                         "ratio_after_over_before": best[after] / best[before],
                         "cpu_ratio_after_over_before": cpu[after] / cpu[before]}
    return table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", required=True, help="BEFORE,AFTER: folders holding wordvec/")
    parser.add_argument("--configs", default="sg-ns,sg-hs,cbow-ns")
    parser.add_argument("--corpus", default=str(HERE.parent.parent / "shared/data/corpus/wordbench-10m.txt.xz"))
    parser.add_argument("--max-tokens", type=int, default=2_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", type=Path, default=None)
    args = parser.parse_args(argv)
    trees, configs = [str(Path(t).resolve()) for t in args.trees.split(",")], args.configs.split(",")
    cache = HERE / "out" / "cache"
    corpus, info = prepare_corpus(args.corpus, cache, args.max_tokens)
    load_before = os.getloadavg()
    runs = measure(trees, configs, corpus, args.workers, args.rounds, args.seed, cache / "ab-encoded")
    record = {"command": " ".join([sys.executable] + sys.argv), "trees": trees,
              "commits": {tree: commit_of(tree) for tree in trees}, "repository_head": commit_of(HERE.parent),
              "corpus": info, "workers": args.workers,
              "rounds": args.rounds, "load_before": load_before, "load_after": os.getloadavg(),
              "cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
              "numba": numba.__version__, "platform": platform.platform(), "runs": runs,
              "summary": summary(runs, trees, configs)}
    print(json.dumps(record["summary"], indent=2))
    if args.record:
        args.record.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
