"""Per-thread speed and two-thread scaling of one word2vec config: wordvec vs the C tool.

    flock /tmp/wordvec-heavy.lock .venv/bin/python benchmarks/bench_threads.py --config sg-hs
    .venv/bin/python benchmarks/bench_threads.py --config sg-ns --max-tokens 1000000 --variants '{}'

For 1 and then 2 threads: wordvec trains one epoch per ``train`` call, three calls, in
its own process (the epoch seconds of ``model.history``: no start-up, reading or
compiling; the first epoch also warms the caches), once per variant (default: the
plain kernels and ``batched=True`` for skip-gram); the C tool (``word2vec`` of the peers
environment, ``benchmarks/setup_peers.sh``) trains 3 epochs as one whole process, its
vocabulary scan included, so its seconds per epoch are an upper bound.  Corpus: the
first ``--max-tokens`` tokens of wordbench-10m.  Settings: dim 100, window 5, sample
1e-3, min_count 5, negative 5 (NS) or none (HS), alpha 0.025 (sg) / 0.05 (cbow).

This is the probe that splits a speed gap into "one thread is slower" and "the second
thread helps less" (benchmarks/README.md, "sg-hs on a quiet machine").
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench_word2vec import prepare_corpus

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CHILD = """
import json, sys
from wordvec.models.word2vec.model import Word2Vec
model = Word2Vec(corpus_file=sys.argv[1], epochs=1, progress=False, **json.loads(sys.argv[2]))
for _ in range(2):
    model.train(epochs=1)
print(json.dumps([h["seconds"] for h in model.history]))
"""


def options(config, workers):
    sg, hs = int(config.startswith("sg")), int(config.endswith("hs"))
    return dict(sg=sg, hs=hs, negative=0 if hs else 5, alpha=0.025 if sg else 0.05, workers=workers,
                sample=1e-3, window=5, vector_size=100, min_count=5)


def wordvec_epochs(corpus, config, workers, variant, cache):
    child = subprocess.run([sys.executable, "-c", CHILD, str(corpus), json.dumps({**options(config, workers), **variant})],
                           capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONPATH=str(REPO), WORDVEC_CACHE=str(cache)))
    return json.loads(child.stdout)


def c_tool_seconds_per_epoch(c_binary, corpus, config, workers, out):
    o = options(config, workers)
    command = [c_binary, "-train", corpus, "-output", out, "-binary", 1, "-cbow", 1 - o["sg"], "-size", 100,
               "-window", 5, "-negative", o["negative"], "-hs", o["hs"], "-sample", "1e-3", "-min-count", 5,
               "-iter", 3, "-threads", workers, "-alpha", o["alpha"]]
    started = time.perf_counter()
    subprocess.run([str(c) for c in command], capture_output=True, check=True)
    return (time.perf_counter() - started) / 3


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="sg-hs", choices=("sg-ns", "cbow-ns", "sg-hs", "cbow-hs"))
    parser.add_argument("--max-tokens", type=int, default=2_000_000)
    parser.add_argument("--corpus", default=str(REPO.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"))
    parser.add_argument("--variants", nargs="*", default=None,
                        help="JSON options of wordvec's runs (default: '{}' and, for skip-gram, '{\"batched\": true}')")
    parser.add_argument("--peers-env", default=str(HERE / ".peers"))
    parser.add_argument("--out", default=str(HERE / "out" / "threads"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    corpus, _ = prepare_corpus(args.corpus, HERE / "out" / "cache", args.max_tokens)
    variants = [json.loads(v) for v in args.variants] if args.variants is not None else (
        [{}, {"batched": True}] if args.config.startswith("sg") else [{}])
    c_binary = Path(args.peers_env) / "bin" / "word2vec"
    rows = []
    for workers in (1, 2):
        for variant in variants:
            epochs = wordvec_epochs(corpus, args.config, workers, variant, out / "cache")
            rows.append({"system": "wordvec", "variant": variant, "threads": workers, "epoch_seconds": epochs})
            print(json.dumps(rows[-1]), flush=True)
        if c_binary.exists():
            seconds = c_tool_seconds_per_epoch(c_binary, corpus, args.config, workers, out / "c.bin")
            rows.append({"system": "c", "threads": workers, "epoch_seconds_upper_bound": seconds})
            print(json.dumps(rows[-1]), flush=True)
    (out / f"{args.config}.json").write_text(json.dumps({"config": args.config, "corpus": str(corpus),
                                                         "load": os.getloadavg(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
