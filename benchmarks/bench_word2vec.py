"""Side-by-side word2vec benchmark: wordvec vs gensim 4.4.0 vs the word2vec C tool.

    benchmarks/setup_peers.sh                       # once: builds benchmarks/.peers
    .venv/bin/python benchmarks/bench_word2vec.py   # sg-ns, cbow-ns, sg-hs on wordbench-10m
    .venv/bin/python benchmarks/bench_word2vec.py --quick --systems gensim,c   # smoke test

The three systems train the same model (same corpus file, hyperparameters and 2
threads), one at a time, never concurrently. All three read the same plain-text
copy of the corpus, decompressed once into the cache folder. Each output `.bin` is
then scored by the same evaluator (gensim's, in the peers environment:
benchmarks/lib/gensim_tasks.py), so quality differences come from training alone.

Reported per run: whole-process wall time, training-only throughput (corpus
tokens x epochs / training seconds), peak RSS, CPU seconds, Google-analogy
accuracy (restrict_vocab 30000), WordSim-353 and SimLex-999 Spearman, then the
ratios wordvec/peer. The machine's load average before and after each run is
recorded too: on a shared machine a run whose CPU seconds fall well short of
workers x wall time was starved, and its speed figures mean little.
"""

import argparse
import json
import lzma
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

from lib import peers
from lib.records import Record
from lib.report import print_table

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = REPO.parent / "shared" / "data"
SYSTEMS = ("wordvec", "gensim", "c", "c-seeded")
DEFAULT_SYSTEMS = ("wordvec", "gensim", "c")
WORDVEC_VARIANTS = ("wordvec-batched", "wordvec-deterministic", "wordvec-batched-deterministic")


def prepare_corpus(source, cache_dir, max_tokens=None):
    """Plain-text copy of `source` (whole lines, up to max_tokens), made once and cached."""
    source = Path(source)
    name = source.name.removesuffix(".xz")
    if max_tokens:
        name = f"{Path(name).stem}-first{max_tokens}{Path(name).suffix}"
    plain, info_path = Path(cache_dir) / name, Path(cache_dir) / (name + ".json")
    if plain.exists() and info_path.exists():
        return plain, json.loads(info_path.read_text())
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    opener = lzma.open if source.suffix == ".xz" else open
    tokens = lines = 0
    partial = plain.with_suffix(plain.suffix + ".partial")
    with opener(source, "rt", encoding="utf-8") as reader, open(partial, "w", encoding="utf-8") as writer:
        for line in reader:
            if max_tokens and tokens >= max_tokens:
                break
            writer.write(line)
            tokens += len(line.split())
            lines += 1
    os.replace(partial, plain)
    info = {"source": str(source), "tokens": tokens, "lines": lines, "bytes": plain.stat().st_size}
    info_path.write_text(json.dumps(info))
    return plain, info


def machine_info():
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), platform.processor())
    memory = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "0")
    return {
        "cpu_model": model,
        "nproc": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)),
        "memory_gb": round(int(memory) / 2**20, 1),
        "platform": platform.platform(),
        "load_average_at_start": os.getloadavg(),
    }


def _output_of(command):
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def versions(args):
    meta = "import importlib.metadata as m, sys; print(' '.join(m.version(p) for p in sys.argv[1:]))"
    ours = _output_of([sys.executable, "-c", meta, "wordvec", "numpy", "numba"])
    theirs = _output_of([args.peers_python, "-c", meta, "gensim", "word2vec", "numpy"])
    commit = _output_of(["git", "-C", str(REPO), "describe", "--always", "--dirty"])
    return {
        "wordvec_numpy_numba": ours, "gensim_word2vec-pypi_numpy": theirs,
        "wordvec_git": commit, "python": platform.python_version(),
    }


def evaluate(args, vector_files):
    """Score every .bin with gensim_tasks.py evaluate; returns {path: scores}."""
    if not vector_files:
        return {}
    eval_dir = Path(args.eval_dir)
    command = [args.peers_python, str(HERE / "lib" / "gensim_tasks.py"), "evaluate", *map(str, vector_files),
               "--analogies", str(eval_dir / "questions-words.txt"),
               "--wordsim", str(eval_dir / "wordsim353.tsv"),
               "--simlex", str(eval_dir / "simlex999.txt"), "--restrict-vocab", "30000"]
    finished = subprocess.run(command, capture_output=True, text=True)
    (Path(args.out) / "evaluate.log").write_text(finished.stderr)
    if finished.returncode != 0:
        print(f"evaluation failed, see {args.out}/evaluate.log", file=sys.stderr)
    scores = [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]
    return {score["vectors"]: score for score in scores}


def evaluate_with_wordvec(args, vector_files):
    """The figures of ``evaluate`` (same sets, restrict_vocab 30000, case-insensitive) from
    wordvec's own evaluators, which tests/vectors/test_evaluate.py holds equal to gensim's at the
    same restrict_vocab, in seconds instead of minutes per file: for a shared machine."""
    from wordvec.vectors.evaluate import evaluate_analogies, evaluate_similarity
    from wordvec.vectors.files import load_vectors

    eval_dir, scores = Path(args.eval_dir), {}
    for path in vector_files:
        kv = load_vectors(str(path))
        analogy = evaluate_analogies(kv, eval_dir / "questions-words.txt", restrict_vocab=30000)
        similarity = {name: evaluate_similarity(kv, eval_dir / file)
                      for name, file in (("wordsim353", "wordsim353.tsv"), ("simlex999", "simlex999.txt"))}
        scores[str(path)] = {
            "vectors": str(path), "vocab_size": len(kv), "evaluator": "wordvec",
            "analogy": {key: analogy[key] for key in ("total", "semantic", "syntactic", "answered", "questions")},
            "similarity": {name: {key: found[key] for key in ("spearman", "pairs", "covered")}
                           for name, found in similarity.items()}}
    return scores


def alpha_of(args, config):
    return args.alpha if args.alpha is not None else peers.CONFIG_ALPHA[config]


def run_name(config, system, seed, seeds):
    """File stem of one run: the seed is named only when several are run."""
    return f"{config}-{system}" + (f"-seed{seed}" if len(seeds) > 1 else "")


def train_one(system, args, corpus, config, params):
    out = Path(args.out)
    name = run_name(config, system, params.seed, args.seeds)
    vectors, log = out / f"{name}.bin", out / f"{name}.log"
    if system.startswith("wordvec"):  # wordvec-FLAG: wordvec with --FLAG (e.g. wordvec-batched)
        cache = out / f"{name}-cache"  # empty: this run encodes the corpus itself
        shutil.rmtree(cache, ignore_errors=True)
        flags = args.wordvec_flags.split() + [f"--{flag}" for flag in system.split("-")[1:]]
        result = peers.run_wordvec(args.wordvec, str(corpus), str(vectors), config, params, log, cache, flags)
        result["system"] = system
        shutil.rmtree(cache, ignore_errors=True)
        return result, vectors
    if system == "gensim":
        script = str(HERE / "lib" / "gensim_tasks.py")
        return peers.run_gensim(args.peers_python, script, str(corpus), str(vectors), config, params, log), vectors
    if system == "c-seeded":
        return peers.run_c_tool(args.c_seeded_binary, str(corpus), str(vectors), config, params, log,
                                seeded=True), vectors
    return peers.run_c_tool(args.c_binary, str(corpus), str(vectors), config, params, log), vectors


def write_record(record, results):
    """The small tracked record of this run (no vectors): benchmarks/results/NAME.json."""
    record.data["system"]["peers"] = results["versions"].get("gensim_word2vec-pypi_numpy")
    record.data.update(corpus=results["corpus"], params=results["params"], evaluator=results.get("evaluator"))
    for run in results["runs"]:
        quality = run.get("quality") or {}
        record.add_run(system=run["system"], config=run["config"], seed=run["seed"],
                       wall_seconds=run["wall_seconds"], cpu_seconds=run["cpu_seconds"],
                       peak_rss_mb=run["peak_rss_mb"], train_seconds=run.get("train_seconds"),
                       returncode=run["returncode"], load_before=run["load_before"], load_after=run["load_after"],
                       quality={key: value for key, value in quality.items() if key != "vectors"})
    return record.save()


def run(args):
    params = replace(peers.Params(), epochs=args.epochs, workers=args.workers)
    record = Record(args.record, note=args.note) if args.record else None
    Path(args.out).mkdir(parents=True, exist_ok=True)
    corpus, corpus_info = prepare_corpus(args.corpus, args.cache, args.max_tokens)
    results = {"machine": machine_info(), "versions": versions(args), "corpus": corpus_info,
               "corpus_file": str(corpus), "params": asdict(params), "runs": []}
    results["params"]["alpha"] = {config: alpha_of(args, config) for config in args.configs}
    print(f"corpus {corpus} ({corpus_info['tokens']:,} tokens), epochs {params.epochs}, "
          f"workers {params.workers}, load average {results['machine']['load_average_at_start']}", flush=True)
    trained = []
    for config in args.configs:
        for seed in args.seeds:
            for system in args.systems:
                load_before = os.getloadavg()
                print(f"[{time.strftime('%H:%M:%S')}] {config} seed {seed} {system} ...", end=" ", flush=True)
                config_params = replace(params, alpha=alpha_of(args, config), seed=seed)
                run_result, vectors = train_one(system, args, corpus, config, config_params)
                run_result.update(config=config, seed=seed, load_before=load_before, load_after=os.getloadavg(),
                                  tokens=corpus_info["tokens"], epochs=params.epochs)
                if run_result["train_seconds"]:
                    run_result["train_words_per_sec"] = corpus_info["tokens"] * params.epochs / run_result["train_seconds"]
                print(f"exit {run_result['returncode']}, {run_result['wall_seconds']:.1f} s", flush=True)
                run_result["vectors"] = str(vectors)
                results["runs"].append(run_result)
                if run_result["returncode"] == 0 and vectors.exists():
                    trained.append(vectors)
    scores = (evaluate_with_wordvec if args.evaluator == "wordvec" else evaluate)(args, trained)
    results["evaluator"] = args.evaluator
    for run_result in results["runs"]:
        run_result["quality"] = scores.get(run_result["vectors"])
    json_path = args.json or str(Path(args.out) / "results.json")
    from wordvec.io.atomic import save_json  # atomic, like every write in the project

    save_json(json_path, results)
    if record is not None:
        print(f"record: {write_record(record, results)}")
    print_table(results)
    print(f"\nresults: {json_path}; logs and vectors: {args.out}")
    return 0 if all(r["returncode"] == 0 for r in results["runs"]) else 1


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(DATA / "corpus" / "wordbench-10m.txt.xz"),
                        help="plain or .xz text, one document per line (default: %(default)s)")
    parser.add_argument("--configs", default="sg-ns,cbow-ns,sg-hs", help="comma list of " + ",".join(peers.CONFIGS))
    parser.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS),
                        help="comma list of " + ",".join(SYSTEMS + WORDVEC_VARIANTS) + " (wordvec-FLAG: "
                             "wordvec train --FLAG; c-seeded: the C tool's source "
                             "built with a seed, see setup_peers.sh; default %(default)s)")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seeds", default="1",
                        help="comma list; each config runs once per seed and the ratio table averages "
                             "them (the C tool has no seed option: its repeats differ by thread timing; "
                             "c-seeded takes the seed)")
    parser.add_argument("--alpha", type=float, default=None, help="starting alpha for every config (default: 0.025 sg, 0.05 cbow)")
    parser.add_argument("--max-tokens", type=int, default=None, help="use only the first whole lines up to N tokens")
    parser.add_argument("--quick", action="store_true", help="smoke test: first 1M tokens, 1 epoch")
    parser.add_argument("--out", default=None, help="folder for vectors and logs (default benchmarks/out/word2vec-TIME)")
    parser.add_argument("--json", default=None, help="results file (default OUT/results.json)")
    parser.add_argument("--cache", default=str(HERE / "out" / "cache"), help="where the plain corpus is kept")
    parser.add_argument("--eval-dir", default=str(DATA / "eval"))
    parser.add_argument("--evaluator", choices=("gensim", "wordvec"), default="gensim",
                        help="score every system's vectors with gensim's evaluators (peers env) or wordvec's")
    parser.add_argument("--wordvec", default=str(REPO / ".venv" / "bin" / "wordvec"))
    parser.add_argument("--wordvec-flags", default="",
                        help="extra flags for wordvec train, e.g. '--batched' or '--deterministic'")
    parser.add_argument("--record", default="word2vec", help="write benchmarks/results/<family>/RECORD.json ('' for none)")
    parser.add_argument("--note", default="", help="a sentence kept in the record (how the machine was)")
    parser.add_argument("--peers-env", default=str(HERE / ".peers"), help="made by setup_peers.sh")
    args = parser.parse_args(argv)
    if args.quick:
        args.max_tokens, args.epochs = args.max_tokens or 1_000_000, 1
    args.configs = [c for c in args.configs.split(",") if c]
    args.systems = [s for s in args.systems.split(",") if s]
    try:
        args.seeds = [int(s) for s in args.seeds.split(",") if s]
    except ValueError:
        parser.error(f"--seeds must be a comma list of integers, not {args.seeds!r}")
    unknown = [c for c in args.configs if c not in peers.CONFIGS] + [
        s for s in args.systems if s not in SYSTEMS and s not in WORDVEC_VARIANTS]
    if unknown:
        parser.error(f"unknown config or system: {', '.join(unknown)}")
    args.peers_python = str(Path(args.peers_env) / "bin" / "python")
    args.c_binary = str(Path(args.peers_env) / "bin" / "word2vec")
    args.c_seeded_binary = str(Path(args.peers_env) / "bin" / "word2vec-seeded")
    needed = {**{variant: [args.wordvec] for variant in WORDVEC_VARIANTS}, "wordvec": [args.wordvec], "gensim": [args.peers_python], "c": [args.c_binary],
              "c-seeded": [args.c_seeded_binary]}
    missing = [path for system in args.systems for path in needed[system] if not os.access(path, os.X_OK)]
    if not os.access(args.peers_python, os.X_OK):
        missing.append(args.peers_python + " (needed by the evaluator)")
    if missing:
        parser.error("missing " + "; ".join(missing) + " (run benchmarks/setup_peers.sh?)")
    args.out = args.out or str(HERE / "out" / time.strftime("word2vec-%Y%m%d-%H%M%S"))
    return args


if __name__ == "__main__":
    sys.exit(run(parse_args()))
