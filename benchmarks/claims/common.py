"""What the claim scripts share: the data, one training run per child process under the
heavy lock, evaluation split by word frequency, and cached JSON results.

A *run* is a dict ``{"model": ..., "params": {...}, ...}`` (see ``train_*`` below).
``run(spec)`` returns its result: read from ``benchmarks/out/claims/runs/<model>-<hash>.json``
if a previous call finished it, otherwise trained in a child process
(``python common.py SPEC OUT``) while this process holds ``flock`` on
``/tmp/wordvec-heavy.lock`` -- one training per lock acquisition, so runs of other
people interleave with a long sweep.  The same spec from two claim scripts is trained
once (the file name is a hash of the spec).

Evaluation (``evaluate``): the standard numbers (Google analogies, 3CosAdd, restricted to
the 30k most frequent words, case-insensitive; WordSim-353 and SimLex-999 Spearman rho,
all via ``wordvec.vectors.evaluate``) and the same sets split by word frequency: an analogy
question goes to the bin of the corpus count of its rarest word, a similarity pair to
the bin of its rarer word, and the binned analogies search the whole vocabulary (not
the first 30k), so that rare words can be both questions and answers.

Records (``save_record``): each sweep also writes benchmarks/results/claims-<claim>.json
(tracked) through benchmarks/lib/records.py: per run its spec, commit, load, wall and CPU
seconds, peak RSS and the figures the claim reads.  The word2vec baseline trains EPOCHS
(5) epochs; the scripts' ``--epochs 2`` reproduces the first, CPU-bound sweeps.
"""

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"
OUT = ROOT / "benchmarks" / "out" / "claims"
RUNS = OUT / "runs"
FIGURES = ROOT / "benchmarks" / "figures"
LOCK = os.environ.get("WORDVEC_HEAVY_LOCK", "/tmp/wordvec-heavy.lock")  # another file: runs in parallel

ANALOGY_BINS = (5, 30, 100, 300)          # rarest word's count: [5, 30), [30, 100), [100, 300), [300, inf)
SIMILARITY_BINS = (5, 100, 300, 1000)     # rarer word's count
ROW_BINS = (1, 10, 30, 100, 300, 1000, 10000)  # for per-row update norms


def bin_labels(edges):
    return [f"{lo}-{hi - 1}" for lo, hi in zip(edges, edges[1:])] + [f"{edges[-1]}+"]


def bin_of(count, edges):
    """Index of the bin [edges[k], edges[k+1]) holding ``count`` (-1 below edges[0])."""
    return int(np.searchsorted(edges, count, side="right")) - 1


# ----------------------------------------------------------------------------- runs

def spec_path(spec):
    digest = hashlib.sha1(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:10]
    return RUNS / f"{spec['model']}-{digest}.json"


def require_corpus():
    if not CORPUS.exists():
        raise SystemExit(f"{CORPUS} is not available on this machine (the claims need ../shared/data)")


def run(spec, label="", heavy=True):
    """The result of ``spec``: cached, or trained now in a child under the heavy lock
    (``heavy=False``: without it, for runs that take well under 30 CPU seconds)."""
    path = spec_path(spec)
    if path.exists():
        return json.loads(path.read_text())
    require_corpus()
    path.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    print(f"[{time.strftime('%H:%M:%S')}] waiting for {LOCK}: {label or path.stem}", flush=True)
    with open(LOCK, "a") as lock:
        if heavy:
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            started = time.strftime("%H:%M:%S")
            print(f"[{started}] running {label or path.stem}", flush=True)
            done = subprocess.run([sys.executable, str(HERE / "common.py"), json.dumps(spec), str(path)], env=env)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    if done.returncode != 0 or not path.exists():
        raise SystemExit(f"run {label or path.stem} failed (exit {done.returncode})")
    return json.loads(path.read_text())


def _child(spec_json, out_path):
    """Entry point of the child process: train, evaluate, write the result atomically."""
    from wordvec.io.atomic import save_json

    spec = json.loads(spec_json)
    load_before = os.getloadavg()[0]
    started = time.time()
    result = TRAINERS[spec["model"]](spec)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result.update(spec=spec, commit=_git_commit(), machine=f"{platform.node()} {os.cpu_count()} CPUs",
                  finished=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                  process_wall_s=round(time.time() - started, 1),
                  process_cpu_s=round(usage.ru_utime + usage.ru_stime, 1),
                  peak_rss_mb=round(usage.ru_maxrss / 1024, 1),  # Linux: KiB; this child alone
                  load_before_after=f"{load_before:.1f}->{os.getloadavg()[0]:.1f}")
    save_json(out_path, result)


def _git_commit():
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    return None


class Clock:
    """Wall and CPU seconds (all threads of the process) since creation or the last ``lap``."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self):
        wall, cpu = time.perf_counter(), time.process_time()
        spent = {"wall_s": wall - self.wall, "cpu_s": cpu - self.cpu}
        self.wall, self.cpu = wall, cpu
        return spent


# ----------------------------------------------------------------------------- trainers

def train_word2vec(spec):
    """word2vec on the corpus: Word2Vec(**params); evaluation; per-row update norms of W_in."""
    from wordvec.models.word2vec.model import Word2Vec

    clock = Clock()
    model = Word2Vec(corpus_file=str(CORPUS), progress=False, **spec["params"])
    cost = clock.lap()  # vocabulary + encoding (cached) + training
    initial = Word2Vec(**spec["params"])
    initial.set_vocabulary(model.vocab)  # the same seeded draw the model started from
    return {"train_wall_s": cost["wall_s"], "train_cpu_s": cost["cpu_s"],
            "epoch_seconds": [h["seconds"] for h in model.history],
            "evaluation": evaluate(model.wv, model.vocab.words, model.vocab.counts),
            "update_norms": update_norms(initial.W_in, model.W_in, model.vocab.counts)}


def train_glove(spec):
    """GloVe: count X once, then train epoch by epoch, evaluating at ``checkpoints`` (the
    evaluation time is not counted).  Cost = vocabulary + encoding + counting + epochs."""
    from wordvec.models.count.glove import GloVe

    clock = Clock()
    model = GloVe(progress=False, **spec["params"])
    model.build_cooccurrence(corpus_file=str(CORPUS))
    spent = clock.lap()
    counting = dict(spent)
    checkpoints = []
    for epoch in range(1, max(spec["checkpoints"]) + 1):
        model.train(epochs=1)
        lap = clock.lap()
        spent = {k: spent[k] + lap[k] for k in spent}
        if epoch in spec["checkpoints"]:
            checkpoints.append({"epochs": epoch, "train_wall_s": spent["wall_s"], "train_cpu_s": spent["cpu_s"],
                                "evaluation": evaluate(model.wv, model.words, model.counts, binned=False)})
            clock.lap()  # evaluation is not training time
    return {"counting": counting | {"nnz": int(model.cooccurrence.nnz)}, "checkpoints": checkpoints,
            "history": model.history}


def train_svd(spec):
    """One co-occurrence count (PPMISVD's, with ``params``), then one factorisation and
    evaluation per entry of ``variants`` (PPMISVD options such as transform and eig)."""
    from wordvec.models.count.io import count_corpus
    from wordvec.models.count.svd import PPMISVD

    clock = Clock()
    counter = PPMISVD(progress=False, **spec["params"])
    words, counts, matrix, counting = count_corpus(counter, None, str(CORPUS))
    counting |= clock.lap()
    variants = []
    for overrides in spec["variants"]:
        model = PPMISVD(progress=False, **(spec["params"] | overrides))
        model.set_cooccurrence(words, counts, matrix, counting)
        cost = clock.lap()
        variants.append({"options": overrides, "svd_wall_s": cost["wall_s"], "svd_cpu_s": cost["cpu_s"],
                         "history": model.history, "evaluation": evaluate(model.wv, words, counts, binned=False)})
        clock.lap()
    return {"counting": counting, "variants": variants}


def train_lm(spec):
    """The word-level LM of benchmarks/README.md (bench_lm.py word: first 1.0M tokens of
    wordbench-10m for training, the next ~50k for validation, V = 10k, Adam, B = 16,
    T = 32, clip 5); validation perplexity at each of ``checkpoints`` (updates) and the
    per-row movement of the input embedding (and of W_y when untied)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_lm import word_split

    from wordvec.data.lm_data import LMVocab, read_lines
    from wordvec.models.lm.rnn import RNNLM

    p = spec["params"]
    train_path, valid_path = word_split(p["train_tokens"], p["valid_tokens"])
    train_lines = read_lines(train_path)
    vocab = LMVocab.build(train_lines, "word", max_size=p["vocab"])
    train, valid = vocab.encode(train_lines), vocab.encode(read_lines(valid_path))
    counts = np.bincount(train, minlength=len(vocab))
    model = RNNLM(vocab, cell=p["cell"], hidden_size=p["hidden"], embedding_size=p["embedding"],
                  tie_embeddings=p["tied"], seed=p["seed"])
    initial = {name: model.params[name].copy() for name in ("embedding", "W_y") if name in model.params}
    options = dict(epochs=10, bptt=p["bptt"], batch_size=p["batch_size"], lr=p["lr"], optimizer="adam",
                   clip=p["clip"], progress=False, eval_batch_size=32)
    checkpoints = []
    for updates in spec["checkpoints"]:
        model.fit(train, valid, max_updates=updates, **options)
        last = model.history[-1]
        checkpoints.append({"updates": len(model.steps), "valid_ppl": last["valid_perplexity"],
                            "valid_ce": last["valid_loss"],
                            "train_seconds": sum(h["seconds"] for h in model.history)})
    norms = {name: update_norms(before, model.params[name], counts) for name, before in initial.items()}
    return {"V": len(vocab), "train_tokens": int(train.size - 1), "valid_tokens": int(valid.size - 1),
            "parameters": model.num_parameters, "checkpoints": checkpoints, "update_norms": norms}


TRAINERS = {"word2vec": train_word2vec, "glove": train_glove, "svd": train_svd, "lm": train_lm}


# ----------------------------------------------------------------------------- measures

def update_norms(before, after, counts, edges=ROW_BINS):
    """Per frequency bin of rows: how far each row moved, ||after_i - before_i||, against
    its starting and final lengths (medians, and the fraction of rows that moved by less
    than 10% of their initial length)."""
    moved = np.linalg.norm(after.astype(np.float64) - before, axis=1)
    start, end = np.linalg.norm(before.astype(np.float64), axis=1), np.linalg.norm(after.astype(np.float64), axis=1)
    rows = {}
    for label, lo, hi in zip(bin_labels(edges), edges, list(edges[1:]) + [np.inf]):
        mine = (counts >= lo) & (counts < hi)
        if not mine.any():
            continue
        rows[label] = {"rows": int(mine.sum()), "median_moved": float(np.median(moved[mine])),
                       "median_initial_norm": float(np.median(start[mine])),
                       "median_final_norm": float(np.median(end[mine])),
                       "median_moved_over_initial": float(np.median(moved[mine] / np.maximum(start[mine], 1e-30))),
                       "share_moved_under_10pct": float(np.mean(moved[mine] < 0.1 * start[mine]))}
    return rows


def evaluate(kv, words, counts, binned=True):
    """Standard scores plus (``binned``) the frequency-binned ones (see the module docstring)."""
    from wordvec.vectors.evaluate import evaluate_all

    standard = evaluate_all(kv)
    analogy = standard["analogy"]
    result = {"analogy": analogy["total"], "semantic": analogy["semantic"], "syntactic": analogy["syntactic"],
              "answered": analogy["answered"],
              "sections": {name: s["accuracy"] for name, s in analogy["sections"].items()},
              **{name: s["spearman"] for name, s in standard["similarity"].items()}}
    if not binned:
        return result
    count_of = dict(zip((w.upper() for w in words), (int(c) for c in counts)))
    result["binned"] = {"analogy": binned_analogies(kv, count_of),
                        "similarity": binned_similarity(kv, count_of)}
    return result


def binned_analogies(kv, count_of, edges=ANALOGY_BINS):
    """Analogy accuracy (whole vocabulary searched) per bin of the rarest word's count."""
    from wordvec.vectors.evaluate import BUNDLED_ANALOGIES, bundled_path, evaluate_analogies, read_analogies

    labels = bin_labels(edges)
    per_bin = {label: [] for label in labels}
    for section, questions in read_analogies(bundled_path(BUNDLED_ANALOGIES)):
        for question in questions:
            if all(w in count_of for w in question):
                k = bin_of(min(count_of[w] for w in question), edges)
                if k >= 0:
                    per_bin[labels[k]].append((section, question))
    out = {}
    with tempfile.TemporaryDirectory(prefix="claims-") as tmp:
        for label, items in per_bin.items():
            path = Path(tmp) / f"{label}.txt"
            lines, current = [], None
            for section, question in items:
                if section != current:
                    lines.append(f": {section}")
                    current = section
                lines.append(" ".join(question))
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            scores = evaluate_analogies(kv, path, restrict_vocab=None)
            out[label] = {"total": scores["total"], "semantic": scores["semantic"],
                          "syntactic": scores["syntactic"], "answered": scores["answered"]}
    return out


def binned_similarity(kv, count_of, edges=SIMILARITY_BINS):
    """Spearman rho per data set and bin of the rarer word's count."""
    from wordvec.vectors.evaluate import BUNDLED_SIMILARITY, bundled_path, evaluate_similarity

    labels = bin_labels(edges)
    out = {}
    with tempfile.TemporaryDirectory(prefix="claims-") as tmp:
        for name in BUNDLED_SIMILARITY:
            per_bin = {label: [] for label in labels}
            for line in bundled_path(name).read_text(encoding="utf-8").splitlines():
                parts = line.split("\t")
                if line.startswith("#") or len(parts) != 3:
                    continue
                a, b = parts[0].upper(), parts[1].upper()
                if a in count_of and b in count_of:
                    k = bin_of(min(count_of[a], count_of[b]), edges)
                    if k >= 0:
                        per_bin[labels[k]].append(line)
            stem = Path(name).stem
            out[stem] = {}
            for label, lines in per_bin.items():
                path = Path(tmp) / f"{stem}-{label}.tsv"
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                scores = evaluate_similarity(kv, path)
                out[stem][label] = {"spearman": scores["spearman"], "pairs": scores["covered"]}
    return out


# ----------------------------------------------------------------------------- reporting

def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}"


def rho(x):
    return "n/a" if x is None else f"{x:.3f}"


def save_summary(name, summary):
    """Write the claim's summary next to the runs (benchmarks/out/claims/<name>.json)."""
    from wordvec.io.atomic import save_json

    save_json(OUT / f"{name}.json", summary)
    return OUT / f"{name}.json"


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    FIGURES.mkdir(parents=True, exist_ok=True)
    return plt


EPOCHS = 5  # the baseline's full training; the first sweeps ran at 2 (``--epochs 2`` reproduces them)


def word2vec_params(**overrides):
    """The claims' word2vec baseline: skip-gram, negative sampling (5), D = 100, window 5,
    EPOCHS epochs, alpha 0.025, sample 1e-3, min_count 5, 2 workers, seed 1."""
    params = dict(sg=1, hs=0, negative=5, ns_exponent=0.75, vector_size=100, window=5, min_count=5,
                  sample=1e-3, alpha=0.025, min_alpha=0.0001, epochs=EPOCHS, workers=2, seed=1)
    params.update(overrides)
    return params


def add_epochs_argument(parser):
    """``--epochs``: the word2vec baseline's epochs (default EPOCHS; 2 reproduces the first sweeps)."""
    parser.add_argument("--epochs", type=_positive_int, default=EPOCHS,
                        help=f"word2vec training epochs (default {EPOCHS}; the first sweeps used 2)")


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number of epochs")
    return value


# ----------------------------------------------------------------------------- records

# A sweep starts when its script imports this module: the record's start time and load
# before are taken here, not when the record is written after the last run.
SWEEP_STARTED = {"started": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
                 "load_before": list(os.getloadavg())}


def record_name(claim, epochs):
    """benchmarks/results/<name>.json of a sweep: claims-<claim> at the baseline's EPOCHS,
    claims-<claim>-epochs<N> otherwise (a 2-epoch rerun does not overwrite the 5-epoch record)."""
    return f"claims-{claim}" if epochs == EPOCHS else f"claims-{claim}-epochs{epochs}"


def save_record(claim, epochs, entries, note="", directory=None):
    """Write the sweep's record through benchmarks/lib/records.py.  ``entries`` are
    ``(config, result, quality)``: ``result`` a run's JSON (``run``), ``quality`` the figures
    the claim reads from it.  Each run keeps its own commit, finish time and load: a cached
    run may come from an earlier invocation than the record."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lib import records

    record = records.Record(record_name(claim, epochs), note=note)
    record.data.update(SWEEP_STARTED)
    for config, result, quality in entries:
        record.add_run(system="wordvec", config=config, spec=result["spec"], run_commit=result.get("commit"),
                       finished=result.get("finished"), load_before_after=result.get("load_before_after"),
                       wall_seconds=result.get("process_wall_s"), cpu_seconds=result.get("process_cpu_s"),
                       peak_rss_mb=result.get("peak_rss_mb"), train_wall_s=result.get("train_wall_s"),
                       train_cpu_s=result.get("train_cpu_s"), quality=quality)
    return record.save() if directory is None else record.save(directory)


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2])
