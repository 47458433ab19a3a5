"""A/B the language-model trainer of two or more source trees: tokens/s and identical results.

    git archive OLD_COMMIT | tar -x -C /tmp/lm-before      # or any checkout of wordvec
    .venv/bin/python benchmarks/bench_lm_speed_ab.py --trees /tmp/lm-before,. --updates 60 --rounds 3

Each tree trains the word-level LSTM of benchmarks/README.md's table (V = 10k, H = D =
128, untied, Adam lr 0.005, B = 16, T = 32, clip 5, seed 1, one BLAS thread) for
``--updates`` updates on bench_lm.py's wordbench-10m split, in its own process
(``PYTHONPATH=TREE``), the trees alternating, ``--rounds`` times.  Reported per tree:
the median time of an update from the 6th on (first-call costs such as importing and
compiling excluded; the median resists the load spikes of a shared machine) as
tokens/s, best over the rounds; the plain tokens/s of the whole run (the model's
history: training seconds only), best over the rounds; and a SHA-256 of every parameter's bytes after training plus the last
loss: equal digests mean bitwise-identical training.  Last, the floor no tree can go
under at those numbers: the output layer's three (512 x 128)·(128 x 10,000) float32
products (logits, dW_y, dP) alone, best of 20, in this process with one BLAS thread.
"""

import argparse
import json
import os
import sys
from pathlib import Path

from bench_lm import OUT, word_split
from lib.trees import run_in_tree

HERE = Path(__file__).resolve().parent
CHILD = """
import hashlib, json, sys, time
import numpy as np
from wordvec.data.lm_data import LMVocab
from wordvec.models.lm.rnn import RNNLM
if sys.argv[6] == "cli":  # the process setting `wordvec` makes: freed buffers go back to the OS
    from wordvec.memory import return_freed_buffers
    return_freed_buffers()
stream = np.load(sys.argv[1])
vocab = LMVocab.from_json(json.loads(open(sys.argv[2]).read()))
cell, tie, updates = sys.argv[3], sys.argv[4] == "tied", int(sys.argv[5])
model = RNNLM(vocab, cell=cell, hidden_size=128, embedding_size=128, tie_embeddings=tie, seed=1)
ends = []
model.fit(stream, None, epochs=1, bptt=32, batch_size=16, lr=5e-3, optimizer="adam", clip=5.0, progress=False,
          max_updates=updates, threads=1, on_step=lambda step, loss, norm: ends.append(time.perf_counter()))
update_seconds = np.diff(ends)[4:]  # from the 6th update on: no first-call costs (imports, compiling)
digest = hashlib.sha256()
for name in sorted(model.params):
    digest.update(model.params[name].tobytes())
tokens, seconds = sum(h["tokens"] for h in model.history), sum(h["seconds"] for h in model.history)
print(json.dumps({"tokens_per_sec": tokens / seconds, "median_tokens_per_sec": 512 / np.median(update_seconds),
                  "sha256": digest.hexdigest()[:16],
                  "last_loss": repr(model.steps[-1][1])}))
"""


def prepare():
    """The word split's training stream and vocabulary (bench_lm.py word), as files."""
    from wordvec.data.lm_data import LMVocab, read_lines

    folder = OUT / "lm_speed"
    stream_file, vocab_file = folder / "train_ids.npy", folder / "vocab.json"
    if not stream_file.exists():
        import numpy as np

        train_path, _ = word_split(1_000_000, 50_000)
        lines = read_lines(train_path)
        vocab = LMVocab.build(lines, "word", max_size=10_000)
        folder.mkdir(parents=True, exist_ok=True)
        np.save(stream_file, vocab.encode(lines))
        vocab_file.write_text(json.dumps(vocab.to_json()))
    return stream_file, vocab_file


def run_tree(tree, files, cell, tie, updates, process):
    return run_in_tree(tree, CHILD, [*files, cell, tie, updates, process], OPENBLAS_NUM_THREADS="1")


def output_layer_floor(rounds=20):
    """Best seconds of the three output-layer GEMMs of one update (N=512, H=128, V=10k)."""
    import time

    import numpy as np

    from wordvec.models.lm.training import blas_threads

    rng = np.random.default_rng(0)
    P, W = rng.normal(size=(512, 128)).astype(np.float32), rng.normal(size=(10_000, 128)).astype(np.float32)
    dlogits = rng.normal(size=(512, 10_000)).astype(np.float32)
    best = float("inf")
    with blas_threads(1):
        for _ in range(rounds):
            start = time.perf_counter()
            P @ W.T, dlogits.T @ P, dlogits @ W  # noqa: B018 -- forward logits, dW_y, dP
            best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", required=True, help="comma list of source trees (folders holding wordvec/)")
    parser.add_argument("--cell", choices=("lstm", "rnn"), default="lstm")
    parser.add_argument("--tie", choices=("untied", "tied"), default="untied")
    parser.add_argument("--updates", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--process", choices=("library", "cli"), default="library",
                        help="cli: with the CLI's 128 KB mmap threshold (wordvec.memory.return_freed_buffers)")
    args = parser.parse_args(argv)
    trees = args.trees.split(",")
    files = prepare()
    results = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree in trees:
            results[tree].append(run_tree(tree, files, args.cell, args.tie, args.updates, args.process))
            print(tree, results[tree][-1], file=sys.stderr, flush=True)
    best = {tree: max(r["median_tokens_per_sec"] for r in runs) for tree, runs in results.items()}
    whole = {tree: max(r["tokens_per_sec"] for r in runs) for tree, runs in results.items()}
    print(f"word {args.cell} {args.tie}, V=10k, H=D=128, B=16, T=32, {args.updates} updates, {args.process}, "
          f"{args.rounds} rounds, 1 BLAS thread; load {os.getloadavg()[0]:.1f}")
    print("| tree | tokens/s (median update) | each round | speed-up | tokens/s (whole run) | speed-up "
          "| params SHA-256 (16 hex) | last loss |")
    print("|---|---:|---|---:|---:|---:|---|---|")
    for tree, runs in results.items():
        digests = {r["sha256"] for r in runs}
        speeds = " ".join(f"{r['median_tokens_per_sec']:.0f}" for r in runs)
        print(f"| {tree} | {best[tree]:.0f} | {speeds} | {best[tree] / best[trees[0]]:.2f}x | {whole[tree]:.0f} "
              f"| {whole[tree] / whole[trees[0]]:.2f}x | {' / '.join(sorted(digests))} | {runs[-1]['last_loss']} |")
    floor = output_layer_floor()
    print(f"output-layer GEMMs alone: {floor * 1e3:.1f} ms per update, so at most {512 / floor:.0f} tokens/s "
          f"({512 / floor / best[trees[0]]:.2f}x the first tree); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
