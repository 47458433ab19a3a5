"""wordvec classify vs fastText 0.9.2 (supervised), side by side, in one run.

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_classify.py \
        [--tasks imdb genre sst2 sst5] [--settings unigrams bigrams] [--seeds 1 2 3] \
        [--quantize] [--epoch 10] [--out benchmarks/results/classifier/classify-DATE.json]

For every task, setting and seed both systems train the same model (lr, epoch, dim,
wordNgrams, bucket, loss, 2 threads) as a child process each, alone on the machine
(the lock), measured by wait4: whole-process wall and CPU seconds and peak RSS (start-up,
reading, training and saving the .bin). Then, per model, accuracy P@1 on the test file,
and prediction throughput: one thread, the test file in, one label per line out, a child
process each (wordvec: ``wordvec classify predict``; fastText: its Python binding's
``multilinePredict`` over the file's lines, each with its newline, so that the bag holds
the EOS token as in its ``predict`` CLI; without it 1-15 % of the labels differed from
fastText's own CLI and from wordvec's on the same model). ``--predict-repeat N`` also
times predict over the test documents repeated N times (throughput once started);
``--predict-runs N`` runs each predict process N times and keeps the median. Before
any timing wordvec's modules are compiled to bytecode (``compile_bytecode``).
With ``--quantize`` (imdb, bigrams, first seed): both quantize (qnorm, cutoff 100000,
retrain) and report the .ftz size and its P@1.

SST: sentences of the PTB trees (lowercased leaves), root label; sst2 drops neutral and
maps 0-1 to neg, 3-4 to pos. Its train file comes in long runs of one label, which makes
fastText's unshuffled SGD depend on where the runs fall (seed-to-seed spreads of 10+
points for both systems); the train lines are therefore shuffled once (fixed seed 0),
the same file for both systems. ``genre.sorted`` / ``imdb.sorted``: the training file
sorted by label (what concatenating one file per class gives), the test file as it is.

Autotune comparison (``--autotune``; genre by default, ``--tasks`` picks others):

    flock /tmp/wordvec-bench.lock nice .venv/bin/python benchmarks/bench_classify.py --autotune \
        [--autotune-duration 300] [--autotune-metric f1] [--autotune-model-size 2M] [--valid-share 0.1]

A validation file is carved from the training file: the lines shuffled with a fixed seed
(0), the first ``--valid-share`` of them (10 %) held out, the rest the training file; the
same two files for both systems. Each system then autotunes for the same duration and
metric, 2 threads, the first seed: fastText through its Python module
(``train_supervised(autotuneValidationFile=..., verbose=3)``), wordvec through
``wordvec classify train --autotune-*``. Per system the record holds the whole process
(wall, CPU, peak RSS), the tuned model's P@1 on the test file, the hyperparameters chosen
(fastText's from the model's arguments; lr is not kept in a .bin, so it is read from the
process), the trials each made (fastText's "Trial = N" lines, which count the trial its
timer aborts; wordvec's summary line, which counts trials run to the end) and the best
validation score (fastText's "currentScore = X" lines, wordvec's summary line). With
``--autotune-model-size`` both write a quantized .ftz and the record has its size in bytes
(fastText estimates its cutoff from the size once and can overshoot it: 548,859 bytes for
500K on sst2 in a check run; wordvec measures the file and stays at or under the size).

fastText comes from the ``fasttext-wheel==0.9.2`` package in .venv (the dev extra; the
same build ``setup_peers.sh`` installs). The tasks' .xz files are decompressed once into
a scratch folder first (fastText reads plain text only); that is not timed.
"""

import argparse
import json
import lzma
import os
import platform
import random
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from lib.peers import run_measured  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "tasks"
SETTINGS = {"unigrams": dict(word_ngrams=1), "bigrams": dict(word_ngrams=2)}
COMMON = dict(lr=0.5, epoch=10, dim=100, bucket=2_000_000, loss="softmax", threads=2)
VENV = ROOT / ".venv" if (ROOT / ".venv").exists() else Path(sys.executable).parent.parent  # a worktree: the shared one
PYTHON = VENV / "bin" / "python"
WORDVEC = VENV / "bin" / "wordvec"

FASTTEXT_TRAIN = """
import sys, fasttext
train, output, lr, epoch, dim, ngrams, bucket, loss, threads, seed = sys.argv[1:]
m = fasttext.train_supervised(input=train, lr=float(lr), epoch=int(epoch), dim=int(dim), wordNgrams=int(ngrams),
                              bucket=int(bucket), loss=loss, thread=int(threads), seed=int(seed), verbose=0)
m.save_model(output)
"""
FASTTEXT_PREDICT = """
import sys, fasttext
model = fasttext.load_model(sys.argv[1])
with open(sys.argv[2], encoding="utf-8", newline="") as f:
    lines = [line + "\\n" for line in f.read().split("\\n")[:-1]]  # each with its newline: the EOS token
labels, probabilities = model.f.multilinePredict(lines, 1, 0.0, "strict")
sys.stdout.write("".join((top[0] if top else "") + "\\n" for top in labels))
"""
FASTTEXT_TEST = """
import sys, json, fasttext
n, p, r = fasttext.load_model(sys.argv[1]).test(sys.argv[2])
print(json.dumps({"N": n, "P@1": p}))
"""
FASTTEXT_QUANTIZE = """
import sys, fasttext
model = fasttext.load_model(sys.argv[1])
model.quantize(input=sys.argv[2], qnorm=True, cutoff=100000, retrain=True, thread=2)
model.save_model(sys.argv[3])
"""
FASTTEXT_AUTOTUNE = """
import json, sys, fasttext
train, valid, output, metric, duration, size, threads, seed = sys.argv[1:]
m = fasttext.train_supervised(input=train, autotuneValidationFile=valid, autotuneMetric=metric,
                              autotuneDuration=int(duration), autotuneModelSize=size, thread=int(threads),
                              seed=int(seed), verbose=3)
m.save_model(output)
chosen = {name: getattr(m, name) for name in ("epoch", "lr", "dim", "wordNgrams", "minn", "maxn", "bucket")}
print("CHOSEN " + json.dumps(chosen | {"loss": str(m.loss).split(".")[-1]}))
"""


def prepare(task, scratch):
    """Plain-text train/test files in fastText's format for ``task``; ``TASK.sorted``:
    TASK's training lines sorted by label (stable), as files concatenated per class give."""
    scratch.mkdir(parents=True, exist_ok=True)
    if task.endswith(".sorted"):
        train, test = prepare(task.removesuffix(".sorted"), scratch)
        ordered = scratch / f"{task}.train"
        if not ordered.exists():
            lines = train.read_bytes().splitlines(keepends=True)
            ordered.write_bytes(b"".join(sorted(lines, key=lambda line: line.split(b" ", 1)[0])))
        return ordered, test
    name = f"{task}.shuffled" if task.startswith("sst") else task
    train, test = scratch / f"{name}.train", scratch / f"{task}.test"
    if train.exists() and test.exists():
        return train, test
    if task in ("imdb", "genre"):
        for split, target in (("train", train), ("test", test)):
            with lzma.open(DATA / "docs" / f"{task}.{split}.txt.xz", "rb") as src:
                target.write_bytes(src.read())
        return train, test
    from wordvec.tasks.data import read_sst
    splits = read_sst(DATA / "sst")
    for split, target in (("train", train), ("test", test)):
        lines = []
        for tokens, label in zip(*splits[split]):
            if task == "sst2":
                if label == 2:
                    continue
                label = "pos" if label > 2 else "neg"
            lines.append(f"__label__{label} " + " ".join(t.lower() for t in tokens))
        if split == "train":  # SST's train file comes in runs of one label; SGD without shuffling
            random.Random(0).shuffle(lines)  # (both systems) then depends on where the runs fall
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return train, test


def measured(command, log, env=None):
    """Wall and CPU seconds and the peak RSS of one whole process (peers.run_measured:
    the peak by ``/usr/bin/time``, not wait4's, which floors at this script's own RSS)."""
    load_before = os.getloadavg()
    command = [str(c) for c in command]
    m = run_measured(command, log, env=env)
    if m.returncode != 0:
        raise SystemExit(f"failed ({m.returncode}): {' '.join(command)}; see {log}")
    return {"command": " ".join(command), "wall_seconds": m.wall_seconds, "cpu_seconds": m.cpu_seconds,
            "peak_rss_mb": m.peak_rss_mb, "peak_rss_by": "/usr/bin/time %M", "load_before": load_before,
            "load_after": os.getloadavg()}


def train(system, train_file, model, settings, seed, log):
    s = dict(COMMON, **settings)
    env = dict(os.environ, WORDVEC_NO_PROGRESS="1")
    if system == "fasttext":
        command = [PYTHON, "-c", FASTTEXT_TRAIN, train_file, model, s["lr"], s["epoch"], s["dim"], s["word_ngrams"],
                   s["bucket"], s["loss"], s["threads"], seed]
    else:
        command = [WORDVEC, "-q", "classify", "train", train_file, "-o", model, "--lr", s["lr"], "--epoch", s["epoch"],
                   "--dim", s["dim"], "--word-ngrams", s["word_ngrams"], "--bucket", s["bucket"], "--loss",
                   s["loss"], "--threads", s["threads"], "--seed", seed, "--no-progress"]
    return measured(command, log, env)


def accuracy(system, model, test_file):
    if system == "fasttext":
        out = subprocess.run([str(PYTHON), "-c", FASTTEXT_TEST, str(model), str(test_file)], capture_output=True,
                             text=True, check=True).stdout
    else:
        out = subprocess.run([str(WORDVEC), "-q", "classify", "test", str(model), str(test_file), "--json"],
                             capture_output=True, text=True, check=True).stdout
    return json.loads(out)["P@1"]


def predict_throughput(system, model, test_file, scratch, repeat=1, runs=1):
    """docs/s of a whole predict process over the test file's documents (``repeat`` times
    over, to see the rate once start-up is paid); with ``runs`` > 1 the process is run that
    many times back to back and the run of median wall time is the figure (every run's
    wall seconds kept): a 0.1 s process varies by a few per cent from run to run."""
    text = test_file.read_bytes()
    docs = text.count(b"\n") * repeat
    unlabelled = scratch / (test_file.name + f".text{'' if repeat == 1 else repeat}")
    if not unlabelled.exists():  # the documents without their labels: what predict is given
        unlabelled.write_text(repeat * ("\n".join(" ".join(t for t in line.split() if not t.startswith("__label__"))
                                                  for line in text.decode("utf-8").splitlines()) + "\n"),
                              encoding="utf-8")
    output = scratch / f"predicted-{system}.txt"
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1")
    if system == "fasttext":
        command = ["sh", "-c", f'"{PYTHON}" -c \'{FASTTEXT_PREDICT}\' "{model}" "{unlabelled}" > "{output}"']
    else:
        command = ["sh", "-c", f'"{WORDVEC}" -q classify predict "{model}" "{unlabelled}" > "{output}"']
    records = sorted((measured(command, scratch / f"predict-{system}.log", env) for _ in range(runs)),
                     key=lambda r: r["wall_seconds"])
    record = records[(len(records) - 1) // 2]  # the median (the lower of the middle two)
    if runs > 1:
        record["runs_wall_seconds"] = [r["wall_seconds"] for r in records]
    record["documents"] = docs
    record["docs_per_second"] = docs / record["wall_seconds"]
    return record


def quantize(system, model, train_file, small, log):
    if system == "fasttext":
        command = [PYTHON, "-c", FASTTEXT_QUANTIZE, model, train_file, small]
    else:
        command = [WORDVEC, "-q", "classify", "quantize", model, "-o", small, "--qnorm", "--cutoff", "100000",
                   "--retrain", "--input", train_file, "--threads", "2"]
    record = measured(command, log, dict(os.environ, WORDVEC_NO_PROGRESS="1"))
    record["size_bytes"] = os.path.getsize(small)
    record["full_size_bytes"] = os.path.getsize(model)
    return record


def carve_validation(task, train_file, scratch, share):
    """(training lines without the validation ones, the validation lines): ``share`` of the
    training file's lines, chosen by a shuffle with a fixed seed; the same files for both systems."""
    rest, valid = scratch / f"{task}.autotune-train", scratch / f"{task}.autotune-valid"
    lines = train_file.read_bytes().splitlines(keepends=True)
    order = list(range(len(lines)))
    random.Random(0).shuffle(order)
    held = set(order[:round(share * len(lines))])
    rest.write_bytes(b"".join(line for i, line in enumerate(lines) if i not in held))
    valid.write_bytes(b"".join(line for i, line in enumerate(lines) if i in held))
    return rest, valid, len(lines) - len(held), len(held)


def autotune(system, train_file, valid_file, model, options, seed, log):
    """One system's autotune as a measured child process, and what its output says."""
    threads = COMMON["threads"]
    if system == "fasttext":
        command = [PYTHON, "-c", FASTTEXT_AUTOTUNE, train_file, valid_file, model, options.autotune_metric,
                   options.autotune_duration, options.autotune_model_size or "", threads, seed]
        env = dict(os.environ)
    else:
        command = [PYTHON, "-m", "wordvec", "classify", "train", train_file, "-o", model, "--autotune-validation",
                   valid_file, "--autotune-metric", options.autotune_metric, "--autotune-duration",
                   options.autotune_duration, "--threads", threads, "--seed", seed]
        command += ["--autotune-model-size", options.autotune_model_size] if options.autotune_model_size else []
        env = dict(os.environ, PYTHONPATH=str(ROOT), WORDVEC_NO_PROGRESS="1")  # this tree's wordvec
    try:
        record = measured(command, log, env)
    except SystemExit as failure:  # e.g. fastText's "Didn't have enough time to train once"
        lines = Path(log).read_text(errors="replace").strip().splitlines()
        return {"failed": str(failure), "last_line": lines[-1] if lines else ""}
    text = Path(log).read_text(errors="replace")
    record.update(_autotune_output(system, text))
    record["size_bytes"] = os.path.getsize(model)
    return record


def _autotune_output(system, text):
    """Trials, best validation score and chosen hyperparameters from a system's output."""
    scores = re.findall(r"Best score:\s+([0-9.]+|unknown)", text)
    found = {"best_validation_score": float(scores[-1]) if scores and scores[-1] != "unknown" else None}
    if system == "fasttext":  # its progress line can end before the last score: its verbose-3 lines have them
        trial_scores = [float(v) for v in re.findall(r"currentScore = ([0-9.]+)", text)]
        found["best_validation_score"] = max(trial_scores) if trial_scores else None
        trials = [int(n) for n in re.findall(r"^Trial = (\d+)", text, re.M)]
        found["trials"] = max(trials) if trials else None
        found["trials_counted_as"] = "trials started ('Trial = N'), the one the timer aborts included"
        chosen = re.findall(r"^CHOSEN (.*)$", text, re.M)
        found["chosen"] = json.loads(chosen[-1]) if chosen else None
        dsub = re.findall(r"^dsub = (\d+)", text[text.rfind("Best selected args"):], re.M)
        if dsub and found["chosen"] is not None:
            found["chosen"]["dsub"] = int(dsub[0])
        return found
    summary = re.search(r"autotune: (\d+) trials, best \S+ ([0-9.]+) on .*?; chosen: ([^;\n]*)", text)
    if summary:
        found["trials"] = int(summary[1])
        found["best_validation_score"] = float(summary[2])
        words = summary[3].split()
        found["chosen"] = {name: _number(value) for name, value in zip(words[::2], words[1::2])}
    found["trials_counted_as"] = "trials run to the end (its summary line)"
    return found


def _number(text):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def run_autotune(args, scratch):
    """The autotune comparison (module docstring): a record of both systems per task."""
    record = {"benchmark": "bench_classify --autotune", "argv": sys.argv,
              "settings": {"duration_seconds": args.autotune_duration, "metric": args.autotune_metric,
                           "model_size": args.autotune_model_size, "valid_share": args.valid_share,
                           "valid_split_seed": 0, "threads": COMMON["threads"], "seed": args.seeds[0]},
              "versions": versions(), "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
              "load_before": os.getloadavg(), "runs": []}
    for task in args.tasks or ["genre"]:
        train_file, test_file = prepare(task, scratch)
        rest, valid, n_train, n_valid = carve_validation(task, train_file, scratch, args.valid_share)
        for system in args.systems:
            suffix = ".ftz" if args.autotune_model_size else ".bin"
            model = scratch / f"{task}-autotune-{system}{suffix}"
            run = {"task": task, "system": system, "train_lines": n_train, "valid_lines": n_valid,
                   "autotune": autotune(system, rest, valid, model, args, args.seeds[0],
                                        scratch / f"{task}-autotune-{system}.log")}
            run["p_at_1"] = None if "failed" in run["autotune"] else accuracy(system, model, test_file)
            model.unlink(missing_ok=True)
            record["runs"].append(run)
            print(json.dumps(run), flush=True)
            _save(record, args.out)
    _finish(record, args.out)


def compile_bytecode():
    """Compile wordvec's modules to bytecode once, untimed, as an installed package has them
    (fastText's are, from its wheel): with PYTHONDONTWRITEBYTECODE set, as in this
    project's developers, every wordvec process would otherwise compile its sources again
    (~20 ms of a predict process)."""
    import compileall
    compileall.compile_dir(str(ROOT / "wordvec"), quiet=1)


def versions():
    import numba
    import numpy
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "wordvec", "benchmarks"],
                           capture_output=True, text=True).stdout.strip() != ""
    return {"commit": commit, "tree_dirty_in_wordvec_or_benchmarks": dirty, "python": platform.python_version(),
            "numpy": numpy.__version__, "numba": numba.__version__, "fasttext": "fasttext-wheel 0.9.2",
            "machine": platform.machine(), "cpus": os.cpu_count(), "kernel": platform.release()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", nargs="+", help="default imdb genre sst2 sst5 (with --autotune: genre)")
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3])
    parser.add_argument("--systems", nargs="+", default=["fasttext", "wordvec"])
    parser.add_argument("--quantize", action="store_true")
    parser.add_argument("--epoch", type=int, default=COMMON["epoch"], help="epochs of both systems (default 10)")
    parser.add_argument("--threads", type=int, default=COMMON["threads"],
                        help="training threads of both systems (default 2; 1: no Hogwild races, reproducible)")
    parser.add_argument("--predict-repeat", type=int, default=1, metavar="N",
                        help="also time predict over the test documents repeated N times")
    parser.add_argument("--predict-runs", type=int, default=1, metavar="N",
                        help="run each predict process N times; the median run's wall time is the figure")
    parser.add_argument("--autotune", action="store_true", help="the autotune comparison (see above)")
    parser.add_argument("--autotune-duration", type=int, default=300, metavar="SECONDS",
                        help="each system's search time (default 300)")
    parser.add_argument("--autotune-metric", default="f1", help="fastText's metric string (default f1)")
    parser.add_argument("--autotune-model-size", metavar="SIZE", help="quantize to this size (e.g. 2M)")
    parser.add_argument("--valid-share", type=float, default=0.1,
                        help="share of the training lines held out for validation (default 0.1)")
    parser.add_argument("--scratch", default="/tmp/wordvec-bench-classify")
    parser.add_argument("--summarize", metavar="RECORD", help="print the markdown tables of a record and exit")
    parser.add_argument("--out", help="the record (default benchmarks/results/classifier/classify[-autotune]-"
                        "DATE-TIME.json)")
    args = parser.parse_args()
    kind = "classify-autotune" if args.autotune else "classify"
    args.out = args.out or str(HERE / "results" / "classifier" / f"{kind}-{time.strftime('%Y%m%d-%H%M')}.json")
    if args.summarize:
        print(summarize(json.loads(Path(args.summarize).read_text())))
        return
    scratch = Path(args.scratch)
    COMMON["threads"], COMMON["epoch"] = args.threads, args.epoch
    compile_bytecode()
    if args.autotune:
        run_autotune(args, scratch)
        return
    args.tasks = args.tasks or ["imdb", "genre", "sst2", "sst5"]
    record = {"benchmark": "bench_classify", "argv": sys.argv, "settings": COMMON, "versions": versions(),
              "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "load_before": os.getloadavg(), "runs": []}
    for task in args.tasks:
        train_file, test_file = prepare(task, scratch)
        for setting in args.settings:
            for seed in args.seeds:
                for system in args.systems:
                    model = scratch / f"{task}-{setting}-{seed}-{system}.bin"
                    run = {"task": task, "setting": setting, "seed": seed, "system": system,
                           "train": train(system, train_file, model, SETTINGS[setting], seed,
                                          scratch / f"{task}-{setting}-{seed}-{system}.log")}
                    run["p_at_1"] = accuracy(system, model, test_file)
                    if seed == args.seeds[0]:
                        run["predict"] = predict_throughput(system, model, test_file, scratch,
                                                            runs=args.predict_runs)
                        if args.predict_repeat > 1:
                            run["predict_repeated"] = predict_throughput(system, model, test_file, scratch,
                                                                         args.predict_repeat)
                    if args.quantize and task == "imdb" and setting == "bigrams" and seed == args.seeds[0]:
                        small = model.with_suffix(".ftz")
                        run["quantize"] = quantize(system, model, train_file, small, scratch / f"q-{system}.log")
                        run["quantize"]["p_at_1"] = accuracy(system, small, test_file)
                        small.unlink()
                    model.unlink()  # a bigram model is 800 MB
                    record["runs"].append(run)
                    print(json.dumps(run), flush=True)
                    _save(record, args.out)
    _finish(record, args.out)


def _finish(record, out):
    """The record's end: the load after the runs, the time, saved."""
    record["load_after"] = os.getloadavg()
    record["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    _save(record, out)


def summarize(record):
    """The markdown tables of a record (means over seeds; ratios fastText / wordvec for time)."""
    from statistics import mean
    runs = record["runs"]
    if record["benchmark"].endswith("--autotune"):
        return summarize_autotune(record)
    keys = sorted({(r["task"], r["setting"]) for r in runs}, key=lambda k: (k[0], k[1] != "unigrams"))
    lines = ["| task | setting | seeds | P@1 fastText | P@1 wordvec | Δ points | train wall s fastText / wordvec "
             "| speed-up | CPU s fastText / wordvec | peak RSS MB fastText / wordvec | predict docs/s fastText / wordvec |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for task, setting in keys:
        by = {s: [r for r in runs if (r["task"], r["setting"], r["system"]) == (task, setting, s)]
              for s in ("fasttext", "wordvec")}
        if not by["fasttext"] or not by["wordvec"]:
            continue
        p = {s: mean(r["p_at_1"] for r in by[s]) for s in by}
        wall = {s: mean(r["train"]["wall_seconds"] for r in by[s]) for s in by}
        cpu = {s: mean(r["train"]["cpu_seconds"] for r in by[s]) for s in by}
        rss = {s: max(r["train"]["peak_rss_mb"] for r in by[s]) for s in by}
        pred = {s: next((r["predict"]["docs_per_second"] for r in by[s] if "predict" in r), float("nan")) for s in by}
        repeated = {s: next((r["predict_repeated"]["docs_per_second"] for r in by[s] if "predict_repeated" in r),
                            None) for s in by}
        if repeated["wordvec"] is not None:
            pred = {s: f"{pred[s]:.0f} ({repeated[s]:.0f} repeated)" for s in by}
        else:
            pred = {s: f"{pred[s]:.0f}" for s in by}
        lines.append(f"| {task} | {setting} | {len(by['wordvec'])} | {p['fasttext']:.4f} | {p['wordvec']:.4f} | "
                     f"{100 * (p['wordvec'] - p['fasttext']):+.2f} | {wall['fasttext']:.1f} / {wall['wordvec']:.1f} | "
                     f"{wall['fasttext'] / wall['wordvec']:.2f}× | {cpu['fasttext']:.1f} / {cpu['wordvec']:.1f} | "
                     f"{rss['fasttext']:.0f} / {rss['wordvec']:.0f} | {pred['fasttext']} / {pred['wordvec']} |")
    quantized = [r for r in runs if "quantize" in r]
    if quantized:
        lines += ["", "| system | full .bin MB | .ftz MB | size ratio | P@1 full | P@1 quantized | drop (points) "
                  "| quantize wall s |", "|---|---|---|---|---|---|---|---|"]
        for r in quantized:
            q = r["quantize"]
            lines.append(f"| {r['system']} | {q['full_size_bytes'] / 1e6:.1f} | {q['size_bytes'] / 1e6:.2f} | "
                         f"1/{q['full_size_bytes'] / q['size_bytes']:.0f} | {r['p_at_1']:.4f} | {q['p_at_1']:.4f} | "
                         f"{100 * (r['p_at_1'] - q['p_at_1']):.2f} | {q['wall_seconds']:.1f} |")
    return "\n".join(lines)


def summarize_autotune(record):
    """One row per task and system: tuned P@1, trials, best validation score, choice, size."""
    lines = [f"autotune {record['settings']['duration_seconds']} s, metric {record['settings']['metric']}, "
             f"model size {record['settings']['model_size'] or 'none'}", "",
             "| task | system | P@1 (test) | trials | best validation score | chosen | file bytes | wall s |",
             "|---|---|---|---|---|---|---|---|"]
    for r in record["runs"]:
        a = r["autotune"]
        if "failed" in a:
            lines.append(f"| {r['task']} | {r['system']} | failed: {a['last_line']} | | | | | |")
            continue
        chosen = " ".join(f"{k} {v}" for k, v in (a.get("chosen") or {}).items())
        lines.append(f"| {r['task']} | {r['system']} | {r['p_at_1']:.4f} | {a.get('trials')} | "
                     f"{a.get('best_validation_score')} | {chosen} | {a['size_bytes']} | {a['wall_seconds']:.1f} |")
    return "\n".join(lines)


def _save(record, path):
    Path(path).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
