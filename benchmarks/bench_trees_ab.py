"""A restructuring's speed check: per-epoch training seconds of the tree before the restructuring
and the tree after it, side by side in one run, for sg-ns, sg-hs and cbow-ns (and the families'
configurations of their own blocks below, e.g. ``--configs d2v-dbow,d2v-dm``, and the
classifier's ``CLASSIFIER_CONFIGS``).

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
from lib.trees import run_in_tree

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

# -- word2vec with gensim's vectors_lockf set (one row locked: the kernels' lock factors) --------
# A tree without lock factors ignores the array: its figure is the plain epoch's.
LOCKED_CHILD = CHILD.replace("cpu = time.process_time()", """import numpy as np
model.wv.vectors_lockf = np.ones(len(model.wv), dtype=np.float32)
model.wv.vectors_lockf[0] = 0.0
cpu = time.process_time()""")
for _name in ("sg-ns", "cbow-ns"):
    CONFIGS[f"{_name}-locked"] = dict(CONFIGS[_name])
    CHILDREN[f"{_name}-locked"] = LOCKED_CHILD

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

# Each family's configurations beside word2vec's: name -> (child program, its options).
# A child prints one JSON line with the timed epoch's "seconds", "cpu" and "loss".
FAMILY_CONFIGS = {}

# --- Doc2Vec: PV-DBOW and PV-DM (one document a line of the corpus prefix, 2 epochs: the
# first warms up, the second is timed; its CPU seconds are taken at the epochs' ends) ---
DOC2VEC_CHILD = """
import json, resource, sys, time
from wordvec.models.doc2vec.model import Doc2Vec
options = json.loads(sys.argv[2])
marks = []
model = Doc2Vec(corpus_file=sys.argv[1], epochs=2, callbacks=[lambda model, info: marks.append(time.process_time())],
                **options)
print(json.dumps({"seconds": model.history[1]["seconds"], "cpu": marks[1] - marks[0],
                  "loss": model.history[1]["loss"],
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
FAMILY_CONFIGS.update({
    "d2v-dbow": (DOC2VEC_CHILD, dict(dm=0, vector_size=100, window=5, negative=5, min_count=2)),
    "d2v-dm": (DOC2VEC_CHILD, dict(dm=1, dm_mean=1, vector_size=100, window=5, negative=5, min_count=2)),
})


def child_and_options(config):
    """The child program and its options of a configuration (word2vec's: ``bench_kernel_ab.CONFIGS``)."""
    return FAMILY_CONFIGS.get(config) or (CHILDREN.get(config, CHILD), CONFIGS[config])


# ---------------------------------------------------------------- the classifier (fastText's supervised mode)
# A classifier configuration trains on the first ``documents`` lines of a document task
# (``shared/data/tasks/docs``) through ``Classifier.train`` (in the trees on both sides of
# ``Classifier.fit``); its figure is the best epoch's seconds (the history's: the kernels
# are loaded and the text encoded before the first epoch), its "loss" the last epoch's.
# 2 threads: imdb's first 5000 documents (~600k tokens per thread and epoch) run the
# threaded epoch kernel (``train_streams``), its first 1000 (~120k) the interleaved one.
CLASSIFIER_CONFIGS = {
    "classifier-imdb5k-softmax-bigrams": {"task": "imdb", "documents": 5000,
                                          "options": dict(dim=100, lr=0.5, epoch=5, word_ngrams=2, loss="softmax")},
    "classifier-imdb1k-hs-unigrams": {"task": "imdb", "documents": 1000,
                                      "options": dict(dim=100, lr=0.5, epoch=5, word_ngrams=1, loss="hs")},
}
CLASSIFIER_CHILD = """
import json, resource, sys, time
from wordvec.models.classifier.model import Classifier
options = json.loads(sys.argv[2])
cpu = time.process_time()
model = Classifier.train(sys.argv[1], **options)
seconds = [record["seconds"] for record in model.history]
print(json.dumps({"seconds": min(seconds), "training_seconds": sum(seconds), "cpu": time.process_time() - cpu,
                  "loss": model.history[-1]["loss"],
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def classifier_data(config, cache):
    """The first ``documents`` lines of the configuration's task, written once under ``cache``."""
    spec = CLASSIFIER_CONFIGS[config]
    path = Path(cache) / f"{spec['task']}-first-{spec['documents']}.train"
    if not path.exists():
        import lzma
        source = HERE.parent.parent / "shared/data/tasks/docs" / f"{spec['task']}.train.txt.xz"
        with lzma.open(source, "rt", encoding="utf-8") as lines:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(line for _, line in zip(range(spec["documents"]), lines)), encoding="utf-8")
    return path


def classifier_job(config, workers, seed, cache):
    """(child source, its arguments) of one classifier run."""
    options = dict(CLASSIFIER_CONFIGS[config]["options"], threads=workers, seed=seed, verbose=0)
    return CLASSIFIER_CHILD, [classifier_data(config, cache), json.dumps(options)]
# ---------------------------------------------------------------- end of the classifier


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
                if config in CLASSIFIER_CONFIGS:
                    child, child_args = classifier_job(config, workers, seed, cache)
                else:
                    child, options = child_and_options(config)
                    child_args = [corpus, json.dumps(dict(options, workers=workers, seed=seed))]
                result = run_in_tree(tree, child, child_args, WORDVEC_CACHE=str(cache))
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
    corpus, info = (prepare_corpus(args.corpus, cache, args.max_tokens) if set(configs) - set(CLASSIFIER_CONFIGS)
                    else (None, None))
    load_before = os.getloadavg()
    runs = measure(trees, configs, corpus, args.workers, args.rounds, args.seed, cache / "ab-encoded")
    record = {"command": " ".join([sys.executable] + sys.argv), "trees": trees,
              "commits": {tree: commit_of(tree) for tree in trees}, "repository_head": commit_of(HERE.parent),
              "corpus": info, "workers": args.workers,
              "classifier_configs": {c: CLASSIFIER_CONFIGS[c] for c in configs if c in CLASSIFIER_CONFIGS},
              "rounds": args.rounds, "load_before": load_before, "load_after": os.getloadavg(),
              "cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
              "numba": numba.__version__, "platform": platform.platform(), "runs": runs,
              "summary": summary(runs, trees, configs)}
    print(json.dumps(record["summary"], indent=2))
    if args.record:
        args.record.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
