"""Claim (seed 002, "Hierarchical Softmax"): "In practice, hierarchical softmax tends to be
better for infrequent words, while negative sampling works better for frequent words and
lower dimensional vectors."

Experiment: skip-gram with hierarchical softmax vs with negative sampling (5 noise
words), otherwise the claims' baseline (window 5, 5 epochs, seed 1), at D = 50, 100 and
300; analogy accuracy (whole vocabulary searched) per bin of the rarest question word's
count, similarity per bin of the rarer word's count, and the standard scores.
Record: benchmarks/results/word2vec/claims-hs_ns.json.

    .venv/bin/python benchmarks/claims/claim_hs_ns.py [--dims 100,50,300] [--seeds 1] [--epochs 5]
"""

import argparse

import binned_report
import common

CLAIM = "hs_ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dims", default="100,50,300", help="in the order to run them")
    parser.add_argument("--seeds", default="1")
    common.add_epochs_argument(parser)
    args = parser.parse_args()
    rows, entries = [], []
    for seed in (int(s) for s in args.seeds.split(",")):
        for dim in (int(d) for d in args.dims.split(",")):
            for loss, overrides in (("ns", {}), ("hs", {"hs": 1, "negative": 0})):
                spec = {"model": "word2vec", "params": common.word2vec_params(vector_size=dim, seed=seed,
                                                                                epochs=args.epochs, **overrides)}
                result = common.run(spec, f"{CLAIM}: sg-{loss} D {dim} seed {seed}, {args.epochs} epochs")
                entries.append((f"sg-{loss} D={dim} seed {seed}", result, result["evaluation"]))
                rows.append({"name": f"sg-{loss} D={dim}", "seed": seed, "loss": loss, "dim": dim,
                             "evaluation": result["evaluation"], "train_wall_s": result["train_wall_s"]})
    rows.sort(key=lambda r: (r["dim"], r["loss"]))
    binned_report.print_tables(rows)
    binned_report.plot(rows, "claims_hs_ns.png", f"skip-gram, window 5, {args.epochs} epochs: hierarchical "
                       "softmax vs negative sampling")
    print("summary:", common.save_summary(CLAIM, {"rows": rows}))
    print("record:", common.save_record(CLAIM, args.epochs, entries, note=f"skip-gram, window 5, {args.epochs} "
                                        "epochs; one training run per lock acquisition"))


if __name__ == "__main__":
    main()
