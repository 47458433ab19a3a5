"""Approximate search at GoogleNews size: usearch (wordvec.vectors.ann) against wordvec's exact search.

The target: ``most_similar`` of 1,000 words over 3M rows, approximate recall@10 >= 0.95
at >= 20x the queries/s of wordvec's own batched exact search over the same rows.

The 3M x 300 matrix (stage ``matrix``) must have neighbourhoods like real embeddings:
bench_load.py's synthetic rows (cluster centres + a low-rank part + noise) do not (recall
0.60-0.76 for every library: the noise has no neighbourhood structure).  So the rows are real
vectors composed the way fastText gives a vector to any string:

* train wordvec's fastText-style subword model (``Word2Vec(subwords=True)``, CBOW, 300
  dimensions, n = 3..6, 2,000,000 n-gram buckets, min count 5, one epoch) on wordbench-10m;
* take the 3,000,000 most frequent distinct strings of that corpus among its words and its
  word bigrams and trigrams (within a line), the phrases joined by "_" as GoogleNews writes
  them (``new_york``, ``the_united_states``), ordered by count like a word2vec file;
* a vocabulary word's row is the model's vector (the mean of its own row and its n-gram
  rows); every other string's row is the mean of its n-gram rows, fastText's
  ``getWordVector`` for an unseen word;
* the mean row is subtracted (``--no-center`` keeps it): one epoch over 10M tokens leaves
  every row close to one shared direction (the record gives the mean cosine of a row to the
  mean row before and after; wordvec's 1-epoch sg vectors have 0.92), which
  squeezes all cosines into a thin band where float16/int8 storage would decide the ranking;
  pretrained files do not look like that.  Removing the mean is a common post-processing of
  trained vectors (Mu & Viswanath 2018's first step); exact and approximate search both
  search the centred rows, so the comparison is like for like.

So neighbours share meaning where the model learnt it and spelling everywhere (as the
phrases and rare words of any fastText file do); no row is noise.  The matrix is saved as a
native ``.wv`` under benchmarks/out/ann/ (never committed; ~3.6 GB).

Stages (each a separate locked run; each appends its runs to the record):

  matrix   train the subword model, compose and save the 3M matrix;
  tune     several index settings (connectivity M, expansion_add, storage f32/f16/i8) built
           over the first --tune-rows rows and queried against exact search over those rows;
  build    the index of all rows with one setting, as ``wordvec index`` builds it
           (wordvec.vectors.ann.build_index, --threads 2), saved beside the vectors;
           ``--stop N`` builds rows [0, N) and saves a partial index, ``--resume`` adds
           the rest to it (a long build split over two locked runs; the times add up);
  query    in one process: the mapped vectors and the saved index (reloaded, never rebuilt),
           1,000 seeded random rows' words: exact ``most_similar_batch`` against
           ``most_similar_batch(approximate=True)`` at several ef; single-query latency;
  trained  the same measurement on real trained vectors (--vectors, 51,241 x 300), index built
           in the process.

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_ann.py matrix
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_ann.py tune --tune-rows 300000
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_ann.py build --dtype i8 ...
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_ann.py query
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_ann.py trained \
        --vectors benchmarks/out/wordbench-sg300.bin

Record: benchmarks/results/vectors/ann-<rows>.json (a wordvec-benchmark-record; every run carries its
stage, commit, command, load before/after, wall and CPU seconds and peak RSS).
"""

import argparse
import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import records  # noqa: E402  (benchmarks/lib/records.py)

from wordvec.vectors import ann  # noqa: E402
from wordvec.vectors.files import load_vectors, save_vectors  # noqa: E402
from wordvec.vectors.keyed import KeyedVectors  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out" / "ann"
CORPUS = ROOT / "benchmarks" / "out" / "cache" / "wordbench-10m.txt"  # bench caches of wordbench-10m.txt.xz
CORPUS_SOURCE = "../shared/data/corpus/wordbench-10m.txt.xz"
DIMS, MIN_N, MAX_N, BUCKET = 300, 3, 6, 2000000
QUERY_SEED = 5


# ----------------------------------------------------------------------------- the 3M matrix

def corpus_ids(path):
    """Every line of the corpus as an int64 array of word ids; the words, first seen first."""
    index, lines = {}, []
    with open(path, encoding="utf-8") as corpus:
        for line in corpus:
            lines.append(np.fromiter((index.setdefault(w, len(index)) for w in line.split()), dtype=np.int64))
    return lines, list(index)


def ngram_counts(lines, n, V):
    """Distinct word n-grams within lines as (codes, counts); code = sum id_k * V^(n-1-k)."""
    codes = []
    for ids in lines:
        if len(ids) >= n:
            code = np.zeros(len(ids) - n + 1, dtype=np.int64)
            for k in range(n):
                code = code * V + ids[k:len(ids) - n + 1 + k]
            codes.append(code)
    return np.unique(np.concatenate(codes), return_counts=True)


def decode(code, n, words, V):
    parts = []
    for _ in range(n):
        code, last = divmod(int(code), V)
        parts.append(words[last])
    return "_".join(reversed(parts))


def frequent_strings(path, rows):
    """The ``rows`` most frequent distinct words, bigrams and trigrams (ties: words, then
    bigrams, then trigrams, each in code order), as strings, most frequent first."""
    lines, words = corpus_ids(path)
    V = len(words)
    word_counts = np.bincount(np.concatenate(lines), minlength=V)
    kinds = [(1, np.arange(V, dtype=np.int64), word_counts)]
    kinds += [(n, *ngram_counts(lines, n, V)) for n in (2, 3)]
    counts = np.concatenate([c for _, _, c in kinds])
    order = np.argsort(-counts, kind="stable")[:rows]
    sizes = np.cumsum([0] + [len(c) for _, c, _ in kinds])
    strings, made = [], {1: 0, 2: 0, 3: 0}
    for position in order.tolist():
        kind = np.searchsorted(sizes, position, side="right") - 1
        n, codes, _ = kinds[kind]
        strings.append(decode(codes[position - sizes[kind]], n, words, V))
        made[n] += 1
    return strings, counts[order], {"distinct_words": V, "distinct_bigrams": len(kinds[1][1]),
                                    "distinct_trigrams": len(kinds[2][1]), "rows_by_n": made,
                                    "lowest_count_kept": int(counts[order[-1]])}


@numba.njit(parallel=True, cache=True)
def mean_of_ngrams(W_ngrams, offsets, ids, out):
    """out[s] = the mean of string s's n-gram rows (fastText's vector of an unseen word)."""
    for s in numba.prange(out.shape[0]):
        out[s, :] = 0.0
        for k in range(offsets[s], offsets[s + 1]):
            out[s, :] += W_ngrams[ids[k]]
        out[s, :] *= np.float32(1.0 / max(1, offsets[s + 1] - offsets[s]))


def compose_matrix(strings, model):
    """Rows of ``strings``: the model's vector for a vocabulary word, n-gram mean otherwise."""
    from wordvec.data.subword import ngram_table

    offsets, ids = ngram_table(strings, MIN_N, MAX_N, BUCKET)
    matrix = np.empty((len(strings), DIMS), dtype=np.float32)
    mean_of_ngrams(model.W_ngrams, offsets, ids, matrix)
    vocabulary = model.wv
    known = [(row, vocabulary.get_index(s)) for row, s in enumerate(strings) if vocabulary.has_index_for(s)]
    rows, own = np.array([r for r, _ in known]), np.array([i for _, i in known])
    matrix[rows] = vocabulary.vectors[own]
    return matrix, len(known), float(np.mean(np.diff(offsets)))


def direction_stats(matrix, sample=200000):
    """How much one shared direction dominates: mean cosine of a row to the mean row, and
    the mean cosine between random pairs of rows (a seeded sample)."""
    rng = np.random.default_rng(0)
    rows = matrix[np.sort(rng.choice(len(matrix), min(sample, len(matrix)), replace=False))].astype(np.float64)
    units = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    mean = matrix.mean(axis=0, dtype=np.float64)
    pairs = units[: len(units) // 2] * units[len(units) // 2: 2 * (len(units) // 2)]
    return {"mean_cosine_to_mean_row": float(np.mean(units @ (mean / np.linalg.norm(mean)))),
            "mean_cosine_of_random_pairs": float(pairs.sum(axis=1).mean())}


def stage_matrix(args):
    from wordvec.models.word2vec.model import Word2Vec

    started = time.perf_counter()
    model = Word2Vec(corpus_file=str(CORPUS), sg=0, vector_size=DIMS, min_count=5, epochs=1, workers=2,
                     subwords=True, min_n=MIN_N, max_n=MAX_N, bucket=BUCKET, seed=1)
    trained = time.perf_counter() - started
    strings, counts, corpus = frequent_strings(CORPUS, args.rows)
    matrix, in_vocabulary, mean_bag = compose_matrix(strings, model)
    del model
    before = direction_stats(matrix)
    if args.center:
        matrix -= matrix.mean(axis=0, dtype=np.float64).astype(np.float32)
    path = vectors_path(args.rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_vectors(KeyedVectors(strings, matrix), path)
    return {"vectors": os.path.relpath(path, ROOT), "corpus": CORPUS_SOURCE, "highest_count": int(counts[0]), "train_seconds": trained,
            "model": {"model": "cbow", "subwords": True, "dims": DIMS, "min_n": MIN_N, "max_n": MAX_N,
                      "bucket": BUCKET, "min_count": 5, "epochs": 1},
            "centered": args.center, "common_direction_before": before,
            "common_direction_after": direction_stats(matrix),
            "rows": len(strings), "rows_in_model_vocabulary": in_vocabulary, "mean_ngrams_per_row": mean_bag,
            **corpus, "first_rows": strings[:8], "sample_rows": strings[len(strings) // 2:len(strings) // 2 + 8]}


def vectors_path(rows):
    return OUT / f"composed-{rows}.wv"


# ----------------------------------------------------------------------------- measuring

def query_words(kv, n, seed=QUERY_SEED):
    rows = np.random.default_rng(seed).choice(len(kv), n, replace=False)
    return [kv._key_at(int(i)) for i in rows]


def unit_queries(kv, words):
    rows = np.concatenate([kv._rows(i, i + 1) for i in map(kv.get_index, words)])
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def recall_at_10(exact, approximate):
    return float(np.mean([len({w for w, _ in e} & {w for w, _ in a}) / len(e) for e, a in zip(exact, approximate)]))


def timed(function, repeat=3):
    """(last result, seconds of each call); callers report the median call (the first may
    fault pages in; a shared machine makes single calls noisy)."""
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        seconds.append(time.perf_counter() - start)
    return result, seconds


def exact_batch(kv, words):
    exact, seconds = timed(lambda: kv.most_similar_batch(words, topn=10))
    median = float(np.median(seconds))
    return exact, {"exact_seconds_each_call": seconds, "exact_seconds": median, "exact_qps": len(words) / median}


def approximate_by_ef(kv, index, words, exact, ef_values):
    """recall@10 and queries/s of most_similar_batch(approximate=True) at each ef, plus the
    raw usearch search of the same unit queries (what the API path adds over it)."""
    units = unit_queries(kv, words)
    rows = []
    for ef in ef_values:
        index.index.expansion_search = ef
        answers, seconds = timed(lambda: kv.most_similar_batch(words, topn=10, approximate=True))
        median = float(np.median(seconds))
        row = {"ef_search": ef, "seconds_each_call": seconds, "seconds": median, "qps": len(words) / median,
               "recall_at_10": recall_at_10(exact, answers)}
        _, raw = timed(lambda: index.index.search(units, 11, threads=0))
        row["raw_search_seconds"] = float(np.median(raw))  # usearch alone: what the API path adds
        rows.append(row)
    return rows


def single_latency(kv, words, approximate):
    seconds = []
    for word in words:
        start = time.perf_counter()
        kv.most_similar(word, topn=10, approximate=approximate)
        seconds.append(time.perf_counter() - start)
    p50, p90, p99 = np.percentile(seconds, [50, 90, 99])
    return {"queries": len(words), "p50_ms": 1e3 * p50, "p90_ms": 1e3 * p90, "p99_ms": 1e3 * p99,
            "mean_ms": 1e3 * float(np.mean(seconds))}


def with_speedups(exact, by_ef):
    for row in by_ef:
        row["speedup_over_exact"] = row["qps"] / exact["exact_qps"]
    return by_ef


# ----------------------------------------------------------------------------- stages

def config_of(args):
    return ann.AnnConfig(args.connectivity, args.expansion_add, args.ef[0], args.dtype)


def index_size_mb(path):
    return Path(path).stat().st_size / 2**20


def stage_tune(args):
    """Settings compared over the first --tune-rows rows (in memory; nothing saved)."""
    full = load_vectors(vectors_path(args.rows), mmap_mode="r")
    n = args.tune_rows
    kv = KeyedVectors([full._key_at(i) for i in range(n)], np.array(full.vectors[:n]))
    words = query_words(kv, args.queries)
    exact, exact_timing = exact_batch(kv, words)
    results = []
    for setting in args.settings.split(";"):
        m, ef_add, dtype = setting.split(",")
        config = ann.AnnConfig(int(m), int(ef_add), args.ef[0], dtype)
        start, cpu = time.perf_counter(), time.process_time()
        kv.ann_index = ann.build_index(kv, config, threads=args.threads)
        build = {"build_seconds": time.perf_counter() - start, "build_cpu_seconds": time.process_time() - cpu}
        by_ef = with_speedups(exact_timing, approximate_by_ef(kv, kv.ann_index, words, exact, args.ef))
        row = {"rows": n, "config": asdict(config), **build, **exact_timing, "by_ef": by_ef}
        print(json.dumps(row), flush=True)
        results.append(row)
    return {"tune": results}


def _partial_path(rows):
    return OUT / f"composed-{rows}.partial.usearch"


def stage_build(args):
    """The index of all rows (or rows [0, --stop)), built as `wordvec index` builds it."""
    path = vectors_path(args.rows)
    kv = load_vectors(path, mmap_mode="r")
    config = config_of(args)
    start = time.perf_counter()
    if args.resume:
        built = ann.resume_index(kv, _partial_path(args.rows), config, threads=args.threads)
    else:
        built = ann.build_index(kv, config, threads=args.threads, stop=args.stop)
    seconds = time.perf_counter() - start
    if built.index.size < len(kv):
        built.index.save(os.fspath(_partial_path(args.rows)))
        saved, complete = _partial_path(args.rows), False
    else:
        saved, complete = ann.save_index(built, path), True
        if _partial_path(args.rows).exists():
            _partial_path(args.rows).unlink()
    return {"config": asdict(config), "threads": args.threads, "rows_in_index": built.index.size,
            "complete": complete, "resumed": args.resume, "build_seconds": seconds,
            "index_path": os.path.relpath(saved, ROOT), "index_mb": index_size_mb(saved)}


def stage_query(args):
    """Exact against the saved index in one process: batched recall/qps at each ef, single latency."""
    path = vectors_path(args.rows)
    kv = load_vectors(path, mmap_mode="r")
    start = time.perf_counter()
    ann.attach_index(kv, path, view=not args.load_index)
    reload_seconds = time.perf_counter() - start
    words = query_words(kv, args.queries)
    exact, exact_timing = exact_batch(kv, words)
    by_ef = with_speedups(exact_timing, approximate_by_ef(kv, kv.ann_index, words, exact, args.ef))
    kv.ann_index.index.expansion_search = args.single_ef
    single = {"ef_search": args.single_ef, **single_latency(kv, words, approximate=True)}
    single_exact = single_latency(kv, words[:args.exact_single], approximate=False)
    return {"rows": len(kv), "queries": len(words), "index_config": kv.ann_index.meta["config"],
            "index_mb": index_size_mb(ann.index_path(path)), "index_mapped": not args.load_index,
            "index_reload_seconds": reload_seconds, **exact_timing, "by_ef": by_ef,
            "single_approximate": single, "single_exact": single_exact}


def stage_trained(args):
    """The same measurement on real trained vectors (index built here, not saved)."""
    kv = load_vectors(args.vectors)
    words = query_words(kv, args.queries)
    exact, exact_timing = exact_batch(kv, words)
    config = config_of(args)
    start = time.perf_counter()
    kv.ann_index = ann.build_index(kv, config, threads=args.threads)
    build_seconds = time.perf_counter() - start
    by_ef = with_speedups(exact_timing, approximate_by_ef(kv, kv.ann_index, words, exact, args.ef))
    return {"vectors": args.vectors, "rows": len(kv), "dims": kv.vector_size, "queries": len(words),
            "config": asdict(config), "build_seconds": build_seconds, **exact_timing, "by_ef": by_ef}


STAGES = {"matrix": stage_matrix, "tune": stage_tune, "build": stage_build, "query": stage_query,
          "trained": stage_trained}


def start_record(rows):
    """The record of this invocation, started now (commit, command, load before the stage)."""
    return records.Record(f"ann-{rows}", note="approximate search (usearch) vs wordvec's exact search; "
                                              "matrix: fastText-style composed vectors, see bench_ann.py")


def append_run(record, stage, fields, measured):
    """Add this stage's run to benchmarks/results/vectors/ann-<rows>.json (earlier runs kept)."""
    path = records.RESULTS / f"{record.name}.json"
    if path.exists():
        record.data["runs"] = json.loads(path.read_text())["runs"]
    run = record.add_run(system="wordvec", stage=stage, **measured, **fields)
    run.update(commit=record.data["commit"], uncommitted=record.data["uncommitted"],
               command_line=record.data["command_line"], started=record.data["started"],
               load_before=record.data["load_before"], load_after=list(os.getloadavg()))
    record.save(path.parent)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=STAGES)
    parser.add_argument("--rows", type=int, default=3000000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--connectivity", type=int, default=16)
    parser.add_argument("--expansion-add", type=int, default=128)
    parser.add_argument("--dtype", default="f16", choices=("f32", "f16", "i8"))
    parser.add_argument("--ef", type=lambda s: [int(e) for e in s.split(",")], default=[16, 32, 64, 128])
    parser.add_argument("--single-ef", type=int, default=64)
    parser.add_argument("--exact-single", type=int, default=20, help="single exact queries timed")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tune-rows", type=int, default=300000)
    parser.add_argument("--settings", default="16,64,f16;16,128,f16;16,64,i8;32,64,f16;16,64,f32",
                        help="tune: M,expansion_add,dtype;...")
    parser.add_argument("--no-center", dest="center", action="store_false",
                        help="matrix: keep the mean row (by default it is subtracted: see the docstring)")
    parser.add_argument("--stop", type=int, help="build: only rows [0, STOP) (a partial index)")
    parser.add_argument("--resume", action="store_true", help="build: add the remaining rows to the partial index")
    parser.add_argument("--load-index", action="store_true", help="query: read the index into memory (not mapped)")
    parser.add_argument("--vectors", default="benchmarks/out/wordbench-sg300.bin", help="trained: vectors")
    args = parser.parse_args()
    record = start_record(args.rows)
    fields, measured = records.measure(lambda: STAGES[args.stage](args))
    print(json.dumps(fields, indent=1), flush=True)
    print(f"record {append_run(record, args.stage, fields, measured)}")


if __name__ == "__main__":
    main()
