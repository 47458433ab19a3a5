"""wordvec phrases vs gensim's Phrases: speed, the phrases found, and what they do to vectors.

    .venv/bin/python benchmarks/bench_phrases.py                      # wordbench-10m
    .venv/bin/python benchmarks/bench_phrases.py --vectors            # + cbow-ns vectors, plain vs phrased

Both systems learn from the same corpus with the same min_count, then write the corpus
with its phrases joined; each runs as its own process (whole-process wall time and peak
RSS, as bench_word2vec.py measures). Overlap is measured twice:

* npmi (threshold 0.5): the same definition in both, so the sets should be equal;
* default: gensim multiplies Mikolov's score by its vocabulary size (words + pairs),
  wordvec by the corpus size N, so gensim's list is exported at the threshold
  equivalent to ours (T * gensim's vocabulary size / N) from the same counts.

gensim runs in the peers environment (benchmarks/setup_peers.sh). Results go to
benchmarks/out/phrases/ (results.json and the logs).
"""

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from lib import peers  # noqa: E402

SHARED = HERE.parent.parent / "shared" / "data"


def read_table(path):
    table = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        phrase, _, score = line.partition("\t")
        table[phrase] = float(score.split("\t")[-1])
    return table


def overlap(ours, theirs):
    both = set(ours) & set(theirs)
    return {"wordvec": len(ours), "gensim": len(theirs), "both": len(both),
            "jaccard": len(both) / max(len(set(ours) | set(theirs)), 1)}


def run_wordvec(args, out, corpus, scoring, threshold, tag):
    command = [args.wordvec, "phrases", corpus, "-o", out / f"wordvec-{tag}.txt", "--min-count", args.min_count,
               "--scoring", scoring, "--threshold", threshold, "--export", out / f"wordvec-{tag}.tsv", "--top", 0]
    measured = peers.run_measured([str(c) for c in command], out / f"wordvec-{tag}.log")
    if measured.returncode:
        sys.exit(f"wordvec phrases failed; see {out / f'wordvec-{tag}.log'}")
    return measured


def train_and_evaluate(args, out, corpus, tag):
    """cbow-ns vectors from one corpus, evaluated by the peers' gensim evaluator."""
    vectors = out / f"vectors-{tag}.bin"
    measured = peers.run_measured(
        [args.wordvec, "train", str(corpus), "-o", str(vectors), "--model", "cbow", "--alpha", "0.05",
         "--epochs", "5", "--workers", "2", "--seed", "1", "--no-progress", "--no-eval"],
        out / f"train-{tag}.log")
    if measured.returncode:
        sys.exit(f"training on {corpus} failed; see {out / f'train-{tag}.log'}")
    evaluation = peers.run_measured(
        [args.peers_python, str(HERE / "lib" / "gensim_tasks.py"), "evaluate", str(vectors),
         "--analogies", str(SHARED / "eval" / "questions-words.txt"),
         "--wordsim", str(SHARED / "eval" / "wordsim353.tsv"), "--simlex", str(SHARED / "eval" / "simlex999.txt")],
        out / f"evaluate-{tag}.log")
    lines = [text for _, text in evaluation.chunks if text.startswith("{")]
    return json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(SHARED / "corpus" / "wordbench-10m.txt.xz"))
    parser.add_argument("--min-count", type=int, default=5)
    parser.add_argument("--threshold", type=float, default=100.0, help="wordvec's default-score threshold")
    parser.add_argument("--npmi-threshold", type=float, default=0.5)
    parser.add_argument("--wordvec", default=str(Path(sys.executable).with_name("wordvec")))
    parser.add_argument("--peers-python", default=str(HERE / ".peers" / "bin" / "python"))
    parser.add_argument("--vectors", action="store_true", help="also train cbow-ns on the plain and phrased text")
    parser.add_argument("--out", default=str(HERE / "out" / "phrases"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    ours = run_wordvec(args, out, args.corpus, "default", args.threshold, "default")
    ours_npmi = run_wordvec(args, out, args.corpus, "npmi", args.npmi_threshold, "npmi")
    tokens = int(next(t for _, t in ours.chunks if " tokens;" in t).split()[0].replace(",", ""))

    # gensim learns once; its default list is exported at the threshold equal to ours.
    probe = peers.run_measured(
        [args.peers_python, str(HERE / "lib" / "gensim_tasks.py"), "phrases", args.corpus, str(out / "gensim.txt"),
         "--min-count", str(args.min_count), "--threshold", "10",
         "--export", f"npmi:{args.npmi_threshold}:{out / 'gensim-npmi.tsv'}"], out / "gensim.log")
    report = json.loads([t for _, t in probe.chunks if t.startswith("{")][-1])
    equivalent = args.threshold * report["vocab_entries"] / tokens
    theirs = peers.run_measured(
        [args.peers_python, str(HERE / "lib" / "gensim_tasks.py"), "phrases", args.corpus, str(out / "gensim.txt"),
         "--min-count", str(args.min_count), "--threshold", str(equivalent),
         "--export", f"default:{equivalent}:{out / 'gensim-default.tsv'}"], out / "gensim-default.log")

    results = {
        "corpus": args.corpus, "tokens": tokens, "min_count": args.min_count,
        "wordvec": {"default_wall_seconds": ours.wall_seconds, "npmi_wall_seconds": ours_npmi.wall_seconds,
                    "peak_rss_mb": ours.peak_rss_mb},
        "gensim": {"wall_seconds": theirs.wall_seconds, "peak_rss_mb": theirs.peak_rss_mb,
                   "learn_seconds": report["learn_seconds"], "write_seconds": report["write_seconds"],
                   "vocab_entries": report["vocab_entries"], "equivalent_threshold": equivalent},
        "speedup": theirs.wall_seconds / ours.wall_seconds,
        "overlap": {"default": overlap(read_table(out / "wordvec-default.tsv"), read_table(out / "gensim-default.tsv")),
                    "npmi": overlap(read_table(out / "wordvec-npmi.tsv"), read_table(out / "gensim-npmi.tsv"))},
        "same_text": (out / "wordvec-default.txt").read_bytes().split() == (out / "gensim.txt").read_bytes().split(),
        "top_phrases": list(read_table(out / "wordvec-default.tsv"))[:40],
    }
    if args.vectors:
        results["vectors"] = {"plain": train_and_evaluate(args, out, args.corpus, "plain"),
                              "phrased": train_and_evaluate(args, out, out / "wordvec-default.txt", "phrased")}
    (out / "results.json").write_text(json.dumps(results, indent=1))
    print(json.dumps({k: v for k, v in results.items() if k != "top_phrases"}, indent=1))
    print("top phrases:", ", ".join(results["top_phrases"][:40]))


if __name__ == "__main__":
    main()
