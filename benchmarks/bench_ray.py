"""Data-parallel training on Ray against the single-process trainer, and what one
synchronisation sends.

Each invocation is one benchmark (hold the heavy lock for it); results are appended to
``benchmarks/out/ray.jsonl`` and ``--report`` prints the tables.

    # speed / quality, interleaved: single process (2 threads), Ray 1 node x 2 workers
    # with sparse deltas, with model averaging; the whole sequence --rounds times
    flock /tmp/wordvec-heavy.lock .venv/bin/python benchmarks/bench_ray.py train --rounds 1
    # bytes per synchronisation vs sync interval and vocabulary size (one epoch each)
    flock /tmp/wordvec-heavy.lock .venv/bin/python benchmarks/bench_ray.py bytes
    .venv/bin/python benchmarks/bench_ray.py --report

Settings: wordbench-10m (decompressed once into benchmarks/out/, since byte ranges
of a compressed file cannot be read apart), CBOW with negative sampling, alpha 0.05,
D 100, window 5, min_count 5, 5 epochs, seed 1.  The single-process trainer uses 2
threads; the Ray run a private local cluster with 2 workers (actors) on this one node.
``train_seconds`` is the epochs alone (both sides); ``total_seconds`` adds counting,
encoding and, for Ray, starting the cluster and the actors.
"""

import argparse
import json
import lzma
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"
OUT = ROOT / "benchmarks" / "out"
RESULTS = OUT / "ray.jsonl"
# (sync every N words per worker, min_count, sync): the interval at the default vocabulary,
# then the vocabulary size at the default interval, then model averaging
BYTES_GRID = [(250_000, 5, "sparse"), (1_000_000, 5, "sparse"), (4_000_000, 5, "sparse"),
              (1_000_000, 1, "sparse"), (1_000_000, 50, "sparse"), (1_000_000, 5, "average")]
SETTINGS = dict(sg=0, alpha=0.05, vector_size=100, window=5, min_count=5, epochs=5, seed=1, workers=2)


def plain_corpus():
    """wordbench-10m decompressed (once)."""
    target = OUT / "wordbench-10m.txt"
    if not target.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        with lzma.open(DATA) as source, open(partial, "wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 22)
        partial.rename(target)
    return target


def load():
    return os.getloadavg()[0]


def evaluate(wv):
    from wordvec.vectors.evaluate import evaluate_all

    result = evaluate_all(wv)
    return {"analogy": result["analogy"]["total"],
            "ws353": result["similarity"].get("wordsim353", {}).get("spearman")}


def train(mode, sync_every, settings, ray_workers=2, hot_rows=None, hot_sync_every=None):
    from wordvec.data.corpus import Corpus
    from wordvec.data.encode import encode_corpus
    from wordvec.models.word2vec.model import Word2Vec

    corpus_path = plain_corpus()
    load_before = load()
    started = time.perf_counter()
    if mode == "single":
        model = Word2Vec(corpus_file=str(corpus_path), progress=False, **settings)
        extra = {}
    else:
        from wordvec.distributed import DEFAULT_HOT_ROWS, cluster, counting, training

        hot_rows = DEFAULT_HOT_ROWS if hot_rows is None else hot_rows

        with cluster.connect("local"):
            model = Word2Vec(progress=False, **settings)
            vocab, _ = counting.count_vocabulary(corpus_path, min_count=model.min_count)
            model.set_vocabulary(vocab)
            encoded = encode_corpus(Corpus(corpus_path), vocab)
            training.train_word2vec(model, encoded, workers_per_node=ray_workers, sync=mode, sync_every=sync_every,
                                    hot_rows=hot_rows, hot_sync_every=hot_sync_every)
        extra = {"hot_rows": hot_rows, "hot_sync_every": model.history[-1]["hot_sync_every"],
                 "syncs": sum(h["syncs"] for h in model.history),
                 "sync_bytes": sum(h["sync_bytes"] for h in model.history),
                 "bytes_per_sync": model.history[-1]["bytes_per_sync"]}
    total = time.perf_counter() - started
    train_seconds = sum(h["seconds"] for h in model.history)
    return {"kind": "train", "mode": mode, "sync_every": sync_every if mode != "single" else None,
            "ray_workers": ray_workers if mode != "single" else None,
            "settings": settings, "vocabulary": len(model.vocab), "train_seconds": train_seconds,
            # epoch 1 of a Ray run also waits for the actors to start (kernels loaded from
            # Numba's cache): the later epochs are the steady throughput
            "epoch_seconds": [h["seconds"] for h in model.history],
            "total_seconds": total, "words_per_sec": sum(h["words"] for h in model.history) / train_seconds,
            "load_before": load_before, "load_after": load(), **extra, **evaluate(model.wv)}


def sync_bytes(sync_every, min_count, sync):
    """One epoch on Ray: bytes per synchronisation at this interval and vocabulary size."""
    from wordvec.data.corpus import Corpus
    from wordvec.distributed import cluster, counting, training
    from wordvec.data.encode import encode_corpus
    from wordvec.models.word2vec.model import Word2Vec

    corpus_path = plain_corpus()
    settings = {**SETTINGS, "epochs": 1, "min_count": min_count}
    with cluster.connect("local"):
        model = Word2Vec(progress=False, **settings)
        vocab, _ = counting.count_vocabulary(corpus_path, min_count=min_count)
        model.set_vocabulary(vocab)
        encoded = encode_corpus(Corpus(corpus_path), vocab)
        training.train_word2vec(model, encoded, workers_per_node=2, sync=sync, sync_every=sync_every,
                                hot_rows=0)  # every row every round: the grid predates hot rows
    h = model.history[-1]
    parameters = sum(getattr(model, n).nbytes for n in ("W_in", "W_out", "W_inner"))
    return {"kind": "bytes", "sync": sync, "sync_every": sync_every, "min_count": min_count,
            "vocabulary": len(vocab), "model_bytes": parameters, "syncs": h["syncs"],
            "bytes_per_sync": h["bytes_per_sync"], "seconds": h["seconds"], "load_before": load()}


def report():
    rows = [json.loads(line) for line in RESULTS.read_text().splitlines() if line.strip()]
    trains = [r for r in rows if r["kind"] == "train"]

    def key_of(r):  # runs of one model and one setting are grouped; each model has its own baseline
        return ("sg" if r["settings"].get("sg") else "cbow", r["mode"], r["sync_every"], r.get("ray_workers") or 2)

    best = {}
    for r in trains:
        key = key_of(r)
        if key not in best or r["train_seconds"] < best[key]["train_seconds"]:
            best[key] = r
    print("| model | run | runs | train s (best) | total s (best) | words/s | vs single | analogy (mean) | WS-353 | "
          "bytes/sync | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for key, r in sorted(best.items(), key=lambda kv: (kv[0][0], kv[0][1] != "single", kv[0][1:])):
        model, mode, every, workers = key
        single = best.get((model, "single", None, 2))
        same = [t for t in trains if key_of(t) == key]
        analogy = sum(t["analogy"] for t in same) / len(same)
        ratio = f"{r['train_seconds'] / single['train_seconds']:.2f}x" if single else ""
        name = "single process, 2 threads" if mode == "single" else f"Ray 1x{workers}, {mode}, every {every:,}"
        per_sync = f"{r['bytes_per_sync'] / 1e6:.0f} MB" if "bytes_per_sync" in r else ""
        print(f"| {model} | {name} | {len(same)} | {r['train_seconds']:.1f} | {r['total_seconds']:.1f} | "
              f"{r['words_per_sec'] / 1e6:.2f}M | {ratio} | {100 * analogy:.1f}% | {r['ws353']:.3f} | "
              f"{per_sync} | {r['load_before']:.1f} |")
    sizes = [r for r in rows if r["kind"] == "bytes"]
    if sizes:
        print()
        print("| sync | every (words/worker) | min_count | vocabulary | model MB | syncs/epoch | MB per sync (up+down) |")
        print("|---|---|---|---|---|---|---|")
        for r in sorted(sizes, key=lambda r: (r["sync"], r["min_count"], r["sync_every"])):
            print(f"| {r['sync']} | {r['sync_every']:,} | {r['min_count']} | {r['vocabulary']:,} | "
                  f"{r['model_bytes'] / 1e6:.0f} | {r['syncs']} | {r['bytes_per_sync'] / 1e6:.1f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=("train", "bytes"))
    parser.add_argument("--modes", default="single,sparse,average",
                        help="train: comma-separated, run in this order each round")
    parser.add_argument("--rounds", type=int, default=1, help="train: repeat the sequence")
    parser.add_argument("--sync-every", type=int, default=None, help="train: words per worker per sync")
    parser.add_argument("--model", choices=("cbow", "sg"), default="cbow")
    parser.add_argument("--ray-workers", type=int, default=2,
                        help="train: Ray workers on the local node (1: the replica path without combining)")
    parser.add_argument("--hot-rows", type=int, default=None,
                        help="train: rows per matrix synchronised every --hot-sync-every words (0: off; "
                             "default wordvec's)")
    parser.add_argument("--hot-sync-every", type=int, default=None, help="train: words per worker")
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if args.report:
        return report()
    from wordvec.distributed import DEFAULT_SYNC_EVERY

    sync_every = args.sync_every or DEFAULT_SYNC_EVERY
    if args.what == "train":
        settings = {**SETTINGS, "sg": int(args.model == "sg"), "alpha": 0.05 if args.model == "cbow" else 0.025}
        jobs = [lambda mode=mode: train(mode, sync_every, settings, args.ray_workers, args.hot_rows,
                                        args.hot_sync_every)
                for _ in range(args.rounds) for mode in args.modes.split(",")]
    elif args.what == "bytes":
        jobs = [lambda every=every, min_count=min_count, sync=sync: sync_bytes(every, min_count, sync)
                for every, min_count, sync in BYTES_GRID]
    else:
        parser.error("say what to measure: train or bytes (or --report)")
    OUT.mkdir(parents=True, exist_ok=True)
    for job in jobs:
        result = job()
        with open(RESULTS, "a") as handle:
            handle.write(json.dumps(result) + "\n")
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
