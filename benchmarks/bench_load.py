"""Pretrained vectors at full size: load, map, search and compact, wordvec against gensim 4.4.0.

Writes synthetic files of GoogleNews shape under benchmarks/out/load/ (never committed):
``--words`` x 300 (3,000,000 for the full run, 400,000 for a quick one) with Zipf-like word
lengths, as ``.bin`` (the C tool's binary), ``.bin.gz``, ``.txt`` (word2vec text, six
decimals) and ``.vec`` (fastText text: four decimals, a space before each newline), all
holding the same vectors.  Then, one whole child process per measurement (wall, CPU and
faults from wait4, peak RSS its own VmHWM), each file read once right before so it is in
the page cache, each binary load twice in a row ("first", "again": see stage_load):

  load      wordvec ``load_vectors`` vs gensim ``KeyedVectors.load_word2vec_format``
            (full, and ``limit=500000``); wordvec's words stay a WordTable (arrays + hash
            table) until code touches ``index_to_key``/``key_to_index``, so for ``.bin``
            one more row ("touched") also builds the dict, as gensim always does;
  mmap      open the native cache (.wv) with mmap_mode="r" and answer one query (a word
            of the vocabulary, looked up by the parent and passed in);
  search    most_similar of 1,000 words: wordvec's batched exact search vs gensim's
            per-word loop (over --gensim-queries words, the rest extrapolated: said so);
  ann       approximate index (wordvec.vectors.ann): build time, recall@10 and queries/s
            against exact search;
  int8      analogy accuracy and Spearman rho, float32 vs int8, on trained vectors.

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_load.py --words 400000 --stages load
    .venv/bin/python benchmarks/bench_load.py --words 3000000 --stages ""   # only write the files (~10 min)
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_load.py --words 3000000 \
        --stages load,mmap,search,ann-trained --vectors TRAINED.bin
    # or the load stage in parts, each complete per format (the record keeps the others' rows):
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_load.py --words 3000000 \
        --stages load --formats bin,bin.gz
    # only some limits ("all": the whole file), into a record of its own:
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_load.py --words 3000000 \
        --stages load --formats txt,vec --limits 500000 --record load-20261127

The record (JSON) goes to benchmarks/results/load-<words>.json, or --record NAME.json
(stages merged in).
The vectors are not isotropic noise: each row is a cluster centre (2,000 centres, picked
Zipf-like) plus a 64-d low-rank part plus small noise, so nearest neighbours mean something,
as in trained embeddings (an approximate index on pure 300-d noise measures nothing useful).
"""

import argparse
import gzip
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out" / "load"
RESULTS = ROOT / "benchmarks" / "results"
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DIMS = 300
ROWS_PER_BLOCK = 20000


# ----------------------------------------------------------------------------- synthetic files

def synthetic_words(n, seed=1):
    """Unique words, lengths Zipf-like (many short, a long tail of phrases), some non-ASCII."""
    rng = np.random.default_rng(seed)
    lengths = np.minimum(rng.zipf(1.6, n) + 2, 40)
    letters = rng.integers(97, 123, size=int(lengths.sum()), dtype=np.uint8).tobytes().decode("ascii")
    words, pos = [], 0
    for i, length in enumerate(lengths.tolist()):
        stem = letters[pos:pos + length]
        pos += length
        if i % 97 == 0:
            stem = stem[:-1] + "é"
        words.append(f"{stem}_{i:x}" if i >= 1000 else stem + str(i))
    return words


def synthetic_block(start, stop, centres, basis, seed=2):
    """Rows start:stop as integers q (value q * 1e-6): centre + low-rank part + noise."""
    rng = np.random.default_rng([seed, start])
    n = stop - start
    which = np.minimum(rng.zipf(1.3, n) - 1, len(centres) - 1)
    rows = centres[which] + rng.standard_normal((n, basis.shape[0])).astype(np.float32) @ basis
    rows += 0.02 * rng.standard_normal((n, DIMS)).astype(np.float32)
    return np.rint(rows * 1e6).astype(np.int32)


@numba.njit(cache=True)
def _format_rows(words_bytes, word_ends, q, decimals, trailing_space, out):
    """word + " " + fixed-point values, one line per row, into ``out``; returns bytes used."""
    used, start = 0, 0
    divisor = 10 ** (6 - decimals)
    for r in range(q.shape[0]):
        for k in range(start, word_ends[r]):
            out[used] = words_bytes[k]
            used += 1
        start = word_ends[r]
        for j in range(q.shape[1]):
            value = q[r, j]
            out[used] = 32
            used += 1
            if value < 0:
                out[used] = 45
                used += 1
                value = -value
            value = (value + divisor // 2) // divisor
            scale = 10 ** decimals
            whole, frac = value // scale, value % scale
            digits = np.empty(12, np.uint8)
            nd = 0
            while True:
                digits[nd] = 48 + whole % 10
                nd += 1
                whole //= 10
                if whole == 0:
                    break
            for d in range(nd - 1, -1, -1):
                out[used] = digits[d]
                used += 1
            out[used] = 46
            used += 1
            for d in range(decimals - 1, -1, -1):
                out[used] = 48 + (frac // 10 ** d) % 10
                used += 1
        if trailing_space:
            out[used] = 32
            used += 1
        out[used] = 10
        used += 1
    return used


def _text_block(words, q, decimals, trailing_space):
    encoded = [w.encode("utf-8") for w in words]
    ends = np.cumsum([len(w) for w in encoded])
    out = np.empty(int(ends[-1]) + q.size * 16 + 2 * len(words), dtype=np.uint8)
    used = _format_rows(np.frombuffer(b"".join(encoded), np.uint8), ends, q, decimals, trailing_space, out)
    return out[:used].tobytes()


def _binary_block(words, q):
    rows = (q.astype(np.float64) * 1e-6).astype("<f4")
    return b"".join(w.encode("utf-8") + b" " + row.tobytes() + b"\n" for w, row in zip(words, rows))


def write_files(n, out):
    """The four files (skipped when they exist with the right header)."""
    paths = {ext: out / f"synthetic-{n}.{ext}" for ext in ("bin", "bin.gz", "txt", "vec")}
    if all(p.exists() for p in paths.values()):
        return paths
    out.mkdir(parents=True, exist_ok=True)
    words = synthetic_words(n)
    rng = np.random.default_rng(3)
    centres = rng.standard_normal((2000, DIMS)).astype(np.float32) * 0.1
    basis = rng.standard_normal((64, DIMS)).astype(np.float32) * 0.02
    header = f"{n} {DIMS}\n".encode()
    tmp = {ext: open(str(p) + ".tmp", "wb") for ext, p in paths.items() if ext != "bin.gz"}
    gz = gzip.open(str(paths["bin.gz"]) + ".tmp", "wb", compresslevel=1)
    for handle in list(tmp.values()) + [gz]:
        handle.write(header)
    for start in range(0, n, ROWS_PER_BLOCK):
        stop = min(n, start + ROWS_PER_BLOCK)
        q, block_words = synthetic_block(start, stop, centres, basis), words[start:stop]
        binary = _binary_block(block_words, q)
        tmp["bin"].write(binary)
        gz.write(binary)
        tmp["txt"].write(_text_block(block_words, q, 6, False))
        tmp["vec"].write(_text_block(block_words, q, 4, True))
    for handle in list(tmp.values()) + [gz]:
        handle.close()
    for ext, p in paths.items():
        os.replace(str(p) + ".tmp", p)
    return paths


# ----------------------------------------------------------------------------- measuring

COLD_PAUSE_SECONDS = 10  # longer than the ~2 s after which the host takes freed memory back


def warm(path):
    """Read a file once so that the timed load finds it in the page cache; returns the
    read's speed in GB/s (several GB/s: it was cached already; ~1.6 GB/s: from disk)."""
    start, size = time.perf_counter(), 0
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(1 << 24)
            if not chunk:
                break
            size += len(chunk)
    return round(size / 1e9 / max(time.perf_counter() - start, 1e-9), 2)


def forget(path):
    """Drop this file's pages from the page cache (our own file only): 22 GB of synthetic
    files do not fit beside the matrices in 24 GB, and a load must not pay for reclaiming
    the file measured before it."""
    with open(path, "rb") as handle:
        os.posix_fadvise(handle.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def memory_state():
    """MemFree and Cached of /proc/meminfo, in MB."""
    fields = dict(line.split(":", 1) for line in open("/proc/meminfo"))
    return {name: int(fields[name].split()[0]) // 1024 for name in ("MemFree", "Cached")}


# The child's own peak resident set: VmHWM of its address space.  (wait4's ru_maxrss is no
# good here: at exec Linux folds the parent's high-water mark into the child's, so after
# the parent once held a 3.4 GB matrix every child would report >= 3.4 GB.)
PEAK = """
import json as _json
print(_json.dumps({"peak_rss_mb": [int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")][0] / 1024}))
"""


def measured(code, *args):
    """One child process, measured from outside with wait4 (wall, user+sys CPU) and its own
    VmHWM (peak RSS); the JSON lines it prints are merged."""
    code = code + PEAK
    start = time.perf_counter()
    process = subprocess.Popen([PYTHON, "-c", code, *map(str, args)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    stdout, stderr = _drain(process)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"child failed ({status}): {stderr.decode(errors='replace')[-2000:]}")
    result = {}
    for line in stdout.decode().strip().splitlines()[-2:]:
        result.update(json.loads(line))
    result.update(wall_seconds=round(wall, 3), cpu_seconds=round(usage.ru_utime + usage.ru_stime, 3),
                  user_seconds=round(usage.ru_utime, 3), sys_seconds=round(usage.ru_stime, 3),
                  major_faults=usage.ru_majflt, minor_faults=usage.ru_minflt,
                  peak_rss_mb=round(result["peak_rss_mb"], 1), ru_maxrss_mb=round(usage.ru_maxrss / 1024, 1))
    return result


def _drain(process):
    """Read the child's output without reaping it (wait4 must get its rusage)."""
    stdout, stderr = process.stdout.read(), process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    return stdout, stderr


BASELINE = {
    # what the load script imports (a file under reading.COMPILED_FROM_BYTES never imports Numba)
    "wordvec": "import json, numpy, wordvec.vectors.files; print(json.dumps({}))",
    "gensim": "import json, numpy, gensim.models; print(json.dumps({}))",
}

LOAD = {
    "wordvec": """
import json, sys, time
from wordvec.vectors.files import load_vectors
limit = None if sys.argv[2] == 'None' else int(sys.argv[2])
t = time.perf_counter()
kv = load_vectors(sys.argv[1], limit=limit)
if sys.argv[3] == 'touched':
    kv.key_to_index
t = time.perf_counter() - t
print(json.dumps({'inside_seconds': t, 'words': len(kv), 'checksum': float(kv.vectors[:1000].astype('float64').sum()),
                  'matrix_mb': kv.vectors.nbytes / 2**20, 'words_as': 'dict' if kv.word_table is None else 'table'}))
""",
    "gensim": """
import json, sys, time
from gensim.models import KeyedVectors
limit = None if sys.argv[2] == 'None' else int(sys.argv[2])
t = time.perf_counter()
kv = KeyedVectors.load_word2vec_format(sys.argv[1], binary=sys.argv[1].endswith(('.bin', '.bin.gz')), limit=limit)
t = time.perf_counter() - t
print(json.dumps({'inside_seconds': t, 'words': len(kv), 'checksum': float(kv.vectors[:1000].astype('float64').sum()),
                  'matrix_mb': kv.vectors.nbytes / 2**20}))
""",
}

MMAP = """
import json, sys, time
t0 = time.perf_counter()
from wordvec.vectors.files import load_vectors
t1 = time.perf_counter()
kv = load_vectors(sys.argv[1], mmap_mode='r')
t2 = time.perf_counter()
answer = kv.most_similar(sys.argv[2], topn=10)
t3 = time.perf_counter()
print(json.dumps({'import_seconds': t1 - t0, 'open_seconds': t2 - t1, 'first_query_seconds': t3 - t2,
                  'open_and_query_seconds': t3 - t1, 'answer': answer[:3]}))
"""


SEARCH = {
    "wordvec": """
import json, sys, time
import numpy as np
from wordvec.vectors.files import load_vectors
kv = load_vectors(sys.argv[1], mmap_mode='r')
rng = np.random.default_rng(5)
words = [kv.word_table.word(i) for i in rng.choice(len(kv), int(sys.argv[2]), replace=False)]
t = time.perf_counter(); first = kv.most_similar_batch(words, topn=10); t1 = time.perf_counter() - t
t = time.perf_counter(); again = kv.most_similar_batch(words, topn=10); t2 = time.perf_counter() - t
print(json.dumps({'queries': len(words), 'first_batch_seconds': t1, 'batch_seconds': t2,
                  'answers': [[w for w, _ in a] for a in again[:int(sys.argv[3])]]}))
""",
    "gensim": """
import json, sys, time
import numpy as np
from gensim.models import KeyedVectors
kv = KeyedVectors.load_word2vec_format(sys.argv[1], binary=True)
rng = np.random.default_rng(5)
words = [kv.index_to_key[i] for i in rng.choice(len(kv), int(sys.argv[2]), replace=False)][:int(sys.argv[3])]
kv.fill_norms()
t = time.perf_counter(); answers = [kv.most_similar(w, topn=10) for w in words]; t1 = time.perf_counter() - t
print(json.dumps({'queries': len(words), 'loop_seconds': t1, 'per_query_seconds': t1 / len(words),
                  'answers': [[w for w, _ in a] for a in answers]}))
""",
}

ANN = """
import json, os, sys, time
import numpy as np
from wordvec.vectors.files import load_vectors
backend, path, n_queries = sys.argv[1], sys.argv[2], int(sys.argv[3])
M, EF_ADD, EFS = int(sys.argv[5]), int(sys.argv[6]), [int(e) for e in sys.argv[4].split(',')]
kv = load_vectors(path)
units = kv.vectors / np.linalg.norm(kv.vectors, axis=1, keepdims=True)
rng = np.random.default_rng(5)
rows = rng.choice(len(kv), n_queries, replace=False)
words = [kv.index_to_key[i] for i in rows]
t = time.perf_counter(); exact = kv.most_similar_batch(words, topn=10); exact_s = time.perf_counter() - t
exact = [{w for w, _ in e} for e in exact]
threads = os.cpu_count()
t = time.perf_counter()
if backend == 'usearch':
    from wordvec.vectors import ann
    index = ann.build_index(kv, ann.AnnConfig(M, EF_ADD, EFS[0]))
    def search(ef):
        index.index.expansion_search = ef
        return index.query(units[rows], 11, len(kv))[0]
elif backend == 'hnswlib':
    import hnswlib
    index = hnswlib.Index(space='ip', dim=kv.vector_size)
    index.init_index(max_elements=len(kv), ef_construction=EF_ADD, M=M)
    index.add_items(units, np.arange(len(kv)), num_threads=threads)
    def search(ef):
        index.set_ef(ef)
        return index.knn_query(units[rows], k=11, num_threads=threads)[0]
else:
    import faiss
    faiss.omp_set_num_threads(threads)
    index = faiss.IndexHNSWFlat(kv.vector_size, M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = EF_ADD
    index.add(units)
    def search(ef):
        index.hnsw.efSearch = ef
        return index.search(units[rows], 11)[1]
build_s = time.perf_counter() - t
results = []
for ef in EFS:
    t = time.perf_counter(); got = search(ef); query_s = time.perf_counter() - t
    answers = [[kv.index_to_key[j] for j in row if 0 <= j and j != q][:10] for row, q in zip(np.asarray(got).tolist(), rows)]
    recall = float(np.mean([len(e & set(a)) / 10 for e, a in zip(exact, answers)]))
    results.append({'ef_search': ef, 'query_seconds': query_s, 'ann_qps': n_queries / query_s,
                    'speedup_over_exact': exact_s / query_s, 'recall_at_10': recall})
print(json.dumps({'backend': backend, 'rows': len(kv), 'queries': n_queries, 'M': M, 'ef_construction': EF_ADD,
                  'threads': threads, 'build_seconds': build_s, 'exact_seconds': exact_s,
                  'exact_qps': n_queries / exact_s, 'by_ef': results}))
"""


READER_FILES = ("wordvec/vectors/reading.py", "wordvec/vectors/binary_records.py", "wordvec/vectors/background.py",
                "wordvec/vectors/files.py",
                "wordvec/vectors/keyed.py", "wordvec/vectors/wordtable.py", "wordvec/kernels/parse.py",
                "wordvec/kernels/wordtable.py", "wordvec/io/formats.py", "wordvec/io/text_rows.c", "setup.py",
                "benchmarks/bench_load.py")


def reader_code():
    """The committed versions of the files a load runs (git blob ids, hashed): rows measured
    at two commits that differ only elsewhere (others commit to this checkout too) measured
    the same code."""
    blobs = subprocess.run(["git", "rev-parse", *[f"HEAD:{name}" for name in READER_FILES]], capture_output=True,
                           text=True, cwd=ROOT).stdout
    return hashlib.sha1(blobs.encode()).hexdigest()[:12]


def text_parser():
    """The module that parses text rows in this install (the C twin, or Numba's where no C
    compiler was found): a record says which one its text rows ran."""
    from wordvec.vectors import reading

    return reading.text_row_parser().__name__


def system_info():
    import gensim

    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "wordvec", "benchmarks/bench_load.py"],
                                capture_output=True, text=True, cwd=ROOT).stdout.strip())
    return {"commit": commit, "reader_code": reader_code(), "wordvec_tree_dirty": dirty, "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__, "gensim": gensim.__version__,
            "text_parser": text_parser(), "machine": platform.machine(), "cpus": os.cpu_count(),
            "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)}


def stage_load(paths, limits, gensim_full_text, runs, text_runs, version):
    """Each format, each system, full and limited, as whole processes (and wordvec's
    whole .bin once more with its dict built: "touched").

    Each measurement runs ``runs`` times in a row (run 0 "first", run 1 "again"), the file
    read right before each.  On this machine (a Firecracker VM whose host takes back freed
    guest memory: free page reporting) fresh memory costs 2-2.5 s per GB of system time
    unless the guest freed it within the last ~2 s, so the first run of a load pays for
    the host faulting in its matrix and the second, right after the same load freed it,
    mostly does not: "first" is what this VM gives, "again" is closer to parsing on a
    machine whose memory is its own.  Both tools are run the same way; both rows are kept.
    Each "first" waits ``COLD_PAUSE_SECONDS`` before it: without the pause, gensim's first
    run followed wordvec's second by less than a second and found its freed memory still
    in the guest (gensim's "first" was warm, wordvec's cold).
    Text loads run ``text_runs`` times (default once): they are parses bound by the CPU
    (gensim: 88 s at 500k rows), where fresh memory is a small part.
    Numba's cache is filled first (a small file of each format, untimed), and each file's
    pages leave the page cache once its rows are done (``forget``)."""
    rows = [{"system": system, "baseline": True, **version, **measured(BASELINE[system])}
            for system in ("wordvec", "gensim")]
    tiny = write_files(2000, OUT)
    for ext in paths:
        measured(LOAD["wordvec"], tiny[ext], None, "plain")  # compiles or loads the kernels: untimed
    for ext, path in paths.items():
        for limit in limits:
            systems = ["wordvec", "gensim"] + (["wordvec touched"] if ext == "bin" and limit is None else [])
            for system in systems:
                if system == "gensim" and limit is None and ext in ("txt", "vec") and not gensim_full_text:
                    continue  # 3M text in gensim: ~12 min per file (float() per number): the limited run stands in
                for run in range(text_runs if ext in ("txt", "vec") else runs):
                    if run == 0:  # every system's "first" starts from memory the host took back
                        time.sleep(COLD_PAUSE_SECONDS)
                    warm_speed = warm(path)
                    code, touch = LOAD[system.split()[0]], system.split()[-1]
                    row = {"system": system, "format": ext, "limit": limit, "run": run, **version,
                           "when": time.strftime("%H:%M:%SZ", time.gmtime()), "load_before": os.getloadavg()[0],
                           "warm_read_gb_per_s": warm_speed, "memory_before_mb": memory_state(),
                           **measured(code, path, limit, touch)}
                    print(json.dumps(row), flush=True)
                    rows.append(row)
        forget(path)
    return rows


def stage_mmap(paths, runs):
    """Native cache (written by load_vectors on the first mapped open), then timed opens."""
    from wordvec.vectors.files import load_vectors

    kv = load_vectors(paths["bin"], mmap_mode="r")  # builds synthetic-N.bin.wv if missing
    word = kv.word_table.word(12345) if kv.word_table is not None else kv.index_to_key[12345]
    del kv
    cache = str(paths["bin"]) + ".wv"
    rows = []
    for run in range(runs):
        for name in os.listdir(cache):
            warm(os.path.join(cache, name))
        row = {"system": "wordvec", "run": run, "query": word, **measured(MMAP, cache, word)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def stage_search(paths, gensim_queries, queries=1000):
    """most_similar of 1,000 words: wordvec batched (mapped native cache) vs gensim's loop."""
    cache = str(paths["bin"]) + ".wv"
    if not os.path.isdir(cache):
        stage_mmap(paths, 1)
    for name in os.listdir(cache):
        warm(os.path.join(cache, name))
    ours = {"system": "wordvec", **measured(SEARCH["wordvec"], cache, queries, gensim_queries)}
    warm(paths["bin"])
    theirs = {"system": "gensim", **measured(SEARCH["gensim"], paths["bin"], queries, gensim_queries)}
    agree = [len(set(a) & set(b)) / 10 for a, b in zip(ours.pop("answers"), theirs.pop("answers"))]
    theirs["extrapolated_seconds_for_all"] = theirs["per_query_seconds"] * queries
    summary = {"queries": queries, "gensim_queries_timed": gensim_queries, "top10_agreement": float(np.mean(agree)),
               "speedup_batched_vs_gensim_loop": theirs["extrapolated_seconds_for_all"] / ours["batch_seconds"]}
    print(json.dumps([ours, theirs, summary]), flush=True)
    return [ours, theirs, summary]


def stage_ann(paths, backends=("usearch", "hnswlib", "faiss"), ef_values=(32, 64, 128), queries=1000):
    """Each library builds one HNSW graph (M 16, ef_construction 64) and answers at several ef."""
    rows = []
    for backend in backends:
        row = {"system": backend, **measured(ANN, backend, paths["bin"], queries, ",".join(map(str, ef_values)), 16, 64)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def stage_ann_trained(vectors_path, ef_values=(16, 32, 64, 128, 256), queries=1000):
    """The chosen index (usearch, wordvec.vectors.ann) on trained vectors: real neighbourhoods,
    built as `wordvec index` builds it (AnnConfig's defaults)."""
    from wordvec.vectors.ann import AnnConfig

    config = AnnConfig()
    row = {"system": "usearch", "vectors": vectors_path,
           **measured(ANN, "usearch", vectors_path, queries, ",".join(map(str, ef_values)), config.connectivity,
                      config.expansion_add)}
    print(json.dumps(row), flush=True)
    return [row]


def stage_int8(vectors_path):
    """Analogy accuracy and Spearman rho of float32 trained vectors against their compact forms."""
    from wordvec.vectors.compact import CompactConfig, compact
    from wordvec.vectors.evaluate import evaluate_all
    from wordvec.vectors.files import load_vectors

    kv = load_vectors(vectors_path)
    rows = []
    for config in [None, CompactConfig("float16"), CompactConfig("int8"), CompactConfig("int8", pca=kv.vector_size // 2)]:
        table = kv if config is None else compact(kv, config)
        result = evaluate_all(table)
        row = {"form": "float32" if config is None else vars(config), "words": len(kv), "dims": table.vector_size,
               "analogy_total": result["analogy"]["total"], "analogy_semantic": result["analogy"]["semantic"],
               "analogy_syntactic": result["analogy"]["syntactic"],
               "spearman": {name: s["spearman"] for name, s in result["similarity"].items()}}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return [{"vectors": vectors_path}] + rows


def _by(rows, **keys):
    return [r for r in rows if all(r.get(k) == v for k, v in keys.items())]


def report(record):
    """Markdown tables of one record (the figures benchmarks/README.md quotes)."""
    stages, lines = record.get("stages", {}), []
    if "load" in stages:
        rows = stages["load"]["rows"]
        base = {r["system"]: r["peak_rss_mb"] for r in rows if r.get("baseline")}
        lines += ["| file | limit | wordvec wall s (CPU) | gensim wall s (CPU) | speed-up wall (CPU) "
                  "| wordvec peak MB (x matrix) | gensim peak MB (x matrix) |", "|---|---|---|---|---|---|---|"]
        for ext in record["files"]:
            for limit in sorted({r["limit"] for r in _by(rows, format=ext)}, key=lambda x: x or 0):
                ours, theirs = _by(rows, format=ext, limit=limit, system="wordvec"), _by(rows, format=ext, limit=limit,
                                                                                         system="gensim")
                if not ours:
                    continue
                o = min(ours, key=lambda r: r["wall_seconds"])
                t = min(theirs, key=lambda r: r["wall_seconds"]) if theirs else None
                ratio = (f"{t['wall_seconds'] / o['wall_seconds']:.1f}x ({t['cpu_seconds'] / o['cpu_seconds']:.1f}x)"
                         if t else "-")
                both = lambda r: f"{r['wall_seconds']:.1f} ({r['cpu_seconds']:.1f})"  # noqa: E731
                peak = lambda r: f"{r['peak_rss_mb']:.0f} ({r['peak_rss_mb'] / r['matrix_mb']:.2f})"  # noqa: E731
                lines.append(f"| .{ext} | {limit or 'all'} | {both(o)} | {both(t) if t else '-'} | {ratio} "
                             f"| {peak(o)} | {peak(t) if t else '-'} |")
        lines.append(f"\nbaseline (imports only): wordvec {base.get('wordvec')} MB, gensim {base.get('gensim')} MB; "
                     f"load average {stages['load']['load_before']} -> {stages['load']['load_after']}")
    for name in ("mmap", "search", "ann", "int8"):
        if name in stages:
            lines.append(f"\n{name}: " + json.dumps(stages[name]["rows"]))
    return "\n".join(lines)


def load_record(path):
    return json.loads(path.read_text()) if path.exists() else {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=400000)
    parser.add_argument("--stages", default="load,mmap,search,ann,int8")
    parser.add_argument("--runs", type=int, default=2, help="each load this many times in a row (see stage_load)")
    parser.add_argument("--text-runs", type=int, default=1, help="each .txt/.vec load this many times")
    parser.add_argument("--formats", help="load only these (e.g. bin,bin.gz), keeping the record's other rows")
    parser.add_argument("--limit", type=int, default=500000)
    parser.add_argument("--limits", help='the loads to time, e.g. "all,500000" (default: all and --limit)')
    parser.add_argument("--record", help="record name in benchmarks/results (default load-WORDS)")
    parser.add_argument("--gensim-full-text", action="store_true", help="also gensim on the whole .txt/.vec")
    parser.add_argument("--gensim-queries", type=int, default=200)
    parser.add_argument("--vectors", help="trained vectors for the int8 stage")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--report", action="store_true", help="print the record's tables and stop")
    args = parser.parse_args()
    record_path = RESULTS / "vectors" / f"{args.record or f'load-{args.words}'}.json"
    record = load_record(record_path)
    if args.report:
        print(report(record))
        return
    for earlier in record.get("stages", {}).values():  # each stage keeps the commit it ran at
        earlier.setdefault("system", record.get("system"))
    record.update(system=system_info(), command=" ".join([sys.executable] + sys.argv))
    t = time.perf_counter()
    paths = write_files(args.words, Path(args.out))
    record["files"] = {ext: {"path": os.path.relpath(p, ROOT), "bytes": p.stat().st_size} for ext, p in paths.items()}
    print(f"files ready in {time.perf_counter() - t:.0f} s", flush=True)
    limits = ([None if limit == "all" else int(limit) for limit in args.limits.split(",")] if args.limits
              else [None] + ([args.limit] if args.limit < args.words else []))
    for stage in filter(None, args.stages.split(",")):
        load_before = os.getloadavg()
        start = time.perf_counter()
        if stage == "load":
            chosen = {ext: paths[ext] for ext in (args.formats.split(",") if args.formats else paths)}
            version = {key: record["system"][key] for key in ("commit", "reader_code")}
            rows = stage_load(chosen, limits, args.gensim_full_text or args.words <= 500000, args.runs,
                              args.text_runs, version)
            if args.formats or args.limits:  # the other loads' rows stay (stage_load's rows name their commit)
                earlier = record.get("stages", {}).get("load", {}).get("rows", [])
                rows = rows + [row for row in earlier if not row.get("baseline")
                               and (row.get("format") not in chosen or row.get("limit") not in limits)]
        elif stage == "mmap":
            rows = stage_mmap(paths, max(args.runs, 3))
        elif stage == "search":
            rows = stage_search(paths, args.gensim_queries)
        elif stage == "ann":
            rows = stage_ann(paths)
        elif stage == "ann-trained":
            rows = stage_ann_trained(args.vectors)
        elif stage == "int8":
            rows = stage_int8(args.vectors)
        else:
            raise SystemExit(f"unknown stage {stage}")
        record.setdefault("stages", {})[stage] = {
            "rows": rows, "load_before": load_before, "load_after": os.getloadavg(),
            "seconds": round(time.perf_counter() - start, 1),
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "command": record["command"],
            "system": record["system"]}
        RESULTS.mkdir(parents=True, exist_ok=True)
        record_path.write_text(json.dumps(record, indent=1) + "\n")
        print(f"stage {stage} done; record {record_path}", flush=True)


if __name__ == "__main__":
    main()
