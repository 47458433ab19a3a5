"""Subword vectors (fastText's model): wordvec vs gensim 4.4.0 FastText vs the fastText package.

    python benchmarks/bench_subword.py prepare            # held-out list + filtered corpus
    flock /tmp/wordvec-heavy.lock python benchmarks/bench_subword.py run wordvec-ft   # one
    ...                                                   # system per lock acquisition
    python benchmarks/bench_subword.py report             # evaluate all, print the table
    python benchmarks/bench_subword.py compare --systems wordvec-ft,gensim-ft   # held-out ρ, bootstrap
    ... run wordvec-ft --train-seed 2                     # another training seed (own folder)

Systems: wordvec-ft (``wordvec train --model sg --subwords``), gensim-ft, fasttext
(skip-gram with n-grams 3..6), and the plain skip-gram baselines wordvec-sg, gensim-sg,
fasttext-plain (fastText with maxn 0).  Same settings for all: dim 100, window 5,
negative 5, 5 epochs, min count 5, sample 1e-4, alpha 0.025, 2 threads, bucket 2M.

Held-out words: the WS-353 and SimLex-999 words that occur in the corpus but not in the
Google analogy set, one in three of them (seeded); every occurrence is deleted from the
corpus, so they are out of vocabulary for every system.  OOV coverage is the share of
similarity pairs a system can score at all; ρ is reported (a) on the pairs whose words
are all in the vocabulary (``evaluate_all``, as usual), (b) on all pairs, unseen words
getting their n-gram vectors, and (c) on the pairs with at least one held-out word.

Each run is one child process timed whole (start-up, vocabulary, training, writing);
wordvec writes its native model (with the 2M x 100 n-gram matrix, 800 MB), the peers
write the vocabulary's vectors as text.  The machine is shared: load averages are kept.

``--train-seed N`` (N > 1) trains into ``SYSTEM-seedN/`` beside seed 1's ``SYSTEM/``; the
report lists every run and, per system, the mean over its seeds (``report.json``'s
``means``), since one run's ρ moves by a few hundredths between seeds.
"""

import argparse
import json
import lzma
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from lib.peers import run_measured  # noqa: E402
from lib.records import Record  # noqa: E402

SYSTEMS = ("wordvec-ft", "gensim-ft", "fasttext", "wordvec-sg", "gensim-sg", "fasttext-plain")
SETTINGS = dict(dim=100, window=5, negative=5, epochs=5, min_count=5, min_n=3, max_n=6,
                bucket=2_000_000, threads=2, alpha=0.025, sample=1e-4, seed=1)


def similarity_pairs():
    from wordvec.vectors.evaluate import bundled_path

    sets = {}
    for name in ("wordsim353.tsv", "simlex999.txt"):
        pairs = []
        for line in open(bundled_path(name), encoding="utf-8"):
            parts = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(parts) != 3:
                continue
            pairs.append((parts[0].lower(), parts[1].lower(), float(parts[2])))
        sets[Path(name).stem] = pairs
    return sets


def prepare(args):
    """Choose the held-out words and write the corpus without them."""
    from collections import Counter

    from wordvec.vectors.evaluate import bundled_path, read_analogies

    out = Path(args.work)
    out.mkdir(parents=True, exist_ok=True)
    eval_words = sorted({w for pairs in similarity_pairs().values() for a, b, _ in pairs for w in (a, b)})
    analogy_words = {w.lower() for _, qs in read_analogies(bundled_path("questions-words.txt"))
                     for q in qs for w in q}
    counts = Counter()
    with lzma.open(args.corpus, "rt", encoding="utf-8") as reader:
        for line in reader:
            counts.update(line.split())
    candidates = [w for w in eval_words if counts[w] >= SETTINGS["min_count"] and w not in analogy_words]
    held_out = set(random.Random(args.seed).sample(candidates, len(candidates) // 3))
    tokens = removed = 0
    with lzma.open(args.corpus, "rt", encoding="utf-8") as reader, \
            open(out / "corpus.txt.partial", "w", encoding="utf-8") as writer:
        for line in reader:
            kept = [w for w in line.split() if w not in held_out]
            removed += len(line.split()) - len(kept)
            tokens += len(kept)
            writer.write(" ".join(kept) + "\n")
    os.replace(out / "corpus.txt.partial", out / "corpus.txt")
    (out / "eval_words.txt").write_text("\n".join(eval_words) + "\n", encoding="utf-8")
    (out / "held_out.txt").write_text("\n".join(sorted(held_out)) + "\n", encoding="utf-8")
    info = {"corpus": str(args.corpus), "tokens_kept": tokens, "tokens_removed": removed,
            "eval_words": len(eval_words), "candidates": len(candidates), "held_out": len(held_out)}
    (out / "prepare.json").write_text(json.dumps(info, indent=1))
    print(json.dumps(info))


def run_folder(system, seed, ns_exponent=None):
    """Seed 1 keeps the plain system name (the first table's folders)."""
    variant = "" if ns_exponent is None else f"-ns{ns_exponent:g}"
    return system + variant + ("" if seed == 1 else f"-seed{seed}")


def run_label(row):
    """The system, with a non-default noise exponent if one was given."""
    exponent = row.get("ns_exponent")
    return row["system"] + ("" if exponent is None else f" (ns_exponent {exponent:g})")


def run(args):
    out = Path(args.work)
    system = args.system
    if args.ns_exponent is not None and not system.startswith("wordvec"):
        raise SystemExit("--ns-exponent is for the wordvec systems (the peers keep their own)")
    target = out / run_folder(system, args.train_seed, args.ns_exponent)
    target.mkdir(parents=True, exist_ok=True)
    s = dict(SETTINGS, seed=args.train_seed)
    corpus, eval_words = out / "corpus.txt", out / "eval_words.txt"
    if system.startswith("wordvec"):
        command = [sys.executable, "-m", "wordvec", "train", corpus, "-o", target / "model.wv",
                   "--model", "sg", "--vector-size", s["dim"], "--window", s["window"],
                   "--negative", s["negative"], "--epochs", s["epochs"], "--min-count", s["min_count"],
                   "--sample", s["sample"], "--alpha", s["alpha"], "--workers", s["threads"],
                   "--seed", s["seed"], "--no-progress", "--no-eval", "--json"]
        if system == "wordvec-ft":
            command += ["--subwords", "--min-n", s["min_n"], "--max-n", s["max_n"], "--bucket", s["bucket"]]
        if args.ns_exponent is not None:
            command += ["--ns-exponent", args.ns_exponent]
        env = dict(os.environ, PYTHONUNBUFFERED="1", WORDVEC_CACHE=str(out / "cache-empty"),
                   PYTHONPATH=str(HERE.parent))
    else:
        command = [Path(args.peers) / "bin" / "python", HERE / "lib" / "subword_peers.py", system, corpus, target,
                   eval_words]
        for name, value in s.items():
            command += ["--" + name.replace("_", "-"), value]
        env = None
    load_before = os.getloadavg()
    measured = run_measured([str(c) for c in command], target / "log.txt", env=env)
    result = {"system": system, "seed": s["seed"], "ns_exponent": args.ns_exponent,
              "command": " ".join(measured.command), "returncode": measured.returncode,
              "wall_seconds": measured.wall_seconds, "cpu_seconds": measured.cpu_seconds,
              "peak_rss_mb": measured.peak_rss_mb, "load_before": load_before,
              "load_after": os.getloadavg(), "when": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    (target / "run.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result))


def _vectors(system, target, eval_words):
    """(vocabulary vectors, vectors of the eval words each system can give)."""
    from wordvec.vectors.keyed import KeyedVectors
    from wordvec.vectors.files import load_vectors

    if system.startswith("wordvec"):
        kv = load_vectors(target / "model.wv")
        words = [w for w in eval_words if w in kv or hasattr(kv, "has_vector") and kv.has_vector(w)]
        return kv, KeyedVectors(words, [kv[w] for w in words]) if words else None
    return (load_vectors(target / "vocab.vec"),
            KeyedVectors.load_word2vec_format(target / "eval.vec"))


def _cosine(kv, a, b):
    from wordvec.vectors.keyed import unit_rows

    return float(unit_rows(kv[a]) @ unit_rows(kv[b]))


def _rho(kv, pairs):
    from scipy.stats import spearmanr

    scored = [(s, _cosine(kv, a, b)) for a, b, s in pairs if a in kv and b in kv]
    rho = spearmanr(*zip(*scored)).statistic if len(scored) >= 2 else float("nan")
    return {"spearman": float(rho), "covered": len(scored), "pairs": len(pairs)}


def report(args):
    from wordvec.vectors.evaluate import evaluate_all

    out = Path(args.work)
    eval_words = (out / "eval_words.txt").read_text(encoding="utf-8").split()
    held_out = set((out / "held_out.txt").read_text(encoding="utf-8").split())
    sets = similarity_pairs()
    rows = []
    folders = sorted((p for p in out.iterdir() if (p / "run.json").is_file()), key=lambda p: p.name)
    for target in folders:
        row = json.loads((target / "run.json").read_text())
        system = row["system"]
        row.setdefault("seed", SETTINGS["seed"])
        if row["returncode"] != 0:
            rows.append(row)
            continue
        kv, eval_kv = _vectors(system, target, eval_words)
        evaluation = evaluate_all(kv)
        row["analogy"] = {k: evaluation["analogy"][k] for k in ("total", "semantic", "syntactic")
                          if k in evaluation["analogy"]}
        row["in_vocab"] = evaluation["similarity"]
        row["all_pairs"] = {name: _rho(eval_kv, pairs) if eval_kv is not None else None
                            for name, pairs in sets.items()}
        row["held_out_pairs"] = {
            name: _rho(eval_kv, [p for p in pairs if p[0] in held_out or p[1] in held_out])
            if eval_kv is not None else None for name, pairs in sets.items()}
        row["held_out_words_with_vectors"] = sum(1 for w in held_out if eval_kv is not None and w in eval_kv)
        rows.append(row)
    means = seed_means(rows)
    (out / "report.json").write_text(json.dumps({"runs": rows, "means": means}, indent=1))
    if args.record:
        print(f"record: {write_record(args, rows)}")
    print(json.dumps(rows, indent=1))
    print(json.dumps(means, indent=1))


def write_record(args, rows):
    """benchmarks/results/<family>/RECORD.json: every run in the work folder (each timed by `run`,
    one per lock acquisition, with its own load), evaluated now by `report`."""
    record = Record(args.record, note=args.note)
    record.data.update(settings=SETTINGS, work=args.work)
    for row in rows:
        quality = {key: row.get(key) for key in ("analogy", "in_vocab", "all_pairs", "held_out_pairs")}
        record.add_run(system=run_label(row), config="skip-gram, 5 epochs", seed=row.get("seed"),
                       wall_seconds=row["wall_seconds"], cpu_seconds=row["cpu_seconds"],
                       peak_rss_mb=row["peak_rss_mb"], returncode=row["returncode"], command=row["command"],
                       load_before=row["load_before"], load_after=row["load_after"], when=row["when"],
                       quality=quality)
    return record.save()


def compare(args):
    """Paired bootstrap of the held-out ρ: system A minus system B on the same pairs.

    Both systems score the pairs with at least one held-out word; the pairs are
    resampled with replacement (``--resamples`` times, seeded) and each resample's
    Spearman ρ of A minus that of B gives the distribution of the difference: how far a
    gap on a few hundred pairs can be told from the choice of pairs."""
    import numpy as np
    from scipy.stats import spearmanr

    out = Path(args.work)
    eval_words = (out / "eval_words.txt").read_text(encoding="utf-8").split()
    held_out = set((out / "held_out.txt").read_text(encoding="utf-8").split())
    systems = args.systems.split(",")
    vectors = [_vectors(name.split("-seed")[0], out / name, eval_words)[1] for name in systems]
    rng = np.random.default_rng(0)  # the resamples are part of the method: fixed
    result = {}
    for name, pairs in similarity_pairs().items():
        pairs = [(a, b, g) for a, b, g in pairs if (a in held_out or b in held_out)
                 and all(a in kv and b in kv for kv in vectors)]
        gold = np.array([g for _, _, g in pairs])
        cosines = [np.array([_cosine(kv, a, b) for a, b, _ in pairs]) for kv in vectors]
        observed = spearmanr(cosines[0], gold).statistic - spearmanr(cosines[1], gold).statistic
        diffs = []
        for _ in range(args.resamples):
            pick = rng.integers(0, len(pairs), len(pairs))
            diffs.append(spearmanr(cosines[0][pick], gold[pick]).statistic
                         - spearmanr(cosines[1][pick], gold[pick]).statistic)
        low, high = np.percentile(diffs, [2.5, 97.5])
        result[name] = {"pairs": len(pairs), "difference": float(observed), "ci95": [float(low), float(high)],
                        "share_below_minus_0.02": float(np.mean(np.array(diffs) < -0.02))}
    print(json.dumps({"a": systems[0], "b": systems[1], "resamples": args.resamples, **result}, indent=1))


def seed_means(rows):
    """Per system: the mean of each figure over its successful runs, and the seeds used."""
    def figures(row):
        found = {"wall_seconds": row["wall_seconds"], "peak_rss_mb": row["peak_rss_mb"]}
        found.update({f"analogy_{k}": v for k, v in row["analogy"].items()})
        for part in ("in_vocab", "all_pairs", "held_out_pairs"):
            for name, value in (row.get(part) or {}).items():
                rho = value.get("spearman") if isinstance(value, dict) else value
                if isinstance(rho, float) and rho == rho:  # skip NaN (no vector)
                    found[f"{part}_{name}"] = rho
        return found

    means = {}
    for label in sorted({run_label(r) for r in rows}):
        done = [r for r in rows if run_label(r) == label and r["returncode"] == 0]
        if done:
            runs = [figures(r) for r in done]
            keys = set.intersection(*(set(r) for r in runs))
            means[label] = {"runs": len(runs), "seeds": sorted(r["seed"] for r in done),
                            **{k: sum(r[k] for r in runs) / len(runs) for k in sorted(keys)}}
    return means


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("prepare", "run", "report", "compare"))
    parser.add_argument("system", nargs="?", choices=SYSTEMS)
    parser.add_argument("--corpus", default=str(HERE.parent.parent / "shared/data/corpus/wordbench-10m.txt.xz"))
    parser.add_argument("--work", default="/tmp/wordvec-subword-bench")
    parser.add_argument("--peers", default=str(HERE / ".peers"), help="the peers environment (setup_peers.sh)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the held-out word choice")
    parser.add_argument("--train-seed", type=int, default=1, help="training seed of `run`")
    parser.add_argument("--systems", default="wordvec-ft,gensim-ft", help="compare: run folders A,B")
    parser.add_argument("--resamples", type=int, default=2000, help="compare: bootstrap resamples")
    parser.add_argument("--record", default="subword",
                        help="report: write benchmarks/results/<family>/RECORD.json ('' for none)")
    parser.add_argument("--note", default="", help="report: a sentence kept in the record (how the machine was)")
    parser.add_argument("--ns-exponent", type=float, help="noise exponent of a wordvec `run` (default: "
                        "wordvec's own), into SYSTEM-nsX/")
    args = parser.parse_args()
    if args.step == "run" and not args.system:
        parser.error("run needs a system")
    {"prepare": prepare, "run": run, "report": report, "compare": compare}[args.step](args)


if __name__ == "__main__":
    main()
