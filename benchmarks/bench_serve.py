"""Latency of `wordvec serve`'s neighbour queries on a 100k-word vocabulary (p50/p90/p99).

    python benchmarks/bench_serve.py                       # 100k random words x 100 dims
    python benchmarks/bench_serve.py --vectors vectors.bin --requests 2000

Starts the real command (`python -m wordvec serve VECTORS --port 0`) in a subprocess,
waits for its "serving ... at URL" line, then times GET /api/neighbours?word=W&topn=10
end to end (connect, query, JSON) for seeded random words: first one client after
another, then 4 clients at once.  For reference it also times the same query in process:
wordvec's KeyedVectors.most_similar and, when installed, gensim 4.4's, on the same matrix,
with BLAS's default threads and with one (as `wordvec serve` runs it).
Prints one JSON object and writes the record benchmarks/results/vectors/RECORD.json
(``--record``, default serve-100k; '' for none), one run per measurement.  Timings on a
shared machine are noisy: the record keeps the load before and after.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from lib.records import Record  # noqa: E402
from wordvec.models.lm.training import blas_threads  # noqa: E402
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.files import load_vectors  # noqa: E402


def percentiles(seconds):
    ms = np.asarray(seconds) * 1000
    return {"p50_ms": round(float(np.percentile(ms, 50)), 2), "p90_ms": round(float(np.percentile(ms, 90)), 2),
            "p99_ms": round(float(np.percentile(ms, 99)), 2), "max_ms": round(float(ms.max()), 2), "n": int(ms.size)}


def start_server(vectors):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen([sys.executable, "-m", "wordvec", "serve", vectors, "--port", "0"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        match = re.search(r"at (http://\S+/)", line)
        if match:
            return process, match.group(1)
    raise RuntimeError("the server did not start")


def timed_get(url):
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as response:
        json.loads(response.read())
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vectors", help="vector file to serve (default: random 100k x 100)")
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=100)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", default="serve-100k", help="record name in benchmarks/results ('' for none)")
    args = parser.parse_args()
    record = Record(args.record, note="neighbour queries, topn 10; in process: 200 of the same words") \
        if args.record else None

    with tempfile.TemporaryDirectory() as directory:
        if args.vectors:
            path, kv = args.vectors, load_vectors(args.vectors)
        else:
            rng = np.random.default_rng(args.seed)
            words = [f"w{i}" for i in range(args.words)]
            kv = KeyedVectors(words, rng.standard_normal((args.words, args.dims)).astype(np.float32),
                              counts=np.arange(args.words, 0, -1))
            path = os.path.join(directory, "vectors.wv")
            kv.save(path)
        rng = np.random.default_rng(args.seed + 1)
        queries = [kv.index_to_key[i] for i in rng.integers(len(kv), size=args.requests)]
        process, base = start_server(path)
        try:
            urls = [base + "api/neighbours?" + urllib.parse.urlencode({"word": w, "topn": 10}) for w in queries]
            for url in urls[:20]:  # warm up
                timed_get(url)
            sequential = [timed_get(url) for url in urls]
            concurrent, lock = [], threading.Lock()

            def client(share):
                mine = [timed_get(url) for url in share]
                with lock:
                    concurrent.extend(mine)

            threads = [threading.Thread(target=client, args=(urls[t::4],)) for t in range(4)]
            wall = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - wall
        finally:
            process.terminate()
            process.wait(timeout=10)

        kv.unit_vectors
        in_process = {threads: [] for threads in (None, 1)}  # BLAS default, and one thread as the server uses
        for threads, timings in in_process.items():
            with blas_threads(threads):
                for word in queries[:200]:
                    started = time.perf_counter()
                    kv.most_similar(word, topn=10)
                    timings.append(time.perf_counter() - started)
        result = {"vocabulary": len(kv), "dimensions": kv.vector_size, "source": args.vectors or "random",
                  "http_sequential": percentiles(sequential),
                  "http_4_clients": dict(percentiles(concurrent), requests_per_sec=round(len(concurrent) / wall, 1)),
                  "in_process_wordvec_most_similar": percentiles(in_process[None]),
                  "in_process_wordvec_most_similar_1_blas_thread": percentiles(in_process[1]),
                  "load": os.getloadavg()[0]}
        try:
            from gensim.models import KeyedVectors as GensimKV

            gensim_kv = GensimKV(kv.vector_size)
            gensim_kv.add_vectors(kv.index_to_key, np.asarray(kv.vectors))
            gensim_kv.fill_norms()
            for threads, key in ((None, ""), (1, "_1_blas_thread")):
                timings = []
                with blas_threads(threads):
                    for word in queries[:200]:
                        started = time.perf_counter()
                        gensim_kv.most_similar(word, topn=10)
                        timings.append(time.perf_counter() - started)
                result["in_process_gensim_most_similar" + key] = percentiles(timings)
        except ImportError:
            pass
    print(json.dumps(result))
    if record is not None:
        print(f"record: {write_record(record, result)}")


# (key in the result, system, config) of each measurement the record keeps
MEASUREMENTS = (("http_sequential", "wordvec serve (HTTP)", "one client at a time"),
                ("http_4_clients", "wordvec serve (HTTP)", "4 clients at once"),
                ("in_process_wordvec_most_similar_1_blas_thread", "wordvec most_similar", "in process, 1 BLAS thread"),
                ("in_process_gensim_most_similar_1_blas_thread", "gensim most_similar", "in process, 1 BLAS thread"),
                ("in_process_wordvec_most_similar", "wordvec most_similar", "in process, BLAS default threads"),
                ("in_process_gensim_most_similar", "gensim most_similar", "in process, BLAS default threads"))


def write_record(record, result):
    record.data.update(vocabulary=result["vocabulary"], dimensions=result["dimensions"], source=result["source"])
    for key, system, config in MEASUREMENTS:
        if key in result:
            record.add_run(system=system, config=config, latency=result[key])
    return record.save()


if __name__ == "__main__":
    main()
