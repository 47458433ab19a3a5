"""Claim (seed 002, negative sampling): "P_n(w) that makes the best approximation seems to be
the Unigram Model raised to the power of 3/4 ... "Bombastic" is now 3x more likely to be
sampled while "is" only went up marginally." -- i.e. the 3/4 power helps rare words.

Experiment: skip-gram with negative sampling (the claims' baseline: D 100, window 5,
5 epochs, seed 1) with noise exponents 0 (uniform), 0.75 and 1 (the unigram);
analogy accuracy (whole vocabulary searched) per bin of the rarest question word's
count, similarity per bin of the rarer word's count, and the standard scores.
Record: benchmarks/results/word2vec/claims-noise.json.

    .venv/bin/python benchmarks/claims/claim_noise.py [--exponents 0.75,0,1]  (0.5: add ",0.5") [--seeds 1]
                                                      [--epochs 5]
"""

import argparse

import binned_report
import common

CLAIM = "noise"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exponents", default="0.75,0,1")
    parser.add_argument("--seeds", default="1")
    common.add_epochs_argument(parser)
    args = parser.parse_args()
    rows, entries = [], []
    for seed in (int(s) for s in args.seeds.split(",")):
        for exponent in (float(e) for e in args.exponents.split(",")):
            spec = {"model": "word2vec", "params": common.word2vec_params(ns_exponent=exponent, seed=seed,
                                                                            epochs=args.epochs)}
            result = common.run(spec, f"{CLAIM}: sg-ns ns_exponent {exponent} seed {seed}, {args.epochs} epochs")
            entries.append((f"sg-ns ns_exponent {exponent:g} seed {seed}", result, result["evaluation"]))
            rows.append({"name": f"exponent {exponent:g}", "seed": seed, "x": exponent,
                         "evaluation": result["evaluation"], "train_wall_s": result["train_wall_s"]})
    binned_report.print_tables(rows)
    binned_report.plot(rows, "claims_noise.png", f"sg-ns, D=100, window 5, {args.epochs} epochs: noise exponent")
    print("summary:", common.save_summary(CLAIM, {"rows": rows}))
    print("record:", common.save_record(CLAIM, args.epochs, entries, note=f"sg-ns, D 100, window 5, {args.epochs} "
                                        "epochs; one training run per lock acquisition"))


if __name__ == "__main__":
    main()
