"""Claim (seed 002, "Hierarchical Softmax"): "In practice, hierarchical softmax tends to be
better for infrequent words, while negative sampling works better for frequent words and
lower dimensional vectors."

Experiment: skip-gram with hierarchical softmax vs with negative sampling (5 noise
words), otherwise the claims' baseline (window 5, 2 epochs, seed 1), at D = 50, 100 and
300; analogy accuracy (whole vocabulary searched) per bin of the rarest question word's
count, similarity per bin of the rarer word's count, and the standard scores.

    .venv/bin/python benchmarks/claims/claim_hs_ns.py [--dims 50,100,300] [--seeds 1]
"""

import argparse

import binned_report
import common

CLAIM = "hs_ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dims", default="100,50,300", help="in the order to run them")
    parser.add_argument("--seeds", default="1")
    args = parser.parse_args()
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for dim in (int(d) for d in args.dims.split(",")):
            for loss, overrides in (("ns", {}), ("hs", {"hs": 1, "negative": 0})):
                spec = {"model": "word2vec", "params": common.word2vec_params(vector_size=dim, seed=seed, **overrides)}
                result = common.run(spec, f"{CLAIM}: sg-{loss} D {dim} seed {seed}")
                rows.append({"name": f"sg-{loss} D={dim}", "seed": seed, "loss": loss, "dim": dim,
                             "evaluation": result["evaluation"], "train_wall_s": result["train_wall_s"]})
    rows.sort(key=lambda r: (r["dim"], r["loss"]))
    binned_report.print_tables(rows)
    binned_report.plot(rows, "claims_hs_ns.png", "skip-gram, window 5, 2 epochs: hierarchical softmax vs "
                       "negative sampling")
    print("summary:", common.save_summary(CLAIM, {"rows": rows}))


if __name__ == "__main__":
    main()
